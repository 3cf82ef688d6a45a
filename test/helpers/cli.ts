// The mock node's CLI bundle as a child process, the way a user in any language runs it: started
// on a free port, its endpoints and dev accounts read from the banner it prints.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'mock-node.js');

export interface CliNode {
  child: ChildProcessWithoutNullStreams;
  url: string;
  dedicatedUrl: string;
  /** From the banner's "Dev accounts" lines. */
  accounts: { address: string; privateKey: string }[];
  /** Everything printed so far, stdout and stderr. */
  output: () => string;
  /** Resolves with the exit code once the process has ended (however it was stopped). */
  exited: Promise<number | null>;
  /** SIGTERM, then resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Builds dist/ when a test runs before any build (npm test always builds first). */
export function ensureCliBuilt(): void {
  if (!existsSync(CLI)) execFileSync(process.execPath, [join(ROOT, 'esbuild.mjs')], { cwd: ROOT });
}

/**
 * Starts the node on a free port. `program` is how to run it: by default the CLI bundle under this
 * Node; the packaging tests pass an installed package's bin or the single executable. `env`: the
 * child's environment (this process's by default).
 */
export function startCli(args: string[], program: readonly string[] = [process.execPath, CLI], env: NodeJS.ProcessEnv = process.env): Promise<CliNode> {
  if (program[1] === CLI) ensureCliBuilt();
  const child = spawn(program[0], [...program.slice(1), '--port', '0', ...args], { cwd: ROOT, env });
  let output = '';
  // 'close', not 'exit': the exit can be seen before the last of stderr has been read.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`CLI did not start:\n${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const pub = /JSON-RPC \(public\)\s+(\S+)/.exec(output);
      const ded = /JSON-RPC \(dedicated\)\s+(\S+)/.exec(output);
      if (pub && ded && output.includes('Ctrl+C')) {
        clearTimeout(timer);
        const accounts = [...output.matchAll(/^\s+\(\d+\) (0x[0-9a-fA-F]{40}) {2}(0x[0-9a-f]{64})$/gm)].map((m) => ({ address: m[1], privateKey: m[2] }));
        resolve({
          child,
          url: pub[1],
          dedicatedUrl: ded[1],
          accounts,
          output: () => output,
          exited,
          stop: () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`CLI exited with ${code}:\n${output}`));
    });
  });
}

/** Runs the CLI expecting it to refuse its arguments: the exit status and what it printed on stderr. */
export function runCliExpectingFailure(args: string[]): { status: number; stderr: string } {
  ensureCliBuilt();
  try {
    execFileSync(process.execPath, [CLI, ...args], { stdio: 'pipe' });
  } catch (error) {
    return { status: (error as { status: number }).status, stderr: String((error as { stderr: Buffer }).stderr) };
  }
  throw new Error(`the CLI accepted ${args.join(' ')}`);
}
