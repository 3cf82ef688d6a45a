// WebSocket on the HTTP server's port and RPC paths (`/` public, `/dedicated/<key>` dedicated;
// a wrong key is refused with HTTP 401 before the upgrade, a Host or Origin the node does not
// answer to with HTTP 403). Every message is JSON-RPC: eth_subscribe and eth_unsubscribe are
// answered here, everything else goes through the same handle() as HTTP (limits, faults and the
// receipts rule included).
//
// Memory is bounded whatever clients do:
// - a socket with more than wsMaxBufferedBytes waiting to be sent gets no more notifications or
//   replies and is closed with 1008 (slow consumer);
// - a socket with half of that waiting is not read from until it drains, so a client that sends
//   requests and never reads the replies stops its own flow;
// - over wsMaxConnections, a new connection is closed at once with 1013 (try again later);
// - over wsMaxTotalBufferedBytes waiting on all sockets together, the sockets with the most
//   waiting are closed with 1013 until the total is under it (counted after each turn that could
//   pass it); within a turn, a socket still holding earlier bytes while the running total is over
//   the cap is closed instead of being sent more; one holding more than 64 KiB unsent is cut off at
//   once (its close frame would wait behind those bytes while they keep the total over the cap).
// A closed slow socket that still does not read is cut off after CLOSE_GRACE_MS, freeing its buffers.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer, WebSocket, RawData } from 'ws';
import type { Chain } from '../../chain/chain';
import type { Logger } from '../../logger';
import type { MockNodeOptions } from '../../options';
import { ErrorCode, RpcError } from '../errors';
import { errorResponse, type RpcHandler, type RpcId, type RpcResponse } from '../handler';
import type { ProfileName } from '../methods/types';
import { hostAllowed, hostRefusal, originAllowed, originRefusal } from '../requestGuards';
import { bodyLimit, profileForPath, type HttpOptions } from '../server';
import { NotificationResult, SubscriptionHub, type SubscriptionClient } from './subscriptions';
import { ENVELOPE_END, writeNotificationFrame, type Notification } from './notificationFrames';

/** A reply's text, or a notification (its envelope around a result shared with other sockets), or a binary frame (the flashblocks stream's brotli). */
type QueuedFrame = string | Notification | Buffer;
import { jsonText } from '../jsonText';
import { FlashblocksFeed, type FlashblockFrame } from '../flashblocks/flashblocksFeed';

/** The flashblocks stream's path (with a chain preset): JSON text frames, or brotli binary frames with ?encoding=brotli. */
export const FLASHBLOCKS_PATH = '/flashblocks';

export const SLOW_CONSUMER_CLOSE_CODE = 1008;
/** RFC 6455 "try again later": the node is at its connection or total buffer limit. */
export const OVER_CAPACITY_CLOSE_CODE = 1013;
/** How long a closed socket may take to take its close frame before it is cut off. */
export const CLOSE_GRACE_MS = 2000;
/** A socket closed over the total cap with more than this unsent is cut off at once, not after the grace period. */
const CLOSE_FRAME_ROOM_BYTES = 64 * 1024;

export interface WebSocketStats {
  clients: number;
  subscriptions: number;
  notificationsSent: number;
  closedSlowConsumers: number;
  /** Connections closed for the connection cap or the total buffer cap. */
  closedOverCapacity: number;
  /** Bytes waiting to be sent over all sockets now. */
  bufferedBytes: number;
}

interface ConnectionHooks {
  /** The connection went over its own limit. */
  slow(connection: Connection): void;
  /** `bytes` more were queued on some socket (the gateway's running total). */
  queued(bytes: number): void;
  /** Whether the bytes waiting on all sockets (the running estimate) are over the total cap. */
  overTotal(): boolean;
  /** The connection is behind while the total is over the cap: close it (1013). */
  overCapacity(connection: Connection): void;
}

class Connection implements SubscriptionClient {
  closing = false;
  /** Notifications and replies of the current turn, written together (one corked write) in a microtask. */
  private batch: QueuedFrame[] = [];
  private batchBytes = 0;
  private readingPaused = false;

