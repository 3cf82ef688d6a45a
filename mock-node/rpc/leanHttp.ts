// The CLI server's hot route on the raw socket: HTTP/1.1 JSON-RPC POSTs read straight from the
// connection's bytes and answered with one write per socket read, however many pipelined
// requests that read held. Node's http layer (a parser callback, a request and a response
// object, header objects, stream events and one writev per reply) cost more than the JSON-RPC
// work of a read; here a request is a header scan and a slice of the bytes.
//
// Only the plain case is served here: `POST <path> HTTP/1.1` with a Content-Length body within
// the path's limit, no Transfer-Encoding, Expect, Upgrade or Origin, and Host and Content-Type
// the guards accept. At the first request that is anything else the connection is handed, for
// good, to Node's http server (its usual listener), after every reply before it was written and
// with the unread bytes put back: that request then meets the same guards, refusals, limits,
// Express routes and WebSocket upgrades as ever. A malformed request is handed over the same
// way, so Node's parser answers it as it always did.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { HandleResult } from './handler';
import { latin1Text } from '../encoding/bufferCodec';
import { httpDate } from './httpDate';
import { joinedText, jsonBody, PartsCursor, type AsciiCursor, type JsonBody } from './jsonText';
import { recycleReplyBuffer, REUSED_BUFFER_MIN_BYTES, takeReplyBuffer } from './replyBuffers';
import { ReplyStream } from './replyStream';
import type { ProfileName } from './methods/types';

/** The reason phrase of a status (other than 200's), from node:http on first use. */
let statusCodes: Record<number, string | undefined> | undefined;
function statusText(status: number): string {
  if (status === 200) return 'OK';
  statusCodes ??= (require('node:http') as typeof import('node:http')).STATUS_CODES;
  return statusCodes[status] ?? '';
}

export interface LeanRoute {
  /** The profile of a request target (path and query), or null when it is not served here. */
  profileFor(target: string): ProfileName | null;
  /** Whether the Host and Content-Type headers pass the guards (a refusal is Node's path's to answer). */
  allowed(host: string | undefined, contentType: string | undefined): boolean;
  bodyLimit(profile: ProfileName): number;
  /** Headers every reply of this path carries (CORS for requests without an Origin: --cors). */
  headers: Record<string, string> | undefined;
  /** The JSON-RPC answer to a body (the server's handle(), behind the parse step). */
  answer(profile: ProfileName, text: string): Promise<HandleResult>;
  /**
   * Whether the node has work waiting for the replies ready now to be written (a change answered
   * before it was done: an automined transaction's block is sealed once its hash is written).
   */
  replyAtOnce(): boolean;
}

/** Node's own limit on a request's head (--max-http-header-size); past it, Node's parser answers 431. */
const MAX_HEAD_BYTES = 16 * 1024;
/** Replies waiting on one connection before it stops reading until they are written. */
const MAX_QUEUED = 1024;
/** Bytes of written replies the kernel has not taken before the connection stops reading. */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

const KEEP_ALIVE = 'connection: keep-alive\r\n';
/**
 * How long past the advertised `keep-alive: timeout=N` an idle connection stays open. A client
 * that reuses a connection just as the server closes it gets ECONNRESET on a request it cannot
 * safely retry (a POST); clients stop reusing at N (undici: N − 1 s), and a busy client's timers
 * run late, so the server closes a little after what it advertised (newer Node servers do the
 * same with `keepAliveTimeoutBuffer`).
 */
const KEEP_ALIVE_GRACE_MS = 2000;
const CLOSE = 'connection: close\r\n';

interface Slot {
  /** The reply's bytes as text; undefined while the answer is being worked out. */
  text: string | undefined;
  /** The text is ASCII (written as Latin-1: a copy, where UTF-8 encodes character by character). */
  ascii: boolean;
  /** A long body, written after the text from a reused buffer. */
  body: Buffer | undefined;
  /** A long body written after the text as the socket takes it (replyStream.ts), with its length. */
  stream: { cursor: AsciiCursor; bytes: number } | undefined;
  /** An injected timeout: close the connection at this point without an answer. */
  hangup: boolean;
}

let dateSecond = -1;
let dateLine = '';

/** The Date header (RFC 9110 asks an origin server for one), made once per second as Node does. */
function dateHeader(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateLine = `date: ${httpDate(now)}\r\n`;
  }
  return dateLine;
}

