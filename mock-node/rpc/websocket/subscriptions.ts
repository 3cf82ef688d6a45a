// eth_subscribe kinds, fed by the chain's events. Each event is turned into JSON once per kind
// (and once per distinct log filter), never once per socket: a notification is that JSON (a
// NotificationResult, encoded to bytes at most once) inside a per-subscription envelope, which
// the connection writes around the shared bytes. Kinds:
//   newHeads                    a sealed block's header
//   logs {address, topics}      logs of each sealed block, one per message; after a reorg the
//                               orphaned blocks' logs again with removed: true, then the new ones
//   newPendingTransactions [full]  a queued transaction's hash (or the transaction object)
//   pendingLogs {address, topics}  logs of the newest flashblock, one per message
//   newFlashblocks              the accumulated pending block (full transactions) per flashblock
//   newFlashblockTransactions [full]  each newly pre-confirmed transaction's hash, or with true
//                               the transaction with its logs and receipt fields
import { secureRandomHex } from '../../secureRandom';
import type { Chain } from '../../chain/chain';
import type { BlockRecord, IncludedTransaction, LogRecord, TransactionRecord } from '../../chain/types';
import type { PendingIdentity } from '../../options';
import { ErrorCode, RpcError, invalidParams } from '../errors';
import { logMatches, parseLogFilter, type LogFilter } from '../methods/logs';
import { blockJson, blockRef, logJson, receiptJson, transactionJson, type BlockRef } from '../shapes';

export const SUBSCRIPTION_KINDS = ['newHeads', 'logs', 'newPendingTransactions', 'pendingLogs', 'newFlashblocks', 'newFlashblockTransactions'] as const;
export type SubscriptionKind = (typeof SUBSCRIPTION_KINDS)[number];

/**
 * A notification's result as JSON, shared by every subscription it goes to: its UTF-8 bytes are
 * made once, on the first socket that writes them, however many sockets then do.
 */
export class NotificationResult {
  private encoded: Buffer | undefined;

  constructor(readonly json: string) {}

  get bytes(): Buffer {
    return (this.encoded ??= Buffer.from(this.json, 'utf8'));
  }
}

/** Where notifications go (one WebSocket connection). */
export interface SubscriptionClient {
  /**
   * Queues the text frame `envelope` + result + `}}`; false when the client is gone or was
   * closed for falling behind.
   */
  notify(envelope: string, result: NotificationResult): boolean;
}

interface Subscription {
  id: string;
  kind: SubscriptionKind;
  client: SubscriptionClient;
  /** Subscriptions with the same key get the same results (same kind, same filter or flag). */
  key: string;
  filter?: LogFilter;
  full?: boolean;
  /** Envelope prefix: everything up to "result":. */
  prefix: string;
}

const MAX_SUBSCRIPTIONS_PER_CLIENT = 1000;

function filterKey(filter: LogFilter): string {
  const addresses = filter.addresses ? [...filter.addresses].sort().join(',') : '*';
  const topics = filter.topics.map((position) => (position ? [...position].sort().join('|') : '*')).join(';');
  return `${addresses}/${topics}`;
}

function headJson(block: BlockRecord, identity: PendingIdentity): Record<string, unknown> {
  const json = blockJson(block, false, identity);
  delete json.transactions;
  delete json.uncles;
  delete json.withdrawals;
  delete json.size;
  delete json.totalDifficulty;
  return json;
}

export class SubscriptionHub {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly byKind = new Map<SubscriptionKind, Map<string, Subscription>>();
  private readonly byClient = new Map<SubscriptionClient, Set<string>>();
  private readonly listeners: [string, (...args: never[]) => void][] = [];
  /** Notifications queued to sockets (for stats and benchmarks). */
  sent = 0;

  constructor(
    private readonly chain: Chain,
    private readonly identity: () => PendingIdentity,
  ) {
    for (const kind of SUBSCRIPTION_KINDS) this.byKind.set(kind, new Map());
    this.listen('block', (block: BlockRecord) => this.onBlock(block));
    this.listen('removed', (blocks: BlockRecord[]) => this.onRemoved(blocks));
    this.listen('pendingTransaction', (tx: TransactionRecord) => this.onPendingTransaction(tx));
    this.listen('flashblock', (pending: BlockRecord, added: IncludedTransaction[]) => this.onFlashblock(pending, added));
  }

