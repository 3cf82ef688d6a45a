// A hash → (block number, position) index in typed arrays: 16 bytes a slot instead of a Map entry
// with a 66-character string key and an object value. A slot keeps the hash's first 8 bytes; a
// caller that still holds the record checks the full hash (`accept`), and one whose record was
// pruned takes the 8-byte match (a false match needs two of its hashes to agree on 64 bits).
import type { Hex } from '../encoding/hex';

const EMPTY = 0;
const DELETED = 0xffffffff;

export interface IndexEntry {
  block: number;
  position: number;
}

export class HashIndex {
  /** Per slot: key high, key low, block, position + 1 (0 empty, DELETED removed). */
  private slots: Uint32Array;
  private mask: number;
  private filled = 0;
  private live = 0;

  constructor(capacity = 1024) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.slots = new Uint32Array(size * 4);
    this.mask = size - 1;
  }

  get size(): number {
    return this.live;
  }

  add(hash: Hex, block: number, position: number): void {
    if ((this.filled + 1) * 10 > (this.mask + 1) * 7) this.grow();
    const high = keyHigh(hash);
    const low = keyLow(hash);
    for (let i = start(high, low, this.mask); ; i = (i + 1) & this.mask) {
      const at = i * 4;
      const mark = this.slots[at + 3];
      if (mark === EMPTY || mark === DELETED) {
        if (mark === EMPTY) this.filled++;
        this.live++;
        this.slots[at] = high;
        this.slots[at + 1] = low;
        this.slots[at + 2] = block;
        this.slots[at + 3] = position + 1;
        return;
      }
    }
  }

  /** The first entry under `hash`'s key that `accept` takes (all entries under the key, by default the first). */
  find(hash: Hex, accept: (entry: IndexEntry) => boolean = () => true): IndexEntry | undefined {
    const high = keyHigh(hash);
    const low = keyLow(hash);
    const slots = this.slots;
    const mask = this.mask;
    // Every operation of a probe runs at the first probe too, empty slot or not: a lookup of a new
    // hash (every intake asks) meets filled slots only once blocks have sealed, after this code was
    // optimized, and an operation first run then would throw the optimized code away.
    for (let i = start(high, low, mask); ; ) {
      const at = i * 4;
      const mark = slots[at + 3];
      const differs = (slots[at] ^ high) | (slots[at + 1] ^ low) | (mark === DELETED ? 1 : 0);
      i = (i + 1) & mask;
      if (mark === EMPTY) return undefined;
      if (differs === 0) {
        const entry = { block: slots[at + 2], position: mark - 1 };
        if (accept(entry)) return entry;
      }
    }
  }

  /** Removes the entry of `hash` at this block and position. */
  remove(hash: Hex, block: number, position: number): void {
    const high = keyHigh(hash);
    const low = keyLow(hash);
    for (let i = start(high, low, this.mask); ; i = (i + 1) & this.mask) {
      const at = i * 4;
      const mark = this.slots[at + 3];
      if (mark === EMPTY) return;
      if (mark !== DELETED && this.slots[at] === high && this.slots[at + 1] === low && this.slots[at + 2] === block && mark === position + 1) {
        this.slots[at + 3] = DELETED;
        this.live--;
        return;
      }
    }
  }

  clear(): void {
    this.slots.fill(0);
    this.filled = 0;
    this.live = 0;
  }

  /** Doubles the table when live entries fill it; rebuilds it at the same size when removals do. */
  private grow(): void {
    const old = this.slots;
    const size = this.live * 2 > this.mask + 1 ? (this.mask + 1) * 2 : this.mask + 1;
    this.slots = new Uint32Array(size * 4);
    this.mask = size - 1;
    this.filled = 0;
    this.live = 0;
    for (let at = 0; at < old.length; at += 4) {
      const mark = old[at + 3];
      if (mark === EMPTY || mark === DELETED) continue;
      for (let i = start(old[at], old[at + 1], this.mask); ; i = (i + 1) & this.mask) {
        const to = i * 4;
        if (this.slots[to + 3] !== EMPTY) continue;
        this.slots[to] = old[at];
        this.slots[to + 1] = old[at + 1];
        this.slots[to + 2] = old[at + 2];
        this.slots[to + 3] = mark;
        this.filled++;
        this.live++;
        break;
      }
    }
  }
}

function keyHigh(hash: Hex): number {
  return hexWord(hash, 2);
}

function keyLow(hash: Hex): number {
  return hexWord(hash, 10);
}

/**
 * The 32-bit word of the 8 hex digits at `from` (either case). Read digit by digit: slicing the
 * string and Number.parseInt(…, 16) cost about 0.5 µs a key, most of an add or a lookup.
 */
function hexWord(hash: Hex, from: number): number {
  let word = 0;
  for (let i = from; i < from + 8; i++) {
    const code = hash.charCodeAt(i);
    word = (word << 4) | (code <= 57 ? code - 48 : (code | 32) - 87);
  }
  return word >>> 0;
}

function start(high: number, low: number, mask: number): number {
  // The hash is already uniform: its bits pick the slot.
  return (low ^ (high >>> 7)) & mask;
}
