// Anvil (Foundry's dev node), a second, independent node implementation the explorer and the
// bench are checked against. Found by foundryTools (`.ci/run` installs its npm package into the
// tools cache).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './freePort';
import { findFoundryTool, foundryToolOrSkip } from './foundryTools';

export function findAnvil(): string | undefined {
  return findFoundryTool('anvil');
}

export interface RunningAnvil {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * A folder of its own for the block states an Anvil writes to disk once it holds more than it keeps
 * in memory (`--cache-path`; by default ~/.foundry/anvil/tmp, which Anvil leaves behind even when
 * stopped with SIGINT: about 300 MB for the bench's 2,000 blocks, run after run). `remove()` once
 * that Anvil has exited.
 */
export function anvilStateCache(): { args: string[]; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'anvil-states-'));
  return { args: ['--cache-path', dir], remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts Anvil on a free port (or `port`) and resolves once it answers eth_chainId. */
export async function startAnvil(binary: string, args: string[] = [], port?: number): Promise<RunningAnvil> {
  const chosen = port ?? (await freePort());
  const cache = anvilStateCache();
  const child = spawn(binary, ['--port', String(chosen), '--silent', ...cache.args, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const url = `http://127.0.0.1:${chosen}/`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve())).then(cache.remove);
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited with ${child.exitCode}: ${stderr}`);
    try {
      const reply = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' });
      if (reply.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`anvil did not answer on ${url}: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    process: child,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** In a mocha `before`: the Anvil binary, or the suite is skipped with a message saying how to get it. */
export function anvilOrSkip(context: Mocha.Context): string {
  return foundryToolOrSkip('anvil', context);
}
