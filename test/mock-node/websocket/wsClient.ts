// A small JSON-RPC WebSocket client for tests: calls by id, notifications kept per subscription.
import WebSocket from 'ws';

export interface Notification {
  subscription: string;
  result: any;
}

export class TestSocket {
  readonly notifications = new Map<string, any[]>();
  /** Every notification in arrival order (across subscriptions). */
  readonly all: Notification[] = [];
  private readonly calls = new Map<number | string, (body: any) => void>();
  private readonly waiters: (() => void)[] = [];
  private nextId = 1;
  closed: { code: number; reason: string } | undefined;
  /** For each reply id: how many notifications had arrived before it. */
  readonly replyPositions = new Map<number | string, number>();

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const body = JSON.parse(data.toString());
      if (Array.isArray(body)) {
        const first = body.find((entry: any) => this.calls.has(entry.id));
        if (first) {
          const resolve = this.calls.get(first.id)!;
          this.calls.delete(first.id);
          resolve(body);
        }
      } else if (body.method === 'eth_subscription') {
        const { subscription, result } = body.params;
        const list = this.notifications.get(subscription) ?? [];
        list.push(result);
        this.notifications.set(subscription, list);
        this.all.push({ subscription, result });
      } else if (this.calls.has(body.id)) {
        this.replyPositions.set(body.id, this.all.length);
        const resolve = this.calls.get(body.id)!;
        this.calls.delete(body.id);
        resolve(body);
      }
      for (const waiter of this.waiters.splice(0)) waiter();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      for (const waiter of this.waiters.splice(0)) waiter();
    });
  }

  static open(url: string): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(new TestSocket(ws)));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode })));
    });
  }

  /** Sends a raw body (object or batch) and resolves with the reply carrying `idForReply`. */
  raw(body: unknown, idForReply: number | string): Promise<any> {
    return new Promise((resolve) => {
      this.calls.set(idForReply, resolve);
      this.ws.send(JSON.stringify(body));
    });
  }

  async call(method: string, params: unknown[] = []): Promise<any> {
    return (await this.callWithId(method, params)).result;
  }

  /** Like call, also answering the request id (for replyPositions). */
  async callWithId(method: string, params: unknown[] = []): Promise<{ id: number; result: any }> {
    const id = this.nextId++;
    const body = await this.raw({ jsonrpc: '2.0', id, method, params }, id);
    if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code, data: body.error.data });
    return { id, result: body.result };
  }

  subscribe(...params: unknown[]): Promise<string> {
    return this.call('eth_subscribe', params);
  }

  of(subscription: string): any[] {
    return this.notifications.get(subscription) ?? [];
  }

  /** Waits until `predicate` holds (checked after every message); rejects after `ms`. */
  until(predicate: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
      const check = () => {
        if (predicate()) {
          clearTimeout(timer);
          resolve();
        } else {
          this.waiters.push(check);
        }
      };
      this.waiters.push(check);
    });
  }

  close(): void {
    this.ws.terminate();
  }
}
