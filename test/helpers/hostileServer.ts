// A small hostile JSON-RPC endpoint on loopback, one misbehaviour per path, for the client's unit
// tests and the real-VS-Code suite: /hang never answers, /html answers a web page, /status500 an
// error page, /malformed cut-off JSON, /huge 100 MB (streamed as the client reads, so the server
// holds none of it), /wrongtypes well-formed JSON-RPC whose results have the wrong types.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export const HOSTILE_PATHS = ['hang', 'html', 'status500', 'malformed', 'huge', 'wrongtypes'] as const;
export type HostilePath = (typeof HOSTILE_PATHS)[number];

export interface HostileServer {
  url(path: HostilePath): string;
  /** Requests received per path. */
  requests: Record<HostilePath, number>;
  /** Bytes of 100 MB answers actually written before the clients stopped reading (all requests). */
  hugeBytesSent: number;
  close(): Promise<void>;
}

const HUGE_BYTES = 100 * 1024 * 1024;

/** Results of the wrong type for the methods the explorer reads. */
function wrongResult(method: string): unknown {
  switch (method) {
    case 'eth_chainId': return { chain: 'one' };
    case 'eth_blockNumber': return 12;
    case 'web3_clientVersion': return ['x'];
    case 'eth_getBlockByNumber': return { number: 5, hash: 7, timestamp: [], transactions: 'none', gasUsed: {} };
    default: return { unexpected: true };
  }
}

function answerWrongTypes(body: unknown, res: http.ServerResponse): void {
  const answer = (request: unknown) => {
    const r = (request ?? {}) as { id?: unknown; method?: unknown };
    return { jsonrpc: '2.0', id: r.id ?? null, result: wrongResult(String(r.method)) };
  };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body)));
}

function streamHuge(res: http.ServerResponse, server: HostileServer): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 'a');
  res.write('{"jsonrpc":"2.0","id":1,"result":"0x');
  let written = 0;
  const pump = (): void => {
    while (written < HUGE_BYTES && !res.destroyed) {
      written += chunk.length;
      server.hugeBytesSent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end('"}');
  };
  pump();
}

export async function startHostileServer(): Promise<HostileServer> {
  const hanging = new Set<http.ServerResponse>();
  const state: HostileServer = {
    url: () => '',
    requests: Object.fromEntries(HOSTILE_PATHS.map((p) => [p, 0])) as Record<HostilePath, number>,
    hugeBytesSent: 0,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').slice(1) as HostilePath;
    if (path in state.requests) state.requests[path]++;
    let text = '';
    req.on('data', (c: Buffer) => { text += c.toString(); });
    req.on('end', () => {
      switch (path) {
        case 'hang':
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          return;
        case 'html':
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<!DOCTYPE html><html><head><title>Welcome</title></head><body><h1>It works!</h1><script>alert(1)</script></body></html>');
          return;
        case 'status500':
          res.writeHead(500, { 'content-type': 'text/html' });
          res.end('<html><body>Internal Server Error</body></html>');
          return;
        case 'malformed':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"jsonrpc":"2.0","id":1,"result":{"number":"0x1",');
          return;
        case 'huge':
          streamHuge(res, state);
          return;
        case 'wrongtypes': {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = null;
          }
          answerWrongTypes(body, res);
          return;
        }
        default:
          res.writeHead(404);
          res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  state.url = (path) => `${base}${path}`;
  state.close = () => new Promise<void>((resolve) => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return state;
}
