// The profile rules, limits and faults answer the same through the CLI's server (raw http fast
// path) and through mockNodeRouter() mounted in a user's Express app.
import assert from 'node:assert/strict';
import { post, rpc, startTestNodeVia, TRANSPORTS, type TestNode } from '../../helpers/rpc';

for (const transport of TRANSPORTS) {
  describe(`profiles, limits and faults via ${transport}`, () => {
    let node: TestNode;
    beforeEach(async () => {
      node = await startTestNodeVia(transport, { limits: { public: { requestsPerSecond: 3, maxBodyBytes: 2048, maxLogBlockRange: 5 } } });
    });
    afterEach(() => node.stop());

    it('403 for receipts on public (single and batch), 401 for a wrong key, receipts on dedicated', async () => {
      const single = await post(node.url, { jsonrpc: '2.0', id: 1, method: 'eth_getBlockReceipts', params: ['latest'] });
      assert.equal(single.status, 403);
      assert.equal(single.body.error.code, -32004);
      const batch = await post(node.url, [{ jsonrpc: '2.0', id: 1, method: 'eth_getBlockReceipts', params: ['latest'] }]);
      assert.equal(batch.status, 403);
      assert.equal((await post(node.dedicatedUrl.replace(/dedicated\/.*/, 'dedicated/nope'), { jsonrpc: '2.0', id: 1, method: 'eth_chainId' })).status, 401);
      assert.deepEqual(await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', ['pending']), []);
    });

    it('413 above the public body limit, not on dedicated; the range limit', async () => {
      const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: ['x'.repeat(3000)] });
      assert.equal((await post(node.url, big)).status, 413);
      assert.equal((await post(node.dedicatedUrl, big)).status, 200);
      await rpc(node.dedicatedUrl, 'evm_mine', [8]);
      const range = await post(node.url, { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: '0x1', toBlock: '0x6' }] });
      assert.deepEqual(range.body.error, { code: -32005, message: 'query exceeds max block range 5', data: { limit: 5, from: 1, to: 6 } });
    });

    it('429 with Retry-After above the rate; an injected timeout closes the connection', async () => {
      const replies = await Promise.all(Array.from({ length: 8 }, () => fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' })));
      const limited = replies.filter((r) => r.status === 429);
      assert.ok(limited.length >= 5);
      assert.ok(Number(limited[0].headers.get('retry-after')) >= 1);
      await rpc(node.dedicatedUrl, 'mock_setFaults', [{ dedicated: { eth_blockNumber: { timeoutMs: 100 } } }]);
      await assert.rejects(fetch(node.dedicatedUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}' }));
    });
  });
}
