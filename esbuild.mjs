// One build for every product: the mock node's CLI (runnable on its own), the mock node's
// library entry (for tests and the extension), the extension host entry and the language server.
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as esbuild from 'esbuild';
import { bundleFileOf, cacheFileOf, cliWithCodeCache, trainCodeCache } from './mock-node/package/codeCache.mjs';
import { buildRecoverAddon } from './mock-node/native/build.mjs';
import { evmSpreadPatch } from './mock-node/package/evmSpreadPatch.mjs';

// libsecp256k1 as WebAssembly (tiny-secp256k1, used by mock-node/execution/signatures.ts): the
// bundles look for secp256k1.wasm beside themselves in dist/, where the build copies it.
const require = createRequire(import.meta.url);
const SECP256K1_WASM = join(dirname(require.resolve('tiny-secp256k1')), '..', 'secp256k1.wasm');
// libsecp256k1 as a native Node-API addon (mock-node/execution/secp256k1Addon.ts): esbuild cannot
// bundle a .node file, so the package's prebuilt binaries (every platform it ships) go to
// dist/prebuilds/, where the bundles load them by path.
const SECP256K1_PREBUILDS = join(dirname(require.resolve('secp256k1/package.json')), 'prebuilds');
const wasmBesideBundle = {
  name: 'secp256k1-wasm-beside-bundle',
  setup(build) {
    // Its CommonJS build (esbuild would pick the ES module one, which finds the file through import.meta).
    build.onResolve({ filter: /^tiny-secp256k1$/ }, () => ({ path: require.resolve('tiny-secp256k1') }));
    build.onLoad({ filter: /tiny-secp256k1[\\/]lib[\\/]cjs[\\/]wasm_path_cjs\.cjs$/ }, () => ({
      contents: 'exports.path = (file) => require("path").join(__dirname, file);',
      loader: 'js',
    }));
  },
};

// Express (with body-parser's MIME and charset tables, half the CLI bundle) serves only the routes
// beside JSON-RPC: the node requires it on the first such request (mock-node/rpc/server.ts,
// mock-node/x402/routes.ts). Those lazy require('express') calls load dist/mock-node-express.js, a
// bundle of its own beside the others, so start-up neither reads nor compiles it. (The single
// executable carries these bundles as assets: mock-node/package/sea.mjs.)
// ws, needed from the first WebSocket upgrade on, is dist/mock-node-ws.js the same way.
const LAZY_BUNDLES = { express: 'mock-node-express.js', ws: 'mock-node-ws.js', ethers: 'mock-node-ethers.js' };
// The EVM (mock-node/execution/evm/machine.ts with @ethereumjs/evm), required by
// mock-node/execution/evm/index.ts only when a message first meets code: dist/mock-node-evm.js.
const EVM_BUNDLE = 'mock-node-evm.js';
// The slower secp256k1 backends (tiny-secp256k1's WebAssembly loader, @noble/curves) and
// @noble/hashes' keccak are fallbacks, required by mock-node/execution/signatures.ts and
// mock-node/encoding/keccak.ts only where the faster backend does not load: bundles of their own too,
// out of the text every start reads and compiles.
const FALLBACK_BUNDLES = {
  'tiny-secp256k1': 'mock-node-secp256k1-wasm.js',
  '@noble/curves/secp256k1.js': 'mock-node-secp256k1-js.js',
  '@noble/hashes/sha3.js': 'mock-node-keccak-js.js',
};
const lazyBesideBundle = {
  name: 'lazy-dependencies-beside-bundle',
  setup(build) {
    build.onResolve({ filter: /^(express|ws)$/ }, (args) => (args.kind === 'require-call' ? { path: `./${LAZY_BUNDLES[args.path]}`, external: true } : undefined));
    build.onResolve({ filter: /^(tiny-secp256k1|@noble\/curves\/secp256k1\.js|@noble\/hashes\/sha3\.js)$/ }, (args) =>
      args.kind === 'require-call' && /[\\/]mock-node[\\/]/.test(args.importer) ? { path: `./${FALLBACK_BUNDLES[args.path]}`, external: true } : undefined);
    build.onResolve({ filter: /^\.\/machine$/ }, (args) =>
      args.kind === 'require-call' && /execution[\\/]evm$/.test(args.resolveDir) ? { path: `./${EVM_BUNDLE}`, external: true } : undefined);
  },
};

