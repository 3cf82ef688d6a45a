// The fork's upstream seen through a counting proxy: what is fetched once is never asked again,
// a rate limit (HTTP 429) is retried, and an upstream that goes away answers an error naming it
// (redacted: the proxy's path stands for an API key) while what was fetched keeps answering.
// These nodes find every miss of a run before fetching (waitAtMisses: false), as against a remote
// upstream; waiting at misses, the default on this machine, is forkWaitAtMisses.test.ts's.
import assert from 'node:assert/strict';
import type { RunningMockNode } from '../../../mock-node/index';
import { anvilOrSkip } from '../../helpers/anvil';
import { startCountingProxy, type CountingProxy } from '../../helpers/countingProxy';
import { BASE_USDC, balanceOfCall, startForkUpstream, type ForkUpstream } from '../../helpers/forkUpstream';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';

const API_KEY = 'sk9f3c1d2e4b5a6978';
const TIMEOUT_MS = 3_000;
const fresh = (n: number) => `0x${(0xf00000 + n).toString(16).padStart(40, '0')}`;

describe('fork: the upstream through a counting proxy', function () {
  this.timeout(120_000);
  let upstream: ForkUpstream;
  let proxy: CountingProxy;
  let mock: RunningMockNode;
  const logged: string[] = [];

  before(async function () {
    anvilOrSkip(this);
    upstream = await startForkUpstream();
    proxy = await startCountingProxy(upstream.anvil.url, `/v2/${API_KEY}`);
    mock = await startTestNode({
      quiet: false,
      logLevel: 'debug',
      logSink: (entry) => logged.push(JSON.stringify(entry)),
      fork: { url: proxy.url, blockNumber: upstream.forkBlock, timeoutMs: TIMEOUT_MS, retries: 4, retryBackoffMs: 20, waitAtMisses: false },
    });
  });

  after(async () => {
    await mock?.stop();
    await proxy?.cut().catch(() => undefined);
    await upstream?.stop();
  });

  it('fetches what a call needs in a few batches, and a second read of the same state sends nothing upstream', async () => {
    const before = { forwarded: proxy.forwarded, calls: proxy.calls };
    const first = await rpc(mock.url, 'eth_call', [balanceOfCall(upstream.holder), 'latest']);
    const firstRequests = proxy.forwarded - before.forwarded;
    assert.ok(firstRequests >= 1 && firstRequests <= 4, `the first balanceOf took ${firstRequests} requests upstream (rounds of one batch each)`);
    assert.ok(proxy.calls - before.calls > firstRequests, 'several reads went in one batch');
    const seen = proxy.forwarded;
    assert.equal(await rpc(mock.url, 'eth_call', [balanceOfCall(upstream.holder), 'latest']), first);
    await rpc(mock.url, 'eth_getBalance', [upstream.holder, 'latest']);
    await rpc(mock.url, 'eth_getBalance', [upstream.holder, 'latest']);
    assert.equal(proxy.forwarded, seen + 1, 'only the first eth_getBalance of that account went upstream (the call had read its storage, not its balance)');
    await rpc(mock.url, 'eth_call', [balanceOfCall(upstream.holder), 'latest']);
    assert.equal(proxy.forwarded, seen + 1, 'nothing more went upstream');
  });

  it('retries a read the upstream answered with HTTP 429', async () => {
    proxy.rateLimitNext(2);
    const limited = proxy.limited;
    const answer = await rpc(mock.url, 'eth_getBalance', [upstream.changedAfter, 'latest']);
    assert.equal(proxy.limited, limited + 2);
    assert.equal(answer, await rpc(upstream.anvil.url, 'eth_getBalance', [upstream.changedAfter, `0x${upstream.forkBlock.toString(16)}`]));
  });

  it('answers an error naming the upstream (redacted) when it is gone; what was fetched keeps answering', async () => {
    const kept = await rpc(mock.url, 'eth_call', [balanceOfCall(upstream.holder), 'latest']);
    // A contract answering blockhash(n), placed while the upstream is there.
    const reader = '0x00000000000000000000000000000000b10c4a54';
    await rpc(mock.url, 'anvil_setCode', [reader, '0x6004354060005260206000f3']);
    await proxy.cut();
    const started = Date.now();
    const error = await rpcError(mock.url, 'eth_getBalance', [fresh(1), 'latest']);
    const waited = Date.now() - started;
    assert.equal(error.code, -32002);
    assert.match(error.message, /the fork's upstream http:\/\/127\.0\.0\.1:\d+\/<redacted> did not answer/);
    assert.ok(!error.message.includes(API_KEY));
    assert.ok(waited < TIMEOUT_MS + 5_000, `answered after ${waited} ms (deadline ${TIMEOUT_MS} ms)`);
    // Never a silent zero: a transaction to an account not fetched is refused, and the pool stays empty.
    const refused = await rpcError(mock.url, 'eth_sendTransaction', [{ from: mock.accounts[0].address, to: fresh(2), value: '0x1' }]);
    assert.match(refused.message, /fork's upstream/);
    assert.deepEqual((await rpc(mock.url, 'txpool_status')).pending, '0x0');
    // What was fetched keeps answering, and the node keeps serving and building blocks.
    assert.equal(await rpc(mock.url, 'eth_call', [balanceOfCall(upstream.holder), 'latest']), kept);
    const head = BigInt(await rpc(mock.url, 'eth_blockNumber'));
    await rpc(mock.url, 'evm_mine');
    assert.equal(BigInt(await rpc(mock.url, 'eth_blockNumber')), head + 1n);
    // BLOCKHASH of a block below the fork block needs it too: an error, never a zero hash.
    const blockHash = await rpcError(mock.url, 'eth_call', [{ to: reader, data: `0x00000000${(upstream.forkBlock - 3n).toString(16).padStart(64, '0')}` }, 'latest']);
    assert.match(blockHash.message, /fork's upstream .* did not answer eth_getBlockByNumber/);
    // History before the fork block needs the upstream too: an error, not an empty answer.
    const history = await rpcError(mock.url, 'eth_getBlockByNumber', ['0x1', false]);
    assert.match(history.message, /fork's upstream/);
    assert.ok(logged.length > 0);
    assert.ok(!logged.some((line) => line.includes(API_KEY)), 'the key never reaches the log');
  });
});

// Proxies through the same counting proxy: the fork fetches a proxy's slots and its
// implementation's account together with the proxy, not one run of the EVM at a time.
describe("fork: a proxy's implementation comes with the proxy", function () {
  this.timeout(120_000);
  const SECOND_PROXY = '0x00000000000000000000000000000000000a0b0c';
  const SECOND_IMPLEMENTATION = '0x00000000000000000000000000000000000d0e0f';
  const ZEPPELINOS_IMPLEMENTATION = '0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3';
  const ZEPPELINOS_ADMIN = '0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390b';
  let upstream: ForkUpstream;
  let proxy: CountingProxy;
  let mock: RunningMockNode;
  let forkBlock: bigint;

  before(async function () {
    anvilOrSkip(this);
    upstream = await startForkUpstream();
    // A second FiatTokenProxy, not fetched at the start, over a copy of the implementation at another address.
    const url = upstream.anvil.url;
    const at = `0x${upstream.forkBlock.toString(16)}`;
    const implementation = `0x${(await rpc(url, 'eth_getStorageAt', [BASE_USDC, ZEPPELINOS_IMPLEMENTATION, at])).slice(-40)}`;
    await rpc(url, 'anvil_setCode', [SECOND_IMPLEMENTATION, await rpc(url, 'eth_getCode', [implementation, at])]);
    await rpc(url, 'anvil_setCode', [SECOND_PROXY, await rpc(url, 'eth_getCode', [BASE_USDC, at])]);
    await rpc(url, 'anvil_setStorageAt', [SECOND_PROXY, ZEPPELINOS_IMPLEMENTATION, `0x${SECOND_IMPLEMENTATION.slice(2).padStart(64, '0')}`]);
    await rpc(url, 'anvil_setStorageAt', [SECOND_PROXY, ZEPPELINOS_ADMIN, await rpc(url, 'eth_getStorageAt', [BASE_USDC, ZEPPELINOS_ADMIN, at])]);
    await rpc(url, 'anvil_mine', ['0x1']);
    forkBlock = BigInt(await rpc(url, 'eth_blockNumber'));
    proxy = await startCountingProxy(url);
    mock = await startTestNode({ fork: { url: proxy.url, blockNumber: forkBlock, timeoutMs: TIMEOUT_MS, retries: 2, retryBackoffMs: 20, waitAtMisses: false } });
  });

  after(async () => {
    await mock?.stop();
    await proxy?.cut().catch(() => undefined);
    await upstream?.stop();
  });

  const upstreamAnswer = (call: Record<string, unknown>) => rpc(upstream.anvil.url, 'eth_call', [call, `0x${forkBlock.toString(16)}`]);

  it("answers the first balanceOf of the forked USDC (a proxy fetched at the start) with one request upstream", async () => {
    const call = balanceOfCall(upstream.holder);
    const before = proxy.forwarded;
    const answer = await rpc(mock.url, 'eth_call', [call, 'latest']);
    assert.equal(proxy.forwarded - before, 1, 'the balance slot (and the caller) in one batch: the proxy slots and the implementation came with the start');
    assert.equal(answer, await upstreamAnswer(call));
  });

  it('fetches a proxy first met in a call with its slots and its implementation: four requests for a first balanceOf, not five', async () => {
    const call = { ...balanceOfCall(upstream.holder), to: SECOND_PROXY };
    const before = proxy.forwarded;
    const answer = await rpc(mock.url, 'eth_call', [call, 'latest']);
    // The proxy's account; its admin and implementation slots; the implementation's account; the balance slot.
    assert.equal(proxy.forwarded - before, 4);
    assert.equal(answer, await upstreamAnswer(call));
    const again = proxy.forwarded;
    await rpc(mock.url, 'eth_call', [call, 'latest']);
    assert.equal(proxy.forwarded, again, 'nothing more went upstream');
  });
});
