// A persistent Merkle-Patricia trie over keys of one length (the secure trie's keccak-256 keys):
// nodes are immutable and shared between versions, a change rebuilds only the path to the key it
// touches, and each node keeps its encoding and hash once computed. So the state root after a
// flashblock costs the paths of the accounts and slots it touched, and every earlier root stays
// readable (proofs of any layer the chain still holds) without a node store. Same encoding as
// the Yellow Paper's trie: hex-prefix paths, a node under 32 bytes embedded in its parent,
// others referenced by their keccak-256 (a test checks roots and proofs against @ethereumjs/mpt).
import { keccak256Bytes } from '../encoding/keccak';
import { EMPTY_ROOT_BYTES, encodeBytes, encodeList, hexPrefix } from '../encoding/trieRoot';

interface Leaf {
  readonly kind: 'leaf';
  /** The rest of the key below this node, as nibbles. */
  readonly path: Uint8Array;
  readonly value: Uint8Array;
  encoded?: Uint8Array;
}

interface Extension {
  readonly kind: 'extension';
  readonly path: Uint8Array;
  readonly child: TrieNode;
  encoded?: Uint8Array;
}

interface Branch {
  readonly kind: 'branch';
  readonly children: readonly (TrieNode | undefined)[];
  encoded?: Uint8Array;
}

export type TrieNode = Leaf | Extension | Branch;

const EMPTY_STRING = Uint8Array.of(0x80);

/** keccak(rlp('')): the root of the empty trie (trieRoot.ts's constant: no hashing at import). */
export const EMPTY_ROOT = EMPTY_ROOT_BYTES;

/** The 64 nibbles of a 32-byte key. */
export function keyNibbles(key: Uint8Array): Uint8Array {
  const nibbles = new Uint8Array(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    nibbles[2 * i] = key[i] >> 4;
    nibbles[2 * i + 1] = key[i] & 0x0f;
  }
  return nibbles;
}

const leaf = (path: Uint8Array, value: Uint8Array): Leaf => ({ kind: 'leaf', path, value });
const extension = (path: Uint8Array, child: TrieNode): Extension => ({ kind: 'extension', path, child });
const branch = (children: (TrieNode | undefined)[]): Branch => ({ kind: 'branch', children });

function commonPrefix(a: Uint8Array, b: Uint8Array, bFrom: number): number {
  const limit = Math.min(a.length, b.length - bFrom);
  let i = 0;
  while (i < limit && a[i] === b[bFrom + i]) i++;
  return i;
}

function join(head: Uint8Array, tail: Uint8Array): Uint8Array {
  const out = new Uint8Array(head.length + tail.length);
  out.set(head, 0);
  out.set(tail, head.length);
  return out;
}

/** The trie `node` with `key` (nibbles, from `depth`) set to `value` (non-empty). */
export function put(node: TrieNode | undefined, key: Uint8Array, value: Uint8Array, depth = 0): TrieNode {
  if (!node) return leaf(key.subarray(depth), value);
  if (node.kind === 'branch') {
    const children = node.children.slice();
    children[key[depth]] = put(children[key[depth]], key, value, depth + 1);
    return branch(children);
  }
  const shared = commonPrefix(node.path, key, depth);
  if (node.kind === 'leaf' && shared === node.path.length && shared === key.length - depth) return leaf(node.path, value);
  if (node.kind === 'extension' && shared === node.path.length) return extension(node.path, put(node.child, key, value, depth + shared));
  // The paths part at `shared`: a branch there holds the old node's rest and the new leaf.
  const children: (TrieNode | undefined)[] = new Array(16).fill(undefined);
  const oldRest = node.path.subarray(shared + 1);
  if (node.kind === 'leaf') children[node.path[shared]] = leaf(oldRest, node.value);
  else children[node.path[shared]] = oldRest.length > 0 ? extension(oldRest, node.child) : node.child;
  children[key[depth + shared]] = leaf(key.subarray(depth + shared + 1), value);
  const split = branch(children);
  return shared > 0 ? extension(node.path.subarray(0, shared), split) : split;
}

/** `child` under the extra path `head` (a collapsed branch's nibble, or an extension's path). */
function prefixed(head: Uint8Array, child: TrieNode): TrieNode {
  if (child.kind === 'leaf') return leaf(join(head, child.path), child.value);
  if (child.kind === 'extension') return extension(join(head, child.path), child.child);
  return extension(head, child);
}

