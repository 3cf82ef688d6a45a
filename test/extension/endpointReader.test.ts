import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EndpointReader } from '../../extension/explorer/endpointReader';
import { RpcClient } from '../../extension/rpc/client';
import { block } from './fixtures';

interface Call { id: number; method: string; params: unknown[] }

/** A node that answers single calls from `results`, and refuses batches the way `refuse` says. */
async function fakeNode(refuse: 'http400' | 'invalid-request' | 'none', results: Record<string, unknown>, seen: string[]) {
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => { text += c.toString(); });
    req.on('end', () => {
      const body = JSON.parse(text) as Call | Call[];
      const answer = (c: Call) => (c.method in results
        ? { jsonrpc: '2.0', id: c.id, result: results[c.method] }
        : { jsonrpc: '2.0', id: c.id, error: { code: -32601, message: `the method ${c.method} does not exist/is not available` } });
      res.setHeader('content-type', 'application/json');
      if (Array.isArray(body)) {
        seen.push('batch');
        if (refuse === 'http400') { res.writeHead(400); res.end('{"error":"batch requests are not supported"}'); return; }
        if (refuse === 'invalid-request') { res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch not supported' } })); return; }
        res.end(JSON.stringify(body.map(answer)));
        return;
      }
      seen.push(body.method);
      res.end(JSON.stringify(answer(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const results = { eth_chainId: '0x2105', web3_clientVersion: 'op-geth/v1.101', eth_blockNumber: '0x7b', eth_getBlockByNumber: block() };

describe('EndpointReader against nodes that refuse batches', () => {
  for (const refuse of ['http400', 'invalid-request'] as const) {
    it(`falls back to one call at a time (${refuse}) and remembers it`, async () => {
      const seen: string[] = [];
      const node = await fakeNode(refuse, results, seen);
      try {
        const reader = new EndpointReader(new RpcClient(node.url));
        const overview = await reader.overview(false);
        assert.deepEqual(overview, { ok: true, value: { chainId: '0x2105', clientVersion: 'op-geth/v1.101', head: '0x7b' } });
        assert.equal(reader.batchesRefused, true);
        const { block: b, head } = await reader.block('latest');
        assert.equal(head, '0x7b');
        assert.ok(b.ok && b.value?.number === '0x7b');
        assert.deepEqual(seen, ['batch', 'eth_chainId', 'web3_clientVersion', 'eth_blockNumber', 'eth_getBlockByNumber', 'eth_blockNumber']);
      } finally {
        await node.close();
      }
    });
  }

  it('keeps batching where batches work, and reports a missing method per item', async () => {
    const seen: string[] = [];
    const node = await fakeNode('none', { eth_chainId: '0x1', eth_blockNumber: '0x2' }, seen);
    try {
      const reader = new EndpointReader(new RpcClient(node.url));
      const overview = await reader.overview(false);
      assert.deepEqual(overview, { ok: true, value: { chainId: '0x1', clientVersion: '(no client version)', head: '0x2' } });
      assert.equal(reader.batchesRefused, false);
      assert.deepEqual(seen, ['batch']);
    } finally {
      await node.close();
    }
  });
});
