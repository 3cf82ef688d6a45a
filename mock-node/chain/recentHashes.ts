// A fixed-size memory of the newest hashes added, each with a number (the block a pruned block or
// transaction had): adding past the capacity forgets the oldest. --history-blocks uses it so a
// lookup of a recently pruned hash can say "pruned" while a run of any length holds the same
// memory. A hash is kept by its first 8 bytes (as in hashIndex.ts): a false match needs two
// hashes to agree on 64 bits.
//
// The memory is allocated once, at the first add: per entry 12 bytes in insertion order (key
// high, key low, number) and a 4-byte slot in an open-addressing table kept at most half full,
// so about 20 bytes an entry, whatever the run's length. Forgetting the oldest entry frees its
// slot by backward shifting (no tombstones), so the table never needs rebuilding.
import type { Hex } from '../encoding/hex';

export class RecentHashes {
  /** Per entry, oldest first from `next` on once full: key high, key low, number. */
  private entries: Uint32Array | undefined;
  /** Entry position + 1 per slot; 0 is empty. */
  private table: Int32Array | undefined;
  private mask = 0;
  private count = 0;
  /** Where the next entry goes (the oldest entry's position once the memory is full). */
  private next = 0;

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new Error(`capacity must be a whole number of at least 1, got ${capacity}`);
  }

  get size(): number {
    return this.count;
  }

  /** Remembers `hash` with `number`, forgetting the oldest entry when the memory is full. */
  add(hash: Hex, number: number): void {
    if (!this.entries || !this.table) this.allocate();
    const entries = this.entries!;
    const table = this.table!;
    if (this.count === this.capacity) this.forget(this.next);
    else this.count++;
    const high = keyHigh(hash);
    const low = keyLow(hash);
    const at = this.next * 3;
    entries[at] = high;
    entries[at + 1] = low;
    entries[at + 2] = number;
    let slot = home(high, low, this.mask);
    while (table[slot] !== 0) slot = (slot + 1) & this.mask;
    table[slot] = this.next + 1;
    this.next = this.next + 1 === this.capacity ? 0 : this.next + 1;
  }

  /** The number remembered with `hash` (the newest entry when it was added twice), or undefined. */
  find(hash: Hex): number | undefined {
    const table = this.table;
    const entries = this.entries;
    if (!table || !entries || this.count === 0) return undefined;
    const high = keyHigh(hash);
    const low = keyLow(hash);
    let found: number | undefined;
    let foundAge = Infinity;
    for (let slot = home(high, low, this.mask); table[slot] !== 0; slot = (slot + 1) & this.mask) {
      const position = table[slot] - 1;
      const at = position * 3;
      if (entries[at] !== high || entries[at + 1] !== low) continue;
      const age = (this.next - 1 - position + this.capacity) % this.capacity;
      if (age < foundAge) {
        foundAge = age;
        found = entries[at + 2];
      }
    }
    return found;
  }

  clear(): void {
    this.table?.fill(0);
    this.count = 0;
    this.next = 0;
  }

  private allocate(): void {
    let size = 16;
    while (size < this.capacity * 2) size *= 2;
    this.entries = new Uint32Array(this.capacity * 3);
    this.table = new Int32Array(size);
    this.mask = size - 1;
  }

  /** Frees the table slot of the entry at `position` (the oldest); its entry is overwritten next. */
  private forget(position: number): void {
    const table = this.table!;
    const entries = this.entries!;
    const mask = this.mask;
    let slot = home(entries[position * 3], entries[position * 3 + 1], mask);
    while (table[slot] !== position + 1) slot = (slot + 1) & mask;
    // Backward shift: move later entries of the probe run into the hole when their home allows.
    let hole = slot;
    for (let next = (hole + 1) & mask; table[next] !== 0; next = (next + 1) & mask) {
      const moved = table[next] - 1;
      const wanted = home(entries[moved * 3], entries[moved * 3 + 1], mask);
      // The entry may move into the hole when its home is not within (hole, next] cyclically.
      const between = hole <= next ? wanted > hole && wanted <= next : wanted > hole || wanted <= next;
      if (between) continue;
      table[hole] = table[next];
      hole = next;
    }
    table[hole] = 0;
  }
}

function keyHigh(hash: Hex): number {
  return Number.parseInt(hash.slice(2, 10), 16) >>> 0;
}

function keyLow(hash: Hex): number {
  return Number.parseInt(hash.slice(10, 18), 16) >>> 0;
}

function home(high: number, low: number, mask: number): number {
  // The hash is already uniform: its bits pick the slot.
  return (low ^ (high >>> 7)) & mask;
}
