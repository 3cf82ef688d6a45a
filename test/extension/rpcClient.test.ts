import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RpcClient } from '../../extension/rpc/client';
import {
  CancelledError, HttpStatusError, JsonRpcError, NetworkError, RateLimitedError, TimeoutError, describeRpcError, parseRetryAfter,
} from '../../extension/rpc/errors';

type Handler = (body: unknown, res: http.ServerResponse) => void;

/** A loopback HTTP server whose answer each test sets. */
async function withServer(handler: Handler, run: (url: string) => Promise<void>): Promise<void> {
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => { text += c.toString(); });
    req.on('end', () => handler(JSON.parse(text) as unknown, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

describe('RpcClient', () => {
  it('returns the result of a call', async () => {
    await withServer((body, res) => json(res, 200, { jsonrpc: '2.0', id: (body as { id: number }).id, result: '0x7a69' }), async (url) => {
      assert.equal(await new RpcClient(url).call('eth_chainId'), '0x7a69');
    });
  });

  it('maps a JSON-RPC error to JsonRpcError with code and message', async () => {
    await withServer((body, res) => json(res, 200, { jsonrpc: '2.0', id: (body as { id: number }).id, error: { code: -32602, message: 'invalid argument 0: hex string has leading zero digits' } }), async (url) => {
      const error = await new RpcClient(url).call('eth_getBlockByNumber', ['0x01', false]).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof JsonRpcError);
      assert.equal(error.code, -32602);
      assert.match(describeRpcError(error), /leading zero digits \(code -32602\)/);
    });
  });

  it('maps HTTP 403 on eth_getBlockReceipts to "needs a dedicated endpoint"', async () => {
    await withServer((body, res) => json(res, 403, { jsonrpc: '2.0', id: (body as { id: number }).id, error: { code: -32004, message: 'eth_getBlockReceipts needs a dedicated endpoint' } }), async (url) => {
      const error = await new RpcClient(url).call('eth_getBlockReceipts', ['latest']).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof HttpStatusError);
      assert.equal(error.status, 403);
      assert.equal(error.rpcError?.code, -32004);
      assert.equal(error.needsDedicatedEndpoint, true);
      assert.equal(describeRpcError(error), 'public endpoint: needs a dedicated endpoint (HTTP 403)');
    });
  });

  it('maps other HTTP statuses with the JSON-RPC body when present', async () => {
    await withServer((_body, res) => { res.writeHead(503); res.end('busy'); }, async (url) => {
      const error = await new RpcClient(url).call('eth_blockNumber').then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof HttpStatusError);
      assert.equal(error.status, 503);
      assert.equal(error.needsDedicatedEndpoint, false);
      assert.equal(describeRpcError(error), 'HTTP 503');
    });
  });

  it('maps HTTP 429 with Retry-After to RateLimitedError', async () => {
    await withServer((body, res) => json(res, 429, { jsonrpc: '2.0', id: (body as { id: number }).id, error: { code: -32005, message: 'rate limited' } }, { 'retry-after': '3' }), async (url) => {
      const error = await new RpcClient(url).call('eth_blockNumber').then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof RateLimitedError);
      assert.equal(error.retryAfterMs, 3000);
      assert.equal(error.rpcError?.code, -32005);
      assert.equal(describeRpcError(error), 'rate limited (HTTP 429), retry after 3 s');
    });
  });

  it('parses Retry-After as seconds or as an HTTP date', () => {
    assert.equal(parseRetryAfter('2'), 2000);
    const now = Date.parse('2026-11-22T06:00:00Z');
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 06:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(null), undefined);
  });

  it('maps a refused connection to NetworkError', async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await new RpcClient(`http://127.0.0.1:${port}/`).call('eth_blockNumber').then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof NetworkError, String(error));
    assert.match(describeRpcError(error), /^endpoint unreachable: ECONNREFUSED/);
  });

  it('times out and cancels through AbortSignal', async () => {
    await withServer(() => { /* never answers */ }, async (url) => {
      const timeout = await new RpcClient(url, { timeoutMs: 50 }).call('eth_blockNumber').then(() => undefined, (e: unknown) => e);
      assert.ok(timeout instanceof TimeoutError);
      const controller = new AbortController();
      const pending = new RpcClient(url, { timeoutMs: 10_000 }).call('eth_blockNumber', [], controller.signal).then(() => undefined, (e: unknown) => e);
      controller.abort();
      assert.ok((await pending) instanceof CancelledError);
      const already = await new RpcClient(url).call('eth_blockNumber', [], AbortSignal.abort()).then(() => undefined, (e: unknown) => e);
      assert.ok(already instanceof CancelledError);
    });
  });

  it('sends batches and returns results in request order, errors per item', async () => {
    await withServer((body, res) => {
      const calls = body as { id: number; method: string }[];
      // Answer out of order, one item failing.
      json(res, 200, calls.slice().reverse().map((c) => (c.method === 'eth_fail'
        ? { jsonrpc: '2.0', id: c.id, error: { code: -32601, message: 'the method eth_fail does not exist/is not available' } }
        : { jsonrpc: '2.0', id: c.id, result: c.method })));
    }, async (url) => {
      const items = await new RpcClient(url).batch([
        { method: 'eth_chainId', params: [] }, { method: 'eth_fail', params: [] }, { method: 'eth_blockNumber', params: [] },
      ]);
      assert.deepEqual(items[0], { ok: true, value: 'eth_chainId' });
      assert.equal(items[1].ok, false);
      assert.ok(!items[1].ok && items[1].error instanceof JsonRpcError && items[1].error.code === -32601);
      assert.deepEqual(items[2], { ok: true, value: 'eth_blockNumber' });
    });
  });
});

describe('RpcClient on a connection the server drops', () => {
  /** A server that destroys the socket of the first `drops` requests without answering. */
  async function dropping(drops: number, run: (url: string, seen: () => number) => Promise<void>): Promise<void> {
    let seen = 0;
    const server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => { text += c.toString(); });
      req.on('end', () => {
        seen++;
        if (seen <= drops) { req.socket.destroy(); return; }
        const body = JSON.parse(text) as { id: number } | { id: number }[];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(Array.isArray(body) ? body.map((b) => ({ jsonrpc: '2.0', id: b.id, result: '0x1' })) : { jsonrpc: '2.0', id: body.id, result: '0x1' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, () => seen);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  it('sends a read once more after the server dropped the connection', async () => {
    await dropping(1, async (url, seen) => {
      assert.equal(await new RpcClient(url).call('eth_blockNumber'), '0x1');
      assert.equal(seen(), 2);
    });
  });

  it('never sends a transaction twice', async () => {
    await dropping(1, async (url, seen) => {
      const error = await new RpcClient(url).call('eth_sendRawTransaction', ['0x00']).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof NetworkError, String(error));
      assert.equal(seen(), 1);
    });
  });

  it('gives up after one more try', async () => {
    await dropping(5, async (url, seen) => {
      const error = await new RpcClient(url).batch([{ method: 'eth_chainId', params: [] }, { method: 'eth_blockNumber', params: [] }]).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof NetworkError);
      assert.equal(seen(), 2);
    });
  });
});
