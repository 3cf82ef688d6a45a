// Polling filters (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter, then
// eth_getFilterChanges): each filter collects what happened since its last poll from the chain's
// events. A log filter whose range ends at `pending` reports each log once, as soon as a flashblock
// pre-confirms it; the sealed block does not report it again. Logs a reorg, a revert or a rebuilt
// pending block drops are reported again with `removed: true`, exactly as first reported. Filters
// expire after five minutes without a poll (geth's timeout) and their number is bounded.
import { secureRandomHex } from '../secureRandom';
import type { Chain } from '../chain/chain';
import type { Hex } from '../encoding/hex';
import type { BlockRecord, IncludedTransaction, LogRecord, TransactionRecord } from '../chain/types';
import type { PendingIdentity } from '../options';
import { ErrorCode, RpcError } from './errors';
import { logMatches, type LogQuery } from './methods/logs';
import { blockRef, logJson, type Json } from './shapes';

/** geth's filter timeout: a filter not polled for this long is uninstalled. */
export const FILTER_TIMEOUT_MS = 5 * 60 * 1000;
/** Changes one filter may hold between polls; past it the filter is dropped and its next poll says why. */
export const MAX_FILTER_BACKLOG = 10_000;

export type FilterKind = 'logs' | 'blocks' | 'pendingTransactions';

interface FilterBase {
  id: string;
  lastPoll: number;
  /** Waiting for the next eth_getFilterChanges. */
  changes: unknown[];
  overflowed: boolean;
}

interface LogFilterState extends FilterBase {
  kind: 'logs';
  query: LogQuery;
  /** Lowest block number reported (fromBlock as a number; 0 for tags). */
  from: bigint;
  /** Highest block number reported (toBlock as a number); null for tags. */
  to: bigint | null;
  /** toBlock `pending`: pre-confirmed logs are reported as flashblocks cut them. */
  preconfirmed: boolean;
  /** fromBlock and toBlock both `pending`: only pre-confirmed logs. */
  pendingOnly: boolean;
  /** The head when the filter was made: every matching log of a later block was reported. */
  createdAtHead: bigint;
  /** What was reported, by block number, transaction and log index, while a reorg can still drop it. */
  reported: Map<string, { number: bigint; json: Json }>;
}

interface SimpleFilterState extends FilterBase {
  kind: 'blocks' | 'pendingTransactions';
}

type FilterState = LogFilterState | SimpleFilterState;

export interface PollingFilterOptions {
  maxFilters: number;
  identity: () => PendingIdentity;
  /** Milliseconds; a test passes its own clock. */
  now?: () => number;
  timeoutMs?: number;
  /** Changes one filter may hold between polls (MAX_FILTER_BACKLOG unless a test says otherwise). */
  maxBacklog?: number;
}

export function filterNotFound(): RpcError {
  return new RpcError(ErrorCode.InvalidInput, 'filter not found');
}

function logKey(number: bigint, log: LogRecord): string {
  return `${number}:${log.transactionHash}:${log.logIndex}`;
}

export class PollingFilters {
  private readonly filters = new Map<string, FilterState>();
  /** Ids dropped for falling behind: their next poll says so once. */
  private readonly overflowed = new Set<string>();
  private readonly listeners: [string, (...args: never[]) => void][] = [];
  private readonly now: () => number;
  private readonly timeoutMs: number;
  private readonly maxBacklog: number;

  constructor(
    private readonly chain: Chain,
    private readonly options: PollingFilterOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.timeoutMs = options.timeoutMs ?? FILTER_TIMEOUT_MS;
    this.maxBacklog = options.maxBacklog ?? MAX_FILTER_BACKLOG;
    this.listen('flashblock', (pending: BlockRecord, added: IncludedTransaction[]) => this.onFlashblock(pending, added));
    this.listen('block', (block: BlockRecord) => this.onBlock(block));
    this.listen('removed', (blocks: BlockRecord[]) => this.onRemoved(blocks));
    this.listen('pendingDropped', (pending: BlockRecord) => this.onPendingDropped(pending));
    this.listen('pendingTransaction', (tx: TransactionRecord) => this.onPendingTransaction(tx));
  }

