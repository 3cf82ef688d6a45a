// The root of a Merkle-Patricia trie built from all its entries at once: keys sorted, nodes
// encoded bottom-up in one pass, no node store and no intermediate roots. It is what a block's
// transactions and receipts roots need (each computed once per flashblock from the whole list),
// and what the genesis state needs. Same encoding as the Yellow Paper's trie (and
// @ethereumjs/mpt, which a test checks it against): hex-prefix paths, nodes under 32 bytes
// embedded in their parent, others referenced by their keccak-256.
import { keccak256Bytes, keccak256Into } from './keccak';

export type TrieEntry = readonly [key: Uint8Array, value: Uint8Array];

const EMPTY_STRING = Uint8Array.of(0x80);

/** keccak(rlp('')): the root of a trie with no entries (a constant: no hashing at import; a unit test recomputes it). */
export const EMPTY_ROOT_BYTES = Uint8Array.from(Buffer.from('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421', 'hex'));

/** The trie's root over `entries` (a later duplicate key wins; an empty value is no entry). */
export function trieRoot(entries: readonly TrieEntry[]): Uint8Array {
  const byKey = new Map<string, Item>();
  for (const [key, value] of entries) {
    const id = Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('hex');
    if (value.length === 0) byKey.delete(id);
    else byKey.set(id, { id, nibbles: toNibbles(key), value });
  }
  const items = [...byKey.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (items.length === 0) return EMPTY_ROOT_BYTES;
  return keccak256Bytes(build(new ItemKeys(items), 0, items.length, 0));
}

/** rlp(i) as bytes. */
export function indexKey(i: number): Uint8Array {
  if (i === 0) return EMPTY_STRING;
  if (i < 0x80) return Uint8Array.of(i);
  const bytes: number[] = [];
  for (let v = i; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Uint8Array.from([0x80 + bytes.length, ...bytes]);
}

/**
 * An ordered trie (transactions, receipts, withdrawals: key rlp(i), value item i's encoding)
 * that only grows, as a block in progress does. Its root is computed when asked, from all items
 * at once; subtrees that earlier items filled and that later ones cannot change are kept, so a
 * flashblock hashes its new items and the nodes above them, not the whole block again. It holds
 * the items themselves (which the block holds anyway) and encodes one only when its leaf is
 * built: no key, path or value bytes are kept per item between flashblocks.
 */
export class OrderedTrieBuilder<T> {
  private readonly items: T[] = [];
  /** Kept subtrees' references, by OrderedKeys.memoKey. */
  private readonly memo = new Map<number | string, Uint8Array>();

  /** `encode`: an item's value in the trie (its consensus encoding). */
  constructor(private readonly encode: (item: T) => Uint8Array) {}

  get size(): number {
    return this.items.length;
  }

  append(items: readonly T[]): void {
    for (let i = 0; i < items.length; i++) this.items.push(items[i]);
  }

  root(): Uint8Array {
    const n = this.items.length;
    if (n === 0) return EMPTY_ROOT_BYTES;
    return keccak256Bytes(build(new OrderedKeys(this.items, this.encode), 0, n, 0, this.memo));
  }
}

/** The root of an ordered trie over `items` (key rlp(i), value items[i]). */
export function orderedTrieRootBytes(items: readonly Uint8Array[]): Uint8Array {
  const builder = new OrderedTrieBuilder<Uint8Array>((item) => item);
  builder.append(items);
  return builder.root();
}

interface Item {
  /** The key's hex: its identity, and its sort order. */
  id: string;
  nibbles: Uint8Array;
  value: Uint8Array;
}

function toNibbles(key: Uint8Array): Uint8Array {
  const nibbles = new Uint8Array(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    nibbles[2 * i] = key[i] >> 4;
    nibbles[2 * i + 1] = key[i] & 0x0f;
  }
  return nibbles;
}

/** A trie's entries sorted by key, read by position: what build() walks. */
interface SortedKeys {
  /** Nibbles in the key at position p. */
  keyLength(p: number): number;
  /** Nibble `depth` of the key at position p. */
  nibble(p: number, depth: number): number;
  value(p: number): Uint8Array;
  /** The identity the reference of the node over positions [from, to) below `depth` is kept under; undefined: not kept. */
  memoKey(from: number, to: number, depth: number): number | string | undefined;
}

/** Entries of trieRoot(): keys as nibbles, nothing kept between calls. */
class ItemKeys implements SortedKeys {
  constructor(private readonly items: readonly Item[]) {}

  keyLength(p: number): number {
    return this.items[p].nibbles.length;
  }

  nibble(p: number, depth: number): number {
    return this.items[p].nibbles[depth];
  }

  value(p: number): Uint8Array {
    return this.items[p].value;
  }

  memoKey(): undefined {
    return undefined;
  }
}

/** Largest item count whose memo keys are numbers (four 16-bit fields); past it, strings. */
const NUMERIC_MEMO_LIMIT = 0xffff;

/**
 * The items of an ordered trie in key order, without a key per item. Key order of rlp(i):
 * 1…127 (one byte each), then 0 (0x80), then 128… (0x81xx, 0x82xxxx, …); nibbles of rlp(i) are
 * computed from i.
 */
class OrderedKeys<T> implements SortedKeys {
  private readonly count: number;
  /** Items 1…lowEnd-1 come first (positions 0…lowEnd-2), then item 0. */
  private readonly lowEnd: number;

  constructor(
    private readonly items: readonly T[],
    private readonly encode: (item: T) => Uint8Array,
  ) {
    this.count = items.length;
    this.lowEnd = Math.min(this.count, 128);
  }

  /** The item index at sorted position p. */
  private index(p: number): number {
    if (this.count <= 1 || p >= this.lowEnd) return p;
    return p === this.lowEnd - 1 ? 0 : p + 1;
  }

  keyLength(p: number): number {
    const i = this.index(p);
    return i < 0x80 ? 2 : 2 + 2 * byteLength(i);
  }

  nibble(p: number, depth: number): number {
    const i = this.index(p);
    if (i === 0) return depth === 0 ? 8 : 0;
    if (i < 0x80) return depth === 0 ? i >> 4 : i & 0x0f;
    if (depth === 0) return 8;
    const length = byteLength(i);
    if (depth === 1) return length;
    const byte = (i >>> (8 * (length - 1 - ((depth - 2) >> 1)))) & 0xff;
    return depth % 2 === 0 ? byte >> 4 : byte & 0x0f;
  }

  value(p: number): Uint8Array {
    return this.encode(this.items[this.index(p)]);
  }

  /**
   * A node is fixed by its depth, the first and last items under it and how many there are (the
   * items between them in key order; items never change or leave): a number while those fit in
   * 16 bits each, else a string. A leaf is not kept: only the leaves of the one bottom branch
   * still filling are built again at the next root (a full branch is kept whole), where keeping
   * every leaf's reference cost a key and an array per item for the whole block.
   */
  memoKey(from: number, to: number, depth: number): number | string | undefined {
    if (to - from === 1) return undefined;
    const first = this.index(from);
    const last = this.index(to - 1);
    const count = to - from;
    if (this.count <= NUMERIC_MEMO_LIMIT) return ((first * 0x10000 + last) * 0x10000 + count) * 16 + depth;
    return `${depth}:${first}:${last}:${count}`;
  }
}

/** Bytes of a positive index below 2^32, big-endian without leading zeros. */
function byteLength(i: number): number {
  return i < 0x100 ? 1 : i < 0x10000 ? 2 : i < 0x1000000 ? 3 : 4;
}

/**
 * How its parent holds the node over positions [from, to) (sorted, distinct) below `depth`
 * nibbles: the node's encoding when under 32 bytes, else its hash. With `memo`: kept under the
 * node's memo key (SortedKeys.memoKey), when it has one.
 */
function ref(keys: SortedKeys, from: number, to: number, depth: number, memo?: Map<number | string, Uint8Array>): Uint8Array {
  const id = memo ? keys.memoKey(from, to, depth) : undefined;
  if (id === undefined) return reference(build(keys, from, to, depth, memo));
  let held = memo!.get(id);
  if (!held) {
    held = reference(build(keys, from, to, depth, memo));
    memo!.set(id, held);
  }
  return held;
}

/** The RLP encoding of the node over positions [from, to) below `depth` nibbles. */
function build(keys: SortedKeys, from: number, to: number, depth: number, memo?: Map<number | string, Uint8Array>): Uint8Array {
  if (to - from === 1) return leafNode(keyPath(keys, from, depth, keys.keyLength(from), true), keys.value(from));
  // Sorted: the prefix all items share is the one the first and the last share.
  const last = to - 1;
  let shared = depth;
  const limit = Math.min(keys.keyLength(from), keys.keyLength(last));
  while (shared < limit && keys.nibble(from, shared) === keys.nibble(last, shared)) shared++;
  if (shared > depth) {
    return encodeList([encodeBytes(keyPath(keys, from, depth, shared, false)), ref(keys, from, to, shared, memo)]);
  }
  const slots: Uint8Array[] = new Array(17);
  let i = from;
  let value: Uint8Array = EMPTY_STRING;
  if (keys.keyLength(from) === depth) {
    // A key that ends here (never for keys of one length, or the prefix-free rlp(i) keys).
    value = encodeBytes(keys.value(from));
    i++;
  }
  for (let nibble = 0; nibble < 16; nibble++) {
    const start = i;
    while (i < to && keys.nibble(i, depth) === nibble) i++;
    slots[nibble] = i === start ? EMPTY_STRING : ref(keys, start, i, depth + 1, memo);
  }
  slots[16] = value;
  return encodeList(slots);
}

/** hexPrefix of nibbles [from, to) of the key at position p. */
function keyPath(keys: SortedKeys, p: number, from: number, to: number, leaf: boolean): Uint8Array {
  const length = to - from;
  const odd = length % 2 === 1;
  const out = new Uint8Array(1 + (length >> 1));
  const flag = (leaf ? 2 : 0) + (odd ? 1 : 0);
  let n = from;
  if (odd) out[0] = (flag << 4) | keys.nibble(p, n++);
  else out[0] = flag << 4;
  for (let i = 1; i < out.length; i++, n += 2) out[i] = (keys.nibble(p, n) << 4) | keys.nibble(p, n + 1);
  return out;
}

/** The size of rlp(bytes). */
function itemSize(bytes: Uint8Array): number {
  const length = bytes.length;
  if (length === 1 && bytes[0] < 0x80) return 1;
  return prefixSize(length) + length;
}

/** Writes rlp(bytes) (itemSize(bytes) of them) at `at`; answers where it ends. */
function writeItem(out: Uint8Array, at: number, bytes: Uint8Array): number {
  const length = bytes.length;
  if (length === 1 && bytes[0] < 0x80) {
    out[at] = bytes[0];
    return at + 1;
  }
  at = writePrefix(out, at, length, 0x80);
  out.set(bytes, at);
  return at + length;
}

/** rlp([rlp(path), rlp(value)]): a leaf, written into one array. */
function leafNode(path: Uint8Array, value: Uint8Array): Uint8Array {
  const length = itemSize(path) + itemSize(value);
  const out = new Uint8Array(prefixSize(length) + length);
  writeItem(out, writeItem(out, writePrefix(out, 0, length, 0xc0), path), value);
  return out;
}

/** How a parent holds a child node: embedded when its encoding is under 32 bytes, else its hash. */
function reference(encoded: Uint8Array): Uint8Array {
  if (encoded.length < 32) return encoded;
  const out = new Uint8Array(33);
  out[0] = 0xa0;
  keccak256Into(encoded, out, 1);
  return out;
}

/** Hex-prefix encoding of nibbles[from, to) with the leaf flag. */
export function hexPrefix(nibbles: Uint8Array, from: number, to: number, leaf: boolean): Uint8Array {
  const length = to - from;
  const odd = length % 2 === 1;
  const out = new Uint8Array(1 + (length >> 1));
  const flag = (leaf ? 2 : 0) + (odd ? 1 : 0);
  let n = from;
  if (odd) out[0] = (flag << 4) | nibbles[n++];
  else out[0] = flag << 4;
  for (let i = 1; i < out.length; i++, n += 2) out[i] = (nibbles[n] << 4) | nibbles[n + 1];
  return out;
}

/** Bytes of the RLP prefix of a payload of `length` bytes. */
function prefixSize(length: number): number {
  if (length < 56) return 1;
  let size = 1;
  for (let v = length; v > 0; v = Math.floor(v / 256)) size++;
  return size;
}

/** Writes the RLP prefix (`short` 0x80 for a string, 0xc0 for a list) of a `length`-byte payload at `at`; answers where it ends. */
function writePrefix(out: Uint8Array, at: number, length: number, short: number): number {
  if (length < 56) {
    out[at] = short + length;
    return at + 1;
  }
  const size = prefixSize(length);
  out[at] = short + 55 + size - 1;
  for (let i = size - 1, v = length; i >= 1; i--, v = Math.floor(v / 256)) out[at + i] = v & 0xff;
  return at + size;
}

/** rlp(bytes), written once (no prefix array of its own). */
export function encodeBytes(bytes: Uint8Array): Uint8Array {
  const length = bytes.length;
  if (length === 1 && bytes[0] < 0x80) return bytes;
  const out = new Uint8Array(prefixSize(length) + length);
  out.set(bytes, writePrefix(out, 0, length, 0x80));
  return out;
}

/** rlp([...]) of items already RLP-encoded. */
export function encodeList(encodedItems: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (let i = 0; i < encodedItems.length; i++) length += encodedItems[i].length;
  const out = new Uint8Array(prefixSize(length) + length);
  let at = writePrefix(out, 0, length, 0xc0);
  for (let i = 0; i < encodedItems.length; i++) {
    const item = encodedItems[i];
    out.set(item, at);
    at += item.length;
  }
  return out;
}
