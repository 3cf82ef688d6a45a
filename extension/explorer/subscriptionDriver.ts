// Follows expanded endpoints that have a WebSocket URL by eth_subscribe, and says what changed:
// a sealed block not seen before (newHeads), the pending block as of a flashblock not seen before
// (newFlashblocks), or, where an endpoint has no newFlashblocks, that something entered the
// pending block (pendingLogs, newPendingTransactions). Notifications that bring nothing new are
// dropped here. A dropped socket is reconnected with a growing wait; meanwhile the endpoint's
// mode is `reconnecting` and the poller covers it. While the view is not seen (`setActive(false)`)
// subscriptions are cancelled (the socket stays open) and nothing is reconnected; when seen
// again they are made again, followed by one catch-up read. No vscode import.
import type { FollowMode } from './followMode';
import type { BlockJson } from './chainData';

/** What the driver needs of a WebSocket JSON-RPC client (WsRpcClient; a fake in tests). */
export interface FollowSocket {
  open(): Promise<void>;
  subscribe(params: unknown[], listener: (result: unknown) => void): Promise<string>;
  unsubscribe(id: string): Promise<void>;
  onClose(listener: (reason: string) => void): void;
  dispose(): void;
}

export interface FollowTarget {
  id: string;
  wsUrl: string;
}

export interface HeadNotice {
  number: string;
  hash: string;
}

export interface DriverListener {
  /** A sealed block not seen before (followed at latest). */
  head(endpointId: string, head: HeadNotice): void;
  /** The pending block as of a flashblock not seen before (followed at pending). */
  flashblock(endpointId: string, block: BlockJson): void;
  /** A new head or something new in the pending block, without the block: read it. */
  pendingActivity(endpointId: string): void;
  /** Subscriptions are (again) in place: read once what may have changed meanwhile. */
  subscribed(endpointId: string): void;
  /** An endpoint's mode changed. */
  mode(endpointId: string, mode: FollowMode): void;
}

export interface DriverTimers {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export interface SubscriptionDriverOptions {
  connect: (url: string) => FollowSocket;
  listener: DriverListener;
  /** First wait before reconnecting; doubled per failed attempt (default 1 s). */
  reconnectMs?: number;
  /** The longest wait (default 30 s). */
  maxReconnectMs?: number;
  timers?: DriverTimers;
}

type Kind = 'newHeads' | 'newFlashblocks' | 'pendingLogs' | 'newPendingTransactions';

/** Whether an eth_subscribe failure means the endpoint does not offer that kind (a JSON-RPC error). */
function refused(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { kind?: unknown }).kind === 'rpc';
}

function isHead(value: unknown): value is HeadNotice {
  return typeof value === 'object' && value !== null && typeof (value as HeadNotice).number === 'string' && typeof (value as HeadNotice).hash === 'string';
}

function isBlock(value: unknown): value is BlockJson {
  return typeof value === 'object' && value !== null && typeof (value as BlockJson).number === 'string'
    && Array.isArray((value as BlockJson).transactions);
}

/** What tells two pending blocks apart (a new flashblock adds transactions or changes state). */
function flashblockKey(block: BlockJson): string {
  return JSON.stringify([block.number, block.hash, block.transactions.length, block.gasUsed, block.stateRoot, block.timestamp]);
}

class Connection {
  socket: FollowSocket | undefined;
  mode: FollowMode = 'connecting';
  readonly subscriptions = new Map<Kind, string>();
  /** false once the endpoint refused newFlashblocks: pendingLogs + newPendingTransactions instead. */
  flashblocks = true;
  attempts = 0;
  timer: unknown;
  lastHead: string | undefined;
  lastFlashblock: string | undefined;
  /** A reconcile in flight, and whether another is wanted after it. */
  busy = false;
  again = false;
  /** Subscriptions have been complete since the last catch-up read. */
  caughtUp = false;
  disposed = false;

  constructor(readonly id: string, readonly url: string) {}
}

export class SubscriptionDriver {
  private readonly connections = new Map<string, Connection>();
  private active = false;
  private tag: 'latest' | 'pending' = 'latest';
  private readonly timers: DriverTimers;

  constructor(private readonly options: SubscriptionDriverOptions) {
    this.timers = options.timers ?? {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
    };
  }

  /** The endpoint's mode; `polling` for one the driver does not follow. */
  mode(id: string): FollowMode {
    return this.connections.get(id)?.mode ?? 'polling';
  }

  /** Whether notifications cover the endpoint now (the poller skips it). */
  covers(id: string): boolean {
    return this.connections.get(id)?.mode === 'subscribed';
  }

  /**
   * Follows exactly these endpoints at this tag, subscribed only while `active` (the view seen).
   * Cheap when nothing changed; call it whenever any of the three may have.
   */
  sync(targets: readonly FollowTarget[], tag: 'latest' | 'pending', active: boolean): void {
    const tagChanged = tag !== this.tag;
    const activeChanged = active !== this.active;
    this.tag = tag;
    this.active = active;
    const wanted = new Map(targets.map((t) => [t.id, t.wsUrl]));
    for (const [id, connection] of this.connections) {
      if (wanted.get(id) !== connection.url) this.drop(connection);
    }
    for (const [id, url] of wanted) {
      let connection = this.connections.get(id);
      if (!connection) {
        connection = new Connection(id, url);
        this.connections.set(id, connection);
        this.options.listener.mode(id, connection.mode);
        this.start(connection);
      } else if (tagChanged || activeChanged) {
        if (activeChanged && active && !connection.socket && connection.timer !== undefined) {
          // Seen again while waiting to reconnect: reconnect now.
          this.timers.clearTimeout(connection.timer);
          connection.timer = undefined;
          this.start(connection);
        } else if (activeChanged && active && !connection.socket && connection.timer === undefined) {
          this.start(connection);
        } else {
          this.reconcile(connection);
        }
      }
    }
  }

