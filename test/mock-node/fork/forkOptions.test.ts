// Forking's options and bad input: each gets a clear error and changes nothing; the upstream's URL
// (its path standing for an API key) is redacted in the banner, anvil_nodeInfo and every error.
import assert from 'node:assert/strict';
import { banner, parseCommandLine } from '../../../mock-node/cli';
import type { RunningMockNode } from '../../../mock-node/index';
import { OptionError, resolveOptions } from '../../../mock-node/options';
import { anvilOrSkip, findAnvil, startAnvil, type RunningAnvil } from '../../helpers/anvil';
import { startCountingProxy, type CountingProxy } from '../../helpers/countingProxy';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';

const KEY = 'k3y0f7h3pr0v1d3r';

describe('fork: options and bad input', function () {
  this.timeout(60_000);

  it('reads the flags as Anvil names them', () => {
    const { options } = parseCommandLine(['--fork-url', 'https://mainnet.base.org', '--fork-block-number', '123', '--timeout', '5000', '--retries', '2', '--fork-retry-backoff', '50']);
    assert.deepEqual(resolveOptions(options).fork, { url: 'https://mainnet.base.org', blockNumber: 123n, timeoutMs: 5000, retries: 2, retryBackoffMs: 50, waitAtMisses: false, headers: [], computeUnitsPerSecond: 330 });
    assert.equal(resolveOptions({}).fork, undefined);
  });

  it('refuses what cannot work, saying why', () => {
    const refused = (input: Parameters<typeof resolveOptions>[0], pattern: RegExp) => assert.throws(() => resolveOptions(input), (error: unknown) => error instanceof OptionError && pattern.test(error.message));
    refused({ fork: { url: 'http://127.0.0.1:1/' }, stateFile: '/tmp/x.json' }, /--state cannot be used with --fork-url/);
    refused({ fork: { url: 'ftp://example.org/' } }, /must be an http:\/\/ or https:\/\/ URL/);
    refused({ fork: { url: 'http://127.0.0.1:1/', blockNumber: -1 } }, /fork\.blockNumber/);
    refused({ fork: { url: 'http://127.0.0.1:1/', timeoutMs: 1 } }, /fork\.timeoutMs/);
    refused({ fork: { url: 'http://127.0.0.1:1/', colour: 'red' } as never }, /unknown fork option colour/);
    refused(parseCommandLine(['--timeout', '5000']).options, /fork\.url \(--fork-url\)/);
  });

  describe('on a forked node', () => {
    let upstream: RunningAnvil;
    let proxy: CountingProxy;
    let mock: RunningMockNode;

    before(async function () {
      anvilOrSkip(this);
      upstream = await startAnvil(findAnvil()!);
      await rpc(upstream.url, 'anvil_mine', ['0xa']);
      proxy = await startCountingProxy(upstream.url, `/v3/${KEY}`);
      mock = await startTestNode({ fork: { url: proxy.url, blockNumber: 8 } });
    });

    after(async () => {
      await mock?.stop();
      await proxy?.cut();
      await upstream?.stop();
    });

    it('shows the upstream redacted in the banner and anvil_nodeInfo', async () => {
      const text = banner(mock);
      assert.match(text, /Fork {18}http:\/\/127\.0\.0\.1:\d+\/<redacted> at block 8/);
      assert.ok(!text.includes(KEY));
      const info = await rpc(mock.url, 'anvil_nodeInfo');
      assert.match(info.forkConfig.forkUrl, /\/<redacted>$/);
      assert.equal(info.forkConfig.forkBlockNumber, 8);
    });

    it('refuses a start above the upstream, a chain id or a --chain that is not the upstream\'s, with the URL redacted', async () => {
      await assert.rejects(startTestNode({ fork: { url: proxy.url, blockNumber: 1_000 } }), (error: Error) => /fork block 1000 is above the latest block/.test(error.message) && !error.message.includes(KEY));
      await assert.rejects(startTestNode({ chainId: 8453, fork: { url: proxy.url } }), (error: Error) => /differs from the chain id of the fork's upstream/.test(error.message) && !error.message.includes(KEY));
      await assert.rejects(startTestNode({ chain: 'base', fork: { url: proxy.url } }), (error: Error) => /--chain base builds chain 8453's blocks, but the fork's upstream .* is chain \d+/.test(error.message) && !error.message.includes(KEY));
    });

    it('answers eth_feeHistory over a range reaching below the fork block from the fork block on', async () => {
      const history = await rpc(mock.url, 'eth_feeHistory', ['0xa', 'latest', [50]]);
      assert.equal(BigInt(history.oldestBlock), 8n);
      assert.equal(history.gasUsedRatio.length, Number(BigInt(await rpc(mock.url, 'eth_blockNumber')) - 8n + 1n));
    });

    it('applies setters over state not fetched yet, and evm_revert takes them back', async () => {
      const stranger = '0x00000000000000000000000000000000005eed00';
      await rpc(upstream.url, 'anvil_setBalance', [stranger, '0x64']);
      const snapshot = await rpc(mock.url, 'evm_snapshot');
      await rpc(mock.url, 'anvil_setStorageAt', [stranger, '0x1', '0x' + '00'.repeat(31) + '2a']);
      await rpc(mock.url, 'evm_mine');
      assert.equal(BigInt(await rpc(mock.url, 'eth_getStorageAt', [stranger, '0x1', 'latest'])), 42n);
      assert.equal(await rpc(mock.url, 'eth_getBalance', [stranger, 'latest']), '0x0', "the balance is the fork block's (set upstream after it)");
      assert.equal(await rpc(mock.url, 'evm_revert', [snapshot]), true);
      assert.equal(BigInt(await rpc(mock.url, 'eth_getStorageAt', [stranger, '0x1', 'latest'])), 0n);
    });

    it("answers BLOCKHASH of the fork block's parent without asking the upstream", async () => {
      // Creation code that returns BLOCKHASH(7): PUSH1 7, BLOCKHASH, PUSH0, MSTORE, PUSH1 32, PUSH0, RETURN.
      const answer = await rpc(mock.url, 'eth_call', [{ data: '0x6007405f5260205ff3' }, 'latest']);
      assert.equal(answer, (await rpc(upstream.url, 'eth_getBlockByNumber', ['0x7', false])).hash);
    });

    it('answers bad anvil_reset forking options and state files with clear errors, and changes nothing', async () => {
      await rpc(mock.url, 'evm_mine');
      const head = await rpc(mock.url, 'eth_blockNumber');
      assert.match((await rpcError(mock.url, 'anvil_reset', [{ forking: { jsonRpcUrl: 'ftp://x' } }])).message, /jsonRpcUrl must be an http/);
      const unparsable = await rpcError(mock.url, 'anvil_reset', [{ forking: { jsonRpcUrl: 'http://[bad/' } }]);
      assert.deepEqual([unparsable.code, /jsonRpcUrl must be an http/.test(unparsable.message)], [-32602, true], 'a URL that does not parse is bad input, not an internal error');
      assert.equal((await rpcError(mock.url, 'anvil_reset', [{ forking: { blockNumber: 'soon' } }])).code, -32602);
      const above = await rpcError(mock.url, 'anvil_reset', [{ forking: { blockNumber: 1_000 } }]);
      assert.match(above.message, /above the latest block of the fork's upstream/);
      assert.ok(!above.message.includes(KEY));
      assert.match((await rpcError(mock.url, 'mock_dumpState')).message, /not supported on a forked chain/);
      assert.equal(await rpc(mock.url, 'eth_blockNumber'), head);
    });
  });
});
