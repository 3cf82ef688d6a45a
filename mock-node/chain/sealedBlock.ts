// A sealed block as the chain keeps it: the header and state as before, the transactions,
// receipts and logs as compact bytes (sealedBody.ts) rendered back when read. The newest
// rendered blocks stay in a small cache, so the reads that follow a block (its receipts, its
// logs, the explorer's polling) do not render it again; a just-sealed block starts in the cache
// with the very records the builder made.
import type { BlockHeader } from './header';
import type { Hex } from './hex';
import { bodyCount, bodyLogCount, bodyHash, bodyHashIs, firstLogOf, packBody, unpackBody, unpackLogs, unpackTransaction, type CompactBody } from './sealedBody';
import type { BlockRecord, IncludedTransaction, LogRecord } from './types';
import type { StateLayer } from '../state/worldState';

interface Rendered {
  transactions: readonly IncludedTransaction[];
  logs: readonly LogRecord[];
}

/** Rendered blocks kept, newest use last; bounded by the transactions they hold (at least one block). */
class RenderCache {
  private readonly entries = new Map<SealedBlock, Rendered>();
  private held = 0;

  constructor(private readonly maxTransactions: number) {}

  get(block: SealedBlock): Rendered | undefined {
    const found = this.entries.get(block);
    if (found) {
      this.entries.delete(block);
      this.entries.set(block, found);
    }
    return found;
  }

  put(block: SealedBlock, rendered: Rendered): void {
    if (this.entries.has(block)) return;
    this.entries.set(block, rendered);
    this.held += rendered.transactions.length;
    for (const [old, entry] of this.entries) {
      if (this.held <= this.maxTransactions || this.entries.size <= 1) break;
      this.entries.delete(old);
      this.held -= entry.transactions.length;
    }
  }

  forget(block: SealedBlock): void {
    const entry = this.entries.get(block);
    if (!entry) return;
    this.entries.delete(block);
    this.held -= entry.transactions.length;
  }
}

const rendered = new RenderCache(512);
const NO_LOGS: readonly LogRecord[] = Object.freeze([]);

export class SealedBlock implements BlockRecord {
  readonly sealed = true;
  private readonly body: CompactBody;

  constructor(
    readonly header: BlockHeader,
    readonly hash: Hex,
    readonly size: number,
    readonly flashblockIndex: number,
    readonly state: StateLayer,
    transactions: readonly IncludedTransaction[],
    logs: readonly LogRecord[],
  ) {
    this.body = packBody(transactions);
    rendered.put(this, { transactions, logs });
  }

  /** A sealed record of `block` (a snapshot the builder made, or one restored from a file). */
  static of(block: BlockRecord): SealedBlock {
    if (block instanceof SealedBlock) return block;
    return new SealedBlock(block.header, block.hash, block.size, block.flashblockIndex, block.state, block.transactions, block.logs);
  }

  get transactionCount(): number {
    return bodyCount(this.body.bytes);
  }

  /** The hash of transaction `index`, without rendering it. */
  transactionHash(index: number): Hex {
    return this.rendered()?.transactions[index].tx.hash ?? bodyHash(this.body.bytes, index);
  }

  /** True when transaction `index` has this hash (lowercase 0x-hex). */
  hasTransactionAt(index: number, hash: Hex): boolean {
    return index < this.transactionCount && bodyHashIs(this.body.bytes, index, hash);
  }

  /** One transaction with its receipt, rendering only it unless the whole block is at hand. */
  transactionAt(index: number): IncludedTransaction {
    const whole = this.rendered();
    if (whole) return whole.transactions[index];
    const { bytes, kept } = this.body;
    return unpackTransaction(bytes, kept, index, firstLogOf(bytes, kept, index));
  }

  get transactions(): readonly IncludedTransaction[] {
    return this.render().transactions;
  }

  get logCount(): number {
    return bodyLogCount(this.body.bytes);
  }

  get logs(): readonly LogRecord[] {
    // A block without logs answers without rendering (eth_getLogs and the log index ask often);
    // a block not in the cache gives its logs without decoding its transactions.
    if (this.logCount === 0) return NO_LOGS;
    return this.rendered()?.logs ?? unpackLogs(this.body.bytes, this.body.kept);
  }

  /** Drops the rendered copy (the block left the chain). */
  forgetRendered(): void {
    rendered.forget(this);
  }

  private rendered(): Rendered | undefined {
    return rendered.get(this);
  }

  private render(): Rendered {
    let found = rendered.get(this);
    if (!found) {
      found = unpackBody(this.body.bytes, this.body.kept);
      rendered.put(this, found);
    }
    return found;
  }
}
