// The CLI server's raw-socket path for JSON-RPC POSTs (mock-node/rpc/leanHttp.ts), over real
// TCP: pipelined requests answered in order, requests split across reads, a connection handed to
// Node's http server at its first request that is not the plain case (with the replies before
// it written first), Connection: close, half-close, injected hang-ups, and closing the server.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { RunningMockNode } from '../../../mock-node/index';
import { startTestNode } from '../../helpers/rpc';

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Every complete HTTP/1.1 reply at the start of `buffer` (Content-Length framed or bodiless). */
function parseReplies(buffer: Buffer): { replies: Reply[]; rest: Buffer } {
  const replies: Reply[] = [];
  let at = 0;
  for (;;) {
    const headEnd = buffer.indexOf('\r\n\r\n', at);
    if (headEnd < 0) break;
    const lines = buffer.toString('latin1', at, headEnd).split('\r\n');
    const status = Number(lines[0].split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    let length = Number(headers['content-length'] ?? 0);
    if (headers['transfer-encoding'] === 'chunked') {
      // Node's path may chunk: read the chunks.
      let p = headEnd + 4;
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = buffer.indexOf('\r\n', p);
        if (lineEnd < 0) return { replies, rest: buffer.subarray(at) };
        const size = parseInt(buffer.toString('latin1', p, lineEnd), 16);
        if (buffer.length < lineEnd + 2 + size + 2) return { replies, rest: buffer.subarray(at) };
        if (size === 0) {
          replies.push({ status, headers, body: Buffer.concat(parts).toString('utf8') });
          at = lineEnd + 4;
          break;
        }
        parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        p = lineEnd + 2 + size + 2;
      }
      continue;
    }
    if (status === 204 || status === 304) length = 0;
    const end = headEnd + 4 + length;
    if (buffer.length < end) break;
    replies.push({ status, headers, body: buffer.toString('utf8', headEnd + 4, end) });
    at = end;
  }
  return { replies, rest: buffer.subarray(at) };
}

