// The CLI bundle with V8's code cache (esbuild.mjs). Node 20 compiles a CommonJS file from scratch
// at every start (it has no module compile cache): for the 1 MB CLI that is a good part of the
// start-up. So dist/mock-node.js is a small loader holding the bundle as a string, which it
// compiles with vm.Script and the cached data in dist/mock-node.cache, made at build time by a
// training run (start, a few requests, stop). The loader checks the cache's header against the
// bundle it holds (V8 itself checks only the source's length); when the file is missing, from
// another build, or refused by this Node's V8 (another version, other V8 flags), it compiles
// without it: slower, same behaviour. The file stays one self-contained script for `node`.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';

/** The environment variable under which the training run writes the cache (build time only). */
export const TRAIN_ENV = 'CHAIN_MOCK_NODE_WRITE_CODE_CACHE';

/** The cache file beside a CLI bundle. */
export const cacheFileOf = (cliPath) => cliPath.replace(/\.js$/, '') + '.cache';

/**
 * The CLI file: a loader around the bundle `body` (CommonJS, as esbuild wrote it). The bundle runs
 * with the loader's own module, require, __filename and __dirname, so `require.main === module`,
 * the lazy require('./mock-node-express.js') and the wasm beside it all work as before.
 */
export function cliWithCodeCache(body, shebang = '#!/usr/bin/env node') {
  const build = createHash('sha256').update(body).digest('hex').slice(0, 32);
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${body}\n})`;
  // The bundle rides in a block comment at the end of the file, not in a string literal: V8 skips
  // a comment's characters, but scans a string's one by one into a literal (14 M instructions for
  // this one at every start). A '*' + '/' inside the bundle would end the comment: each is written
  // with a control character the bundle does not hold between the two, and restored on reading.
  const split = [...'\x1f\x1e\x1d\x1c\x1b\x1a\x19\x18\x17\x16\x15\x14\x13\x12\x11\x10'].find((c) => !wrapped.includes(c));
  if (!/^[\x00-\x7f]*$/.test(wrapped) || split === undefined) throw new Error('codeCache: the CLI bundle must be ASCII with a control character free for the comment escape');
  const loader = `
"use strict";
// chain-mock-node: a loader around the bundle in the comment below (mock-node/package/codeCache.mjs says why).
const BUILD = ${JSON.stringify(`chain-mock-node code cache ${build}\n`)};
(() => {
  const { readFileSync, writeFileSync } = require("fs");
  const { Script } = require("vm");
  const file = readFileSync(__filename, "latin1");
  const start = file.indexOf("\\n/*" + "BUNDLE\\n");
  let bundle = file.slice(start + 10, file.lastIndexOf("\\n*/"));
  if (bundle.includes(${JSON.stringify('*' + split + '/')})) bundle = bundle.replaceAll(${JSON.stringify('*' + split + '/')}, "*/");
  const cacheFile = __filename.replace(/\\.js$/, "") + ".cache";
  let cachedData;
  let status = "missing";
  try {
    const file = readFileSync(cacheFile);
    if (file.length > BUILD.length && file.toString("latin1", 0, BUILD.length) === BUILD) cachedData = file.subarray(BUILD.length);
    else status = "other build";
  } catch {}
  const script = new Script(bundle, { filename: __filename, cachedData });
  if (cachedData) status = script.cachedDataRejected ? "rejected" : "used";
  globalThis[Symbol.for("chain-mock-node.codeCache")] = status;
  const out = process.env.${TRAIN_ENV};
  if (out) process.once("exit", () => writeFileSync(out, Buffer.concat([Buffer.from(BUILD, "latin1"), script.createCachedData()])));
  script.runInThisContext()(exports, require, module, __filename, __dirname);
})();
/*BUNDLE
${wrapped.replaceAll('*/', `*${split}/`)}
*/
`;
  return `${shebang}${loader}`;
}

function post(url, method) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: method === 'eth_getBlockByNumber' ? ['latest', false] : [] });
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
      response.resume();
      response.on('end', resolve);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * The training run: starts the CLI as `node <cli>` with no Node flags (V8 refuses a cache made
 * under other flags), sends the requests a client starts with, stops it; the loader writes the
 * cache on exit. Resolves once the cache file is written.
 */
export async function trainCodeCache(cliPath) {
  const cacheFile = cacheFileOf(cliPath);
  const child = spawn(process.execPath, [cliPath, '--port', '0', '--json-logs', '--log-level', 'error'], {
    env: { ...process.env, [TRAIN_ENV]: cacheFile, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  let output = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{"listening"'));
      if (line) resolve(JSON.parse(line).listening.url);
    });
    child.once('exit', () => reject(new Error(`code cache training: the CLI exited before listening\n${output}`)));
  });
  for (const method of ['eth_chainId', 'eth_blockNumber', 'eth_getBlockByNumber']) await post(url, method);
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`code cache training: the CLI exited with ${code}`);
  return readFileSync(cacheFile).length;
}
