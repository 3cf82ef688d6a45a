// Transactions accepted but not yet pre-confirmed, in arrival order. A transaction whose nonce
// is ahead of its sender's waits here until the gap is filled.
import type { Hex } from './hex';
import type { TransactionRecord } from './types';

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
    if (existing) this.byHash.delete(existing.hash);
    else this.perSender.set(tx.from, this.countFrom(tx.from) + 1);
    this.byHash.set(tx.hash, tx);
    this.bySenderNonce.set(slot, tx);
  }

  remove(tx: TransactionRecord): void {
    if (!this.byHash.delete(tx.hash)) return;
    const slot = key(tx);
    if (this.bySenderNonce.get(slot) === tx) this.bySenderNonce.delete(slot);
    const left = this.countFrom(tx.from) - 1;
    if (left > 0) this.perSender.set(tx.from, left);
    else this.perSender.delete(tx.from);
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