/**
 * The head of a 200 reply without headers of its own (nearly every reply) up to its
 * content-length value, for the Date line and fixed headers it was made with: a reply's head is
 * then this, its length and the connection's tail, instead of a dozen pieces joined per reply.
 */
let okPrefix = { date: '', fixed: '', text: '' };

function okHeadPrefix(fixed: string): string {
  const date = dateHeader();
  if (okPrefix.date !== date || okPrefix.fixed !== fixed) {
    okPrefix = { date, fixed, text: `HTTP/1.1 200 ${statusText(200)}\r\ncontent-type: application/json\r\n${date}${fixed}content-length: ` };
  }
  return okPrefix.text;
}

const KEPT_TAILS = new Map<number, string>();

/** The end of a head after content-length: the connection header, keep-alive's timeout, the blank line. */
function headTail(close: boolean, keepAliveSeconds: number): string {
  if (close) return `\r\n${CLOSE}\r\n`;
  let tail = KEPT_TAILS.get(keepAliveSeconds);
  if (tail === undefined) {
    tail = `\r\n${keepAliveSeconds > 0 ? `${KEEP_ALIVE}keep-alive: timeout=${keepAliveSeconds}\r\n` : KEEP_ALIVE}\r\n`;
    if (KEPT_TAILS.size < 16) KEPT_TAILS.set(keepAliveSeconds, tail);
  }
  return tail;
}

/** The head of a reply: the status line and headers, ending with the blank line. */
function replyHead(status: number, headers: Record<string, string> | undefined, fixed: string, length: number, close: boolean, keepAliveSeconds: number): string {
  if (status === 200 && headers === undefined) return okHeadPrefix(fixed) + length + headTail(close, keepAliveSeconds);
  let head = `HTTP/1.1 ${status} ${statusText(status)}\r\ncontent-type: application/json\r\n${dateHeader()}${fixed}`;
  if (headers) for (const name of Object.keys(headers)) head += `${name}: ${headers[name]}\r\n`;
  if (status !== 204 && status !== 304) head += `content-length: ${length}\r\n`;
  head += close ? CLOSE : keepAliveSeconds > 0 ? `${KEEP_ALIVE}keep-alive: timeout=${keepAliveSeconds}\r\n` : KEEP_ALIVE;
  return head + '\r\n';
}

const NO_BODY: JsonBody = { parts: [], bytes: 0 };

/**
 * One reply's bytes: its text, and after it a long body, if any: copied into a reused buffer
 * (replyBuffers.ts), or, when part of it is a deferred text, written as the socket takes it.
 */
export interface RenderedReply {
  text: string;
  /** The text is ASCII (written as Latin-1: a copy, where UTF-8 encodes character by character). */
  ascii: boolean;
  body: Buffer | undefined;
  stream: { cursor: AsciiCursor; bytes: number } | undefined;
}

/** The bytes of one reply (the body is JSON, written as UTF-8). */
export function renderReply(result: HandleResult, fixedHeaders: string, close: boolean, keepAliveSeconds: number): RenderedReply {
  const body = result.body === undefined ? NO_BODY : jsonBody(result.body);
  const status = result.status === 200 && result.body === undefined ? 204 : result.status;
  const head = replyHead(status, result.headers, fixedHeaders, body.bytes, close, keepAliveSeconds);
  const headAscii = Buffer.byteLength(head) === head.length;
  const only = body.parts.length === 1 ? body.parts[0] : body.parts.length === 0 ? '' : undefined;
  if (typeof only === 'string') {
    // A text is ASCII when its UTF-8 bytes are as many as its characters.
    return { text: head + only, ascii: headAscii && body.bytes === only.length, body: undefined, stream: undefined };
  }
  let chars = 0;
  let deferred = false;
  for (const part of body.parts) {
    chars += part.length;
    if (typeof part !== 'string') deferred = true;
  }
  if (deferred && chars === body.bytes && body.bytes >= REUSED_BUFFER_MIN_BYTES) {
    return { text: head, ascii: headAscii, body: undefined, stream: { cursor: new PartsCursor(body.parts), bytes: body.bytes } };
  }
  if (chars !== body.bytes || body.bytes < REUSED_BUFFER_MIN_BYTES) {
    const text = joinedText(body);
    // A deferred text that wrote other than it counted: an internal error, never a reply whose
    // length disagrees with its Content-Length.
    if (deferred && text.length !== body.bytes) return miscounted(fixedHeaders, close, keepAliveSeconds);
    return { text: head + text, ascii: headAscii && chars === body.bytes, body: undefined, stream: undefined };
  }
  const bytes = takeReplyBuffer(body.bytes);
  let at = 0;
  for (const part of body.parts) at += bytes.write(part as string, at, 'latin1');
  return { text: head, ascii: headAscii, body: bytes, stream: undefined };
}