  constructor(
    readonly ws: WebSocket,
    readonly profile: ProfileName,
    private readonly maxBuffered: number,
    private readonly hooks: ConnectionHooks,
  ) {
    this.socket?.on?.('drain', () => this.resumeIfDrained());
  }

  /** Bytes earlier turns left unsent (what ws and the socket hold): the per-socket limit applies to these. */
  get buffered(): number {
    return this.ws.bufferedAmount;
  }

  /** Everything waiting, this turn's batch included (replies are checked against it). */
  get waiting(): number {
    return this.ws.bufferedAmount + this.batchBytes;
  }

  private get socket(): { cork?: () => void; uncork?: () => void; on?: (event: string, listener: () => void) => void } | undefined {
    // ws keeps the socket private; cork/uncork and 'drain' are all this uses of it.
    return (this.ws as unknown as { _socket?: ReturnType<() => Connection['socket']> })._socket;
  }

  /**
   * A notification; false when the client is gone or was closed for falling behind. Only what
   * earlier events left unsent counts: one large event must not close a healthy socket.
   */
  notify(envelope: string, result: NotificationResult): boolean {
    return this.queue({ envelope, result }, envelope.length + result.json.length + 2, this.buffered);
  }

  /**
   * A reply to a request: the same queue as notifications, so the order on the wire is the order
   * of events. Replies of this turn count too: requests are read only while less than half the
   * limit waits, so only a client that piles up requests without reading replies gets here.
   */
  reply(text: string): void {
    this.queue(text, text.length, this.waiting);
  }

  /** A stream frame (flashblocks): like a notification, only what earlier events left unsent counts. */
  stream(frame: string | Buffer): boolean {
    return this.queue(frame, frame.length, this.buffered);
  }

  /** Stops reading requests while half the limit or more waits to be sent; 'drain' resumes. */
  admitRead(): void {
    if (this.readingPaused || this.closing || this.waiting < this.maxBuffered / 2) return;
    this.readingPaused = true;
    this.ws.pause();
  }

  close(code: number, reason: string): void {
    if (this.closing) return;
    this.closing = true;
    this.batch = [];
    this.batchBytes = 0;
    this.ws.close(code, reason);
    // A client that does not read never takes the close frame: cut it off to free its buffers.
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  private queue(frame: QueuedFrame, length: number, waiting: number): boolean {
    if (this.closing || this.ws.readyState !== OPEN) return false;
    if (waiting > this.maxBuffered) {
      this.hooks.slow(this);
      return false;
    }
    // Over the total cap, a socket still holding earlier bytes gets no more, even within this
    // turn: one event sent to every socket cannot pile up before the count after the turn.
    if (this.buffered > 0 && this.hooks.overTotal()) {
      this.hooks.overCapacity(this);
      return false;
    }
    if (this.batch.length === 0) queueMicrotask(() => this.flush());
    this.batch.push(frame);
    this.batchBytes += length;
    this.hooks.queued(length);
    return true;
  }

  private flush(): void {
    const batch = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    if (this.closing || this.ws.readyState !== OPEN) return;
    // One write for the whole batch instead of a write per frame.
    const socket = this.socket;
    socket?.cork?.();
    for (const frame of batch) {
      if (typeof frame === 'string') this.ws.send(frame);
      else if (Buffer.isBuffer(frame)) this.ws.send(frame, { binary: true });
      else if (!writeNotificationFrame(this.ws, frame)) this.ws.send(frame.envelope + frame.result.json + ENVELOPE_END);
    }
    socket?.uncork?.();
  }

  private resumeIfDrained(): void {
    if (!this.readingPaused || this.closing || this.waiting >= this.maxBuffered / 2) return;
    this.readingPaused = false;
    this.ws.resume();
  }
}

/** ws's readyState of an open socket. */
const OPEN = 1;

export class WebSocketGateway {
  readonly hub: SubscriptionHub;
  /** Made on the first upgrade: ws is loaded then (dist/mock-node-ws.js beside the bundles), not at start-up. */
  private wss: WebSocketServer | undefined;
  private readonly connections = new Set<Connection>();
  /** With a chain preset: the flashblocks stream (FlashblocksPayloadV1 frames) and its clients. */
  readonly flashblocks: FlashblocksFeed | undefined;
  private closedSlow = 0;
  private closedOverCapacity = 0;
  /** Total waiting at the last count, and bytes queued since: the count is redone only when they could pass the cap. */
  private countedBuffered = 0;
  private queuedSinceCount = 0;
  private countScheduled = false;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head);

