// The WebSocket JSON-RPC client against real sockets: calls and notifications against the mock
// node, and bounded against hostile servers (an oversized frame, silence, garbage, an HTTP page).
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { WsRpcClient } from '../../extension/rpc/wsClient';
import { startMockNode } from '../../mock-node/index';

async function hostileServer(onMessage: (send: (text: string) => void, text: string) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  server.on('connection', (socket) => socket.on('message', (data) => onMessage((text) => socket.send(text), data.toString())));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => { for (const c of server.clients) c.terminate(); server.close(() => resolve()); }),
  };
}

describe('WsRpcClient', function () {
  this.timeout(20_000);

  it('calls and subscribes on the mock node; unsubscribed, no more notifications', async () => {
    const node = await startMockNode({ port: 0, auto: false, quiet: true });
    const client = new WsRpcClient(node.wsUrl);
    try {
      await client.open();
      assert.equal(await client.call('eth_chainId'), '0x7a69');
      const heads: unknown[] = [];
      const id = await client.subscribe(['newHeads'], (head) => heads.push(head));
      await node.request('evm_mine', []);
      for (let i = 0; i < 100 && heads.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(heads.length, 1);
      assert.match((heads[0] as { number: string }).number, /^0x[1-9a-f][0-9a-f]*$/);
      await client.unsubscribe(id);
      await node.request('evm_mine', []);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(heads.length, 1);
      await assert.rejects(client.call('eth_subscribe', ['noSuchKind']), /noSuchKind/);
    } finally {
      client.dispose();
      await node.stop();
    }
  });

  it('an oversized frame closes the socket and rejects the call; nothing throws', async () => {
    const server = await hostileServer((send) => send('x'.repeat(2 * 1024 * 1024)));
    const client = new WsRpcClient(server.url, { maxMessageBytes: 1024 * 1024 });
    const reasons: string[] = [];
    client.onClose((reason) => reasons.push(reason));
    try {
      await client.open();
      await assert.rejects(client.call('eth_chainId'), /network error/);
      assert.equal(client.closed, true);
      assert.equal(reasons.length, 1);
    } finally {
      client.dispose();
      await server.close();
    }
  });

  it('a server that never answers: the call times out; garbage and unknown ids are ignored', async () => {
    const server = await hostileServer((send) => {
      send('not json');
      send('{"jsonrpc":"2.0","id":999,"result":"0x1"}');
      send('{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0xnone","result":1}}');
    });
    const client = new WsRpcClient(server.url, { timeoutMs: 300 });
    try {
      await client.open();
      await assert.rejects(client.call('eth_chainId'), /timed out|timeout/i);
      assert.equal(client.closed, false);
    } finally {
      client.dispose();
      await server.close();
    }
  });

  it('refuses calls beyond its limit of calls waiting, and an HTTP page instead of a WebSocket is a clear error', async () => {
    const server = await hostileServer(() => undefined);
    const client = new WsRpcClient(server.url, { timeoutMs: 2000, maxPendingCalls: 2 });
    try {
      await client.open();
      const waiting = [client.call('a'), client.call('b')];
      await assert.rejects(client.call('c'), /2 calls already wait/);
      client.dispose();
      await Promise.all(waiting.map((p) => assert.rejects(p, /cancelled/i)));
    } finally {
      await server.close();
    }
    const page = http.createServer((_req, res) => res.end('<html>hello</html>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const toPage = new WsRpcClient(`ws://127.0.0.1:${(page.address() as AddressInfo).port}/`);
    try {
      await assert.rejects(toPage.open(), /HTTP 200 instead of a WebSocket/);
    } finally {
      toPage.dispose();
      page.close();
    }
  });
});
