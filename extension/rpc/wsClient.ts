// A JSON-RPC 2.0 client over one WebSocket (the `ws` package): calls with timeouts, and
// eth_subscribe notifications routed to their subscription's listener. No vscode import.
//
// Bounded whatever the endpoint does, and it never throws out of an event: frames over
// maxMessageBytes close the socket (ws's maxPayload), a call is refused while more than
// maxBufferedBytes wait to be sent, at most maxPendingCalls calls wait for an answer, and
// notifications for an unknown subscription are dropped. A socket error or close settles every
// call waiting (rejected) and is reported once through `onClose`.
import type WebSocket from 'ws';
import { BadResponseError, CancelledError, JsonRpcError, NetworkError, TimeoutError, type JsonRpcErrorObject } from './errors';

export interface WsClientOptions {
  /** Per call (default 10 s), and for the opening handshake. */
  timeoutMs?: number;
  /** The largest frame read; a larger one closes the socket (default 16 MiB). */
  maxMessageBytes?: number;
  /** Calls are refused while more than this waits to be sent (default 1 MiB). */
  maxBufferedBytes?: number;
  /** Calls waiting for an answer at most (default 256). */
  maxPendingCalls?: number;
}

/** ws readyState values (WebSocket.OPEN, WebSocket.CONNECTING). */
const CONNECTING = 0;
const OPEN = 1;

export type NotificationListener = (result: unknown) => void;

interface PendingCall {
  method: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class WsRpcClient {
  private readonly socket: WebSocket;
  private nextId = 1;
  private readonly calls = new Map<number, PendingCall>();
  private readonly listeners = new Map<string, NotificationListener>();
  private closeListeners: ((reason: string) => void)[] = [];
  private closedReason: string | undefined;
  private readonly opened: Promise<void>;
  private readonly timeoutMs: number;
  private readonly maxBufferedBytes: number;
  private readonly maxPendingCalls: number;
  /** Messages received (answers and notifications), for diagnostics and tests. */
  messages = 0;

  constructor(readonly url: string, options: WsClientOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
    this.maxPendingCalls = options.maxPendingCalls ?? 256;
    // Loaded on first use: in the bundles, dist/mock-node-ws.js beside them (see esbuild.mjs).
    const { WebSocket: Socket } = require('ws') as typeof import('ws');
    this.socket = new Socket(url, {
      maxPayload: options.maxMessageBytes ?? 16 * 1024 * 1024,
      handshakeTimeout: this.timeoutMs,
      perMessageDeflate: false,
      followRedirects: false,
    });
    this.opened = new Promise<void>((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.onClose((reason) => reject(new NetworkError('websocket', reason)));
    });
    this.opened.catch(() => undefined);
    this.socket.on('message', (data, isBinary) => this.receive(data, isBinary));
    this.socket.on('error', (error) => this.close(error.message || String(error)));
    this.socket.on('close', (code, reason) => this.close(`closed (${code}${reason.length > 0 ? ` ${reason.toString('utf8').slice(0, 120)}` : ''})`));
    // ws answers pings itself; an unexpected HTTP answer to the upgrade is an error like any other.
    this.socket.on('unexpected-response', (_request, response) => {
      this.close(`HTTP ${response.statusCode ?? '?'} instead of a WebSocket`);
      response.resume();
    });
  }

  /** Resolves once the socket is open; rejects if it closes first. */
  open(): Promise<void> {
    return this.opened;
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** Called once when the socket closes or fails (at once if it already has). */
  onClose(listener: (reason: string) => void): void {
    if (this.closedReason !== undefined) listener(this.closedReason);
    else this.closeListeners.push(listener);
  }

  call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    if (this.closedReason !== undefined) return Promise.reject(new NetworkError(method, this.closedReason));
    if (this.socket.readyState !== OPEN) return Promise.reject(new NetworkError(method, 'the socket is not open'));
    if (this.calls.size >= this.maxPendingCalls) return Promise.reject(new NetworkError(method, `${this.calls.size} calls already wait for an answer`));
    if (this.socket.bufferedAmount > this.maxBufferedBytes) {
      return Promise.reject(new NetworkError(method, `${this.socket.bufferedAmount} bytes wait to be sent`));
    }
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.calls.delete(id);
        reject(new TimeoutError(method, this.timeoutMs));
      }, this.timeoutMs);
      this.calls.set(id, { method, resolve: resolve as (value: unknown) => void, reject, timer });
      this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }), (error) => {
        if (error) this.settle(id, new NetworkError(method, error.message));
      });
    });
  }

  /** eth_subscribe; the listener gets each notification's `result`. Answers the subscription id. */
  async subscribe(params: unknown[], listener: NotificationListener): Promise<string> {
    const id = await this.call<unknown>('eth_subscribe', params);
    if (typeof id !== 'string' || id.length === 0 || id.length > 200) throw new BadResponseError('eth_subscribe', 'expected a subscription id');
    this.listeners.set(id, listener);
    return id;
  }

  async unsubscribe(id: string): Promise<void> {
    this.listeners.delete(id);
    await this.call('eth_unsubscribe', [id]);
  }

  /** Closes the socket (no more notifications); calls waiting are rejected as cancelled. */
  dispose(): void {
    for (const [id, call] of this.calls) this.settle(id, new CancelledError(call.method));
    this.listeners.clear();
    this.closeListeners = [];
    this.close('closed by the explorer');
    try {
      if (this.socket.readyState === CONNECTING) this.socket.terminate();
      else this.socket.close(1000);
    } catch {
      // already closing
    }
  }

  private close(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    for (const [id, call] of this.calls) this.settle(id, new NetworkError(call.method, reason));
    this.listeners.clear();
    const listeners = this.closeListeners;
    this.closeListeners = [];
    for (const listener of listeners) {
      try {
        listener(reason);
      } catch {
        // a listener's mistake never reaches the socket's event
      }
    }
    if (this.socket.readyState === OPEN) {
      try { this.socket.terminate(); } catch { /* gone */ }
    }
  }

  private settle(id: number, error: Error | undefined, value?: unknown): void {
    const call = this.calls.get(id);
    if (!call) return;
    this.calls.delete(id);
    clearTimeout(call.timer);
    if (error) call.reject(error);
    else call.resolve(value);
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    if (isBinary) return;
    this.messages++;
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      return; // not JSON: nothing to route
    }
    for (const item of Array.isArray(message) ? message : [message]) {
      if (typeof item !== 'object' || item === null) continue;
      const { id, method, params, result, error } = item as {
        id?: unknown; method?: unknown; params?: { subscription?: unknown; result?: unknown }; result?: unknown; error?: JsonRpcErrorObject;
      };
      if (method === 'eth_subscription' && typeof params === 'object' && params !== null) {
        const listener = typeof params.subscription === 'string' ? this.listeners.get(params.subscription) : undefined;
        if (!listener) continue;
        try {
          listener(params.result);
        } catch {
          // the listener's mistake is the listener's: the socket goes on
        }
        continue;
      }
      if (typeof id !== 'number') continue;
      const call = this.calls.get(id);
      if (!call) continue;
      if (error !== undefined) {
        const valid = typeof error === 'object' && error !== null && typeof error.code === 'number' && typeof error.message === 'string';
        this.settle(id, valid ? new JsonRpcError(call.method, error.code, error.message, error.data) : new BadResponseError(call.method, 'malformed error object'));
      } else if (!('result' in (item as object))) {
        this.settle(id, new BadResponseError(call.method, 'neither result nor error'));
      } else {
        this.settle(id, undefined, result);
      }
    }
  }
}
