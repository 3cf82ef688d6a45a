// Anvil (Foundry's dev node), a second, independent node implementation the explorer and the
// bench are checked against. Not a dependency (npm ci cannot resolve its packages for other
// platforms); `.ci/run` installs its npm package into the tools cache, and a developer can set
// ANVIL_BIN or run `npm install --no-save @foundry-rs/anvil`.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const ANVIL_VERSION = '1.7.1';
const ROOT = join(__dirname, '..', '..');

/** Where `.ci/run` installs it: the same cache as the VS Code tools. */
export function anvilCacheDir(): string {
  return join(process.env.CHAIN_EXPLORER_TOOLS_CACHE ?? join(homedir(), '.cache', 'chain-rpc-explorer'), `anvil-${ANVIL_VERSION}`);
}

/** ANVIL_BIN, the project's node_modules, or the tools cache; undefined when none has it. */
export function findAnvil(): string | undefined {
  const candidates = [
    process.env.ANVIL_BIN,
    join(ROOT, 'node_modules', '.bin', 'anvil'),
    join(anvilCacheDir(), 'node_modules', '.bin', 'anvil'),
  ];
  return candidates.find((file): file is string => !!file && existsSync(file));
}

export interface RunningAnvil {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts Anvil on a free port (or `port`) and resolves once it answers eth_chainId. */
export async function startAnvil(binary: string, args: string[] = [], port?: number): Promise<RunningAnvil> {
  const chosen = port ?? (await freePort());
  const child = spawn(binary, ['--port', String(chosen), '--silent', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const url = `http://127.0.0.1:${chosen}/`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
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
  const binary = findAnvil();
  if (!binary) {
    console.log('      Anvil is not installed (.ci/run installs it; or ANVIL_BIN / npm install --no-save @foundry-rs/anvil): skipped');
    context.skip();
  }
  return binary!;
}