  get size(): number {
    return this.subscriptions.size;
  }

  /** eth_subscribe: validates the kind and its parameters; answers the subscription id. */
  subscribe(client: SubscriptionClient, params: readonly unknown[]): string {
    const kind = params[0];
    if (typeof kind !== 'string') throw invalidParams('invalid argument 0: subscription kind must be a string');
    if (!(SUBSCRIPTION_KINDS as readonly string[]).includes(kind)) {
      throw new RpcError(ErrorCode.InvalidParams, `no "${kind}" subscription in eth namespace (supported: ${SUBSCRIPTION_KINDS.join(', ')})`);
    }
    if (params.length > 2) throw invalidParams('too many arguments, want at most 2');
    const owned = this.byClient.get(client);
    if (owned && owned.size >= MAX_SUBSCRIPTIONS_PER_CLIENT) {
      throw new RpcError(ErrorCode.LimitExceeded, `too many subscriptions on this connection (max ${MAX_SUBSCRIPTIONS_PER_CLIENT})`);
    }
    const id = '0x' + secureRandomHex(16);
    const subscription: Subscription = { id, kind: kind as SubscriptionKind, client, key: kind, prefix: `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":` };
    const arg = params[1];
    switch (subscription.kind) {
      case 'logs':
      case 'pendingLogs': {
        if (arg !== undefined && arg !== null) {
          if (typeof arg !== 'object' || Array.isArray(arg)) throw invalidParams('invalid argument 1: filter must be an object {address, topics}');
          const { blockHash, fromBlock, toBlock } = arg as Record<string, unknown>;
          if (blockHash !== undefined || fromBlock !== undefined || toBlock !== undefined) {
            throw invalidParams('invalid argument 1: a log subscription takes {address, topics} only (no fromBlock, toBlock or blockHash)');
          }
        }
        const filter = parseLogFilter(arg ?? {}, 1).filter;
        subscription.filter = filter;
        subscription.key = `${kind}:${filterKey(filter)}`;
        break;
      }
      case 'newPendingTransactions':
      case 'newFlashblockTransactions':
        if (arg !== undefined && arg !== null && typeof arg !== 'boolean') throw invalidParams('invalid argument 1: expected true (full objects) or false (hashes)');
        subscription.full = arg === true;
        subscription.key = `${kind}:${subscription.full}`;
        break;
      default: {
        const empty = arg === undefined || arg === null || (typeof arg === 'object' && !Array.isArray(arg) && Object.keys(arg).length === 0);
        if (!empty) throw invalidParams(`invalid argument 1: ${kind} takes no parameters`);
      }
    }
    this.subscriptions.set(id, subscription);
    this.byKind.get(subscription.kind)!.set(id, subscription);
    if (owned) owned.add(id);
    else this.byClient.set(client, new Set([id]));
    return id;
  }

  /** eth_unsubscribe: true when the id was this client's subscription. */
  unsubscribe(client: SubscriptionClient, id: unknown): boolean {
    if (typeof id !== 'string') throw invalidParams('invalid argument 0: subscription id must be a string');
    const subscription = this.subscriptions.get(id);
    if (!subscription || subscription.client !== client) return false;
    this.remove(subscription);
    return true;
  }

  /** Drops every subscription of a client that went away. */
  dropClient(client: SubscriptionClient): void {
    for (const id of this.byClient.get(client) ?? []) {
      const subscription = this.subscriptions.get(id);
      if (subscription) this.remove(subscription);
    }
    this.byClient.delete(client);
  }

  dispose(): void {
    for (const [event, listener] of this.listeners) this.chain.off(event as 'block', listener as never);
    this.listeners.length = 0;
    this.subscriptions.clear();
    for (const map of this.byKind.values()) map.clear();
    this.byClient.clear();
  }

  // ---- events ------------------------------------------------------------------------------

  private listen(event: string, listener: (...args: never[]) => void): void {
    this.chain.on(event as 'block', listener as never);
    this.listeners.push([event, listener]);
  }

  private remove(subscription: Subscription): void {
    this.subscriptions.delete(subscription.id);
    this.byKind.get(subscription.kind)!.delete(subscription.id);
    this.byClient.get(subscription.client)?.delete(subscription.id);
  }

  /** The last result delivered: a group's subscriptions share it (and so its bytes). */
  private lastResult = new NotificationResult('');