/** A raw connection: send bytes, wait for `count` replies. */
class Raw {
  readonly socket: Socket;
  private buffer = Buffer.alloc(0);
  readonly replies: Reply[] = [];
  closed = false;
  private waiters: (() => void)[] = [];

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      const parsed = parseReplies(Buffer.concat([this.buffer, chunk]));
      this.buffer = Buffer.from(parsed.rest);
      this.replies.push(...parsed.replies);
      this.wake();
    });
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  send(text: string | Buffer): void {
    this.socket.write(text);
  }

  async waitFor(count: number, timeoutMs = 5000): Promise<Reply[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.replies.length < count && !this.closed) {
      if (Date.now() > deadline) throw new Error(`only ${this.replies.length} of ${count} replies`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.replies;
  }

  async waitClosed(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('the connection stayed open');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

function rpcPost(body: unknown, extra = '', path = '/'): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
}

const call = (id: number, method = 'eth_chainId', params: unknown[] = []) => ({ jsonrpc: '2.0', id, method, params });

describe('the raw-socket JSON-RPC path', function () {
  this.timeout(30_000);
  let node: RunningMockNode;
  let raw: Raw | undefined;

  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(async () => {
    raw?.close();
    raw = undefined;
    await node.stop();
  });

  it('answers 50 pipelined requests in order, with keep-alive headers', async () => {
    raw = new Raw(node.port);
    let text = '';
    for (let id = 1; id <= 50; id++) text += rpcPost(call(id, id % 2 ? 'eth_chainId' : 'eth_blockNumber'));
    raw.send(text);
    const replies = await raw.waitFor(50);
    assert.deepEqual(replies.map((r) => JSON.parse(r.body).id), Array.from({ length: 50 }, (_, i) => i + 1));
    for (const reply of replies) {
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['content-type'], 'application/json');
      assert.equal(reply.headers.connection, 'keep-alive');
      assert.ok(Number.isFinite(Date.parse(reply.headers.date)), 'a Date header');
      assert.match(JSON.parse(reply.body).result, /^0x(0|[1-9a-f][0-9a-f]*)$/);
    }
  });

  it('reads requests split at every byte', async () => {
    raw = new Raw(node.port);
    const bytes = Buffer.from(rpcPost(call(7)) + rpcPost(call(8, 'eth_blockNumber')));
    for (let i = 0; i < bytes.length; i++) {
      raw.send(bytes.subarray(i, i + 1));
      if (i % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const replies = await raw.waitFor(2);
    assert.deepEqual(replies.map((r) => JSON.parse(r.body).id), [7, 8]);
  });

  it('answers UTF-8 bodies with their byte length', async () => {
    raw = new Raw(node.port);
    raw.send(rpcPost(call(1, 'no_such_method_é✓')));
    const [reply] = await raw.waitFor(1);
    assert.equal(Buffer.byteLength(reply.body), Number(reply.headers['content-length']));
    assert.ok(JSON.parse(reply.body).error.message.includes('no_such_method_é✓'));
  });

  it('hands a connection to Node at a GET, after the replies before it, and Node serves the rest', async () => {
    raw = new Raw(node.port);
    raw.send(rpcPost(call(1)) + rpcPost(call(2)) + 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' + rpcPost(call(3)));
    const replies = await raw.waitFor(4);
    assert.deepEqual(replies.map((r) => r.status), [200, 200, 200, 200]);
    assert.equal(JSON.parse(replies[0].body).id, 1);
    assert.equal(JSON.parse(replies[1].body).id, 2);
    assert.equal(JSON.parse(replies[2].body).status, 'ok');
    assert.equal(JSON.parse(replies[3].body).id, 3);
  });

  it('hands chunked bodies, Expect: 100-continue and over-limit bodies to Node, which answers as before', async () => {
    raw = new Raw(node.port);
    const body = JSON.stringify(call(5));
    raw.send(rpcPost(call(4)) + `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
    const replies = await raw.waitFor(2);
    assert.deepEqual(replies.map((r) => JSON.parse(r.body).id), [4, 5]);
    raw.close();

    raw = new Raw(node.port);
    const big = JSON.stringify({ ...call(6), pad: 'x'.repeat(node.options.maxBodyBytes) });
    raw.send(rpcPost(big));
    const [tooLarge] = await raw.waitFor(1);
    assert.equal(tooLarge.status, 413);
  });

  it('refuses a foreign Host and a text/plain body as Node does (and closes the connection)', async () => {
    raw = new Raw(node.port);
    raw.send(rpcPost(call(1)) + rpcPost(call(2)).replace('Host: 127.0.0.1', 'Host: evil.example'));
    const replies = await raw.waitFor(2);
    assert.equal(replies[0].status, 200);
    assert.equal(replies[1].status, 403);
    await raw.waitClosed();
    raw.close();

    raw = new Raw(node.port);
    raw.send(rpcPost(call(1)).replace('application/json', 'text/plain'));
    const [refused] = await raw.waitFor(1);
    assert.equal(refused.status, 415);
  });

  it('reads a head it has seen before the same way (heads are kept by their text): served, refused, handed over, on every connection', async () => {
    for (let round = 0; round < 3; round++) {
      raw = new Raw(node.port);
      // Three requests with one head (bodies of the same length).
      raw.send(rpcPost(call(1)) + rpcPost(call(2)) + rpcPost(call(3)));
      const served = await raw.waitFor(3);
      assert.deepEqual(served.map((r) => [r.status, JSON.parse(r.body).id]), [[200, 1], [200, 2], [200, 3]]);
      raw.close();
      // A head too long to be kept (over 1 KiB) is read each time, to the same answers.
      raw = new Raw(node.port);
      const padded = (id: number) => rpcPost(call(id)).replace('Host: 127.0.0.1', `Host: 127.0.0.1\r\nx-pad: ${'p'.repeat(1500)}`);
      raw.send(padded(5) + padded(6) + padded(7).replace('Host: 127.0.0.1', 'Host: evil.example'));
      const long = await raw.waitFor(3);
      assert.deepEqual(long.map((r) => r.status), [200, 200, 403]);
      raw.close();
      raw = new Raw(node.port);
      raw.send(rpcPost(call(4)).replace('Host: 127.0.0.1', 'Host: evil.example'));
      const [refused] = await raw.waitFor(1);
      assert.equal(refused.status, 403);
      raw.close();
      raw = new Raw(node.port);
      raw.send('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      const [health] = await raw.waitFor(1);
      assert.equal(health.status, 200);
      assert.equal(JSON.parse(health.body).status, 'ok');
      raw.close();
      raw = undefined;
    }
  });

  it('keeps the public receipts rule, 204 for notifications, and batches', async () => {
    raw = new Raw(node.port);
    const { jsonrpc, method, params } = call(0);
    raw.send(
      rpcPost(call(1, 'eth_getBlockReceipts', ['latest'])) +
        rpcPost({ jsonrpc, method, params }) +
        rpcPost([call(2), call(3)]) +
        rpcPost('{"jsonrpc":') +
        rpcPost(call(4, 'eth_getBlockReceipts', ['latest']), '', `/dedicated/${node.apiKey}`),
    );
    const replies = await raw.waitFor(5);
    assert.deepEqual(replies.map((r) => r.status), [403, 204, 200, 200, 200]);
    assert.equal(replies[1].body, '');
    assert.deepEqual(JSON.parse(replies[2].body).map((r: { id: number }) => r.id), [2, 3]);
    assert.equal(JSON.parse(replies[3].body).error.code, -32700);
    assert.ok(Array.isArray(JSON.parse(replies[4].body).result));
  });

  it('closes after a request with Connection: close, and after the client half-closes', async () => {
    raw = new Raw(node.port);
    raw.send(rpcPost(call(1)) + rpcPost(call(2), 'Connection: close\r\n') + rpcPost(call(3)));
    const replies = await raw.waitFor(2);
    await raw.waitClosed();
    assert.deepEqual(replies.map((r) => JSON.parse(r.body).id), [1, 2]);
    assert.equal(replies[1].headers.connection, 'close');

    raw = new Raw(node.port);
    raw.send(rpcPost(call(9)));
    raw.socket.end();
    await raw.waitClosed();
    assert.deepEqual(raw.replies.map((r) => JSON.parse(r.body).id), [9]);
  });

  it('an injected timeout closes the connection after the replies before it', async () => {
    await node.request('mock_setFaults', [{ public: { eth_getLogs: { timeoutMs: 50 } } }]);
    raw = new Raw(node.port);
    raw.send(rpcPost(call(1)) + rpcPost(call(2, 'eth_getLogs', [{}])) + rpcPost(call(3)));
    await raw.waitClosed();
    assert.deepEqual(raw.replies.map((r) => JSON.parse(r.body).id), [1]);
  });

  it('stop() closes idle kept-alive connections of this path', async () => {
    raw = new Raw(node.port);
    raw.send(rpcPost(call(1)));
    await raw.waitFor(1);
    await node.stop();
    await raw.waitClosed();
    node = await startTestNode();
  });
});