function miscounted(fixedHeaders: string, close: boolean, keepAliveSeconds: number): RenderedReply {
  return renderReply({ status: 500, body: { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'internal error: reply text miscounted' } } }, fixedHeaders, close, keepAliveSeconds);
}

/** The parsed head of a request this path serves, or null to hand the connection to Node. */
interface LeanHead {
  profile: ProfileName;
  length: number;
  close: boolean;
}

/**
 * Reads the head `text` (request line and header lines, without the blank line). Anything
 * outside the plain case (see the module comment) answers null.
 */
function readHead(text: string, route: LeanRoute): LeanHead | null {
  const lineEnd = text.indexOf('\r\n');
  const requestLine = lineEnd < 0 ? text : text.slice(0, lineEnd);
  if (!requestLine.startsWith('POST ') || !requestLine.endsWith(' HTTP/1.1')) return null;
  const target = requestLine.slice(5, -9);
  if (target.length === 0 || target.includes(' ')) return null;
  const profile = route.profileFor(target);
  if (profile === null) return null;
  let host: string | undefined;
  let contentType: string | undefined;
  let length: string | undefined;
  let close = false;
  let at = lineEnd < 0 ? text.length : lineEnd + 2;
  while (at < text.length) {
    let end = text.indexOf('\r\n', at);
    if (end < 0) end = text.length;
    const colon = text.indexOf(':', at);
    if (colon < 0 || colon >= end || colon === at) return null;
    const first = text.charCodeAt(at);
    if (first === 32 || first === 9) return null; // a folded line: Node's parser refuses it
    const name = text.slice(at, colon).toLowerCase();
    const value = text.slice(colon + 1, end).trim();
    switch (name) {
      case 'host':
        if (host !== undefined) return null;
        host = value;
        break;
      case 'content-type':
        if (contentType !== undefined) return null;
        contentType = value;
        break;
      case 'content-length':
        if (length !== undefined) return null;
        length = value;
        break;
      case 'connection': {
        const tokens = value.toLowerCase();
        if (tokens.includes('upgrade')) return null;
        if (tokens.includes('close')) close = true;
        break;
      }
      case 'transfer-encoding':
      case 'expect':
      case 'upgrade':
      case 'origin':
        return null;
      default:
        if (name.includes(' ') || name.includes('\t')) return null;
    }
    at = end + 2;
  }
  if (length === undefined || !/^\d{1,10}$/.test(length)) return null;
  const bytes = Number(length);
  if (bytes > route.bodyLimit(profile)) return null;
  if (!route.allowed(host, contentType)) return null;
  return { profile, length: bytes, close };
}

/**
 * Heads already read on this server, by their text: a client sends the same head again and again
 * (the same path, host, type and often the same length), so most requests are one lookup instead
 * of a parse. readHead() is a pure function of the text and the server's route. Bounded: emptied
 * when full.
 */
type HeadCache = Map<string, LeanHead | null>;
const HEAD_CACHE_LIMIT = 256;
/** Longer heads are read each time, not kept: the cache holds at most 256 KiB of head text. */
const CACHED_HEAD_MAX_CHARS = 1024;

function cachedHead(text: string, route: LeanRoute, heads: HeadCache): LeanHead | null {
  if (text.length > CACHED_HEAD_MAX_CHARS) return readHead(text, route);
  const known = heads.get(text);
  if (known !== undefined) return known;
  const head = readHead(text, route);
  if (heads.size >= HEAD_CACHE_LIMIT) heads.clear();
  heads.set(text, head);
  return head;
}

/**
 * Serves the hot route of every connection `server` accepts (see the module comment); the
 * server's own connection listener gets the connections (or the rest of them) this path does not
 * serve. closeAllConnections() and closeIdleConnections() also close the connections served here.
 */
export function serveLean(server: Server, route: LeanRoute): void {
  const nodeListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const open = new Set<LeanConnection>();
  const heads: HeadCache = new Map();
  const handOver = (socket: Socket) => {
    for (const listener of nodeListeners) listener.call(server, socket);
  };
  server.on('connection', (socket: Socket) => {
    const connection = new LeanConnection(socket, route, heads, server, handOver, () => open.delete(connection));
    open.add(connection);
  });
  const closeAll = server.closeAllConnections.bind(server);
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeAllConnections = () => {
    closeAll();
    for (const connection of [...open]) connection.destroy();
  };
  server.closeIdleConnections = () => {
    closeIdle();
    for (const connection of [...open]) if (connection.idle()) connection.destroy();
  };
}

