// WebSocket on the HTTP server's port and RPC paths (`/` public, `/dedicated/<key>` dedicated;
// a wrong key is refused with HTTP 401 before the upgrade). Every message is JSON-RPC: eth_subscribe
// and eth_unsubscribe are answered here, everything else goes through the same handle() as HTTP
// (limits, faults and the receipts rule included). A socket whose unsent data grows beyond
// wsMaxBufferedBytes gets no more messages and is closed with 1008 and a reason saying why.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import type { Chain } from '../../chain/chain';
import type { Logger } from '../../logger';
import type { MockNodeOptions } from '../../options';
import { ErrorCode, RpcError } from '../errors';
import { errorResponse, type RpcHandler, type RpcId, type RpcResponse } from '../handler';
import type { ProfileName } from '../methods/types';
import { bodyLimit, profileForPath, type HttpOptions } from '../server';
import { SubscriptionHub, type SubscriptionClient } from './subscriptions';

export const SLOW_CONSUMER_CLOSE_CODE = 1008;

export interface WebSocketStats {
  clients: number;
  subscriptions: number;
  notificationsSent: number;
  closedSlowConsumers: number;
}

class Connection implements SubscriptionClient {
  closing = false;
  /** Notifications of the current chain event, written together (one corked write) in a microtask. */
  private batch: string[] = [];

  constructor(
    readonly ws: WebSocket,
    readonly profile: ProfileName,
    private readonly maxBuffered: number,
    private readonly onSlow: () => void,
  ) {}

  send(text: string): boolean {
    if (this.closing || this.ws.readyState !== WebSocket.OPEN) return false;
    // Only what earlier events left unsent counts: one large event must not close a healthy socket.
    if (this.ws.bufferedAmount > this.maxBuffered) {
      this.closeSlow();
      return false;
    }
    this.enqueue(text);
    return true;
  }

  /** A reply to a request: same queue as notifications, so the order on the wire is the order of events. */
  reply(text: string): void {
    if (this.closing || this.ws.readyState !== WebSocket.OPEN) return;
    this.enqueue(text);
  }

  private enqueue(text: string): void {
    if (this.batch.length === 0) queueMicrotask(() => this.flush());
    this.batch.push(text);
  }

  private flush(): void {
    const batch = this.batch;
    this.batch = [];
    if (this.closing || this.ws.readyState !== WebSocket.OPEN) return;
    // One write for the whole batch instead of a write per frame (ws keeps the socket private).
    const socket = (this.ws as unknown as { _socket?: { cork?: () => void; uncork?: () => void } })._socket;
    socket?.cork?.();
    for (const text of batch) this.ws.send(text);
    socket?.uncork?.();
  }

  private closeSlow(): void {
    this.closing = true;
    this.batch = [];
    this.onSlow();
    this.ws.close(SLOW_CONSUMER_CLOSE_CODE, `slow consumer: more than ${this.maxBuffered} bytes waiting to be sent`);
  }
}

export class WebSocketGateway {
  readonly hub: SubscriptionHub;
  private readonly wss: WebSocketServer;
  private readonly connections = new Set<Connection>();
  private closedSlow = 0;
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
    this.wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: Math.max(http.maxBodyBytes, http.limits?.public.maxBodyBytes ?? 0, http.limits?.dedicated.maxBodyBytes ?? 0) });
    server.on('upgrade', this.onUpgrade);
  }

  stats(): WebSocketStats {
    return { clients: this.connections.size, subscriptions: this.hub.size, notificationsSent: this.hub.sent, closedSlowConsumers: this.closedSlow };
  }

  close(): void {
    this.server.off('upgrade', this.onUpgrade);
    for (const connection of this.connections) connection.ws.terminate();
    this.connections.clear();
    this.hub.dispose();
    this.wss.close();
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    let path = req.url ?? '/';
    if (this.basePath) {
      if (!(path === this.basePath || path.startsWith(`${this.basePath}/`) || path.startsWith(`${this.basePath}?`))) return;
      path = path.slice(this.basePath.length) || '/';
    }
    const profile = profileForPath(path, this.http.apiKey);
    if (profile === null || profile === 'unauthorized') {
      const status = profile === null ? '404 Not Found' : '401 Unauthorized';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, profile));
  }

  private accept(ws: WebSocket, profile: ProfileName): void {
    const connection = new Connection(ws, profile, this.options.wsMaxBufferedBytes, () => {
      this.closedSlow++;
      this.hub.dropClient(connection);
      this.logger?.warn(`WebSocket client closed: slow consumer (more than ${this.options.wsMaxBufferedBytes} bytes waiting)`, { profile });
    });
    this.connections.add(connection);
    this.logger?.debug('WebSocket client connected', { profile, clients: this.connections.size });
    ws.on('message', (data: RawData, isBinary: boolean) => {
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

  private reply(connection: Connection, body: RpcResponse | RpcResponse[] | undefined): void {
    if (body !== undefined) connection.reply(JSON.stringify(body));
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

function isSubscriptionCall(request: unknown): request is Record<string, unknown> {
  if (!request || typeof request !== 'object' || Array.isArray(request)) return false;
  const method = (request as { method?: unknown }).method;
  return method === 'eth_subscribe' || method === 'eth_unsubscribe';
}
