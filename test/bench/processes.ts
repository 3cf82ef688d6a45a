// The two nodes the bench compares, each in its own process: the mock node's bundled CLI
// (dist/mock-node.js) and Anvil. What the kernel says about a process (CPU time, resident
// memory) comes from /proc, so it does not depend on the load generator.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { anvilStateCache, findAnvil } from '../helpers/anvil';
import { freePort, waitForAnswer } from './rpcClient';

const ROOT = join(__dirname, '..', '..');
export const MOCK_CLI = join(ROOT, 'dist', 'mock-node.js');

export type NodeKind = 'mock' | 'anvil';

export interface BenchNode {
  kind: NodeKind;
  url: string;
  /** Dedicated endpoint (the mock node's eth_getBlockReceipts path); the same URL for Anvil. */
  dedicatedUrl: string;
  pid: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Clock ticks per second of /proc/<pid>/stat times (usually 100). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU time a process has used so far, in milliseconds (from /proc/<pid>/stat). */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / CLOCK_TICKS;
}

/** Resident set size of a process in MiB (VmRSS of /proc/<pid>/status). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : NaN;
}

export function procAvailable(): boolean {
  return existsSync(`/proc/${process.pid}/stat`);
}

/** Measures the CPU a process spends while `work` runs. */
export async function withCpu<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; cpuMs: number; wallMs: number }> {
  const cpuBefore = cpuTimeMs(pid);
  const started = performance.now();
  const value = await work();
  const wallMs = performance.now() - started;
  return { value, cpuMs: cpuTimeMs(pid) - cpuBefore, wallMs };
}

function stopper(child: ChildProcess): () => Promise<void> {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
}

/** Starts a node process listening on `port` and resolves once it answers (stopped again if it never does). */
async function spawnAndWait(command: string, args: string[], port: number): Promise<{ child: ChildProcess; url: string; stop: () => Promise<void> }> {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}/`;
  const stop = stopper(child);
  try {
    await waitForAnswer(url, child, 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, url, stop };
}

export interface MockStartOptions {
  /** Manual mode (--no-auto): flashblocks and blocks only on mock_flashblock / evm_mine. */
  manual?: boolean;
  extraArgs?: string[];
  /** Extra options for node itself (e.g. --cpu-prof). */
  nodeArgs?: string[];
}

export const BENCH_API_KEY = 'bench';

export async function startMockCli(options: MockStartOptions = {}): Promise<BenchNode> {
  const port = await freePort();
  const args = [...(options.nodeArgs ?? []), MOCK_CLI, '--port', String(port), '--quiet', '--api-key', BENCH_API_KEY, ...(options.manual ? ['--no-auto'] : []), ...(options.extraArgs ?? [])];
  const { child, url, stop } = await spawnAndWait(process.execPath, args, port);
  return { kind: 'mock', url, dedicatedUrl: `${url}dedicated/${BENCH_API_KEY}`, pid: child.pid!, process: child, stop };
}

export interface AnvilStartOptions {
  /** No automatic mining (blocks only on evm_mine), the counterpart of the mock node's manual mode. */
  manual?: boolean;
  /** Anvil's default mining: automine, no block time (as a test suite starts it). */
  automine?: boolean;
  extraArgs?: string[];
}

/** Anvil with a 2 s block time (the mock node's sealed-block cadence), without mining, or with automine. */
export async function startAnvilNode(binary: string, options: AnvilStartOptions = {}): Promise<BenchNode> {
  const port = await freePort();
  const mining = options.automine ? [] : options.manual ? ['--no-mining'] : ['--block-time', '2'];
  const cache = anvilStateCache();
  let started;
  try {
    started = await spawnAndWait(binary, ['--port', String(port), '--silent', ...cache.args, ...mining, ...(options.extraArgs ?? [])], port);
  } catch (error) {
    cache.remove();
    throw error;
  }
  const { child, url, stop } = started;
  return { kind: 'anvil', url, dedicatedUrl: url, pid: child.pid!, process: child, stop: () => stop().finally(cache.remove) };
}

/**
 * The native Anvil executable. The npm package's `anvil` is a Node script that spawns the binary
 * of the platform package beside it; the bench needs the binary itself, so that start-up, CPU
 * time and memory are Anvil's and not those of a Node wrapper.
 */
export function anvilBinary(): string | undefined {
  const found = findAnvil();
  if (!found) return undefined;
  const real = realpathSync(found);
  if (!real.endsWith('.mjs')) return real;
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const native = join(dirname(dirname(real)), `anvil-${process.platform}-${arch}`, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  return existsSync(native) ? native : found;
}

/**
 * Wall time from spawning a node to its first eth_chainId answer, probing every 2 ms over a
 * kept-alive TCP port check plus a real JSON-RPC call, and the CPU the node had used by then
 * (/proc: on a loaded machine the wall time waits for a core, the CPU time does not).
 */
export async function timeToFirstAnswer(command: string, args: string[], port: number, env: NodeJS.ProcessEnv = process.env): Promise<{ wallMs: number; cpuMs: number }> {
  const started = performance.now();
  const child = spawn(command, args, { stdio: 'ignore', env });
  const stop = stopper(child);
  try {
    await waitForAnswer(`http://127.0.0.1:${port}/`, child, 30_000, 2);
    const wallMs = performance.now() - started;
    return { wallMs, cpuMs: procAvailable() ? cpuTimeMs(child.pid!) : NaN };
  } finally {
    await stop();
  }
}
