// HTTP requests with headers fetch() will not set (Host, a chosen Origin or Content-Type), and raw
// WebSocket upgrades, for tests of what a browser or a hostile page sends.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawReply> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: options.method ?? 'POST', headers: options.headers ?? {}, setHost: !options.headers?.host },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer from ${url} within 10 s`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A JSON-RPC POST with exactly these headers (a JSON content type unless the caller gives one). */
export function rawRpc(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawReply> {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return rawRequest(url, { headers: { 'content-type': 'application/json', ...lower }, body: JSON.stringify(body) });
}

/**
 * A WebSocket upgrade with the given path and headers; resolves with the HTTP status line's code
 * (101 when upgraded) and the socket (still open when upgraded).
 */
export function rawUpgrade(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; head: string; socket: Socket }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname);
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no upgrade answer within 10 s'));
    }, 10_000);
    socket.once('connect', () => {
      const lines = [
        `GET ${path} HTTP/1.1`,
        `Host: ${headers.Host ?? `${target.hostname}:${target.port}`}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version: 13',
        ...Object.entries(headers).filter(([k]) => k !== 'Host').map(([k, v]) => `${k}: ${v}`),
      ];
      socket.write(lines.join('\r\n') + '\r\n\r\n');
    });
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      clearTimeout(timer);
      socket.off('data', onData);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      resolve({ status, head: received, socket });
    };
    socket.on('data', onData);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** A masked client text frame (RFC 6455), for raw sockets that speak WebSocket without a library. */
export function clientTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const mask = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const length = payload.length;
  const header = length < 126 ? Buffer.from([0x81, 0x80 | length])
    : length < 65536 ? Buffer.from([0x81, 0x80 | 126, length >> 8, length & 0xff])
      : (() => {
        const h = Buffer.alloc(10);
        h[0] = 0x81;
        h[1] = 0x80 | 127;
        h.writeBigUInt64BE(BigInt(length), 2);
        return h;
      })();
  const masked = Buffer.alloc(length);
  for (let i = 0; i < length; i++) masked[i] = payload[i] ^ mask[i % 4];
  return Buffer.concat([header, mask, masked]);
}
