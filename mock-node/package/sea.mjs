// `npm run build:sea`: the mock node as one executable file, dist/chain-mock-node, for machines
// without Node (a Python or Go CI job). Node's single-executable-application support: the
// production bundle of mock-node/seaMain.ts becomes a preparation blob holding a V8 startup
// snapshot (Node runs the bundle once at build time, so every module the first answers need is
// already loaded and evaluated when the executable starts; only main() runs then; express, ws,
// ethers and the EVM ride beside it as assets, loaded on first use), which postject injects into a copy
// of the running `node` binary. Same OS and CPU as the builder. A native addon cannot be inside
// it: the executable loads libsecp256k1's from prebuilds/ beside itself (dist/prebuilds, which the
// build copies; ship that folder with it), and without it uses the slower JavaScript backend.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeSingleExecutable } from './seaExecutable.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
const output = join(dist, process.platform === 'win32' ? 'chain-mock-node.exe' : 'chain-mock-node');

execFileSync(process.execPath, [join(root, 'esbuild.mjs'), '--production', '--sea'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
// postject (through LIEF) warns about ELF note sections it does not name; harmless, so its output
// is shown only when it fails (makeSingleExecutable).
makeSingleExecutable({
  main: join(dist, 'mock-node-sea.js'),
  useSnapshot: true,
  // The lazy bundles (esbuild.mjs builds them into dist/sea-assets for --sea): kept out of the
  // startup snapshot, compiled from these assets on their first use.
  assets: Object.fromEntries(['mock-node-express.js', 'mock-node-ws.js', 'mock-node-ethers.js', 'mock-node-evm.js'].map((name) => [name, join(dist, 'sea-assets', name)])),
}, output);
console.log(`${output} (${(statSync(output).size / 1024 / 1024).toFixed(1)} MiB, Node ${process.version}, ${process.platform}-${process.arch})`);
