// Endpoint profiles and their limits over real HTTP: the public receipts rule (403), the
// dedicated key (401), eth_getLogs range and result caps, requests per second (429 +
// Retry-After), batch size and body size (413).
import assert from 'node:assert/strict';
import type { RunningMockNode } from '../../../mock-node/index';
import { parseCommandLine } from '../../../mock-node/cli';
import { resolveOptions } from '../../../mock-node/options';
import { RateLimiter } from '../../../mock-node/rpc/rateLimit';
import { post, rpc, startTestNode } from '../../helpers/rpc';
import { blockWithTransfers, hex, sendTokenTransfer, TRANSFER_TOPIC } from './helpers';

describe('endpoint profiles', () => {
  describe('eth_getBlockReceipts', () => {
    let node: RunningMockNode;
    before(async () => {
      node = await startTestNode();
      await blockWithTransfers(node, 3);
    });
    after(() => node.stop());

    it('public: HTTP 403 with -32004 pointing to a dedicated endpoint, for a single request', async () => {
      const reply = await post(node.url, { jsonrpc: '2.0', id: 7, method: 'eth_getBlockReceipts', params: ['latest'] });
      assert.equal(reply.status, 403);
      assert.equal(reply.body.id, 7);
      assert.equal(reply.body.error.code, -32004);
      assert.match(reply.body.error.message, /dedicated endpoint/);
    });

    it('public: HTTP 403 for a batch that calls it anywhere, every entry an error', async () => {
      const reply = await post(node.url, [
        { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'eth_getBlockReceipts', params: ['pending'] },
      ]);
      assert.equal(reply.status, 403);
      assert.equal(reply.body.length, 2);
      assert.deepEqual(reply.body.map((r: any) => r.id), [1, 2]);
      for (const entry of reply.body) assert.equal(entry.error.code, -32004);
      assert.match(reply.body[1].error.message, /dedicated endpoint/);
    });

    it('dedicated: the full receipt list for latest and for pending', async () => {
      const latest = await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', ['latest']);
      assert.equal(latest.length, 3);
      const block = await rpc(node.dedicatedUrl, 'eth_getBlockByNumber', ['latest', false]);
      assert.deepEqual(latest.map((r: any) => r.transactionHash), block.transactions);
      for (const [i, receipt] of latest.entries()) {
        assert.equal(receipt.transactionIndex, hex(i));
        assert.equal(receipt.blockHash, block.hash);
        assert.equal(receipt.status, '0x1');
        assert.equal(receipt.logs.length, 1);
        for (const field of ['from', 'to', 'cumulativeGasUsed', 'effectiveGasPrice', 'contractAddress', 'logsBloom', 'gasUsed', 'type']) assert.ok(field in receipt, field);
      }
      const a = await sendTokenTransfer(node, 2, 3, 5n);
      const b = await sendTokenTransfer(node, 3, 2, 1n);
      await rpc(node.url, 'mock_flashblock');
      const pending = await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', ['pending']);
      assert.deepEqual(pending.map((r: any) => r.transactionHash), [a, b]);
      assert.equal(pending[1].transactionIndex, '0x1');
      assert.equal(pending[0].blockNumber, hex(Number(node.core.services.chain.head) + 1));
      // a batch with it is served too
      const batch = await post(node.dedicatedUrl, [
        { jsonrpc: '2.0', id: 1, method: 'eth_getBlockReceipts', params: ['latest'] },
        { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] },
      ]);
      assert.equal(batch.status, 200);
      assert.equal(batch.body[0].result.length, 3);
    });

    it('a wrong dedicated key is HTTP 401', async () => {
      const wrong = node.dedicatedUrl.replace(node.apiKey, node.apiKey + 'x');
      const reply = await post(wrong, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
      assert.equal(reply.status, 401);
      assert.match(reply.body.error.message, /unauthorized/);
    });
  });

  describe('eth_getLogs limits', () => {
    let node: RunningMockNode;
    before(async () => {
      node = await startTestNode({ limits: { public: { maxLogResults: 5 }, dedicated: { maxLogResults: 8 } } });
      await blockWithTransfers(node, 2); // block 1: 2 logs
      await blockWithTransfers(node, 3); // block 2: 3 logs
      await blockWithTransfers(node, 2); // block 3: 2 logs
      await rpc(node.url, 'evm_mine', [2100]); // head 2103
    });
    after(() => node.stop());

    it('a range over 2,000 blocks on public fails at once with -32005 and data {limit, from, to}', async () => {
      const started = performance.now();
      const reply = await post(node.url, { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: '0x1', toBlock: hex(2001) }] });
      const ms = performance.now() - started;
      console.log(`      range error answered in ${ms.toFixed(1)} ms`);
      assert.ok(ms < 1000, 'well under a second (a generous bound: it is checked before any block is read)');
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body.error, { code: -32005, message: 'query exceeds max block range 2000', data: { limit: 2000, from: 1, to: 2001 } });
      // exactly 2,000 blocks is allowed
      const ok = await rpc(node.url, 'eth_getLogs', [{ fromBlock: '0x4', toBlock: hex(2003) }]);
      assert.deepEqual(ok, []);
      // tags count too: earliest..latest spans the whole chain
      const tags = await post(node.url, { jsonrpc: '2.0', id: 2, method: 'eth_getLogs', params: [{ fromBlock: 'earliest', toBlock: 'pending' }] });
      assert.equal(tags.body.error.code, -32005);
      assert.deepEqual(tags.body.error.data, { limit: 2000, from: 0, to: 2104 });
    });

    it('dedicated has its own, larger range limit', async () => {
      const logs = await rpc(node.dedicatedUrl, 'eth_getLogs', [{ fromBlock: 'earliest', toBlock: '0x3' }]);
      assert.equal(logs.length, 7);
      const wide = await rpc(node.dedicatedUrl, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: hex(2101) }]).catch((e) => e);
      assert.ok(Array.isArray(wide), 'dedicated serves 2,101 blocks');
    });

    it('more results than the cap fail with -32602 naming a range that fits', async () => {
      const started = performance.now();
      const reply = await post(node.url, { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: '0x1', toBlock: '0x3', topics: [TRANSFER_TOPIC] }] });
      const ms = performance.now() - started;
      console.log(`      result-cap error answered in ${ms.toFixed(1)} ms`);
      assert.ok(ms < 1000, 'well under a second (a generous bound)');
      assert.equal(reply.body.error.code, -32602);
      assert.equal(reply.body.error.message, 'query exceeds max results 5, retry with the range 1-2');
      assert.deepEqual(reply.body.error.data, { limit: 5, retryFrom: 1, retryTo: 2 });
      const retried = await rpc(node.url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x2' }]);
      assert.equal(retried.length, 5);
      // the cap is per profile: dedicated (cap 8) returns all 7
      assert.equal((await rpc(node.dedicatedUrl, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x3' }])).length, 7);
      // the cap applies to a blockHash query as well
      const small = await startTestNode({ limits: { public: { maxLogResults: 2 } } });
      try {
        await blockWithTransfers(small, 3);
        const hash = (await rpc(small.url, 'eth_getBlockByNumber', ['latest', false])).hash;
        const capped = await post(small.url, { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ blockHash: hash }] });
        assert.equal(capped.body.error.message, 'query exceeds max results 2, retry with the range 1-1');
      } finally {
        await small.stop();
      }
    });
  });

  describe('rate, batch and body limits', () => {
    let node: RunningMockNode;
    before(async () => {
      node = await startTestNode({ limits: { public: { requestsPerSecond: 5, maxBatch: 3, maxBodyBytes: 2048 } } });
    });
    after(() => node.stop());

    it('a burst above requests per second gets HTTP 429 with Retry-After and an Infura-like -32005 body', async () => {
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_chainId', params: [] }) }),
        ),
      );
      const limited = burst.filter((r) => r.status === 429);
      const served = burst.filter((r) => r.status === 200);
      console.log(`      burst of 20: ${served.length} served, ${limited.length} answered 429`);
      assert.ok(limited.length >= 10, `expected most of the burst to be limited, got ${limited.length}`);
      assert.ok(served.length >= 1 && served.length <= 5);
      const retryAfter = Number(limited[0].headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1);
      const body = (await limited[0].json()) as any;
      assert.equal(body.error.code, -32005);
      assert.equal(body.error.message, 'request rate exceeded: 5 requests per second allowed on the public endpoint');
      assert.equal(body.error.data.allowed_rps, 5);
      assert.ok(body.error.data.current_rps > 5);
      assert.equal(body.error.data.backoff_seconds, retryAfter);
      // the dedicated profile has no limit here
      const dedicated = await Promise.all(Array.from({ length: 20 }, () => post(node.dedicatedUrl, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })));
      assert.ok(dedicated.every((r) => r.status === 200));
    });

    it('a batch above the profile batch size is refused with -32005', async () => {
      // The batch size is checked before the rate limit: the burst above leaves nothing to wait for.
      const request = (id: number) => ({ jsonrpc: '2.0', id, method: 'eth_chainId', params: [] });
      const reply = await post(node.url, [request(1), request(2), request(3), request(4)]);
      assert.equal(reply.body.error.code, -32005);
      assert.equal(reply.body.error.message, 'batch too large: 4 requests, max 3');
      const ok = await post(node.dedicatedUrl, [request(1), request(2), request(3), request(4)]);
      assert.equal(ok.body.length, 4);
    });

    it('a body above the profile limit is HTTP 413', async () => {
      const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: ['x'.repeat(4096)] });
      const reply = await post(node.url, big);
      assert.equal(reply.status, 413);
      assert.equal(reply.body.error.code, -32005);
      assert.equal(reply.body.error.message, 'request body too large: limit 2048 bytes');
      const dedicated = await post(node.dedicatedUrl, big);
      assert.equal(dedicated.status, 200);
    });
  });

  describe('the rate limiter', () => {
    it('counts one-second windows; a batch counts each request; Retry-After is the rest of the window', () => {
      let now = 10_000;
      const limiter = new RateLimiter(() => 3, () => now);
      assert.deepEqual(limiter.take(2), { ok: true, current: 2, retryAfterSeconds: 1 });
      now += 400;
      assert.equal(limiter.take(1).ok, true);
      const over = limiter.take(1);
      assert.equal(over.ok, false);
      assert.equal(over.current, 4);
      now += 600; // a new window
      assert.deepEqual(limiter.take(3), { ok: true, current: 3, retryAfterSeconds: 1 });
      assert.equal(limiter.take(1).ok, false);
      assert.equal(new RateLimiter(() => 0).take(1_000_000).ok, true, '0 = no limit');
    });
  });

  describe('limit options', () => {
    it('defaults: public 2,000 blocks / 10,000 results, dedicated larger; bad values are refused', () => {
      const o = resolveOptions({});
      assert.equal(o.limits.public.maxLogBlockRange, 2000);
      assert.equal(o.limits.public.maxLogResults, 10_000);
      assert.ok(o.limits.dedicated.maxLogBlockRange > 2000);
      assert.throws(() => resolveOptions({ limits: { public: { maxBatch: 0 } } }), /limits.public.maxBatch/);
      assert.throws(() => resolveOptions({ limits: { public: { nope: 1 } as any } }), /unknown limit/);
    });

    it('CLI flags set them', () => {
      const { options } = parseCommandLine(['--max-log-range', '500', '--max-log-results', '50', '--rate-limit', '10', '--max-batch', '20', '--dedicated-rate-limit', '100']);
      const o = resolveOptions(options);
      assert.deepEqual(
        [o.limits.public.maxLogBlockRange, o.limits.public.maxLogResults, o.limits.public.requestsPerSecond, o.limits.public.maxBatch, o.limits.dedicated.requestsPerSecond],
        [500, 50, 10, 20, 100],
      );
    });
  });
});
