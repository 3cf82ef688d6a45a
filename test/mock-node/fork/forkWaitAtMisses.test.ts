// Waiting at misses (state/missRecorder.ts): against an upstream on this machine, a run waits at
// its first two misses for their keys instead of running again once they are fetched; its later
// misses still go in one batch. Against a remote upstream (here pinned: waitAtMisses false) every
// miss of a run goes in one batch. Both answer the same. A slow moment of a near upstream holds
// the EVM no longer than the wait's deadline: another call is not kept waiting behind it.
import assert from 'node:assert/strict';
import type { RunningMockNode } from '../../../mock-node/index';
import { resolveFork } from '../../../mock-node/options';
import { anvilOrSkip } from '../../helpers/anvil';
import { startCountingProxy, type CountingProxy } from '../../helpers/countingProxy';
import { balanceOfCall, startForkUpstream, type ForkUpstream } from '../../helpers/forkUpstream';
import { rpc, startTestNode } from '../../helpers/rpc';

/** Code that adds slots 1 to 5 and returns the sum: five independent reads in one call. */
const SUM_OF_FIVE_SLOTS = `0x${['600154', '600254', '01', '600354', '01', '600454', '01', '600554', '01', '600052', '60206000f3'].join('')}`;
const SUMMER = '0x00000000000000000000000000000000005a5a5a';
const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const fresh = (n: number) => `0x${(0xfeed00 + n).toString(16).padStart(40, '0')}`;

describe('fork: waiting at misses', function () {
  this.timeout(120_000);
  let upstream: ForkUpstream;
  let forkBlock: bigint;
  const proxies: CountingProxy[] = [];
  const nodes: RunningMockNode[] = [];
  let near: { node: RunningMockNode; proxy: CountingProxy };
  let far: { node: RunningMockNode; proxy: CountingProxy };

  before(async function () {
    anvilOrSkip(this);
    upstream = await startForkUpstream();
    const url = upstream.anvil.url;
    await rpc(url, 'anvil_setCode', [SUMMER, SUM_OF_FIVE_SLOTS]);
    for (let n = 1; n <= 5; n++) await rpc(url, 'anvil_setStorageAt', [SUMMER, slot(n), slot(n)]);
    await rpc(url, 'anvil_mine', ['0x1']);
    forkBlock = BigInt(await rpc(url, 'eth_blockNumber'));
    const start = async (waitAtMisses: boolean | undefined) => {
      const proxy = await startCountingProxy(url);
      proxies.push(proxy);
      const node = await startTestNode({ fork: { url: proxy.url, blockNumber: forkBlock, timeoutMs: 5_000, retries: 1, retryBackoffMs: 20, ...(waitAtMisses === undefined ? {} : { waitAtMisses }) } });
      nodes.push(node);
      return { node, proxy };
    };
    near = await start(undefined);
    far = await start(false);
  });

  after(async () => {
    for (const node of nodes) await node.stop();
    for (const proxy of proxies) await proxy.cut().catch(() => undefined);
    await upstream?.stop();
  });

  /** What one call sends upstream: requests and the JSON-RPC calls in them. */
  async function sent(target: { node: RunningMockNode; proxy: CountingProxy }, call: Record<string, unknown>): Promise<{ answer: string; requests: number; calls: number }> {
    const before = { requests: target.proxy.forwarded, calls: target.proxy.calls };
    const answer = await rpc(target.node.url, 'eth_call', [call, 'latest']);
    return { answer, requests: target.proxy.forwarded - before.requests, calls: target.proxy.calls - before.calls };
  }

  it('waits by default only when the upstream is on this machine', () => {
    for (const url of ['http://127.0.0.1:8545', 'http://localhost:8545/rpc', 'http://[::1]:8545', 'http://127.1.2.3/']) assert.equal(resolveFork({ url })!.waitAtMisses, true, url);
    for (const url of ['https://mainnet.base.org', 'http://10.0.0.5:8545', 'https://base-mainnet.g.alchemy.com/v2/key']) assert.equal(resolveFork({ url })!.waitAtMisses, false, url);
    assert.equal(resolveFork({ url: 'http://127.0.0.1:8545', waitAtMisses: false })!.waitAtMisses, false);
    assert.throws(() => resolveFork({ url: 'http://127.0.0.1:8545', waitAtMisses: 'yes' as never }), /waitAtMisses must be true or false/);
  });

  it("answers a fresh holder's first balanceOf with one request either way, as the upstream has it at the fork block", async () => {
    const call = { ...balanceOfCall(upstream.holder), from: upstream.wallets[2].address };
    const expected = await rpc(upstream.anvil.url, 'eth_call', [call, `0x${forkBlock.toString(16)}`]);
    for (const target of [near, far]) {
      const { answer, requests, calls } = await sent(target, call);
      assert.equal(answer, expected);
      assert.deepEqual({ requests, calls }, { requests: 1, calls: 1 }, 'the balance slot alone: the caller and the token came with the start');
    }
  });

  it('waits at the first two misses of a run and fetches the rest in one batch; a remote upstream gets them all in one', async () => {
    const call = { to: SUMMER, from: upstream.wallets[3].address, data: '0x' };
    const sum = `0x${(15).toString(16).padStart(64, '0')}`;
    const nearly = await sent(near, call);
    const remotely = await sent(far, call);
    assert.equal(nearly.answer, sum);
    assert.equal(remotely.answer, sum);
    // Both: the contract's account (3 calls: balance, nonce, code) before it runs, then its five slots.
    assert.equal(nearly.calls, 8);
    assert.equal(remotely.calls, 8);
    // Near: the account, slot 1 and slot 2 waited at one by one, slots 3 to 5 in one batch.
    assert.equal(nearly.requests, 4);
    // Remote: the account, then the five slots in one batch.
    assert.equal(remotely.requests, 2);
  });

  it('waits no longer than its deadline at a slow upstream, and keeps no other call waiting behind it', async () => {
    const known = balanceOfCall(upstream.holder);
    const expectedKnown = await rpc(near.node.url, 'eth_call', [known, 'latest']);
    const slowCall = balanceOfCall(fresh(1));
    const expectedSlow = await rpc(upstream.anvil.url, 'eth_call', [slowCall, `0x${forkBlock.toString(16)}`]);
    near.proxy.delayMs = 400;
    try {
      const finished: string[] = [];
      const slow = rpc(near.node.url, 'eth_call', [slowCall, 'latest']).then((answer) => (finished.push('slow'), answer));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const quick = rpc(near.node.url, 'eth_call', [known, 'latest']).then((answer) => (finished.push('quick'), answer));
      assert.equal(await quick, expectedKnown);
      assert.equal(await slow, expectedSlow);
      assert.deepEqual(finished, ['quick', 'slow'], 'the call over state already fetched did not wait for the slow fetch');
    } finally {
      near.proxy.delayMs = 0;
    }
  });
});
