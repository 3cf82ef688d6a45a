// POSTs to one HTTP(S) origin over kept-alive connections, each request written in one piece and
// its answer read with a small HTTP/1.1 parser (status, headers, a Content-Length, chunked or
// until-close body). node:http's client runs several times as much JavaScript per request; a
// fork's first read of a slot waits for one such request, often with that code not yet optimised.
// A connection the server closed while it sat idle is replaced once, transparently (the requests
// are reads). Errors carry the network's code (ECONNREFUSED ...) and a TimeoutError past the
// deadline; none names the URL.
import { connect as connectTcp, type Socket } from 'node:net';

export interface HttpAnswer {
  status: number;
  /** The Retry-After header, when there is one. */
  retryAfter: string | null;
  text: string;
}

/** Connections kept open at once; more requests wait for one to come free. */
const MAX_CONNECTIONS = 16;
const HEAD_END = Buffer.from('\r\n\r\n');
const LINE_END = Buffer.from('\r\n');

type Connect = () => Socket;

/** An answer being read: the bytes so far, and where the head ends once known. */
interface Reading {
  chunks: Buffer[];
  length: number;
  /** The bytes the whole answer takes, once its head said (a Content-Length): no parsing before. */
  needed: number;
  resolve(answer: HttpAnswer, reusable: boolean): void;
  reject(error: Error): void;
}

class Connection {
  private reading: Reading | undefined;
  /** Set once the socket closed or failed: never used again. */
  dead = false;
  /** Whether a request has been answered on it (a failure before any byte is then a stale keep-alive). */
  used = false;

  constructor(
    readonly socket: Socket,
    private readonly onDead: (connection: Connection) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    socket.on('error', (error) => this.ended(error));
    socket.on('close', () => this.ended(undefined));
    socket.on('end', () => this.ended(undefined));
  }

  send(request: string): Promise<{ answer: HttpAnswer; reusable: boolean }> {
    return new Promise((resolve, reject) => {
      this.reading = { chunks: [], length: 0, needed: 0, resolve: (answer, reusable) => resolve({ answer, reusable }), reject };
      this.socket.ref();
      this.socket.write(request);
    });
  }

  /** Stops waiting for an answer (its deadline passed) and closes the connection. */
  abandon(error: Error): void {
    const reading = this.reading;
    this.reading = undefined;
    this.destroy();
    reading?.reject(error);
  }

  destroy(): void {
    if (this.dead) return;
    this.dead = true;
    this.socket.destroy();
    this.onDead(this);
  }

  private received(chunk: Buffer): void {
    const reading = this.reading;
    if (!reading) {
      // Bytes nobody asked for: the connection is out of step.
      this.destroy();
      return;
    }
    reading.chunks.push(chunk);
    reading.length += chunk.length;
    if (reading.length < reading.needed) return;
    const bytes = reading.chunks.length === 1 ? chunk : Buffer.concat(reading.chunks, reading.length);
    if (reading.chunks.length > 1) reading.chunks = [bytes];
    let parsed: ParsedAnswer | number | undefined;
    try {
      parsed = parseAnswer(bytes, false);
    } catch (error) {
      this.reading = undefined;
      this.destroy();
      reading.reject(error as Error);
      return;
    }
    if (parsed === undefined) return;
    if (typeof parsed === 'number') {
      reading.needed = parsed;
      return;
    }
    this.reading = undefined;
    this.used = true;
    if (!parsed.keepAlive) this.destroy();
    else this.socket.unref();
    reading.resolve(parsed.answer, parsed.keepAlive);
  }

  private ended(error: Error | undefined): void {
    const reading = this.reading;
    this.reading = undefined;
    this.destroy();
    if (!reading) return;
    // A body that runs until the server closes the connection.
    if (!error && reading.length > 0) {
      try {
        const parsed = parseAnswer(reading.chunks.length === 1 ? reading.chunks[0] : Buffer.concat(reading.chunks, reading.length), true);
        if (typeof parsed === 'object') {
          reading.resolve(parsed.answer, false);
          return;
        }
      } catch (parseError) {
        reading.reject(parseError as Error);
        return;
      }
    }
    reading.reject(Object.assign(error ?? new Error('the connection closed before an answer'), { noAnswer: reading.length === 0 }));
  }
}

