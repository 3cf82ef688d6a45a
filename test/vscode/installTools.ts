// Locates the cached code-server + Node 24 install, installing it from npm when absent.
// Safe on a fresh machine: installs into a temporary folder and renames it into place when complete.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODE_SERVER_VERSION, DEFAULT_CHROMIUM, NODE_PACKAGE, NODE_VERSION, toolsCacheDir } from './toolVersions';

export interface VsCodeTools {
  /** The Node 24 binary that runs code-server. */
  node: string;
  /** code-server's entry script (run with `node`). */
  codeServerEntry: string;
  chromium: string;
}

const MARKER = 'installed.json';

function paths(root: string): { node: string; codeServerEntry: string; nodeDir: string } {
  const nodeDir = path.join(root, 'node', 'node_modules', NODE_PACKAGE);
  return {
    nodeDir,
    node: path.join(nodeDir, 'bin', 'node'),
    codeServerEntry: path.join(root, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): void {
  console.log(`[vscode-tools] ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { env, cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed with ${result.status ?? result.signal}`);
  }
}

function install(root: string): void {
  const staging = `${root}.partial-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(path.join(staging, 'node'), { recursive: true });
  fs.mkdirSync(path.join(staging, 'code-server'), { recursive: true });
  const started = Date.now();
  const baseEnv = { ...process.env };
  // npm_config_* from an outer `npm run` must not leak into these installs.
  for (const key of Object.keys(baseEnv)) if (key.toLowerCase().startsWith('npm_')) delete baseEnv[key];
  const npmFlags = ['--no-audit', '--no-fund', '--no-save', '--loglevel=error'];
  run('npm', ['install', '--prefix', path.join(staging, 'node'), `${NODE_PACKAGE}@${NODE_VERSION}`, ...npmFlags], baseEnv, staging);
  const stagedPaths = paths(staging);
  if (!fs.existsSync(stagedPaths.node)) throw new Error(`Node ${NODE_VERSION} binary missing at ${stagedPaths.node}`);
  const env: NodeJS.ProcessEnv = {
    ...baseEnv,
    // Node 24 first on PATH so npm, its install scripts and node-gyp run on it; headers from the same package.
    PATH: `${path.dirname(stagedPaths.node)}${path.delimiter}${baseEnv.PATH ?? ''}`,
    npm_config_nodedir: stagedPaths.nodeDir,
  };
  run('npm', ['install', '--prefix', path.join(staging, 'code-server'), `code-server@${CODE_SERVER_VERSION}`, '--unsafe-perm', ...npmFlags], env, staging);
  if (!fs.existsSync(stagedPaths.codeServerEntry)) throw new Error(`code-server entry missing at ${stagedPaths.codeServerEntry}`);
  fs.writeFileSync(
    path.join(staging, MARKER),
    JSON.stringify({ codeServer: CODE_SERVER_VERSION, node: NODE_VERSION, seconds: (Date.now() - started) / 1000 }, null, 2),
  );
  fs.rmSync(root, { recursive: true, force: true });
  fs.renameSync(staging, root);
  console.log(`[vscode-tools] installed in ${Math.round((Date.now() - started) / 1000)} s at ${root}`);
}

/** Returns the tools, installing code-server and Node 24 into the cache first if needed. */
export function ensureVsCodeTools(): VsCodeTools {
  const root = toolsCacheDir();
  if (!fs.existsSync(path.join(root, MARKER))) {
    fs.mkdirSync(path.dirname(root), { recursive: true });
    install(root);
  }
  const found = paths(root);
  const chromium = process.env.CHAIN_EXPLORER_CHROMIUM ?? DEFAULT_CHROMIUM;
  if (!fs.existsSync(chromium)) {
    throw new Error(`Chromium not found at ${chromium}: apt-get install -y chromium (or set CHAIN_EXPLORER_CHROMIUM)`);
  }
  return { node: found.node, codeServerEntry: found.codeServerEntry, chromium };
}

if (require.main === module) {
  const tools = ensureVsCodeTools();
  console.log(JSON.stringify(tools, null, 2));
}