// ethers (with @noble/curves and aes-js, a third of the CLI bundle) is needed by what the first
// answers do not do: signing, transaction parsing, ABI coding, HD derivation of a custom mnemonic.
// In the CLI, 'ethers' resolves to a stand-in: its small byte and hex helpers (ETHERS_IN_CLI) come
// from ethers inside the bundle, every other export is a getter that requires
// dist/mock-node-ethers.js (ethers alone, a bundle beside the CLI) on its first use. Start-up so
// neither reads, compiles nor evaluates the rest of ethers. A use at a module's top level would
// load it at start again: test/mock-node/cli/lazyStartup.test.ts checks it stays unloaded.
const ETHERS_BUNDLE = 'mock-node-ethers.js';
const ETHERS_IN_CLI = ['concat', 'dataLength', 'dataSlice', 'getBytes', 'hexlify', 'toBeHex', 'zeroPadValue', 'ZeroHash', 'formatUnits', 'parseUnits', 'toUtf8Bytes', 'toUtf8String', 'encodeRlp'];
// The lazy exports are those the node's sources import (a getter for each of ethers' 180 exports,
// defined and then copied onto the stand-in at every start, cost about 7 M instructions). The stand-in
// names each one, so esbuild fails the build when a module imports a name it does not hold.
const importedFromEthers = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
  const path = join(dir, entry.name);
  if (entry.isDirectory()) return importedFromEthers(path);
  if (!entry.name.endsWith('.ts')) return [];
  return [...readFileSync(path, 'utf8').matchAll(/\b(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'ethers'/g)]
    .flatMap((match) => match[1].split(',').map((name) => name.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]).filter(Boolean));
});
const ETHERS_EXPORTS = new Set(Object.keys(require('ethers')));
const ETHERS_LAZY = [...new Set(importedFromEthers('mock-node'))].filter((name) => ETHERS_EXPORTS.has(name) && !ETHERS_IN_CLI.includes(name)).sort();
/** The stand-in for 'ethers'; `loadExpression` is the JavaScript that loads the rest of ethers on its first use. */
const lazyEthersFrom = (loadExpression) => ({
  name: 'lazy-ethers',
  setup(build) {
    build.onResolve({ filter: /^ethers$/ }, (args) => (args.namespace === 'lazy-ethers' ? undefined : { path: 'ethers', namespace: 'lazy-ethers' }));
    build.onResolve({ filter: /^ethers-on-use$/ }, () => ({ path: 'ethers-on-use', namespace: 'lazy-ethers' }));
    build.onResolve({ filter: /^\.\/mock-node-ethers\.js$/, namespace: 'lazy-ethers' }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /^ethers$/, namespace: 'lazy-ethers' }, () => ({
      loader: 'js', resolveDir: '.',
      contents: `export { ${ETHERS_IN_CLI.join(', ')} } from 'ethers';\nexport { ${ETHERS_LAZY.join(', ')} } from 'ethers-on-use';`,
    }));
    build.onLoad({ filter: /^ethers-on-use$/, namespace: 'lazy-ethers' }, () => ({
      loader: 'js', resolveDir: '.',
      contents: `let ethers;
const load = () => ethers ??= ${loadExpression};
for (const name of ${JSON.stringify(ETHERS_LAZY)}) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });`,
    }));
  },
});
const lazyEthers = lazyEthersFrom(`require('./${ETHERS_BUNDLE}')`);


const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [lazyBesideBundle, wasmBesideBundle],
  // ws loads the optional native add-ons bufferutil and utf-8-validate when they are installed.
  // The bundles never ship them, and a single executable (npm run build:sea) may require built-in
  // modules only: leave those requires out of every bundle.
  define: { 'process.env.WS_NO_BUFFER_UTIL': '"1"', 'process.env.WS_NO_UTF_8_VALIDATE': '"1"' },
};

// The CLI: minified (half the text to read and compile at every start), as dist/mock-node.bundle beside the small loader
// dist/mock-node.js (mock-node/package/codeCache.mjs), which compiles it with V8's code cache (dist/mock-node.cache, made below by a training run).
const CLI = 'dist/mock-node.js';
// PROFILE_NAMES=1 keeps the identifiers (whitespace and syntax still minified): a CPU profile of the
// CLI (`npm run bench -- --profile DIR`) then names the node's own functions instead of `Bg`, `Ti`.
const minifyCli = process.env.PROFILE_NAMES ? { minifyWhitespace: true, minifySyntax: true } : { minify: true };
const cli = { ...common, plugins: [...common.plugins, lazyEthers], entryPoints: ['mock-node/cli.ts'], outfile: CLI, ...minifyCli, sourcemap: false, write: false };
// No keepNames: its __name call per function and class (870) redefined each one's name at every
// start, 13 M instructions; no code of the node reads a function's or class's name (its errors
// set their own), so stack traces show the minified names, as they show minified positions.

