// Transactions accepted but not yet pre-confirmed, in arrival order. A transaction whose nonce
// is ahead of its sender's waits here until the gap is filled.
import type { Hex } from '../encoding/hex';
import type { TransactionRecord } from './types';

/** Senders with nothing queued whose count (0) is kept before add() forgets them (each is one map entry). */
const IDLE_SENDERS_KEPT = 1024;

export class TransactionQueue {
  private readonly byHash = new Map<Hex, TransactionRecord>();
  private readonly bySenderNonce = new Map<string, TransactionRecord>();
  private readonly perSender = new Map<Hex, number>();

  get size(): number {
    return this.byHash.size;
  }

  /** Transactions queued from one sender. */
  countFrom(sender: Hex): number {
    return this.perSender.get(sender) ?? 0;
  }

  has(hash: Hex): boolean {
    return this.byHash.has(hash);
  }

  get(hash: Hex): TransactionRecord | undefined {
    return this.byHash.get(hash);
  }

  sameNonce(tx: TransactionRecord): TransactionRecord | undefined {
    return this.bySenderNonce.get(key(tx));
  }

  add(tx: TransactionRecord): void {
    const slot = key(tx);
    const existing = this.bySenderNonce.get(slot);
    if (existing) {
      this.byHash.delete(existing.hash);
    } else {
      if (this.perSender.size > this.byHash.size + IDLE_SENDERS_KEPT) this.forgetIdleSenders();
      this.perSender.set(tx.from, this.countFrom(tx.from) + 1);
    }
    this.byHash.set(tx.hash, tx);
    this.bySenderNonce.set(slot, tx);
  }

  remove(tx: TransactionRecord): void {
    if (!this.byHash.delete(tx.hash)) return;
    const slot = key(tx);
    if (this.bySenderNonce.get(slot) === tx) this.bySenderNonce.delete(slot);
    // A sender whose last queued transaction leaves keeps a count of 0 (add() forgets such
    // senders past IDLE_SENDERS_KEPT): no branch here that first runs when a sender's queue
    // empties, often long after this code was optimized (a deopt of the flashblock that inlines it).
    this.perSender.set(tx.from, this.countFrom(tx.from) - 1);
  }

  /** Drops the senders counted at 0. */
  private forgetIdleSenders(): void {
    for (const [sender, count] of this.perSender) if (count === 0) this.perSender.delete(sender);
  }

  /** Arrival order (a replacement keeps the position of its arrival). */
  list(): TransactionRecord[] {
    return [...this.byHash.values()];
  }

  /** Highest queued nonce + 1 for a sender whose confirmed nonce is `from`, following the chain without gaps. */
  nextNonce(sender: Hex, from: bigint): bigint {
    let nonce = from;
    while (this.bySenderNonce.has(`${sender}:${nonce}`)) nonce++;
    return nonce;
  }

  clear(): TransactionRecord[] {
    const all = this.list();
    this.byHash.clear();
    this.bySenderNonce.clear();
    this.perSender.clear();
    return all;
  }
}

function key(tx: TransactionRecord): string {
  return `${tx.from}:${tx.nonce}`;
}
