// The bench's JSON-RPC clients: a plain call over a kept-alive connection, and a load generator
// that pipelines requests over raw TCP sockets so its own cost per request stays far below a
// server's (no per-request objects of node:http on the client side).
import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
export { freePort } from '../helpers/freePort';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
let nextId = 1;

export function rpcBody(method: string, params: unknown[]): string {
  return JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params });
}

/**
 * POSTs a body and resolves to the parsed JSON reply. A kept-alive socket the server closed just
 * as it was reused fails before the request reached the server: that one is sent again.
 */
export async function post(url: string, body: string): Promise<any> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await postOnce(url, body);
    } catch (error) {
      if (!(error as { reusedSocket?: boolean }).reusedSocket || attempt >= 8) throw error;
    }
  }
}

function postOnce(url: string, body: string): Promise<any> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
          }
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code;
      reject(req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE') ? Object.assign(error, { reusedSocket: true }) : error);
    });
    req.end(body);
  });
}

/** Calls one method; throws the JSON-RPC error's message. */
export async function call<T = any>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const reply = await post(url, rpcBody(method, params));
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result as T;
}

/** Resolves once `url` answers eth_chainId; fails when the process exits or the deadline passes. */
export async function waitForAnswer(url: string, child: ChildProcess, timeoutMs: number, probeEveryMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const body = rpcBody('eth_chainId', []);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${child.spawnfile} exited (${child.exitCode ?? child.signalCode}) before answering`);
    try {
      const reply = await probe(url, body);
      if (reply) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${child.spawnfile} did not answer on ${url} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, probeEveryMs));
  }
}

/** One request on a fresh connection (no agent: a refused connection must not poison a pool). */
function probe(url: string, body: string): Promise<boolean> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path: '/', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve(res.statusCode === 200 && text.includes('"result"')));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function median(values: readonly number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50);
}

export interface LoadOptions {
  connections: number;
  /** Requests in flight per connection (HTTP/1.1 pipelining). */
  depth: number;
  durationMs: number;
  maxRequests: number;
}

/**
 * Sends one JSON-RPC body over and over on `connections` sockets with `depth` requests in flight
 * on each, for `durationMs`. Replies are framed by Content-Length or chunked encoding; a reply
 * whose status is not 200 or whose body holds "error" counts as an error.
 */
export async function pipelinedLoad(url: string, body: string, options: LoadOptions): Promise<LoadResult> {
  const target = new URL(url);
  const payload = Buffer.from(
    `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const began = performance.now();
  const deadline = began + options.durationMs;
  const more = () => performance.now() < deadline && sent < options.maxRequests;

  const runConnection = () =>
    new Promise<void>((resolve) => {
      const socket: Socket = connect(Number(target.port), target.hostname);
      socket.setNoDelay(true);
      const sentAt: number[] = [];
      let buffer: Buffer = Buffer.alloc(0);
      const sendOne = () => {
        sent++;
        sentAt.push(performance.now());
        socket.write(payload);
      };
      socket.on('connect', () => {
        for (let i = 0; i < options.depth && more(); i++) sendOne();
        if (sentAt.length === 0) socket.end();
      });
      socket.on('data', (chunk: Buffer) => {
        buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
        for (;;) {
          const reply = takeReply(buffer);
          if (!reply) break;
          buffer = buffer.subarray(reply.consumed);
          latencies.push(performance.now() - sentAt.shift()!);
          if (reply.status !== 200 || reply.body.includes('"error"')) errors++;
          if (more()) sendOne();
          else if (sentAt.length === 0) socket.end();
        }
      });
      socket.on('error', () => {
        errors += Math.max(1, sentAt.length);
        resolve();
      });
      socket.on('close', () => resolve());
    });

  await Promise.all(Array.from({ length: options.connections }, runConnection));
  const elapsed = (performance.now() - began) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** One HTTP/1.1 reply at the start of `buffer`, or undefined when it is not complete yet. */
function takeReply(buffer: Buffer): { status: number; body: string; consumed: number } | undefined {
  const headerEnd = buffer.indexOf('\r\n\r\n');
  if (headerEnd < 0) return undefined;
  const head = buffer.subarray(0, headerEnd).toString('latin1');
  const status = Number(head.slice(9, 12));
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  const start = headerEnd + 4;
  if (length) {
    const end = start + Number(length[1]);
    if (buffer.length < end) return undefined;
    return { status, body: buffer.subarray(start, end).toString('utf8'), consumed: end };
  }
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    let offset = start;
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buffer.indexOf('\r\n', offset);
      if (lineEnd < 0) return undefined;
      const size = parseInt(buffer.subarray(offset, lineEnd).toString('latin1'), 16);
      const dataStart = lineEnd + 2;
      if (buffer.length < dataStart + size + 2) return undefined;
      if (size === 0) return { status, body: Buffer.concat(parts).toString('utf8'), consumed: dataStart + 2 };
      parts.push(buffer.subarray(dataStart, dataStart + size));
      offset = dataStart + size + 2;
    }
  }
  return { status, body: '', consumed: start };
}
