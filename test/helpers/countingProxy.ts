// A JSON-RPC proxy in front of a fork's upstream that counts what passes, and misbehaves on
// demand: answers the next requests with HTTP 429, or is cut off (every connection refused).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  /** The proxy's URL, with `path` (an API key's place) appended. */
  url: string;
  /** HTTP requests passed on to the upstream. */
  forwarded: number;
  /** JSON-RPC calls in them (a batch counts each). */
  calls: number;
  /** Requests answered 429. */
  limited: number;
  /** The next this many requests get HTTP 429 (Retry-After: 0). */
  rateLimitNext(count: number): void;
  /** Each request is passed on this many ms late (0: at once). */
  delayMs: number;
  /** The headers of the last request passed on. */
  headers: Record<string, string | string[] | undefined>;
  /** Every JSON-RPC method passed on, in order. */
  methods: string[];
  /** Stops listening and closes every connection: the upstream is gone. */
  cut(): Promise<void>;
}

export async function startCountingProxy(upstreamUrl: string, path = '/'): Promise<CountingProxy> {
  let limitNext = 0;
  const proxy: CountingProxy = {
    url: '',
    forwarded: 0,
    calls: 0,
    limited: 0,
    delayMs: 0,
    headers: {},
    methods: [],
    rateLimitNext(count) {
      limitNext = count;
    },
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      if (limitNext > 0) {
        limitNext--;
        proxy.limited++;
        response.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' });
        response.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"rate limited"}}');
        return;
      }
      const body = Buffer.concat(chunks).toString();
      const parsed = JSON.parse(body) as unknown;
      proxy.forwarded++;
      proxy.calls += Array.isArray(parsed) ? parsed.length : 1;
      proxy.headers = request.headers;
      for (const call of Array.isArray(parsed) ? parsed : [parsed]) proxy.methods.push(String((call as { method?: unknown })?.method));
      if (proxy.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, proxy.delayMs));
      try {
        const answer = await fetch(upstreamUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(await answer.text());
      } catch {
        response.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return proxy;
}