  private readonly options: MockNodeOptions;
  private readonly handle: RpcHandler;
  private readonly http: HttpOptions;
  private readonly logger: Logger | undefined;

  /**
   * `basePath` ('' for the node's own server) is where the RPC paths are mounted, e.g. '/rpc'
   * for mockNodeRouter() under app.use('/rpc', …). With a base path, upgrades outside it are left
   * to the server's other 'upgrade' listeners; without one, they are refused with 404.
   */
  constructor(
    private readonly server: Server,
    deps: { chain: Chain; options: MockNodeOptions; handle: RpcHandler; http: HttpOptions; logger?: Logger },
    private readonly basePath = '',
  ) {
    const { chain, options, handle, http } = deps;
    this.options = options;
    this.handle = handle;
    this.http = http;
    this.logger = deps.logger;
    this.hub = new SubscriptionHub(chain, () => options.pendingIdentity);
    this.flashblocks = options.chain === undefined ? undefined : new FlashblocksFeed(chain);
    server.on('upgrade', this.onUpgrade);
  }

  stats(): WebSocketStats {
    return {
      clients: this.connections.size,
      subscriptions: this.hub.size,
      notificationsSent: this.hub.sent,
      closedSlowConsumers: this.closedSlow,
      closedOverCapacity: this.closedOverCapacity,
      bufferedBytes: this.totalBuffered(),
    };
  }

  close(): void {
    this.server.off('upgrade', this.onUpgrade);
    for (const connection of this.connections) connection.ws.terminate();
    this.connections.clear();
    this.hub.dispose();
    this.wss?.close();
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    let path = req.url ?? '/';
    if (this.basePath) {
      if (!(path === this.basePath || path.startsWith(`${this.basePath}/`) || path.startsWith(`${this.basePath}?`))) return;
      path = path.slice(this.basePath.length) || '/';
    }
    const origin = Array.isArray(req.headers.origin) ? req.headers.origin[0] : req.headers.origin;
    const profile = profileForPath(path, this.http.apiKey);
    if (!hostAllowed(req.headers.host, this.http.exposure)) return refuseUpgrade(socket, '403 Forbidden', hostRefusal(req.headers.host));
    if (!originAllowed(origin, this.http.exposure)) return refuseUpgrade(socket, '403 Forbidden', originRefusal(origin!));
    const [pathname, query = ''] = path.split('?', 2);
    if (this.flashblocks && pathname === FLASHBLOCKS_PATH) {
      const encoding = new URLSearchParams(query).get('encoding') ?? 'json';
      if (encoding !== 'json' && encoding !== 'brotli') return refuseUpgrade(socket, '400 Bad Request', `encoding must be json or brotli, got ${encoding}`);
      this.webSocketServer().handleUpgrade(req, socket, head, (ws) => this.accept(ws, 'public', encoding));
      return;
    }
    if (profile === null) return refuseUpgrade(socket, '404 Not Found', 'no WebSocket endpoint here: use / or /dedicated/<key>');
    if (profile === 'unauthorized') return refuseUpgrade(socket, '401 Unauthorized', 'unauthorized: unknown key for the dedicated endpoint');
    this.webSocketServer().handleUpgrade(req, socket, head, (ws) => this.accept(ws, profile));
  }