class LeanConnection {
  private pending: Buffer | undefined;
  private readonly slots: Slot[] = [];
  private flushQueued = false;
  /** Set once a request is not the plain case: bytes from it on go to Node's http server. */
  private handingOver = false;
  /** Set by a request with `Connection: close`: nothing after it is read. */
  private closing = false;
  private finished = false;
  /** The long body being written as the socket takes it; the replies after it wait for it. */
  private streaming: ReplyStream | undefined;
  private readonly onData = (chunk: Buffer) => this.read(chunk);
  private readonly onDrain = () => {
    this.streaming?.pump();
    this.resumeIfRoom();
  };
  /** Since when a request has been only partly received with nothing else to do (0: none is). */
  private stalledSince = 0;
  private readonly onTimeout = () => {
    if (this.idle()) return this.destroy();
    if (this.slots.length > 0 || this.pending === undefined) return;
    // Half a request: given Node's request timeout to arrive, as on Node's path.
    const now = Date.now();
    if (this.stalledSince === 0) this.stalledSince = now;
    else if (now - this.stalledSince >= Math.max(this.server.requestTimeout, this.server.keepAliveTimeout)) this.destroy();
  };
  private readonly onEnd = () => {
    // The client sent all it will: answer what it asked, then close our side too.
    if (this.finished || this.handingOver) return;
    this.closing = true;
    this.pending = undefined;
    if (this.slots.length === 0 && this.streaming === undefined) {
      this.finish();
      this.socket.end();
    }
  };
  private readonly onClose = () => this.finish();
  private readonly onError = () => this.finish();
  private readonly flushNow = () => this.flush();
  private readonly fixedHeaders: string;

  constructor(
    private readonly socket: Socket,
    private readonly route: LeanRoute,
    private readonly heads: HeadCache,
    private readonly server: Server,
    private readonly handOver: (socket: Socket) => void,
    private readonly forget: () => void,
  ) {
    socket.on('data', this.onData);
    socket.on('drain', this.onDrain);
    socket.on('end', this.onEnd);
    socket.on('close', this.onClose);
    socket.on('error', this.onError);
    socket.on('timeout', this.onTimeout);
    if (server.keepAliveTimeout > 0) socket.setTimeout(server.keepAliveTimeout + KEEP_ALIVE_GRACE_MS);
    this.fixedHeaders = route.headers ? Object.keys(route.headers).map((name) => `${name}: ${route.headers![name]}\r\n`).join('') : '';
  }

  idle(): boolean {
    return this.slots.length === 0 && this.pending === undefined && this.streaming === undefined;
  }

  destroy(): void {
    this.finish();
    this.socket.destroy();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.slots.length = 0;
    this.pending = undefined;
    this.streaming?.abandon();
    this.streaming = undefined;
    this.forget();
  }

  private read(chunk: Buffer): void {
    if (this.finished || this.closing) return;
    const buffer = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = undefined;
    this.stalledSince = 0;
    let offset = 0;
    while (offset < buffer.length) {
      const headEnd = buffer.indexOf('\r\n\r\n', offset, 'latin1');
      if (headEnd < 0) {
        if (buffer.length - offset > MAX_HEAD_BYTES) return this.startHandOver(buffer.subarray(offset));
        break;
      }
      const head = cachedHead(latin1Text(buffer, offset, headEnd), this.route, this.heads);
      if (head === null) return this.startHandOver(buffer.subarray(offset));
      const start = headEnd + 4;
      const end = start + head.length;
      if (end > buffer.length) break;
      this.serve(head.profile, buffer.toString('utf8', start, end), head.close);
      offset = end;
      if (head.close) {
        this.closing = true;
        this.socket.pause();
        return;
      }
    }
    if (offset < buffer.length) this.pending = offset === 0 ? buffer : Buffer.from(buffer.subarray(offset));
    if (this.slots.length >= MAX_QUEUED) this.socket.pause();
  }

