// Send's pure half against the real mock node (manual mode): what a segment or batch element
// sends, and the reply shapes for results, JSON-RPC errors, the public profile's 403 and an
// endpoint that is down.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMockNode, type RunningMockNode } from '../../../mock-node/index';
import { endpointProfile, payloadOf, sendPayload } from '../../../extension/language/send';
import { parseRpcDocument } from '../../../extension/language/server/document';
import { RpcClient } from '../../../extension/rpc/client';

const FILE = [
  '{ "jsonrpc": "2.0", "id": 7, "method": "eth_chainId", "params": [] }',
  '[',
  '  { "jsonrpc": "2.0", "id": "r", "method": "eth_getBlockReceipts", "params": ["latest"] },',
  '  { "jsonrpc": "2.0", "id": "n", "method": "eth_getTransactionCount", "params": ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "pending"] },',
  '  { "jsonrpc": "2.0", "id": "x", "method": "eth_nope" }',
  ']',
  '{ "method": "eth_blockNumber" }',
  '{ "jsonrpc": "2.0", "id": 1, "params": [] }',
  '[]',
].join('\n');

describe('language: Send', function () {
  this.timeout(20_000);
  let node: RunningMockNode;
  const doc = parseRpcDocument(FILE);

  before(async () => {
    node = await startMockNode({ port: 0, auto: false, quiet: true });
  });
  after(async () => {
    await node.stop();
  });

  it('takes a single request, a whole batch or one element of it; refuses what has no method', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(payloadOf(doc, 0))), { batch: false, requests: [{ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] }] });
    assert.equal(payloadOf(doc, 1)?.batch, true);
    assert.deepEqual(payloadOf(doc, 1)?.requests.map((r) => r.id), ['r', 'n', 'x']);
    assert.deepEqual(payloadOf(doc, 1, 1)?.requests.map((r) => r.method), ['eth_getTransactionCount']);
    assert.equal(payloadOf(doc, 1, 1)?.batch, false);
    assert.equal(payloadOf(doc, 3), undefined, 'no method');
    assert.equal(payloadOf(doc, 4), undefined, 'an empty batch');
    assert.equal(payloadOf(doc, 9), undefined);
  });

  it('answers with the file\'s ids: a result, and per element of a batch a result or the error', async () => {
    const dedicated = new RpcClient(node.dedicatedUrl);
    assert.deepEqual(await sendPayload(dedicated, payloadOf(doc, 0)!), { jsonrpc: '2.0', id: 7, result: '0x7a69' });
    const batch = await sendPayload(dedicated, payloadOf(doc, 1)!) as { id: string; result?: unknown; error?: { code: number } }[];
    assert.deepEqual(batch.map((r) => r.id), ['r', 'n', 'x']);
    assert.ok(Array.isArray(batch[0].result));
    assert.equal(batch[1].result, '0x0');
    assert.equal(batch[2].error?.code, -32601);
    assert.deepEqual(await sendPayload(dedicated, payloadOf(doc, 2)!), { jsonrpc: '2.0', id: null, result: '0x0' }, 'no id: shown as null');
  });

  it('the public profile refuses receipts: a 403 for a single request and for the batch that holds it', async () => {
    const publicClient = new RpcClient(node.url);
    const single = await sendPayload(publicClient, payloadOf(doc, 1, 0)!) as { httpStatus: number; error: { code: number } };
    assert.equal(single.httpStatus, 403);
    assert.equal(single.error.code, -32004);
    const batch = await sendPayload(publicClient, payloadOf(doc, 1)!) as { httpStatus: number };
    assert.equal(batch.httpStatus, 403, 'the whole batch');
  });

  it('an endpoint that is down: a readable error, no throw', async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const reply = await sendPayload(new RpcClient(`http://127.0.0.1:${port}/`, { timeoutMs: 2000 }), payloadOf(doc, 0)!) as { error: string };
    assert.match(reply.error, /endpoint unreachable/);
  });

  it('knows the profile of the mock node\'s endpoints and of /dedicated/ URLs', () => {
    assert.equal(endpointProfile({ id: 'ep:mock:public', url: node.url }), 'public');
    assert.equal(endpointProfile({ id: 'ep:mock:dedicated', url: node.dedicatedUrl }), 'dedicated');
    assert.equal(endpointProfile({ id: 'ep:settings:x', url: 'https://rpc.example/dedicated/abc' }), 'dedicated');
    assert.equal(endpointProfile({ id: 'ep:settings:y', url: 'https://rpc.example/' }), undefined);
    assert.equal(endpointProfile({ id: 'ep:settings:z', url: 'not a url' }), undefined);
  });
});
