// `npm run pack:mock-node`: the mock node as an npm package of its own, dist/chain-mock-node-<v>.tgz.
// It holds the production bundles (the CLI and the library: every dependency bundled in, so the
// package declares none), type declarations of the public API, this folder's README and LICENSE.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAZY_BUNDLE_FILES } from './codeCache.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const stage = join(root, 'dist', 'package', 'chain-mock-node');
const project = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const run = (command, args, cwd = root) => execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] }).toString();

run(process.execPath, [join(root, 'esbuild.mjs'), '--production']);
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
cpSync(join(root, 'dist', 'mock-node.js'), join(stage, 'mock-node.js'));
// The CLI's bundle, which that loader reads from beside itself (mock-node/package/codeCache.mjs).
cpSync(join(root, 'dist', 'mock-node.bundle'), join(stage, 'mock-node.bundle'));
// V8's code cache of the CLI, made by the build (mock-node/package/codeCache.mjs): a faster start
// on the Node version that built it; any other Node compiles the CLI without it.
cpSync(join(root, 'dist', 'mock-node.cache'), join(stage, 'mock-node.cache'));
cpSync(join(root, 'dist', 'mock-node-lib.js'), join(stage, 'mock-node-lib.js'));
// Express, ws, the EVM, (for the CLI) ethers, and the fallback secp256k1 and keccak backends, which
// the bundles require from beside themselves on first use (esbuild.mjs).
for (const lazy of LAZY_BUNDLE_FILES) cpSync(join(root, 'dist', lazy), join(stage, lazy));
// libsecp256k1 as WebAssembly, which both bundles load from beside themselves (JavaScript fallback without it).
cpSync(join(root, 'dist', 'secp256k1.wasm'), join(stage, 'secp256k1.wasm'));
// libsecp256k1 as a native addon, for every platform the secp256k1 package ships a binary for: the
// bundles load it from prebuilds/ beside themselves, and use the WebAssembly one elsewhere.
cpSync(join(root, 'dist', 'prebuilds'), join(stage, 'prebuilds'), { recursive: true });
cpSync(join(here, 'README.md'), join(stage, 'README.md'));
cpSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));
// The bundles embed Circle's FiatToken bytecode (Apache-2.0): its licence ships beside them.
cpSync(join(root, 'mock-node', 'execution', 'token', 'fiatTokenBytecode.LICENSE'), join(stage, 'LICENSE-FiatToken'));
run(process.execPath, [
  join(root, 'node_modules', 'typescript', 'bin', 'tsc'), join(root, 'mock-node', 'index.ts'),
  '--declaration', '--emitDeclarationOnly', '--outDir', join(stage, 'types'),
  '--target', 'ES2022', '--module', 'ESNext', '--moduleResolution', 'Bundler', '--strict',
  '--skipLibCheck', '--esModuleInterop', '--resolveJsonModule', '--types', 'node',
]);

const manifest = {
  name: 'chain-mock-node',
  version: project.version,
  description: 'Offline JSON-RPC mock node: the five reads with a live 200 ms pending block, the public-endpoint 403 rule for eth_getBlockReceipts, and a USDC-like EIP-3009 token, for integration tests in any language.',
  license: project.license,
  repository: project.repository,
  keywords: ['ethereum', 'json-rpc', 'mock', 'test', 'eip-3009', 'usdc', 'flashblocks'],
  bin: { 'chain-mock-node': 'mock-node.js' },
  main: 'mock-node-lib.js',
  types: 'types/index.d.ts',
  engines: { node: project.engines.node },
  files: ['mock-node.js', 'mock-node.bundle', 'mock-node.cache', 'mock-node-lib.js', ...LAZY_BUNDLE_FILES, 'secp256k1.wasm', 'prebuilds/', 'types/', 'README.md', 'LICENSE', 'LICENSE-FiatToken'],
};
writeFileSync(join(stage, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', join(root, 'dist')], stage));
const file = join(root, 'dist', packed[0].filename);
console.log(`${file} (${(packed[0].size / 1024).toFixed(0)} KiB packed, ${packed[0].entryCount} files)`);