/** The trie `node` without `key`; the same node when the key is not in it. */
export function remove(node: TrieNode | undefined, key: Uint8Array, depth = 0): TrieNode | undefined {
  if (!node) return undefined;
  if (node.kind === 'leaf') {
    const shared = commonPrefix(node.path, key, depth);
    return shared === node.path.length && shared === key.length - depth ? undefined : node;
  }
  if (node.kind === 'extension') {
    const shared = commonPrefix(node.path, key, depth);
    if (shared < node.path.length) return node;
    const child = remove(node.child, key, depth + shared);
    if (child === node.child) return node;
    return child ? prefixed(node.path, child) : undefined;
  }
  const nibble = key[depth];
  const old = node.children[nibble];
  const child = remove(old, key, depth + 1);
  if (child === old) return node;
  const children = node.children.slice();
  children[nibble] = child;
  let only = -1;
  for (let i = 0; i < 16; i++) {
    if (!children[i]) continue;
    if (only !== -1) return branch(children);
    only = i;
  }
  // One child left: the branch collapses into it (none left cannot happen above a removed key's sibling).
  return only === -1 ? undefined : prefixed(Uint8Array.of(only), children[only]!);
}

/** The value at `key`, or undefined. */
export function get(node: TrieNode | undefined, key: Uint8Array): Uint8Array | undefined {
  let depth = 0;
  while (node) {
    if (node.kind === 'branch') {
      node = node.children[key[depth++]];
      continue;
    }
    const shared = commonPrefix(node.path, key, depth);
    if (shared < node.path.length) return undefined;
    if (node.kind === 'leaf') return shared === key.length - depth ? node.value : undefined;
    depth += shared;
    node = node.child;
  }
  return undefined;
}

/** The node's RLP encoding, kept on the node. */
export function encodeNode(node: TrieNode): Uint8Array {
  if (node.encoded) return node.encoded;
  let encoded: Uint8Array;
  if (node.kind === 'leaf') {
    encoded = encodeList([encodeBytes(hexPrefix(node.path, 0, node.path.length, true)), encodeBytes(node.value)]);
  } else if (node.kind === 'extension') {
    encoded = encodeList([encodeBytes(hexPrefix(node.path, 0, node.path.length, false)), reference(node.child)]);
  } else {
    const items: Uint8Array[] = new Array(17);
    for (let i = 0; i < 16; i++) {
      const child = node.children[i];
      items[i] = child ? reference(child) : EMPTY_STRING;
    }
    items[16] = EMPTY_STRING;
    encoded = encodeList(items);
  }
  node.encoded = encoded;
  return encoded;
}

const references = new WeakMap<TrieNode, Uint8Array>();

/** How a parent holds the node: its encoding when under 32 bytes, else rlp(keccak(encoding)). */
function reference(node: TrieNode): Uint8Array {
  let held = references.get(node);
  if (!held) {
    const encoded = encodeNode(node);
    held = encoded.length < 32 ? encoded : encodeBytes(keccak256Bytes(encoded));
    references.set(node, held);
  }
  return held;
}

/** The root hash of a trie (the empty trie's for undefined). */
export function rootHash(node: TrieNode | undefined): Uint8Array {
  if (!node) return EMPTY_ROOT;
  const held = reference(node);
  // A root is always hashed, even when its encoding is short.
  return held.length === 33 && encodeNode(node).length >= 32 ? held.subarray(1) : keccak256Bytes(encodeNode(node));
}

/**
 * The nodes from the root down the path of `key`, as a proof of its value or of its absence
 * (EIP-1186): the root, then every node its parent references by hash (embedded nodes are part
 * of their parent's encoding already).
 */
export function proof(root: TrieNode | undefined, key: Uint8Array): Uint8Array[] {
  if (!root) return [EMPTY_STRING];
  const nodes: Uint8Array[] = [encodeNode(root)];
  let node: TrieNode | undefined = root;
  let depth = 0;
  for (;;) {
    let next: TrieNode | undefined;
    if (node.kind === 'branch') {
      next = node.children[key[depth++]];
    } else if (node.kind === 'extension') {
      const shared = commonPrefix(node.path, key, depth);
      if (shared < node.path.length) break;
      depth += shared;
      next = node.child;
    }
    if (!next) break;
    const encoded = encodeNode(next);
    if (encoded.length >= 32) nodes.push(encoded);
    node = next;
  }
  return nodes;
}