  get size(): number {
    this.expire();
    return this.filters.size;
  }

  newLogFilter(query: LogQuery): string {
    const numberOf = (selector: LogQuery['from']): bigint | null => (selector.kind === 'number' ? selector.number : selector.kind === 'tag' && selector.tag === 'earliest' ? 0n : null);
    const fromPending = query.from.kind === 'tag' && query.from.tag === 'pending';
    const toPending = query.to.kind === 'tag' && query.to.tag === 'pending';
    return this.add({
      kind: 'logs',
      query,
      from: numberOf(query.from) ?? 0n,
      to: numberOf(query.to),
      preconfirmed: toPending && query.blockHash === null,
      pendingOnly: fromPending && toPending && query.blockHash === null,
      createdAtHead: this.chain.head,
      reported: new Map(),
    });
  }

  newBlockFilter(): string {
    return this.add({ kind: 'blocks' });
  }

  newPendingTransactionFilter(): string {
    return this.add({ kind: 'pendingTransactions' });
  }

  /** What happened since the last poll (and the poll keeps the filter alive). */
  changes(id: string): unknown[] {
    const filter = this.get(id);
    filter.lastPoll = this.now();
    const changes = filter.changes;
    filter.changes = [];
    return changes;
  }

  /** A log filter's query, for eth_getFilterLogs (which also keeps it alive). */
  logQuery(id: string): LogQuery {
    const filter = this.get(id);
    filter.lastPoll = this.now();
    if (filter.kind !== 'logs') throw filterNotFound();
    return filter.query;
  }

  uninstall(id: string): boolean {
    this.overflowed.delete(id);
    return this.filters.delete(id);
  }

  dispose(): void {
    for (const [event, listener] of this.listeners) this.chain.off(event as 'block', listener as never);
    this.listeners.length = 0;
    this.filters.clear();
  }

  // ---- internals ---------------------------------------------------------------------------

  private add(fields: Omit<LogFilterState, keyof FilterBase> | Omit<SimpleFilterState, keyof FilterBase>): string {
    this.expire();
    if (this.filters.size >= this.options.maxFilters) {
      throw new RpcError(
        ErrorCode.LimitExceeded,
        `too many filters: this node keeps at most ${this.options.maxFilters} (--max-filters); uninstall filters you no longer poll with eth_uninstallFilter (a filter not polled for 5 minutes is removed)`,
        { limit: this.options.maxFilters },
      );
    }
    const id = '0x' + secureRandomHex(16);
    this.filters.set(id, { ...fields, id, lastPoll: this.now(), changes: [], overflowed: false } as FilterState);
    return id;
  }

  private get(id: string): FilterState {
    this.expire();
    const filter = this.filters.get(id);
    if (filter) return filter;
    if (this.overflowed.delete(id)) {
      throw new RpcError(
        ErrorCode.LimitExceeded,
        `filter ${id} was removed: more than ${this.maxBacklog} changes waited for a poll; poll more often, or use eth_getLogs or a WebSocket subscription`,
        { limit: this.maxBacklog },
      );
    }
    throw filterNotFound();
  }

  private expire(): void {
    const deadline = this.now() - this.timeoutMs;
    for (const [id, filter] of this.filters) if (filter.lastPoll < deadline) this.filters.delete(id);
  }

  private push(filter: FilterState, change: unknown): void {
    if (filter.changes.length >= this.maxBacklog) {
      this.filters.delete(filter.id);
      this.overflowed.add(filter.id);
      return;
    }
    filter.changes.push(change);
  }

  private listen(event: string, listener: (...args: never[]) => void): void {
    this.chain.on(event as 'block', listener as never);
    this.listeners.push([event, listener]);
  }

