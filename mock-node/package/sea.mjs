// `npm run build:sea`: the mock node as one executable file, dist/chain-mock-node, for machines
// without Node (a Python or Go CI job). Node's single-executable-application support: the
// production bundle of mock-node/seaMain.ts becomes a preparation blob holding a V8 startup
// snapshot (Node runs the bundle once at build time, so every module the first answers need is
// already loaded and evaluated when the executable starts; only main() runs then; express, ws,
// ethers and the EVM ride beside it as assets, loaded on first use), which postject injects into a copy
// of the running `node` binary. Same OS and CPU as the builder. A native addon cannot be inside
// it: the executable loads libsecp256k1's from prebuilds/ beside itself (dist/prebuilds, which the
// build copies; ship that folder with it), and without it uses the slower WebAssembly backend.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
const blob = join(dist, 'chain-mock-node.blob');
const config = join(dist, 'sea-config.json');
const output = join(dist, process.platform === 'win32' ? 'chain-mock-node.exe' : 'chain-mock-node');
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });

run(process.execPath, [join(root, 'esbuild.mjs'), '--production', '--sea']);
writeFileSync(config, JSON.stringify({
  main: join(dist, 'mock-node-sea.js'),
  output: blob,
  disableExperimentalSEAWarning: true,
  useSnapshot: true,
  // The lazy bundles (esbuild.mjs builds them into dist/sea-assets for --sea): kept out of the
  // startup snapshot, compiled from these assets on their first use.
  assets: Object.fromEntries(['mock-node-express.js', 'mock-node-ws.js', 'mock-node-ethers.js', 'mock-node-evm.js'].map((name) => [name, join(dist, 'sea-assets', name)])),
}, null, 2));
run(process.execPath, ['--experimental-sea-config', config]);
rmSync(output, { force: true });
copyFileSync(process.execPath, output);
chmodSync(output, 0o755);
const args = [join(root, 'node_modules', 'postject', 'dist', 'cli.js'), output, 'NODE_SEA_BLOB', blob,
  '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'];
if (process.platform === 'darwin') args.push('--macho-segment-name', 'NODE_SEA');
// postject (through LIEF) warns about ELF note sections it does not name; harmless, so its output
// is shown only when it fails.
try {
  execFileSync(process.execPath, args, { cwd: root, stdio: 'pipe' });
} catch (error) {
  process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
  throw error;
}
rmSync(blob);
rmSync(config);
console.log(`${output} (${(statSync(output).size / 1024 / 1024).toFixed(1)} MiB, Node ${process.version}, ${process.platform}-${process.arch})`);
