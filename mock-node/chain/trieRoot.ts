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
  return rootOf(items);
}

/** The root over items sorted by key; `memo` keeps subtrees from an earlier call over fewer items. */
function rootOf(items: readonly Item[], memo?: Map<string, Uint8Array>): Uint8Array {
  if (items.length === 0) return EMPTY_ROOT_BYTES;
  return keccak256Bytes(build(items, 0, items.length, 0, memo));
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
 * An ordered trie (transactions, receipts, withdrawals: key rlp(i), value item i) that only
 * grows, as a block in progress does. Its root is computed when asked, from all items at once;
 * subtrees that earlier items filled and that later ones cannot change are kept, so a flashblock
 * hashes its new items and the nodes above them, not the whole block again.
 */
export class OrderedTrieBuilder {
  private readonly items: Item[] = [];
  private readonly memo = new Map<string, Uint8Array>();

  get size(): number {
    return this.items.length;
  }

  append(values: readonly Uint8Array[]): void {
    for (const value of values) {
      const i = this.items.length;
      this.items.push({ id: String(i), nibbles: indexNibbles(i), value });
    }
  }

  root(): Uint8Array {
    // Key order of rlp(i): 1…127 (one byte each), then 0 (0x80), then 128… (0x81xx, 0x82xxxx, …).
    const n = this.items.length;
    const sorted = n <= 1 ? this.items : [...this.items.slice(1, Math.min(n, 128)), this.items[0], ...this.items.slice(128)];
    return rootOf(sorted, this.memo);
  }
}

/** The root of an ordered trie over `items` (key rlp(i), value items[i]). */
export function orderedTrieRootBytes(items: readonly Uint8Array[]): Uint8Array {
  const builder = new OrderedTrieBuilder();
  builder.append(items);
  return builder.root();
}

/** The nibbles of rlp(i), an ordered trie's key: toNibbles(indexKey(i)) without the key's bytes. */
function indexNibbles(i: number): Uint8Array {
  if (i === 0) return Uint8Array.of(8, 0);
  if (i < 0x80) return Uint8Array.of(i >> 4, i & 0x0f);
  let length = 0;
  for (let v = i; v > 0; v = Math.floor(v / 256)) length++;
  const nibbles = new Uint8Array(2 + 2 * length);
  nibbles[0] = 8;
  nibbles[1] = length;
  for (let k = length - 1, v = i; k >= 0; k--, v = Math.floor(v / 256)) {
    nibbles[2 + 2 * k] = (v & 0xff) >> 4;
    nibbles[3 + 2 * k] = v & 0x0f;
  }
  return nibbles;
}

interface Item {
  /** Stable identity of the key (hex, or an ordered trie's index). */
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

/**
 * How its parent holds the node over items[from, to) (sorted, distinct) below `depth` nibbles:
 * the node's encoding when under 32 bytes, else its hash. With `memo`: a node is fixed by its
 * depth and the first and last items under it and how many there are (the items between them in
 * key order; items never change or leave), so its reference is kept under that identity.
 */
function ref(items: readonly Item[], from: number, to: number, depth: number, memo?: Map<string, Uint8Array>): Uint8Array {
  if (!memo) return reference(build(items, from, to, depth, memo));
  const id = `${depth}:${items[from].id}:${items[to - 1].id}:${to - from}`;
  let held = memo.get(id);
  if (!held) {
    held = reference(build(items, from, to, depth, memo));
    memo.set(id, held);
  }
  return held;
}

/** The RLP encoding of the node over items[from, to) below `depth` nibbles. */
function build(items: readonly Item[], from: number, to: number, depth: number, memo?: Map<string, Uint8Array>): Uint8Array {
  const first = items[from];
  if (to - from === 1) return leafNode(hexPrefix(first.nibbles, depth, first.nibbles.length, true), first.value);
  // Sorted: the prefix all items share is the one the first and the last share.
  const last = items[to - 1];
  let shared = depth;
  const limit = Math.min(first.nibbles.length, last.nibbles.length);
  while (shared < limit && first.nibbles[shared] === last.nibbles[shared]) shared++;
  if (shared > depth) {
    return encodeList([encodeBytes(hexPrefix(first.nibbles, depth, shared, false)), ref(items, from, to, shared, memo)]);
  }
  const slots: Uint8Array[] = new Array(17);
  let i = from;
  let value: Uint8Array = EMPTY_STRING;
  if (first.nibbles.length === depth) {
    // A key that ends here (never for keys of one length, or the prefix-free rlp(i) keys).
    value = encodeBytes(first.value);
    i++;
  }
  for (let nibble = 0; nibble < 16; nibble++) {
    const start = i;
    while (i < to && items[i].nibbles[depth] === nibble) i++;
    slots[nibble] = i === start ? EMPTY_STRING : ref(items, start, i, depth + 1, memo);
  }
  slots[16] = value;
  return encodeList(slots);
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