  private serve(profile: ProfileName, text: string, close: boolean): void {
    const slot: Slot = { text: undefined, ascii: false, body: undefined, stream: undefined, hangup: false };
    this.slots.push(slot);
    const keepAlive = Math.floor(this.server.keepAliveTimeout / 1000);
    this.route.answer(profile, text).then(
      (result) => {
        if (result.hangup) slot.hangup = true;
        else ({ text: slot.text, ascii: slot.ascii, body: slot.body, stream: slot.stream } = renderReply(result, this.fixedHeaders, close, keepAlive));
        this.queueFlush();
      },
      () => {
        // answer() turns every failure into a reply; this is the last line of defence.
        ({ text: slot.text, ascii: slot.ascii, body: slot.body, stream: slot.stream } = renderReply({ status: 500, body: { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'internal error' } } }, this.fixedHeaders, close, keepAlive));
        this.queueFlush();
      },
    );
  }

  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    // Once every socket this turn of the event loop found readable has been read and answered
    // (the check phase): the replies go out together, after the work in hand. A reply written
    // from the middle of that work wakes its client there, and on a machine of few cores the
    // kernel often runs the woken client on the node's own core, pausing the node's thread.
    // Work that waits for a reply to be written (Chain.finishing, itself on the check phase)
    // goes after it: that reply is written after this socket read's microtasks, as it is ready.
    if (this.route.replyAtOnce()) process.nextTick(this.flushNow);
    else setImmediate(this.flushNow);
  }

  /**
   * Writes every reply that is ready, in request order, as one write (one writev when a long body
   * is in a buffer), up to a body written as the socket takes it: the rest wait for its end.
   */
  private flush(): void {
    this.flushQueued = false;
    if (this.finished || this.streaming !== undefined) return;
    let out = '';
    let ascii = true;
    let taken = 0;
    let hangup = false;
    let corked = false;
    for (const slot of this.slots) {
      if (slot.hangup) {
        hangup = true;
        break;
      }
      if (slot.text === undefined) break;
      out += slot.text;
      ascii &&= slot.ascii;
      taken++;
      const body = slot.body;
      if (body !== undefined) {
        if (!corked) this.socket.cork();
        corked = true;
        this.socket.write(out, ascii ? 'latin1' : 'utf8');
        // The buffer is used again once the socket no longer needs its bytes (written, or the write failed).
        this.socket.write(body, () => recycleReplyBuffer(body));
        out = '';
        ascii = true;
      }
      const stream = slot.stream;
      if (stream !== undefined) {
        this.streaming = new ReplyStream(this.socket, stream.cursor, stream.bytes, (ok) => this.streamed(ok));
        break;
      }
    }
    this.slots.splice(0, taken);
    if (out.length > 0) this.socket.write(out, ascii ? 'latin1' : 'utf8');
    if (corked) this.socket.uncork();
    if (this.streaming !== undefined) return this.streaming.pump(); // streamed() goes on from here
    if (hangup) return this.destroy();
    if (this.socket.writableLength >= MAX_UNSENT_BYTES) this.socket.pause(); // 'drain' resumes
    if (this.slots.length > 0) return;
    if (this.closing) {
      this.finish();
      this.socket.end();
      return;
    }
    if (this.handingOver) return this.completeHandOver();
    this.resumeIfRoom();
  }

  /** A streamed body was all written (or failed: the connection cannot answer it now). */
  private streamed(ok: boolean): void {
    this.streaming = undefined;
    if (this.finished) return;
    if (!ok) return this.destroy();
    this.queueFlush();
  }

  private resumeIfRoom(): void {
    if (this.finished || this.closing || this.handingOver) return;
    if (this.slots.length < MAX_QUEUED && this.socket.writableLength < MAX_UNSENT_BYTES && this.socket.isPaused()) this.socket.resume();
  }

  /** From the request at the start of `rest` on, the connection is Node's (once the replies before it are written). */
  private startHandOver(rest: Buffer): void {
    this.handingOver = true;
    this.socket.pause();
    this.pending = rest.length > 0 ? Buffer.from(rest) : undefined;
    if (this.slots.length === 0 && this.streaming === undefined) this.completeHandOver();
  }

  private completeHandOver(): void {
    const socket = this.socket;
    const rest = this.pending;
    this.finish();
    socket.off('data', this.onData);
    socket.off('drain', this.onDrain);
    socket.off('end', this.onEnd);
    socket.off('close', this.onClose);
    socket.off('error', this.onError);
    socket.off('timeout', this.onTimeout);
    socket.setTimeout(0);
    if (rest !== undefined) socket.unshift(rest);
    this.handOver(socket);
    socket.resume();
  }
}