  private logFilters(): LogFilterState[] {
    const list: LogFilterState[] = [];
    for (const filter of this.filters.values()) if (filter.kind === 'logs' && filter.query.blockHash === null) list.push(filter);
    return list;
  }

  private inRange(filter: LogFilterState, number: bigint): boolean {
    return number >= filter.from && (filter.to === null || number <= filter.to);
  }

  private onFlashblock(pending: BlockRecord, added: IncludedTransaction[]): void {
    if (added.length === 0 || this.filters.size === 0) return;
    const number = pending.header.number;
    let ref: ReturnType<typeof blockRef> | undefined;
    for (const filter of this.logFilters()) {
      if (!filter.preconfirmed || !this.inRange(filter, number)) continue;
      for (const item of added) {
        for (const log of item.receipt.logs) {
          if (!logMatches(log, filter.query.filter)) continue;
          const key = logKey(number, log);
          if (filter.reported.has(key)) continue;
          ref ??= blockRef(pending, this.options.identity());
          const json = logJson(log, ref);
          filter.reported.set(key, { number, json });
          this.push(filter, json);
        }
      }
    }
  }

  private onBlock(block: BlockRecord): void {
    if (this.filters.size === 0) return;
    this.expire();
    const number = block.header.number;
    const safe = this.chain.safeNumber();
    let ref: ReturnType<typeof blockRef> | undefined;
    for (const filter of this.filters.values()) {
      if (filter.kind === 'blocks') {
        this.push(filter, block.hash);
        continue;
      }
      if (filter.kind !== 'logs' || filter.query.blockHash !== null) continue;
      if (!filter.pendingOnly && this.inRange(filter, number)) {
        for (const log of block.logs) {
          if (!logMatches(log, filter.query.filter)) continue;
          const key = logKey(number, log);
          if (filter.reported.has(key)) continue; // reported when a flashblock pre-confirmed it
          ref ??= blockRef(block, this.options.identity());
          const json = logJson(log, ref);
          filter.reported.set(key, { number, json });
          this.push(filter, json);
        }
      }
      // A reorg never reaches `safe`: what was reported at or below it can be forgotten.
      for (const [key, entry] of filter.reported) if (entry.number <= safe) filter.reported.delete(key);
    }
  }

  /** Sealed blocks dropped (newest first): their reported logs again, oldest block first, with removed: true. */
  private onRemoved(blocks: BlockRecord[]): void {
    const filters = this.logFilters();
    if (filters.length === 0) return;
    const identity = this.options.identity();
    for (const block of [...blocks].reverse()) {
      const number = block.header.number;
      for (const filter of filters) {
        if (filter.pendingOnly && !filter.reported.size) continue;
        let ref: ReturnType<typeof blockRef> | undefined;
        for (const log of block.logs) {
          const key = logKey(number, log);
          const entry = filter.reported.get(key);
          if (entry) {
            filter.reported.delete(key);
            this.push(filter, { ...entry.json, removed: true });
          } else if (!filter.pendingOnly && number > filter.createdAtHead && this.inRange(filter, number) && logMatches(log, filter.query.filter)) {
            // Reported, then forgotten once below `safe` (evm_revert goes deeper than any reorg).
            ref ??= blockRef(block, identity);
            this.push(filter, logJson(log, ref, true));
          }
        }
      }
    }
  }

  /** The pending block was dropped (it is built again): its pre-confirmed logs, with removed: true. */
  private onPendingDropped(pending: BlockRecord): void {
    const number = pending.header.number;
    for (const filter of this.logFilters()) {
      if (!filter.preconfirmed) continue;
      for (const log of pending.logs) {
        const key = logKey(number, log);
        const entry = filter.reported.get(key);
        if (!entry) continue;
        filter.reported.delete(key);
        this.push(filter, { ...entry.json, removed: true });
      }
    }
  }

  private onPendingTransaction(tx: TransactionRecord): void {
    if (this.filters.size === 0) return;
    for (const filter of this.filters.values()) if (filter.kind === 'pendingTransactions') this.push(filter, tx.hash as Hex);
  }
}
