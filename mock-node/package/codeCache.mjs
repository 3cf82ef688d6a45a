// The CLI bundle with V8's code cache (esbuild.mjs). Node 20 compiles a CommonJS file from scratch
// at every start (it has no module compile cache): for the CLI that is a good part of the
// start-up. So the CLI is three files side by side:
// - dist/mock-node.js, a loader of a few lines (the file `node` runs and npm's bin names);
// - dist/mock-node.bundle, the bundle as esbuild wrote it, wrapped as a CommonJS function;
// - dist/mock-node.cache, V8's compiled code for that bundle, made at build time by a training
//   run (start, a few requests, stop).
// The loader reads the bundle once and compiles it with vm.Script and the cached data. (The bundle
// used to ride inside the loader, in a comment: Node's own loader then read and scanned all of it
// as UTF-8 before the loader read it again, 4 M instructions at every start.) The loader checks
// the cache's header against the bundle (V8 itself checks only the source's length); when the
// cache is missing, from another build, or refused by this Node's V8 (another version, other V8
// flags), it compiles without it: slower, same behaviour. Each file is found from the loader's own
// name (<name>.js, <name>.bundle, <name>.cache), so a copy under another name carries its own.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';

/** The environment variable under which the training run writes the cache (build time only). */
export const TRAIN_ENV = 'CHAIN_MOCK_NODE_WRITE_CODE_CACHE';

/** The cache file beside a CLI loader. */
export const cacheFileOf = (cliPath) => cliPath.replace(/\.js$/, '') + '.cache';

/**
 * The cache file's first line, naming the bundle's build. Padded with spaces to a multiple of 8
 * bytes, so the cached data after it starts 8-aligned in the buffer the loader reads: V8 copies
 * cached data that is not pointer-aligned before deserialising it (666 KB of fresh memory touched
 * at every start, about 3 ms here).
 */
export function cacheHeader(build) {
  const line = `chain-mock-node code cache ${build}`;
  return line.padEnd(Math.ceil((line.length + 1) / 8) * 8 - 1, ' ') + '\n';
}

/** The bundle file beside a CLI loader. */
export const bundleFileOf = (cliPath) => cliPath.replace(/\.js$/, '') + '.bundle';

/**
 * The CLI's two files for the bundle `body` (CommonJS, as esbuild wrote it): the loader, and the
 * bundle wrapped as a function of (exports, require, module, __filename, __dirname). The bundle
 * runs with the loader's own module, require, __filename and __dirname, so `require.main ===
 * module`, the lazy require('./mock-node-express.js') and the wasm beside it all work as before.
 */
export function cliWithCodeCache(body, shebang = '#!/usr/bin/env node') {
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${body}\n})`;
  // Read as latin1, the fastest string V8 makes from bytes: right only for ASCII, which esbuild's
  // default charset writes.
  if (!/^[\x00-\x7f]*$/.test(wrapped)) throw new Error('codeCache: the CLI bundle must be ASCII');
  const build = buildIdOf(wrapped);
  const loader = `