interface ParsedAnswer {
  answer: HttpAnswer;
  keepAlive: boolean;
}

/**
 * A whole answer from its bytes; while more are to come, the bytes the whole answer takes when its
 * head says so, else undefined (`closed`: no more will come).
 */
function parseAnswer(bytes: Buffer, closed: boolean): ParsedAnswer | number | undefined {
  let start = 0;
  for (;;) {
    const headEnd = bytes.indexOf(HEAD_END, start);
    if (headEnd < 0) {
      if (closed) throw new Error('the connection closed in the middle of an answer');
      return undefined;
    }
    const lines = bytes.toString('latin1', start, headEnd).split('\r\n');
    const status = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0]);
    if (!status) throw new Error('an answer that is not HTTP/1.x');
    const code = Number(status[2]);
    const headers = new Map<string, string>();
    for (let i = 1; i < lines.length; i++) {
      const colon = lines[i].indexOf(':');
      if (colon > 0) headers.set(lines[i].slice(0, colon).trim().toLowerCase(), lines[i].slice(colon + 1).trim());
    }
    const bodyStart = headEnd + HEAD_END.length;
    // 1xx (100 Continue, 103 Early Hints): the real answer follows.
    if (code >= 100 && code < 200) {
      start = bodyStart;
      continue;
    }
    const connection = (headers.get('connection') ?? '').toLowerCase();
    const keepAlive = status[1] === '1' ? connection !== 'close' : connection === 'keep-alive';
    const answer = (body: Buffer): HttpAnswer => ({ status: code, retryAfter: headers.get('retry-after') ?? null, text: body.toString('utf8') });
    if ((headers.get('transfer-encoding') ?? '').toLowerCase().includes('chunked')) {
      const body = dechunk(bytes, bodyStart, closed);
      return body && { answer: answer(body), keepAlive };
    }
    const declared = headers.get('content-length');
    if (declared !== undefined) {
      if (!/^\d+$/.test(declared)) throw new Error('an answer with a bad Content-Length');
      const end = bodyStart + Number(declared);
      if (bytes.length < end) {
        if (closed) throw new Error('the connection closed in the middle of an answer');
        return end;
      }
      return { answer: answer(bytes.subarray(bodyStart, end)), keepAlive };
    }
    if (code === 204 || code === 304) return { answer: answer(Buffer.alloc(0)), keepAlive };
    // No length: the body runs until the server closes.
    return closed ? { answer: answer(bytes.subarray(bodyStart)), keepAlive: false } : undefined;
  }
}

/** A chunked body's bytes, or undefined while more are to come. */
function dechunk(bytes: Buffer, from: number, closed: boolean): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const lineEnd = bytes.indexOf(LINE_END, at);
    if (lineEnd < 0) break;
    const size = parseInt(bytes.toString('latin1', at, lineEnd).split(';')[0].trim(), 16);
    if (!Number.isFinite(size) || size < 0) throw new Error('an answer with a bad chunk size');
    if (size === 0) {
      // Trailers (usually none), then an empty line.
      const trailersEnd = bytes.indexOf(LINE_END, lineEnd + LINE_END.length) === lineEnd + LINE_END.length ? lineEnd + 2 * LINE_END.length : bytes.indexOf(HEAD_END, lineEnd);
      if (trailersEnd < 0 || trailersEnd > bytes.length) break;
      return Buffer.concat(parts);
    }
    const dataStart = lineEnd + LINE_END.length;
    if (bytes.length < dataStart + size + LINE_END.length) break;
    parts.push(bytes.subarray(dataStart, dataStart + size));
    at = dataStart + size + LINE_END.length;
  }
  if (closed) throw new Error('the connection closed in the middle of an answer');
  return undefined;
}