  private webSocketServer(): WebSocketServer {
    if (this.wss) return this.wss;
    const { WebSocketServer } = require('ws') as typeof import('ws');
    const http = this.http;
    const maxPayload = Math.max(http.maxBodyBytes, http.limits?.public.maxBodyBytes ?? 0, http.limits?.dedicated.maxBodyBytes ?? 0);
    this.wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload });
    return this.wss;
  }

  private accept(ws: WebSocket, profile: ProfileName, stream?: 'json' | 'brotli'): void {
    const limit = this.options.wsMaxConnections;
    if (this.connections.size >= limit) {
      this.closedOverCapacity++;
      this.logger?.warn(`WebSocket client refused: ${limit} connections open (the limit)`, { profile });
      ws.close(OVER_CAPACITY_CLOSE_CODE, `too many WebSocket connections: limit ${limit}`);
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
      return;
    }
    const connection = new Connection(ws, profile, this.options.wsMaxBufferedBytes, {
      slow: (slow) => {
        this.closedSlow++;
        this.hub.dropClient(slow);
        this.logger?.warn(`WebSocket client closed: slow consumer (more than ${this.options.wsMaxBufferedBytes} bytes waiting)`, { profile });
        slow.close(SLOW_CONSUMER_CLOSE_CODE, `slow consumer: more than ${this.options.wsMaxBufferedBytes} bytes waiting to be sent`);
      },
      queued: (bytes) => this.queued(bytes),
      overTotal: () => this.countedBuffered + this.queuedSinceCount > this.options.wsMaxTotalBufferedBytes,
      overCapacity: (behind) => this.closeOverCapacity(behind),
    });
    this.connections.add(connection);
    this.logger?.debug('WebSocket client connected', { profile, clients: this.connections.size, ...(stream ? { stream: `flashblocks (${stream})` } : {}) });
    if (stream) {
      // A stream client only listens: what it sends is not read as requests.
      const send = stream === 'brotli' ? (frame: FlashblockFrame) => connection.stream(frame.brotli()) : (frame: FlashblockFrame) => connection.stream(frame.text);
      const stop = this.flashblocks!.listen((frame) => {
        if (!send(frame)) stop();
      });
      ws.on('close', () => {
        stop();
        this.connections.delete(connection);
      });
      ws.on('error', () => ws.terminate());
      return;
    }
    ws.on('message', (data: RawData, isBinary: boolean) => {
      connection.admitRead();
      if (isBinary) {
        this.reply(connection, errorResponse(null, ErrorCode.InvalidRequest, 'binary frames are not JSON-RPC; send text'));
        return;
      }
      void this.message(connection, data.toString());
    });
    ws.on('close', (code: number) => {
      this.connections.delete(connection);
      this.hub.dropClient(connection);
      this.logger?.debug('WebSocket client disconnected', { profile, code, clients: this.connections.size });
    });
    ws.on('error', () => ws.terminate());
  }

  private totalBuffered(): number {
    let total = 0;
    for (const connection of this.connections) total += connection.buffered;
    return total;
  }

  /**
   * Keeps the bytes waiting on all sockets under wsMaxTotalBufferedBytes (see the module comment).
   * Counting walks every connection, so it runs at most once per turn of the event loop, after
   * this turn's writes, and only once enough was queued since the last count to pass the cap.
   */
  private queued(bytes: number): void {
    this.queuedSinceCount += bytes;
    if (this.countScheduled || this.countedBuffered + this.queuedSinceCount <= this.options.wsMaxTotalBufferedBytes) return;
    this.countScheduled = true;
    setImmediate(() => this.enforceTotal());
  }

  private enforceTotal(): void {
    this.countScheduled = false;
    this.queuedSinceCount = 0;
    const cap = this.options.wsMaxTotalBufferedBytes;
    this.countedBuffered = this.totalBuffered();
    if (this.countedBuffered <= cap) return;
    // Sockets already closing hold buffers nobody reads: cut them off first; then those holding
    // the most, down to three quarters of the cap, so the next count is a quarter of the cap away.
    const target = (cap * 3) / 4;
    const bySize = [...this.connections].sort((a, b) => Number(b.closing) - Number(a.closing) || b.buffered - a.buffered);
    for (const connection of bySize) {
      if (this.countedBuffered <= target || connection.buffered === 0) break;
      this.countedBuffered -= connection.buffered;
      if (connection.closing) {
        connection.ws.terminate();
        continue;
      }
      this.closeOverCapacity(connection);
    }
  }

  private closeOverCapacity(connection: Connection): void {
    const cap = this.options.wsMaxTotalBufferedBytes;
    this.closedOverCapacity++;
    this.hub.dropClient(connection);
    this.logger?.warn(`WebSocket client closed: the node's WebSocket send buffers hold more than ${cap} bytes`, { profile: connection.profile });
    const behind = connection.buffered;
    connection.close(OVER_CAPACITY_CLOSE_CODE, `server busy: more than ${cap} bytes waiting on all WebSocket connections`);
    // Its close frame waits behind what it has not taken: holding more than a little, it would not
    // see the frame soon, and its buffers would stay in the node for the grace period while the
    // total is already over the cap. Cut it off now.
    if (behind > CLOSE_FRAME_ROOM_BYTES) connection.ws.terminate();
  }

  private reply(connection: Connection, body: RpcResponse | RpcResponse[] | undefined): void {
    if (body !== undefined) connection.reply(jsonText(body));
  }

  private async message(connection: Connection, text: string): Promise<void> {
    const limit = bodyLimit(this.http, connection.profile);
    if (Buffer.byteLength(text) > limit) {
      this.reply(connection, errorResponse(null, ErrorCode.LimitExceeded, `request body too large: limit ${limit} bytes`));
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      this.reply(connection, errorResponse(null, ErrorCode.ParseError, `parse error: ${(error as Error).message}`));
      return;
    }
    if (Array.isArray(body) && body.some(isSubscriptionCall)) {
      const maxBatch = this.options.limits[connection.profile === 'dedicated' ? 'dedicated' : 'public'].maxBatch;
      if (body.length > maxBatch) {
        this.reply(connection, errorResponse(null, ErrorCode.LimitExceeded, `batch too large: ${body.length} requests, max ${maxBatch}`));
        return;
      }
      const responses: RpcResponse[] = [];
      for (const request of body) {
        const response = isSubscriptionCall(request) ? this.subscriptionCall(connection, request) : await this.viaHandle(connection, request);
        if (response && !Array.isArray(response)) responses.push(response);
      }
      this.reply(connection, responses.length ? responses : undefined);
      return;
    }
    if (isSubscriptionCall(body)) {
      this.reply(connection, this.subscriptionCall(connection, body));
      return;
    }
    this.reply(connection, await this.viaHandle(connection, body));
  }

  private async viaHandle(connection: Connection, body: unknown): Promise<RpcResponse | RpcResponse[] | undefined> {
    const result = await this.handle(body, connection.profile);
    // An injected timeout over a socket: the request is never answered.
    return result.hangup ? undefined : result.body;
  }

  private subscriptionCall(connection: Connection, request: Record<string, unknown>): RpcResponse | undefined {
    const hasId = 'id' in request;
    const id = (typeof request.id === 'string' || typeof request.id === 'number' ? request.id : null) as RpcId;
    const params = request.params === undefined ? [] : request.params;
    let response: RpcResponse;
    if (request.jsonrpc !== '2.0') {
      response = errorResponse(id, ErrorCode.InvalidRequest, 'invalid request: jsonrpc must be "2.0"');
    } else if (!Array.isArray(params)) {
      response = errorResponse(id, ErrorCode.InvalidParams, 'invalid params: params must be an array (positional)');
    } else {
      try {
        const result = request.method === 'eth_subscribe' ? this.hub.subscribe(connection, params) : this.hub.unsubscribe(connection, params[0]);
        response = { jsonrpc: '2.0', id, result };
      } catch (error) {
        response = error instanceof RpcError ? errorResponse(id, error.code, error.message, error.data) : errorResponse(id, ErrorCode.Internal, `internal error: ${(error as Error).message}`);
      }
    }
    return hasId ? response : undefined;
  }
}

function refuseUpgrade(socket: Duplex, status: string, message: string): void {
  const body = JSON.stringify(errorResponse(null, ErrorCode.InvalidRequest, message));
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

function isSubscriptionCall(request: unknown): request is Record<string, unknown> {
  if (!request || typeof request !== 'object' || Array.isArray(request)) return false;
  const method = (request as { method?: unknown }).method;
  return method === 'eth_subscribe' || method === 'eth_unsubscribe';
}