  private start(connection: Connection): void {
    if (!this.active || connection.disposed) return;
    let socket: FollowSocket;
    try {
      socket = this.options.connect(connection.url);
    } catch {
      this.lost(connection, undefined);
      return;
    }
    connection.socket = socket;
    socket.onClose(() => this.lost(connection, socket));
    socket.open().then(() => {
      if (connection.socket === socket) this.reconcile(connection);
    }, () => this.lost(connection, socket));
  }

  /** The socket closed (or never opened): poll meanwhile, and reconnect after a growing wait. */
  private lost(connection: Connection, socket: FollowSocket | undefined): void {
    if (connection.disposed || connection.socket !== socket) return;
    socket?.dispose();
    connection.socket = undefined;
    connection.subscriptions.clear();
    connection.caughtUp = false;
    this.setMode(connection, connection.mode === 'connecting' && connection.attempts === 0 ? 'connecting' : 'reconnecting');
    this.retryLater(connection);
  }

  private retryLater(connection: Connection): void {
    if (connection.timer !== undefined) this.timers.clearTimeout(connection.timer);
    connection.timer = undefined;
    // Not seen: nothing is reconnected until it is (sync() starts it then).
    if (!this.active) return;
    const base = this.options.reconnectMs ?? 1000;
    const wait = Math.min(this.options.maxReconnectMs ?? 30_000, base * 2 ** connection.attempts);
    connection.attempts++;
    connection.timer = this.timers.setTimeout(() => {
      connection.timer = undefined;
      this.start(connection);
    }, wait);
  }

  /** The kinds the tag needs from this endpoint. */
  private wantedKinds(connection: Connection): Kind[] {
    if (!this.active) return [];
    if (this.tag === 'latest') return ['newHeads'];
    return connection.flashblocks ? ['newFlashblocks'] : ['newHeads', 'pendingLogs', 'newPendingTransactions'];
  }

  /** Makes the socket's subscriptions the wanted ones, one reconcile at a time. */
  private reconcile(connection: Connection): void {
    if (connection.busy) {
      connection.again = true;
      return;
    }
    connection.busy = true;
    void this.reconcileOnce(connection).finally(() => {
      connection.busy = false;
      if (connection.again && !connection.disposed) {
        connection.again = false;
        this.reconcile(connection);
      }
    });
  }

  private async reconcileOnce(connection: Connection): Promise<void> {
    const socket = connection.socket;
    if (!socket || connection.disposed) return;
    const wanted = this.wantedKinds(connection);
    for (const [kind, id] of [...connection.subscriptions]) {
      if (wanted.includes(kind)) continue;
      connection.subscriptions.delete(kind);
      await socket.unsubscribe(id).catch(() => undefined);
    }
    if (wanted.length === 0) {
      // Not seen: nothing comes in; a catch-up read is due when seen again.
      connection.caughtUp = false;
      return;
    }
    for (const kind of wanted) {
      if (connection.subscriptions.has(kind)) continue;
      try {
        const id = await socket.subscribe(kind === 'newPendingTransactions' ? [kind, false] : [kind], (result) => {
          // A late frame from a socket already replaced is dropped.
          if (connection.socket === socket) this.notified(connection, kind, result);
        });
        if (connection.socket !== socket) return;
        connection.subscriptions.set(kind, id);
      } catch (error) {
        if (connection.socket !== socket || connection.disposed) return;
        if (kind === 'newFlashblocks' && refused(error)) {
          connection.flashblocks = false;
          connection.again = true;
          return;
        }
        if (refused(error)) {
          // The endpoint offers no subscriptions of this kind: poll it; ask again after the longest wait.
          connection.socket = undefined;
          connection.subscriptions.clear();
          socket.dispose();
          connection.attempts = 30;
          this.setMode(connection, 'polling');
          this.retryLater(connection);
          return;
        }
        this.lost(connection, socket);
        return;
      }
    }
    if (this.wantedKinds(connection).some((kind) => !connection.subscriptions.has(kind))) {
      connection.again = true; // the tag or visibility changed meanwhile
      return;
    }
    connection.attempts = 0;
    this.setMode(connection, 'subscribed');
    if (!connection.caughtUp) {
      connection.caughtUp = true;
      this.options.listener.subscribed(connection.id);
    }
  }

  private notified(connection: Connection, kind: Kind, result: unknown): void {
    if (connection.disposed || !this.active) return;
    const listener = this.options.listener;
    if (kind === 'newHeads') {
      if (!isHead(result) || result.hash === connection.lastHead) return;
      connection.lastHead = result.hash;
      if (this.tag === 'latest') listener.head(connection.id, result);
      else listener.pendingActivity(connection.id);
    } else if (kind === 'newFlashblocks') {
      if (!isBlock(result)) return;
      const key = flashblockKey(result);
      if (key === connection.lastFlashblock) return;
      connection.lastFlashblock = key;
      listener.flashblock(connection.id, result);
    } else {
      listener.pendingActivity(connection.id);
    }
  }

  private setMode(connection: Connection, mode: FollowMode): void {
    if (connection.mode === mode) return;
    connection.mode = mode;
    this.options.listener.mode(connection.id, mode);
  }

  private drop(connection: Connection): void {
    connection.disposed = true;
    if (connection.timer !== undefined) this.timers.clearTimeout(connection.timer);
    connection.socket?.dispose();
    connection.socket = undefined;
    this.connections.delete(connection.id);
    this.options.listener.mode(connection.id, 'polling');
  }

  dispose(): void {
    for (const connection of [...this.connections.values()]) this.drop(connection);
  }
}
