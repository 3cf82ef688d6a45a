// Anvil's other fork flags, so its command lines run here unchanged: --fork-header (sent with every
// request upstream, its value never shown), --fork-chain-id (taken instead of asked for),
// --compute-units-per-second and --no-rate-limit (the wait after a rate limit), --no-storage-caching
// (accepted: nothing is cached on disk) and the `--fork-url URL@BLOCK` form.
import assert from 'node:assert/strict';
import { parseCommandLine } from '../../../mock-node/cli';
import type { RunningMockNode } from '../../../mock-node/index';
import { OptionError, resolveOptions } from '../../../mock-node/options';
import { anvilOrSkip, startAnvil, type RunningAnvil } from '../../helpers/anvil';
import { startCountingProxy, type CountingProxy } from '../../helpers/countingProxy';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';

const HEADER_KEY = 'hdr-s3cr3t-7f2a91c4';

describe("fork: Anvil's other fork flags", function () {
  this.timeout(60_000);

  it('reads them as Anvil names them', () => {
    const { options } = parseCommandLine([
      '--fork-url', 'http://127.0.0.1:8545@123',
      '--fork-header', `X-Api-Key: ${HEADER_KEY}`,
      '--fork-header', 'User-Agent: test-agent, v2',
      '--fork-chain-id', '8453',
      '--compute-units-per-second', '100',
      '--no-storage-caching',
    ]);
    const fork = resolveOptions(options).fork!;
    assert.equal(fork.url, 'http://127.0.0.1:8545');
    assert.equal(fork.blockNumber, 123n);
    assert.deepEqual(fork.headers, [['X-Api-Key', HEADER_KEY], ['User-Agent', 'test-agent, v2']], 'a comma inside a header value is kept');
    assert.equal(fork.chainId, 8453n);
    assert.equal(fork.computeUnitsPerSecond, 100);
    assert.equal(resolveOptions(parseCommandLine(['--fork-url', 'http://127.0.0.1:8545', '--no-rate-limit']).options).fork!.computeUnitsPerSecond, Infinity);
    assert.equal(resolveOptions({ fork: { url: 'http://127.0.0.1:8545' } }).fork!.computeUnitsPerSecond, 330);
    // A URL's user info is not a block.
    assert.deepEqual(resolveOptions({ fork: { url: 'https://user:pass@rpc.example.org/v2/key' } }).fork!.url, 'https://user:pass@rpc.example.org/v2/key');
  });

  it('refuses a header that is not one line of "Name: value", one the client writes, or two fork blocks, without quoting the value', () => {
    const refused = (fork: Record<string, unknown>, pattern: RegExp) =>
      assert.throws(() => resolveOptions({ fork: { url: 'http://127.0.0.1:8545', ...fork } as never }), (error: unknown) => error instanceof OptionError && pattern.test(error.message) && !error.message.includes(HEADER_KEY));
    refused({ headers: [`X-Api-Key ${HEADER_KEY}`] }, /--fork-header takes "Name: value"/);
    refused({ headers: [`X-Api-Key: ${HEADER_KEY}\r\nX-Injected: 1`] }, /--fork-header takes "Name: value".*\(header X-Api-Key\)/);
    refused({ headers: [`Host: ${HEADER_KEY}`] }, /--fork-header cannot set Host/);
    refused({ headers: 'X-A: b' }, /must be a list/);
    refused({ chainId: 0 }, /fork\.chainId \(--fork-chain-id\) must be positive/);
    refused({ computeUnitsPerSecond: 0 }, /--compute-units-per-second/);
    assert.throws(() => resolveOptions({ fork: { url: 'http://127.0.0.1:8545@123', blockNumber: 5 } }), /names block 123 and --fork-block-number 5: give one/);
  });

  describe('on a forked node', () => {
    let upstream: RunningAnvil;
    let proxy: CountingProxy;
    let node: RunningMockNode | undefined;
    const logged: string[] = [];

    before(async function () {
      const binary = anvilOrSkip(this);
      upstream = await startAnvil(binary, ['--chain-id', '31337']);
      await rpc(upstream.url, 'anvil_mine', ['0x4']);
      proxy = await startCountingProxy(upstream.url);
    });

    afterEach(async () => {
      await node?.stop();
      node = undefined;
    });

    after(async () => {
      await proxy?.cut().catch(() => undefined);
      await upstream?.stop();
    });

    it('sends every --fork-header upstream and never shows its value, even when the upstream is gone', async () => {
      const second = await startCountingProxy(upstream.url);
      node = await startTestNode({ quiet: false, logLevel: 'debug', logSink: (entry) => logged.push(JSON.stringify(entry)), fork: { url: second.url, blockNumber: 3, headers: [`X-Api-Key: ${HEADER_KEY}`, 'User-Agent: test-agent'], timeoutMs: 1_000, retries: 1, retryBackoffMs: 10 } });
      await rpc(node.url, 'eth_getBalance', ['0x00000000000000000000000000000000000000aa', 'latest']);
      assert.equal(second.headers['x-api-key'], HEADER_KEY);
      assert.equal(second.headers['user-agent'], 'test-agent');
      await second.cut();
      const error = await rpcError(node.url, 'eth_getBalance', ['0x00000000000000000000000000000000000000bb', 'latest']);
      assert.match(error.message, /fork's upstream/);
      assert.ok(!error.message.includes(HEADER_KEY));
      assert.ok(logged.length > 0);
      assert.ok(!logged.some((line) => line.includes(HEADER_KEY)), 'the header value never reaches the log');
      assert.ok(!JSON.stringify(await rpc(node.url, 'anvil_nodeInfo')).includes(HEADER_KEY));
    });

    it('forks at URL@BLOCK and sends --fork-header as anvil does, side by side', async function () {
      const binary = anvilOrSkip(this);
      const block = await rpc(upstream.url, 'eth_getBlockByNumber', ['0x2', false]);
      const viaAnvil = await startCountingProxy(upstream.url);
      const viaMock = await startCountingProxy(upstream.url);
      const anvil = await startAnvil(binary, ['--fork-url', `${viaAnvil.url}@2`, '--fork-header', 'X-Team: payments']);
      try {
        node = await startTestNode({ fork: { url: `${viaMock.url}@2`, headers: ['X-Team: payments'] } });
        for (const [name, url, proxied] of [['anvil', anvil.url, viaAnvil], ['mock', node.url, viaMock]] as const) {
          assert.equal(BigInt(await rpc(url, 'eth_blockNumber')), 2n, `${name} forks at the block after the @`);
          assert.equal((await rpc(url, 'eth_getBlockByNumber', ['0x2', false])).hash, block.hash, name);
          assert.equal(proxied.headers['x-team'], 'payments', `${name} sends the header`);
        }
      } finally {
        await anvil.stop();
        await viaAnvil.cut();
        await viaMock.cut();
      }
    });

    it('takes --fork-chain-id as the chain id without asking the upstream', async () => {
      const methodsBefore = proxy.methods.length;
      node = await startTestNode({ fork: { url: proxy.url, blockNumber: 3, chainId: 4242 } });
      assert.equal(BigInt(await rpc(node.url, 'eth_chainId')), 4242n);
      assert.ok(!proxy.methods.slice(methodsBefore).includes('eth_chainId'), 'eth_chainId never went upstream');
    });

    it('waits after a rate limit for the compute budget of the requests in flight, unless --no-rate-limit', async () => {
      // 17 compute units at 34 a second: half a second on top of the 10 ms backoff.
      node = await startTestNode({ fork: { url: proxy.url, blockNumber: 3, computeUnitsPerSecond: 34, retryBackoffMs: 10 } });
      proxy.rateLimitNext(1);
      let started = Date.now();
      await rpc(node.url, 'eth_getBalance', ['0x00000000000000000000000000000000000000cc', 'latest']);
      assert.ok(Date.now() - started >= 500, `answered ${Date.now() - started} ms after a rate limit, within the compute budget's wait`);
      await node.stop();
      node = await startTestNode({ fork: { url: proxy.url, blockNumber: 3, computeUnitsPerSecond: 34, noRateLimit: true, retryBackoffMs: 10 } });
      proxy.rateLimitNext(1);
      started = Date.now();
      await rpc(node.url, 'eth_getBalance', ['0x00000000000000000000000000000000000000dd', 'latest']);
      assert.ok(Date.now() - started < 500, `--no-rate-limit still waited ${Date.now() - started} ms for the compute budget`);
    });
  });
});
