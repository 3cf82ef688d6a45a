// Starts the mock node's CLI bundle as a child process on a free port, the way a test suite in any
// language runs it, and reads its endpoints from the `{"listening": …}` line on standard output (the
// log, on standard error, never shows the dedicated key).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface NodeProcess {
  url: string;
  dedicatedUrl: string;
  chainId: bigint;
  token: string;
  accounts: string[];
  stop(): Promise<void>;
}

export const CLI_BUNDLE = join(__dirname, '..', '..', 'dist', 'mock-node.js');

export async function startNodeProcess(args: string[] = [], cli = CLI_BUNDLE): Promise<NodeProcess> {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`node esbuild.mjs\` first`);
  const child: ChildProcess = spawn(process.execPath, [cli, '--port', '0', '--json-logs', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  // Keep draining the log so the child never blocks on a full pipe.
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += chunk.toString();
  });
  const listening = await new Promise<Record<string, any>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the node did not start within 20 s:\n${stderr}`)), 20_000);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the node exited with ${code}:\n${stderr}`)); });
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const line of stdout.split('\n')) {
        if (!line.startsWith('{"listening"')) continue;
        clearTimeout(timer);
        resolve(JSON.parse(line).listening);
        return;
      }
    });
  });
  child.stdout!.on('data', () => undefined);
  return {
    url: listening.url,
    dedicatedUrl: listening.dedicatedUrl,
    chainId: BigInt(listening.chainId),
    token: listening.token,
    accounts: listening.accounts,
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}