/** The lazy bundles (express, ws, ethers, the EVM), each alone, written under `dir`. */
const lazyBundles = (dir) => [
  // The EVM alone, for the lazy require('./machine') of mock-node/execution/evm/index.ts, with
  // @ethereumjs/evm's two hot spread literals written as Object.assign (evmSpreadPatch.mjs says why).
  { ...common, plugins: [wasmBesideBundle, evmSpreadPatch], entryPoints: ['mock-node/execution/evm/machine.ts'], outfile: `${dir}/${EVM_BUNDLE}` },
  // Express and ws alone, for the lazy require('express') and require('ws') of the mock node bundles.
  ...Object.entries(LAZY_BUNDLES).map(([name, file]) => ({
    ...common, plugins: [], stdin: { contents: `module.exports = require('${name}');`, resolveDir: '.', sourcefile: `${name}-entry.js` }, outfile: `${dir}/${file}`,
  })),
  // The fallbacks, each alone (tiny-secp256k1 finds secp256k1.wasm beside its bundle).
  ...Object.entries(FALLBACK_BUNDLES).map(([name, file]) => ({
    ...common, plugins: [wasmBesideBundle], stdin: { contents: `module.exports = require('${name}');`, resolveDir: '.', sourcefile: `${file}-entry.js` }, outfile: `${dir}/${file}`,
  })),
];

const builds = [
  { ...common, entryPoints: ['mock-node/index.ts'], outfile: 'dist/mock-node-lib.js' },
  { ...common, entryPoints: ['extension/main.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  // The language server: its own process (started by extension/language/client.ts over IPC), never imports vscode.
  { ...common, entryPoints: ['extension/language/server/server.ts'], outfile: 'dist/languageServer.js' },
  // vscode-languageclient, required by the extension only when a .jsonrpc / .authorization.json file opens.
  { ...common, entryPoints: ['extension/language/clientLibrary.ts'], outfile: 'dist/languageClient.js', external: ['vscode'] },
  ...lazyBundles('dist'),
];

// The default options' genesis (its token storage, roots and code hashes), derived once here
// rather than at every start: mock-node/genesis/writeDefaultGenesis.ts prints the module, which is
// rewritten when its text changed, before the bundles read it. Not in watch mode.
if (!watch) {
  const generator = await esbuild.build({
    ...common, plugins: [wasmBesideBundle], write: false, sourcemap: false, minify: false,
    stdin: { contents: "require('./mock-node/genesis/writeDefaultGenesis').defaultGenesisModule().then((text) => process.stdout.write(text));", resolveDir: '.', sourcefile: 'default-genesis.js', loader: 'js' },
  });
  const text = execFileSync(process.execPath, ['-'], { input: generator.outputFiles[0].text, encoding: 'utf8' });
  const target = 'mock-node/genesis/defaultGenesis.ts';
  if (readFileSync(target, 'utf8') !== text) writeFileSync(target, text);
}

mkdirSync('dist', { recursive: true });
// Node reads the nearest package.json of every CommonJS file it loads (its "type"). For the bundles
// in dist/ that was the repository's package.json, the extension's 37 KB manifest, parsed at every
// start of `node dist/mock-node.js` (5 to 11 ms here); the npm package's CLI meets the package's own
// small one. This one ends the lookup in dist/ (the VSIX leaves it out: .vscodeignore).
writeFileSync(join('dist', 'package.json'), '{ "type": "commonjs" }\n');
copyFileSync(SECP256K1_WASM, join('dist', 'secp256k1.wasm'));
cpSync(SECP256K1_PREBUILDS, join('dist', 'prebuilds'), { recursive: true });
// Our faster build of the same library, beside them where this machine can compile it.
buildRecoverAddon(join('dist', 'prebuilds'));

/** Writes the CLI (loader and bundle); the cache of an earlier build no longer fits it. */
function writeCli(result) {
  const body = result.outputFiles.find((file) => file.path.endsWith('.js')).text;
  rmSync(cacheFileOf(CLI), { force: true });
  const { loader, bundle } = cliWithCodeCache(body);
  writeFileSync(bundleFileOf(CLI), bundle);
  writeFileSync(CLI, loader, { mode: 0o755 });
}
const cliOnEnd = { name: 'cli-with-code-cache', setup: (build) => build.onEnd((result) => { if (!result.errors.length) writeCli(result); }) };

if (watch) {
  // No training run on each change: the watched CLI runs without the cache (the same, a little slower).
  const contexts = await Promise.all([...builds, { ...cli, plugins: [...cli.plugins, cliOnEnd] }].map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('esbuild: watching');
} else {
  const [cliResult] = await Promise.all([esbuild.build(cli), ...builds.map((b) => esbuild.build(b))]);
  writeCli(cliResult);
  await trainCodeCache(CLI);
}
