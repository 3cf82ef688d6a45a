// `npm run build:sea`: the mock node as one executable file, dist/chain-mock-node, for machines
// without Node (a Python or Go CI job). Node's single-executable-application support: a small
// loader (seaLoader in codeCache.mjs) becomes the executable's main script, and the CLI's own
// files ride inside as assets: its bundle, the V8 code cache its build trained, and the lazy
// bundles (express, ws, ethers, the EVM), compiled on their first use. postject injects the
// preparation blob into a copy of the running `node` binary (the one whose V8 made the cache).
// Same OS and CPU as the builder. A native addon cannot be inside it: the executable loads
// libsecp256k1's from prebuilds/ beside itself (dist/prebuilds, which the build copies; ship that
// folder with it), and without it uses the slower WebAssembly or JavaScript backend.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAZY_BUNDLE_FILES, SEA_BUNDLE_ASSET, SEA_CACHE_ASSET, bundleFileOf, cacheFileOf, seaLoader } from './codeCache.mjs';
import { makeSingleExecutable } from './seaExecutable.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
// `--out <file>` writes the executable elsewhere (the bench's comparison of Node versions).
const outArg = process.argv.indexOf('--out');
const output = outArg > 0 ? process.argv[outArg + 1] : join(dist, process.platform === 'win32' ? 'chain-mock-node.exe' : 'chain-mock-node');
const cli = join(dist, 'mock-node.js');

// `--node <binary>` builds from another Node (its V8 trains the code cache, its binary carries the
// executable): this script runs again under it, then the production build is made again for the
// Node running now, so dist/'s code cache fits this Node again.
const nodeArg = process.argv.indexOf('--node');
if (nodeArg > 0) {
  const other = process.argv[nodeArg + 1];
  execFileSync(other, [fileURLToPath(import.meta.url), '--out', output], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  execFileSync(process.execPath, [join(root, 'esbuild.mjs'), '--production'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  process.exit(0);
}

// The production build: the CLI with its trained code cache, and the lazy bundles minified.
execFileSync(process.execPath, [join(root, 'esbuild.mjs'), '--production'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
const main = join(dist, 'sea-main.js');
writeFileSync(main, seaLoader(readFileSync(bundleFileOf(cli), 'latin1')));
try {
  // postject (through LIEF) warns about ELF note sections it does not name; harmless, so its output
  // is shown only when it fails (makeSingleExecutable).
  makeSingleExecutable({
    main,
    assets: {
      [SEA_BUNDLE_ASSET]: bundleFileOf(cli),
      [SEA_CACHE_ASSET]: cacheFileOf(cli),
      ...Object.fromEntries(LAZY_BUNDLE_FILES.map((name) => [name, join(dist, name)])),
    },
  }, output);
} finally {
  rmSync(main, { force: true });
}
console.log(`${output} (${(statSync(output).size / 1024 / 1024).toFixed(1)} MiB, Node ${process.version}, ${process.platform}-${process.arch})`);
