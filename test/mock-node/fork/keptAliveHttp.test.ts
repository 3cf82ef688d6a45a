// The fork's HTTP client (mock-node/upstream/keptAliveHttp.ts) against a raw TCP server that
// answers the way real upstreams do: in pieces, chunked, with 100 Continue first, closing the
// connection after the answer or while it sits idle, or not at all.
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { KeptAliveHttp } from '../../../mock-node/upstream/keptAliveHttp';

interface RawServer {
  url: URL;
  /** Connections accepted so far. */
  connections: number;
  /** Request bodies received, in order. */
  bodies: string[];
  /** Their request lines (method, path, version). */
  requestLines: string[];
  close(): Promise<void>;
}

/** A server that hands every request (its body) to `answer`, which writes whatever it likes. */
async function rawServer(answer: (socket: Socket, body: string, index: number) => void): Promise<RawServer> {
  const sockets = new Set<Socket>();
  const state: RawServer = { url: new URL('http://127.0.0.1/'), connections: 0, bodies: [], requestLines: [], close: async () => undefined };
  const server: Server = createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const headEnd = buffered.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const length = Number(/content-length: *(\d+)/i.exec(buffered.toString('latin1', 0, headEnd))?.[1] ?? 0);
        if (buffered.length < headEnd + 4 + length) return;
        const body = buffered.toString('utf8', headEnd + 4, headEnd + 4 + length);
        state.requestLines.push(buffered.toString('latin1', 0, buffered.indexOf('\r\n')));
        buffered = buffered.subarray(headEnd + 4 + length);
        state.bodies.push(body);
        answer(socket, body, state.bodies.length - 1);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/key`);
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}

function reply(body: string, headers = ''): string {
  return `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${headers}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

describe('fork: the upstream HTTP client', () => {
  let server: RawServer | undefined;
  let client: KeptAliveHttp | undefined;

  afterEach(async () => {
    client?.close();
    await server?.close();
    server = undefined;
    client = undefined;
  });

  it('reuses one connection for requests in turn, and sends the path and the body', async () => {
    server = await rawServer((socket, body) => socket.write(reply(`{"echo":${body}}`)));
    client = KeptAliveHttp.forHttp(server.url);
    for (let i = 0; i < 3; i++) {
      const answer: { status: number; text: string } = await client.post(`{"n":${i}}`, 2_000);
      assert.equal(answer.status, 200);
      assert.deepEqual(JSON.parse(answer.text), { echo: { n: i } });
    }
    assert.equal(server.connections, 1);
    assert.deepEqual(server.requestLines, Array(3).fill('POST /v2/key HTTP/1.1'));
  });

  it('reads an answer that arrives in pieces, a chunked one, and one after 100 Continue', async () => {
    const big = JSON.stringify({ result: '0x' + 'ab'.repeat(100_000) });
    server = await rawServer((socket, _body, index) => {
      if (index === 0) {
        const whole = reply(big);
        let at = 0;
        const drip = () => {
          socket.write(whole.slice(at, at + 7_000));
          at += 7_000;
          if (at < whole.length) setTimeout(drip, 1);
        };
        drip();
      } else if (index === 1) {
        socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
        socket.write('5\r\n{"res\r\n');
        setTimeout(() => socket.write('c;ext=1\r\nult":"0x01"}\r\n0\r\n\r\n'), 5);
      } else {
        socket.write('HTTP/1.1 100 Continue\r\n\r\n' + reply('{"result":"0x02"}'));
      }
    });
    client = KeptAliveHttp.forHttp(server.url);
    assert.equal((await client.post('{}', 2_000)).text, big);
    assert.equal((await client.post('{}', 2_000)).text, '{"result":"0x01"}');
    assert.equal((await client.post('{}', 2_000)).text, '{"result":"0x02"}');
    assert.equal(server.connections, 1);
  });

  it('passes on the status and Retry-After, and opens a new connection after "connection: close"', async () => {
    server = await rawServer((socket, _body, index) => {
      if (index === 0) {
        socket.end('HTTP/1.1 429 Too Many Requests\r\nretry-after: 2\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      } else {
        socket.write(reply('{"result":"0x03"}'));
      }
    });
    client = KeptAliveHttp.forHttp(server.url);
    const limited = await client.post('{}', 2_000);
    assert.equal(limited.status, 429);
    assert.equal(limited.retryAfter, '2');
    assert.equal((await client.post('{}', 2_000)).text, '{"result":"0x03"}');
    assert.equal(server.connections, 2);
  });

  it('reads a body without a length until the server closes', async () => {
    server = await rawServer((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{"result":"0x04"}'));
    client = KeptAliveHttp.forHttp(server.url);
    assert.equal((await client.post('{}', 2_000)).text, '{"result":"0x04"}');
  });

  it('sends a request again on a new connection when the server closed the kept one as it was reused', async () => {
    server = await rawServer((socket, _body, index) => {
      // The first connection answers once, then is closed when the next request arrives on it.
      if (index === 1) socket.destroy();
      else socket.write(reply(`{"result":"0x0${index}"}`));
    });
    client = KeptAliveHttp.forHttp(server.url);
    assert.equal((await client.post('{}', 2_000)).text, '{"result":"0x00"}');
    assert.equal((await client.post('{}', 2_000)).text, '{"result":"0x02"}');
    assert.equal(server.connections, 2);
  });

  it('fails with a TimeoutError past the deadline, and with the network code when nothing listens', async () => {
    server = await rawServer(() => undefined);
    client = KeptAliveHttp.forHttp(server.url);
    const started = Date.now();
    await assert.rejects(client.post('{}', 200), (error: Error) => error.name === 'TimeoutError');
    assert.ok(Date.now() - started < 1_500);
    const url = server.url;
    await server.close();
    server = undefined;
    const refused = KeptAliveHttp.forHttp(url);
    await assert.rejects(refused.post('{}', 2_000), (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED' && !error.message.includes('/v2/key'));
    refused.close();
  });

  it('refuses an answer that is not HTTP', async () => {
    server = await rawServer((socket) => socket.write('SSH-2.0-OpenSSH\r\n\r\n'));
    client = KeptAliveHttp.forHttp(server.url);
    await assert.rejects(client.post('{}', 2_000), /not HTTP/);
  });
});
