// The CLI bundle's loader and V8's code cache beside it (mock-node/package/codeCache.mjs): the
// build's cache is used by a plain `node dist/mock-node.js`, and the node starts and answers the
// same when the cache is missing, from another build, or refused by V8 (corrupt data, other flags).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LONG_LIVED_MS, STANDALONE_V8_FLAGS, standaloneV8Flags, v8HasInterruptBudget } from '../../mock-node/cli';
import { CLI, ensureCliBuilt, startCli } from '../helpers/cli';
import { rpc } from '../helpers/rpc';

const CACHE = CLI.replace(/\.js$/, '.cache');
const BUNDLE = CLI.replace(/\.js$/, '.bundle');

/** The loader copied into `dir` as `<name>.js` with its bundle as `<name>.bundle` (no cache). */
function copyCli(dir: string, name: string): string {
  const cli = join(dir, `${name}.js`);
  copyFileSync(CLI, cli);
  copyFileSync(BUNDLE, join(dir, `${name}.bundle`));
  return cli;
}

/** Starts the CLI given, answers eth_chainId, stops it; the code cache status it logged. */
async function statusOf(program: string[]): Promise<string> {
  const node = await startCli(['--no-auto', '--log-level', 'debug'], program);
  try {
    assert.equal(await rpc(node.url, 'eth_chainId', []), '0x7a69');
    // The debug line goes to stderr, the banner startCli waited for to stdout: either may come first.
    for (let waited = 0; !/code cache status=/.test(node.output()) && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    const match = /code cache status=(\S+(?: build)?)/.exec(node.output());
    assert.ok(match, `no code cache line in:\n${node.output()}`);
    return match[1];
  } finally {
    assert.equal(await node.stop(), 0);
  }
}

describe('CLI bundle: V8 code cache', function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'mock-node-code-cache-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the build\'s cache beside dist/mock-node.js is used', async () => {
    const cache = readFileSync(CACHE);
    const header = cache.subarray(0, cache.indexOf('\n') + 1).toString('latin1');
    assert.match(header, /^chain-mock-node code cache [0-9a-f]{32} *\n$/);
    // V8 copies cached data that does not start pointer-aligned (mock-node/package/codeCache.mjs).
    assert.equal(header.length % 8, 0, `header of ${header.length} bytes`);
    assert.equal(await statusOf([process.execPath, CLI]), 'used');
    const node = await startCli(['--no-auto', '--log-level', 'debug'], [process.execPath, CLI]);
    try {
      for (let waited = 0; !/keccak backend=/.test(node.output()) && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.match(node.output(), /keccak backend=webassembly/);
    } finally {
      assert.equal(await node.stop(), 0);
    }
  });

  it('without the cache file the CLI compiles its bundle and runs the same', async () => {
    const cli = copyCli(dir, 'missing');
    assert.equal(await statusOf([process.execPath, cli]), 'missing');
  });

  it('a cache of another build is not handed to V8', async () => {
    const cli = copyCli(dir, 'other');
    const cache = readFileSync(CACHE);
    cache['chain-mock-node code cache '.length] ^= 1; // the build id's first hex digit
    writeFileSync(join(dir, 'other.cache'), cache);
    assert.equal(await statusOf([process.execPath, cli]), 'other build');
  });

  it('a cache V8 refuses (corrupt data) falls back to compiling', async () => {
    const cli = copyCli(dir, 'corrupt');
    const cache = readFileSync(CACHE);
    const header = cache.indexOf('\n') + 1;
    for (let i = header + 8; i < header + 64; i++) cache[i] ^= 0xff;
    writeFileSync(join(dir, 'corrupt.cache'), cache);
    assert.equal(await statusOf([process.execPath, cli]), 'rejected');
  });

  it('without its bundle the loader says which file is missing and exits 1', () => {
    const cli = join(dir, 'alone.js');
    copyFileSync(CLI, cli);
    const run = spawnSync(process.execPath, [cli, '--port', '0'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /chain-mock-node: cannot read its bundle .*alone\.bundle/);
  });

  it('once listening, the CLI sets its V8 tiering for itself (the cache still used), and a budget on node\'s command line wins', async () => {
    const started = async (program: string[]) => {
      const node = await startCli(['--no-auto', '--log-level', 'debug'], program);
      try {
        assert.equal(await rpc(node.url, 'eth_chainId', []), '0x7a69');
        for (let waited = 0; !/v8 flags set=/.test(node.output()) && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
        return { flags: /v8 flags set=(.+)$/m.exec(node.output())?.[1], cache: /code cache status=(\S+)/.exec(node.output())?.[1] };
      } finally {
        assert.equal(await node.stop(), 0);
      }
    };
    assert.match(STANDALONE_V8_FLAGS, /^--interrupt-budget=\d+$/);
    // Set after the first answers, so the cache, made under V8's default flags, is the one V8 takes.
    if (v8HasInterruptBudget()) {
      assert.deepEqual(await started([process.execPath, CLI]), { flags: `--semi-space-growth-factor=1 ${STANDALONE_V8_FLAGS}`, cache: 'used' });
      assert.equal((await started([process.execPath, '--interrupt-budget=200000', CLI])).flags, '--semi-space-growth-factor=1');
      assert.equal((await started([process.execPath, '--interrupt-budget=200000', '--semi-space-growth-factor=2', CLI])).flags, 'none (given on the command line)');
    } else {
      // A V8 that tiers by invocation counts (Node 24): no budget, and no "unrecognized flag" on stderr.
      assert.deepEqual(await started([process.execPath, CLI]), { flags: '--semi-space-growth-factor=1', cache: 'used' });
      assert.equal((await started([process.execPath, '--semi-space-growth-factor=2', CLI])).flags, 'none (given on the command line)');
    }
  });

  it('the V8 flags it plans: the raised budget once listening, V8\'s own default (this Node\'s) after a long life, none of what node was given', () => {
    const v8Default = /--interrupt-budget \(interrupt budget[^)]*\)\s+type: int\s+default: (--interrupt-budget=\d+)/.exec(spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout)?.[1];
    // The version rule agrees with this V8's own list of flags.
    assert.equal(v8HasInterruptBudget(), v8Default !== undefined, `V8 ${process.versions.v8}: node --v8-options ${v8Default ? 'names' : 'does not name'} --interrupt-budget`);
    assert.equal(v8HasInterruptBudget('11.3.244.8-node.33'), true);
    assert.equal(v8HasInterruptBudget('13.6.233.17-node.37'), false);
    assert.deepEqual(standaloneV8Flags('', false), { listening: ['--semi-space-growth-factor=1'], longLived: [] });
    assert.ok(LONG_LIVED_MS >= 5 * 60_000, 'long past a test file\'s life');
    if (!v8Default) return;
    assert.deepEqual(standaloneV8Flags('', true), { listening: ['--semi-space-growth-factor=1', STANDALONE_V8_FLAGS], longLived: [v8Default] });
    assert.deepEqual(standaloneV8Flags('--interrupt-budget=5000', true), { listening: ['--semi-space-growth-factor=1'], longLived: [] });
    assert.deepEqual(standaloneV8Flags('--max-semi-space-size=4', true), { listening: [STANDALONE_V8_FLAGS], longLived: [v8Default] });
  });

  it('under other V8 flags the cache is refused and the CLI still runs', async () => {
    assert.equal(await statusOf([process.execPath, '--expose-gc', CLI]), 'rejected');
  });
});