"use strict";
// chain-mock-node: the loader of the bundle beside it (mock-node/package/codeCache.mjs says why).
const BUILD = ${JSON.stringify(cacheHeader(build))};
(() => {
  const { readFileSync, writeFileSync } = require("fs");
  const { Script } = require("vm");
  const base = __filename.replace(/\\.js$/, "");
  let bundle;
  try {
    bundle = readFileSync(base + ".bundle", "latin1");
  } catch (error) {
    process.stderr.write("chain-mock-node: cannot read its bundle " + base + ".bundle (it ships beside " + __filename + "): " + error.message + "\\n");
    process.exit(1);
  }
  let cachedData;
  let status = "missing";
  try {
    const file = readFileSync(base + ".cache");
    if (file.length > BUILD.length && file.toString("latin1", 0, BUILD.length) === BUILD) cachedData = file.subarray(BUILD.length);
    else status = "other build";
  } catch {}
  const script = new Script(bundle, { filename: base + ".bundle", cachedData });
  if (cachedData) status = script.cachedDataRejected ? "rejected" : "used";
  globalThis[Symbol.for("chain-mock-node.codeCache")] = status;
  const out = process.env.${TRAIN_ENV};
  if (out) process.once("exit", () => writeFileSync(out, Buffer.concat([Buffer.from(BUILD, "latin1"), script.createCachedData()])));
  script.runInThisContext()(exports, require, module, __filename, __dirname);
})();
`;
  return { loader: `${shebang}${loader}`, bundle: wrapped };
}

/** The id of a wrapped bundle's build, which its cache's header names. */
export function buildIdOf(wrapped) {
  return createHash('sha256').update(wrapped).digest('hex').slice(0, 32);
}

/** The lazy bundles beside the CLI's (esbuild.mjs), required by it on their first use. */
export const LAZY_BUNDLE_FILES = [
  'mock-node-express.js', 'mock-node-ws.js', 'mock-node-ethers.js', 'mock-node-evm.js',
  'mock-node-secp256k1-wasm.js', 'mock-node-secp256k1-js.js', 'mock-node-keccak-js.js',
];

/** Asset names of the CLI's bundle and cache inside the single executable. */
export const SEA_BUNDLE_ASSET = 'mock-node.bundle';
export const SEA_CACHE_ASSET = 'mock-node.cache';

/**
 * The single executable's main script (mock-node/package/sea.mjs): the CLI's loader, with the
 * CLI's own bundle, code cache and lazy bundles as the executable's assets instead of files beside
 * it. The bundle and the cache are read where the executable maps them (getRawAsset, no copy); a
 * lazy bundle is compiled from its asset on its first require. The bundle runs with the
 * executable's folder as its __dirname, where it finds prebuilds/ and secp256k1.wasm when they
 * ship beside the executable. V8 takes the CLI's cache because the executable is a copy of the
 * `node` that made it; from another Node it refuses it, and the bundle compiles from source.
 * (A V8 startup snapshot (`useSnapshot`) was slower to start here: Node copies the whole snapshot
 * and its built-in code cache out of the executable at every start, about 5 MB of fresh memory.)
 */
export function seaLoader(wrappedBundle) {
  return `"use strict";
