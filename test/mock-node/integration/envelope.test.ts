// The JSON-RPC 2.0 envelope: batches, notifications, id echo, standard error codes, body size;
// bad input changes nothing and the node keeps serving.
import assert from 'node:assert/strict';
import { post, rpc, startTestNodeVia, TRANSPORTS, type TestNode } from '../../helpers/rpc';

for (const transport of TRANSPORTS) describe(`JSON-RPC envelope (${transport === 'http' ? 'CLI server' : 'mockNodeRouter in an Express app'})`, () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNodeVia(transport, { maxBodyBytes: 4096 });
  });
  after(() => node.stop());

  it('echoes string, number and null ids', async () => {
    for (const id of ['abc', 42, null]) {
      const reply = await post(node.url, { jsonrpc: '2.0', id, method: 'eth_chainId', params: [] });
      assert.deepEqual(reply.body, { jsonrpc: '2.0', id, result: '0x7a69' });
    }
  });

  it('answers batches in order and leaves notifications out', async () => {
    const reply = await post(node.url, [
      { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
      { jsonrpc: '2.0', method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 'x', method: 'nope_method', params: [] },
      { jsonrpc: '2.0', id: 3, method: 'net_version' },
    ]);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body.map((r: any) => r.id), [1, 'x', 3]);
    assert.equal(reply.body[1].error.code, -32601);
    assert.equal(reply.body[2].result, '31337');
  });

  it('a notification alone gets no body', async () => {
    const response = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'eth_chainId', params: [] }) });
    assert.equal(response.status, 204);
    assert.equal(await response.text(), '');
  });

  const cases: [string, unknown, number][] = [
    ['malformed JSON', '{"jsonrpc": "2.0", "id": 1, "method": ', -32700],
    ['an empty batch', [], -32600],
    ['a request that is not an object', 17, -32600],
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 1, method: 'eth_chainId' }, -32600],
    ['a method that is not a string', { jsonrpc: '2.0', id: 1, method: 5 }, -32600],
    ['params that are not an array', { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: { a: 1 } }, -32602],
    ['an unknown method', { jsonrpc: '2.0', id: 1, method: 'eth_nope', params: [] }, -32601],
    ['a missing required param', { jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest'] }, -32602],
    ['a hex number with a leading zero', { jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['0x01', false] }, -32602],
    ['a non-hex block', { jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['0xzz', false] }, -32602],
    ['an unknown tag', { jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['newest', false] }, -32602],
    ['a bad address', { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionCount', params: ['0x1234', 'latest'] }, -32602],
    ['garbage raw transaction bytes', { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: ['0xdeadbeef'] }, -32000],
    ['a raw transaction that is not hex', { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: ['hello'] }, -32602],
    ['eth_sendTransaction from an unknown account', { jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [{ from: '0x' + '12'.repeat(20), to: '0x' + '34'.repeat(20) }] }, -32000],
  ];
  for (const [what, body, code] of cases) {
    it(`${what} gets ${code} and changes nothing`, async () => {
      const before = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
      const reply = await post(node.url, body);
      const error = Array.isArray(reply.body) ? reply.body[0].error : reply.body.error;
      assert.equal(error.code, code, JSON.stringify(reply.body));
      assert.equal(typeof error.message, 'string');
      const after = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
      assert.equal(after.stateRoot, before.stateRoot);
      assert.equal(await rpc(node.url, 'eth_chainId'), '0x7a69');
    });
  }

  it('a body over the limit gets HTTP 413 and the node keeps serving', async () => {
    const reply = await post(node.url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: ['x'.repeat(10_000)] });
    assert.equal(reply.status, 413);
    assert.equal(reply.body.error.code, -32005);
    assert.equal(await rpc(node.url, 'eth_chainId'), '0x7a69');
  });

  it('a wrong dedicated key gets HTTP 401', async () => {
    const reply = await post(node.url.replace(/\/$/, '') + '/dedicated/wrong-key', { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
    assert.equal(reply.status, 401);
  });

  if (transport === 'http') it('GET /health reports the head and the pending block', async () => {
    const health = await (await fetch(node.url + 'health')).json();
    assert.equal(health.status, 'ok');
    assert.equal(health.chainId, '31337');
    assert.equal(typeof health.pending.flashblockIndex, 'number');
  });
});