  private deliver(subscription: Subscription, resultJson: string): void {
    if (this.lastResult.json !== resultJson) this.lastResult = new NotificationResult(resultJson);
    if (subscription.client.notify(subscription.prefix, this.lastResult)) this.sent++;
  }

  /** Every subscription of a kind, grouped by key (same results). */
  private groups(kind: SubscriptionKind): Map<string, Subscription[]> | undefined {
    const subscriptions = this.byKind.get(kind)!;
    if (subscriptions.size === 0) return undefined;
    const groups = new Map<string, Subscription[]>();
    for (const subscription of subscriptions.values()) {
      const group = groups.get(subscription.key);
      if (group) group.push(subscription);
      else groups.set(subscription.key, [subscription]);
    }
    return groups;
  }

  /** Sends each matching log, one per message, to every subscription of each group. */
  private deliverLogs(groups: Map<string, Subscription[]>, logs: readonly LogRecord[], ref: BlockRef, removed: boolean): void {
    if (logs.length === 0) return;
    const texts = new Map<LogRecord, string>();
    for (const group of groups.values()) {
      const filter = group[0].filter!;
      for (const log of logs) {
        if (!logMatches(log, filter)) continue;
        let text = texts.get(log);
        if (text === undefined) {
          text = JSON.stringify(logJson(log, ref, removed));
          texts.set(log, text);
        }
        for (const subscription of group) this.deliver(subscription, text);
      }
    }
  }

  private onBlock(block: BlockRecord): void {
    const identity = this.identity();
    const heads = this.byKind.get('newHeads')!;
    if (heads.size > 0) {
      const text = JSON.stringify(headJson(block, identity));
      for (const subscription of heads.values()) this.deliver(subscription, text);
    }
    const logGroups = this.groups('logs');
    if (logGroups) this.deliverLogs(logGroups, block.logs, blockRef(block, identity), false);
  }

  private onRemoved(blocks: BlockRecord[]): void {
    const logGroups = this.groups('logs');
    if (!logGroups) return;
    const identity = this.identity();
    // `removed` lists the newest block first; replay them oldest first, as they were sent.
    for (const block of [...blocks].reverse()) this.deliverLogs(logGroups, block.logs, blockRef(block, identity), true);
  }

  private onPendingTransaction(tx: TransactionRecord): void {
    const groups = this.groups('newPendingTransactions');
    if (!groups) return;
    for (const group of groups.values()) {
      const text = JSON.stringify(group[0].full ? transactionJson(tx, null, null) : tx.hash);
      for (const subscription of group) this.deliver(subscription, text);
    }
  }

  private onFlashblock(pending: BlockRecord, added: IncludedTransaction[]): void {
    const identity = this.identity();
    const flashblocks = this.byKind.get('newFlashblocks')!;
    if (flashblocks.size > 0) {
      const text = JSON.stringify(blockJson(pending, true, identity));
      for (const subscription of flashblocks.values()) this.deliver(subscription, text);
    }
    if (added.length === 0) return;
    const pendingLogGroups = this.groups('pendingLogs');
    if (pendingLogGroups) {
      const logs = added.flatMap((item) => item.receipt.logs);
      this.deliverLogs(pendingLogGroups, logs, blockRef(pending, identity), false);
    }
    const txGroups = this.groups('newFlashblockTransactions');
    if (txGroups) {
      const ref = blockRef(pending, identity);
      for (const group of txGroups.values()) {
        for (const item of added) {
          const text = JSON.stringify(group[0].full ? flashblockTransactionJson(pending, item, ref, identity) : item.tx.hash);
          for (const subscription of group) this.deliver(subscription, text);
        }
      }
    }
  }
}

/** A pre-confirmed transaction with its logs and receipt fields (newFlashblockTransactions, true). */
export function flashblockTransactionJson(pending: BlockRecord, item: IncludedTransaction, ref: BlockRef, identity: PendingIdentity): Record<string, unknown> {
  const tx = transactionJson(item.tx, ref, item.index, pending.header.baseFeePerGas);
  const receipt = receiptJson(pending, item, identity);
  return {
    ...tx,
    status: receipt.status,
    gasUsed: receipt.gasUsed,
    cumulativeGasUsed: receipt.cumulativeGasUsed,
    effectiveGasPrice: receipt.effectiveGasPrice,
    contractAddress: receipt.contractAddress,
    logsBloom: receipt.logsBloom,
    logs: receipt.logs,
  };
}