/** Kept-alive connections to one origin: POSTs of JSON, one at a time on each connection. */
export class KeptAliveHttp {
  private readonly idle: Connection[] = [];
  private open = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly head: string;
  private closed = false;

  constructor(
    url: URL,
    private readonly connect: Connect,
    /** Headers sent with every request besides the client's own (checked by the caller: one line each, not the client's). */
    headers: readonly (readonly [string, string])[] = [],
  ) {
    const auth = url.username || url.password ? `authorization: Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}\r\n` : '';
    const extra = headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
    this.head = `POST ${url.pathname || '/'}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\naccept: application/json\r\nconnection: keep-alive\r\n${auth}${extra}`;
  }

  /** Plain TCP to an http: URL's host and port. */
  static forHttp(url: URL, headers: readonly (readonly [string, string])[] = []): KeptAliveHttp {
    const port = Number(url.port || 80);
    const host = hostOf(url);
    return new KeptAliveHttp(url, () => connectTcp({ host, port }), headers);
  }

  /** TLS to an https: URL's host and port (node:tls loaded only then). */
  static async forHttps(url: URL, headers: readonly (readonly [string, string])[] = []): Promise<KeptAliveHttp> {
    // require, not import(): the CLI runs its bundle as a vm.Script (for its code cache), where a
    // dynamic import() has no loader and fails (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
    const tls = require('node:tls') as typeof import('node:tls');
    const port = Number(url.port || 443);
    const host = hostOf(url);
    const servername = /^[\d.]+$/.test(host) || host.includes(':') ? undefined : host;
    return new KeptAliveHttp(url, () => tls.connect({ host, port, servername, ALPNProtocols: ['http/1.1'] }), headers);
  }

  /** POSTs `body`; the answer, or an error (a TimeoutError past `timeoutMs`, a network error with its code). */
  async post(body: string, timeoutMs: number): Promise<HttpAnswer> {
    const request = `${this.head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const connection = await this.take(deadline);
      try {
        return await this.exchange(connection, request, deadline);
      } catch (error) {
        // The server closed a kept-alive connection as we reused it: once more, on a new one.
        if (connection.used && (error as { noAnswer?: boolean }).noAnswer) continue;
        throw error;
      }
    }
  }

  /** Closes every connection (the node stopped, or forked elsewhere). */
  close(): void {
    this.closed = true;
    for (const connection of this.idle.splice(0)) connection.destroy();
  }

  private async exchange(connection: Connection, request: string, deadline: number): Promise<HttpAnswer> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      this.release(connection, false);
      throw timeoutError();
    }
    const timer = setTimeout(() => connection.abandon(timeoutError()), remaining);
    try {
      const { answer, reusable } = await connection.send(request);
      this.release(connection, reusable);
      return answer;
    } finally {
      clearTimeout(timer);
    }
  }

  private async take(deadline: number): Promise<Connection> {
    for (;;) {
      if (this.closed) throw new Error('the upstream client was closed');
      const kept = this.idle.pop();
      if (kept) {
        if (!kept.dead) return kept;
        continue;
      }
      if (this.open < MAX_CONNECTIONS) {
        this.open++;
        return new Connection(this.connect(), (dead) => this.forget(dead));
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw timeoutError();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private release(connection: Connection, reusable: boolean): void {
    if (reusable && !connection.dead && !this.closed) this.idle.push(connection);
    else if (!connection.dead) connection.destroy();
    this.waiting.shift()?.();
  }

  private forget(connection: Connection): void {
    this.open--;
    const at = this.idle.indexOf(connection);
    if (at >= 0) this.idle.splice(at, 1);
    this.waiting.shift()?.();
  }
}

function hostOf(url: URL): string {
  // An IPv6 literal comes bracketed in a URL's hostname.
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function timeoutError(): Error {
  return Object.assign(new Error('timeout'), { name: 'TimeoutError' });
}
