// A notification written as a frame around shared bytes (notificationFrames.ts) must be the very
// frame ws.send would write: every length encoding (7-bit, 16-bit, 64-bit), non-ASCII results,
// in order with ws's own frames, and the same bytes shared by many sockets.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { ENVELOPE_END, writeNotificationFrame } from '../../../mock-node/rpc/websocket/notificationFrames';
import { NotificationResult } from '../../../mock-node/rpc/websocket/subscriptions';

const envelope = (id: string) => `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":`;

describe('WebSocket notification frames around shared bytes', function () {
  this.timeout(20_000);
  let server: WebSocketServer;
  const accepted: WebSocket[] = [];

  before(async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
    server.on('connection', (ws) => accepted.push(ws));
    await new Promise((resolve) => server.once('listening', resolve));
  });
  after(async () => {
    for (const ws of accepted) ws.terminate();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A client connected to the server, with the server's side of it and every text it receives. */
  async function connect(): Promise<{ serverSide: WebSocket; received: string[]; client: WebSocket }> {
    const before = accepted.length;
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, { perMessageDeflate: false });
    const received: string[] = [];
    client.on('message', (data, isBinary) => {
      assert.equal(isBinary, false, 'a text frame');
      received.push(data.toString('utf8'));
    });
    await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
    while (accepted.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
    return { serverSide: accepted[accepted.length - 1], received, client };
  }

  async function until(predicate: () => boolean): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  it('writes each length encoding and non-ASCII results exactly, in order with ws.send frames', async () => {
    const { serverSide, received, client } = await connect();
    // Results whose whole frame needs a 7-bit, a 16-bit and a 64-bit length, and one with
    // characters that take two to four UTF-8 bytes.
    const results = [
      '"0x1"',
      JSON.stringify({ data: '0x' + 'ab'.repeat(60) }),
      JSON.stringify({ data: '0x' + 'cd'.repeat(20_000) }),
      JSON.stringify({ data: '0x' + 'ef'.repeat(70_000) }),
      JSON.stringify({ revertReason: 'caf\u00e9 \u20ac \ud83d\ude00' }),
    ];
    const expected: string[] = [];
    results.forEach((json, i) => {
      const text = envelope(`0x${i}`) + json + ENVELOPE_END;
      assert.ok(writeNotificationFrame(serverSide, { envelope: envelope(`0x${i}`), result: new NotificationResult(json) }), 'written straight to the socket');
      expected.push(text);
      serverSide.send(`{"jsonrpc":"2.0","id":${i},"result":null}`);
      expected.push(`{"jsonrpc":"2.0","id":${i},"result":null}`);
    });
    await until(() => received.length === expected.length);
    assert.deepEqual(received, expected);
    for (const text of received) JSON.parse(text);
    client.close();
  });

  it('shares one result\'s bytes among many sockets, encoding them once', async () => {
    const sockets = await Promise.all(Array.from({ length: 5 }, () => connect()));
    const json = JSON.stringify({ block: '0x' + '12'.repeat(50_000) });
    const result = new NotificationResult(json);
    const bytes = result.bytes;
    sockets.forEach(({ serverSide }, i) => assert.ok(writeNotificationFrame(serverSide, { envelope: envelope(`0x${i}`), result })));
    assert.equal(result.bytes, bytes, 'the same Buffer, made once');
    await until(() => sockets.every(({ received }) => received.length === 1));
    sockets.forEach(({ received }, i) => assert.equal(received[0], envelope(`0x${i}`) + json + ENVELOPE_END));
    for (const { client } of sockets) client.close();
  });

  it('declines (the caller sends through ws) once the socket is closing', async () => {
    const { serverSide, client } = await connect();
    serverSide.terminate();
    assert.equal(writeNotificationFrame(serverSide, { envelope: envelope('0x1'), result: new NotificationResult('"0x1"') }), false);
    client.terminate();
  });
});