// chain-mock-node, the single executable's loader (mock-node/package/codeCache.mjs says why).
const BUILD = ${JSON.stringify(cacheHeader(buildIdOf(wrappedBundle)))};
const LAZY = new Set(${JSON.stringify(LAZY_BUNDLE_FILES.map((name) => `./${name}`))});
(() => {
  const { getAsset, getRawAsset } = require("node:sea");
  const { Script, compileFunction } = require("node:vm");
  const { dirname, join } = require("node:path");
  const dir = dirname(process.execPath);
  const bundle = Buffer.from(getRawAsset(${JSON.stringify(SEA_BUNDLE_ASSET)})).toString("latin1");
  const cache = Buffer.from(getRawAsset(${JSON.stringify(SEA_CACHE_ASSET)}));
  let cachedData;
  let status = "other build";
  if (cache.length > BUILD.length && cache.toString("latin1", 0, BUILD.length) === BUILD) cachedData = cache.subarray(BUILD.length);
  const script = new Script(bundle, { filename: join(dir, "mock-node.bundle"), cachedData });
  if (cachedData) status = script.cachedDataRejected ? "rejected" : "used";
  globalThis[Symbol.for("chain-mock-node.codeCache")] = status;
  const loaded = new Map();
  const requireLazy = (id) => {
    const known = loaded.get(id);
    if (known) return known.exports;
    const file = join(dir, id.slice(2));
    const lazyModule = { exports: {}, id: file, filename: file, loaded: false };
    loaded.set(id, lazyModule);
    try {
      compileFunction(getAsset(id.slice(2), "utf8"), ["exports", "require", "module", "__filename", "__dirname"], { filename: file })(lazyModule.exports, require, lazyModule, file, dir);
    } catch (error) {
      loaded.delete(id);
      throw error;
    }
    lazyModule.loaded = true;
    return lazyModule.exports;
  };
  // Built-in modules and the lazy bundles: all the bundle requires.
  const bundleRequire = (id) => (LAZY.has(id) ? requireLazy(id) : require(id));
  bundleRequire.main = module;
  script.runInThisContext()(exports, bundleRequire, module, join(dir, "chain-mock-node.js"), dir);
})();
`;
}

/** One JSON-RPC call to the training node; resolves with its result (rejects on an error answer). */
function call(url, method, params = []) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => {
        try {
          const answer = JSON.parse(text);
          if (answer.error) reject(new Error(`code cache training: ${method}: ${answer.error.message}`));
          else resolve(answer.result);
        } catch (error) {
          reject(error);
        }
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** The first dev account of the default mnemonic (public test key), which the training run's transactions come from. */
const TRAINING_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const TRAINING_TOKEN = '0x3600000000000000000000000000000000000000';
const RECIPIENT = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

/**
 * What a client starts with, so its code is in the cache: the reads of a first look, then an ETH
 * transfer and a token transfer sent raw (the intake's decoder, sender recovery, execution, the
 * token), their flashblock and the block that seals them, and the reads a test makes after (the
 * seed's five among them).
 */
async function trainingTraffic(url, dedicatedUrl) {
  for (const method of ['eth_chainId', 'eth_blockNumber']) await call(url, method);
  await call(url, 'eth_getBlockByNumber', ['latest', false]);
  const { Wallet, Interface } = await import('ethers');
  const wallet = new Wallet(TRAINING_KEY);
  const fees = { type: 2, chainId: 31337n, maxFeePerGas: 100n * 10n ** 9n, maxPriorityFeePerGas: 10n ** 9n };
  const transfer = new Interface(['function transfer(address to, uint256 amount)']).encodeFunctionData('transfer', [RECIPIENT, 1n]);
  const raws = [
    await wallet.signTransaction({ ...fees, nonce: 0, to: RECIPIENT, value: 1n, gasLimit: 21_000n }),
    await wallet.signTransaction({ ...fees, nonce: 1, to: TRAINING_TOKEN, data: transfer, gasLimit: 100_000n }),
  ];
  const hashes = [];
  for (const raw of raws) hashes.push(await call(url, 'eth_sendRawTransaction', [raw]));
  await call(url, 'eth_getTransactionCount', [wallet.address, 'pending']);
  const start = Number(await call(url, 'eth_blockNumber'));
  for (let waited = 0; Number(await call(url, 'eth_blockNumber')) === start; waited += 50) {
    if (waited > 10_000) throw new Error('code cache training: no block sealed the training transactions within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (const hash of hashes) await call(url, 'eth_getTransactionReceipt', [hash]);
  await call(url, 'eth_getTransactionCount', [wallet.address, 'latest']);
  // The seed's five reads over that block (eth_getBlockReceipts on the dedicated path: the public
  // one answers 403).
  await call(url, 'eth_getBlockByNumber', ['latest', true]);
  await call(url, 'eth_getBlockByNumber', ['pending', false]);
  await call(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]);
  await call(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: TRAINING_TOKEN }]);
  await call(dedicatedUrl, 'eth_getBlockReceipts', ['latest']);
  await call(url, 'eth_getStorageAt', [TRAINING_TOKEN, '0x0', 'latest']);
}

/**
 * The training run: starts the CLI as `node <cli>` with no Node flags (V8 refuses a cache made
 * under other flags), sends what a client starts with (trainingTraffic), stops it; the loader
 * writes the cache on exit. Resolves once the cache file is written.
 */
export async function trainCodeCache(cliPath) {
  const cacheFile = cacheFileOf(cliPath);
  const child = spawn(process.execPath, [cliPath, '--port', '0', '--json-logs', '--log-level', 'error'], {
    env: { ...process.env, [TRAIN_ENV]: cacheFile, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  let output = '';
  const listening = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{"listening"'));
      if (line) resolve(JSON.parse(line).listening);
    });
    child.once('exit', () => reject(new Error(`code cache training: the CLI exited before listening\n${output}`)));
  });
  try {
    await trainingTraffic(listening.url, listening.dedicatedUrl);
  } finally {
    child.kill('SIGTERM');
  }
  const code = await exited;
  if (code !== 0) throw new Error(`code cache training: the CLI exited with ${code}`);
  return readFileSync(cacheFile).length;
}
