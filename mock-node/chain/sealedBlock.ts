// A sealed block as the chain keeps it: the header and state as before, the transactions,
// receipts and logs as compact bytes (sealedBody.ts) rendered back when read. The newest
// rendered blocks stay in a small cache, so the reads that follow a block (its receipts, its
// logs, the explorer's polling) do not render it again; a just-sealed block starts in the cache
// with the very records the builder made.
//
// Packing a block's bytes costs most of a seal (each transaction is decoded again to check it
// comes back exactly), so it is not done on the flashblock tick that seals the block: the block
// keeps the builder's records and is packed on the next turn of the event loop (setImmediate),
// after the next block's flashblock 0 is out. Reads meanwhile answer from those records. A
// caller that never yields to the event loop still has at most two blocks waiting: a third
// seal packs the oldest at once.
import type { BlockHeader } from '../encoding/header';
import type { Hex } from '../encoding/hex';
import { bodyCount, bodyLogCount, bodyHash, bodyHashIs, firstLogOf, packBody, unpackBody, unpackLogs, unpackTransaction, type CompactBody } from './sealedBody';
import type { BlockRecord, IncludedTransaction, LogRecord, SystemStateChange } from './types';
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

/** Sealed blocks whose bytes are not packed yet, oldest first. */
const toPack: SealedBlock[] = [];
/** Blocks that may wait for the event loop before the oldest is packed at once. */
const MAX_WAITING = 2;
let packScheduled = false;

function packLater(block: SealedBlock): void {
  toPack.push(block);
  while (toPack.length > MAX_WAITING) toPack.shift()!.pack();
  if (!packScheduled) {
    packScheduled = true;
    setImmediate(packWaiting);
  }
}

/** Packs one waiting block per turn of the event loop, so requests are answered in between. */
function packWaiting(): void {
  packScheduled = false;
  toPack.shift()?.pack();
  if (toPack.length > 0) {
    packScheduled = true;
    setImmediate(packWaiting);
  }
}

export class SealedBlock implements BlockRecord {
  readonly sealed = true;
  /** The packed bytes, once packed. */
  private packed: CompactBody | undefined;
  /** The records the block was sealed with, until it is packed. */
  private records: Rendered | undefined;

  constructor(
    readonly header: BlockHeader,
    readonly hash: Hex,
    readonly size: number,
    readonly flashblockIndex: number,
    readonly state: StateLayer,
    transactions: readonly IncludedTransaction[],
    logs: readonly LogRecord[],
    readonly systemChanges: readonly SystemStateChange[] | undefined = undefined,
  ) {
    this.records = { transactions, logs };
    rendered.put(this, this.records);
    packLater(this);
  }

  /** Packs the block's bytes now (if not yet) and lets its records go to the render cache alone. */
  pack(): void {
    if (this.packed || !this.records) return;
    try {
      this.packed = packBody(this.records.transactions);
      this.records = undefined;
    } catch {
      // Never expected (a record the bytes cannot hold is kept whole): the block keeps answering from its records.
    }
  }

  private get body(): CompactBody {
    if (!this.packed) this.pack();
    return this.packed!;
  }

  /** A sealed record of `block` (a snapshot the builder made, or one restored from a file). */
  static of(block: BlockRecord): SealedBlock {
    if (block instanceof SealedBlock) return block;
    return new SealedBlock(block.header, block.hash, block.size, block.flashblockIndex, block.state, block.transactions, block.logs, block.systemChanges);
  }

  get transactionCount(): number {
    return this.records ? this.records.transactions.length : bodyCount(this.body.bytes);
  }

  /** The hash of transaction `index`, without rendering it. */
  transactionHash(index: number): Hex {
    return (this.records ?? this.rendered())?.transactions[index].tx.hash ?? bodyHash(this.body.bytes, index);
  }

  /** True when transaction `index` has this hash (lowercase 0x-hex). */
  hasTransactionAt(index: number, hash: Hex): boolean {
    if (this.records) return index < this.records.transactions.length && this.records.transactions[index].tx.hash.toLowerCase() === hash;
    return index < this.transactionCount && bodyHashIs(this.body.bytes, index, hash);
  }

  /** One transaction with its receipt, rendering only it unless the whole block is at hand. */
  transactionAt(index: number): IncludedTransaction {
    const whole = this.records ?? this.rendered();
    if (whole) return whole.transactions[index];
    const { bytes, kept } = this.body;
    return unpackTransaction(bytes, kept, index, firstLogOf(bytes, kept, index));
  }

  get transactions(): readonly IncludedTransaction[] {
    return this.render().transactions;
  }

  get logCount(): number {
    return this.records ? this.records.logs.length : bodyLogCount(this.body.bytes);
  }

  get logs(): readonly LogRecord[] {
    if (this.records) return this.records.logs;
    // A block without logs answers without rendering (eth_getLogs and the log index ask often);
    // a block not in the cache gives its logs without decoding its transactions.
    if (this.logCount === 0) return NO_LOGS;
    return this.rendered()?.logs ?? unpackLogs(this.body.bytes, this.body.kept);
  }

  /** True once the block's bytes are packed (the turn after its seal, see above). */
  get isPacked(): boolean {
    return this.packed !== undefined;
  }

  /** Drops the rendered copy (the block left the chain; a later read renders from the bytes). */
  forgetRendered(): void {
    this.pack();
    rendered.forget(this);
  }

  private rendered(): Rendered | undefined {
    return rendered.get(this);
  }

  private render(): Rendered {
    if (this.records) return this.records;
    let found = rendered.get(this);
    if (!found) {
      found = unpackBody(this.body.bytes, this.body.kept);
      rendered.put(this, found);
    }
    return found;
  }
}
