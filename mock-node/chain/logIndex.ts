// Which sealed blocks hold a log with a given address or topic: per value, the ascending list of
// block numbers (a value at any topic position; the caller checks positions). eth_getLogs asks
// it for the blocks a filter can match, so a filter that matches nothing costs a lookup, and a
// query's cost follows its matches rather than the chain's length.
//
// Built on first use and brought up to date at each query from the sealed blocks it has not
// seen. A chain whose blocks were replaced (a reorg, a revert, a loaded state, anvil_reset)
// no longer holds the block the index last read at that height: the index then starts over.
// With --history-blocks, pruned blocks' entries are dropped once they are as many blocks as the
// kept ones (so the index holds at most twice the kept history, and each entry is dropped once).
import type { Chain } from './chain';
import type { Hex } from '../encoding/hex';
import type { BlockRecord } from './types';

class LogIndex {
  private readonly blocksOf = new Map<Hex, number[]>();
  /** Blocks that hold any log. */
  private readonly withLogs: number[] = [];
  private indexedTo = -1;
  /** The record read at `indexedTo`. */
  private tip: BlockRecord | undefined;
  /** No entry is below this block (entries of blocks pruned since may remain, never read). */
  private floor = 0;

  update(chain: Chain): void {
    const head = Number(chain.head);
    const oldest = Number(chain.oldestBlock);
    if (this.indexedTo >= 0 && (this.indexedTo > head || this.indexedTo < oldest || chain.blockByNumber(BigInt(this.indexedTo)) !== this.tip)) this.clear();
    if (oldest - this.floor > Math.max(0, this.indexedTo - oldest)) this.dropBelow(oldest);
    for (let n = Math.max(this.indexedTo + 1, oldest); n <= head; n++) {
      const block = chain.blockByNumber(BigInt(n));
      if (block) this.add(block, n);
    }
    this.indexedTo = head;
    this.tip = chain.blockByNumber(BigInt(head));
  }

  private clear(): void {
    this.blocksOf.clear();
    this.withLogs.length = 0;
    this.indexedTo = -1;
    this.tip = undefined;
    this.floor = 0;
  }

  /** Drops the entries of blocks below `oldest` (pruned by --history-blocks). */
  private dropBelow(oldest: number): void {
    for (const [value, list] of this.blocksOf) {
      const keep = lowerBound(list, oldest);
      if (keep === list.length) this.blocksOf.delete(value);
      else if (keep > 0) list.splice(0, keep);
    }
    this.withLogs.splice(0, lowerBound(this.withLogs, oldest));
    this.floor = oldest;
  }

  /** Values indexed and block entries held (tests and the bench read these). */
  get entries(): { values: number; blocks: number } {
    let blocks = this.withLogs.length;
    for (const list of this.blocksOf.values()) blocks += list.length;
    return { values: this.blocksOf.size, blocks };
  }

  private add(block: BlockRecord, n: number): void {
    if (block.logs.length === 0) return;
    this.withLogs.push(n);
    for (const log of block.logs) {
      this.note(log.address, n);
      for (const topic of log.topics) this.note(topic, n);
    }
  }

  private note(value: Hex, n: number): void {
    const list = this.blocksOf.get(value);
    if (list === undefined) this.blocksOf.set(value, [n]);
    else if (list[list.length - 1] !== n) list.push(n);
  }

  /**
   * The sealed blocks from `from` to `to` that may hold a log matching every part (each part: the
   * accepted values of the addresses or of one topic position; no parts: any log), ascending.
   */
  candidates(parts: readonly ReadonlySet<Hex>[], from: number, to: number): number[] {
    const lists = parts.map((values) => this.blocksWithAny(values));
    if (lists.length === 0) lists.push(this.withLogs);
    lists.sort((a, b) => a.length - b.length);
    const [shortest, ...others] = lists;
    const found: number[] = [];
    for (let i = lowerBound(shortest, from); i < shortest.length && shortest[i] <= to; i++) {
      const n = shortest[i];
      if (others.every((list) => contains(list, n))) found.push(n);
    }
    return found;
  }

  private blocksWithAny(values: ReadonlySet<Hex>): readonly number[] {
    if (values.size === 1) {
      const [value] = values;
      return this.blocksOf.get(value) ?? [];
    }
    const merged = new Set<number>();
    for (const value of values) for (const n of this.blocksOf.get(value) ?? []) merged.add(n);
    return [...merged].sort((a, b) => a - b);
  }
}

/** The first position in ascending `list` whose value is ≥ `value`. */
function lowerBound(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

function contains(list: readonly number[], value: number): boolean {
  const at = lowerBound(list, value);
  return at < list.length && list[at] === value;
}

const indexes = new WeakMap<Chain, LogIndex>();

/** The chain's log index, up to date with its sealed blocks. */
export function logIndexOf(chain: Chain): { candidates: LogIndex['candidates']; readonly entries: LogIndex['entries'] } {
  let index = indexes.get(chain);
  if (index === undefined) {
    index = new LogIndex();
    indexes.set(chain, index);
  }
  index.update(chain);
  return index;
}
