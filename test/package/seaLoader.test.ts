// The single executable's loader (seaLoader in mock-node/package/codeCache.mjs), run by this Node
// with node:sea stood in for by the CLI's files in dist/ (a preload answers `require('node:sea')`),
// so its paths are checked without building an executable: the CLI's code cache used, a lazy bundle
// compiled from its asset on first use, and a cache of another build or one V8 refuses set aside
// for compiling from source, the node answering the same. (test/package/artefacts.test.ts starts
// the real executable.)
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAZY_BUNDLE_FILES, SEA_BUNDLE_ASSET, SEA_CACHE_ASSET, seaLoader } from '../../mock-node/package/codeCache.mjs';
import { CLI, ensureCliBuilt, startCli } from '../helpers/cli';
import { rpc } from '../helpers/rpc';

const DIST = join(CLI, '..');

/** Answers require('node:sea') with the files named in FAKE_SEA_ASSETS (asset name → path). */
const FAKE_SEA = `const Module = require('module');
const { readFileSync } = require('fs');
const assets = JSON.parse(process.env.FAKE_SEA_ASSETS);
const bytes = (name) => {
  if (!(name in assets)) throw new Error('no asset ' + name);
  const file = readFileSync(assets[name]);
  return file.buffer.slice(file.byteOffset, file.byteOffset + file.length);
};
const sea = { isSea: () => true, getRawAsset: bytes, getAsset: (name, encoding) => (encoding ? Buffer.from(bytes(name)).toString(encoding) : bytes(name)) };
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'node:sea' ? sea : load.call(this, request, ...rest); };
`;

describe('single executable: its loader (node:sea stood in for)', function () {
  this.timeout(60_000);
  let dir: string;
  let main: string;
  let preload: string;

  before(() => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'mock-node-sea-loader-'));
    main = join(dir, 'sea-main.js');
    preload = join(dir, 'fake-sea.js');
    writeFileSync(main, seaLoader(readFileSync(join(DIST, 'mock-node.bundle'), 'latin1')));
    writeFileSync(preload, FAKE_SEA);
  });
  after(() => {
    delete process.env.FAKE_SEA_ASSETS;
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the loader with these assets; the code cache status it logged, after checking it answers. */
  async function run(cacheFile: string): Promise<string> {
    process.env.FAKE_SEA_ASSETS = JSON.stringify({
      [SEA_BUNDLE_ASSET]: join(DIST, 'mock-node.bundle'),
      [SEA_CACHE_ASSET]: cacheFile,
      ...Object.fromEntries(LAZY_BUNDLE_FILES.map((name) => [name, join(DIST, name)])),
    });
    const node = await startCli(['--no-auto', '--log-level', 'debug'], [process.execPath, '-r', preload, main]);
    try {
      assert.equal(await rpc(node.url, 'eth_chainId', []), '0x7a69');
      // Express, from its asset on the first request beside JSON-RPC.
      const health = await (await fetch(new URL('health', node.url))).json() as { status: string };
      assert.equal(health.status, 'ok');
      for (let waited = 0; !/code cache status=/.test(node.output()) && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      const status = /code cache status=(\S+(?: build)?)/.exec(node.output())?.[1];
      assert.ok(status, `no code cache line in:\n${node.output()}`);
      return status;
    } finally {
      assert.equal(await node.stop(), 0);
    }
  }

  it('runs the CLI\'s bundle with the CLI\'s code cache, and loads a lazy bundle from its asset', async () => {
    assert.equal(await run(join(DIST, 'mock-node.cache')), 'used');
  });

  it('a cache of another build is not handed to V8: the bundle compiles from source and answers the same', async () => {
    const cache = readFileSync(join(DIST, 'mock-node.cache'));
    cache['chain-mock-node code cache '.length] ^= 1;
    const other = join(dir, 'other.cache');
    writeFileSync(other, cache);
    assert.equal(await run(other), 'other build');
  });

  it('a cache V8 refuses (corrupt data) falls back to compiling', async () => {
    const cache = readFileSync(join(DIST, 'mock-node.cache'));
    const header = cache.indexOf('\n') + 1;
    for (let i = header + 8; i < header + 64; i++) cache[i] ^= 0xff;
    const corrupt = join(dir, 'corrupt.cache');
    writeFileSync(corrupt, cache);
    assert.equal(await run(corrupt), 'rejected');
  });
});
