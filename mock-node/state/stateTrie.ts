// The real Ethereum state root: a secure Merkle-Patricia trie of accounts
// (keccak(address) -> rlp[nonce, balance, storageRoot, codeHash]) whose storage roots are
// secure tries of slots (keccak(slot) -> rlp(value)). The node store holds the nodes of the
// newest layers only: every so many new nodes it keeps what the last RECENT_LAYERS committed
// roots reach and drops the rest (older versions and the intermediate nodes of each change), so
// history costs the layers' own change maps, not a copy of every trie version. A layer whose
// nodes were dropped is planted again from its full state when a change builds on it or a proof
// asks for it (a deep revert, eth_getProof at an old block). A genesis's roots are computed at
// once from its entries (trieRoot.ts); its nodes go into the store only before the first change
// on top of it, so start-up does not build the node store.
import { createMerkleProof, MerklePatriciaTrie } from '@ethereumjs/mpt';
import { MapDB } from '@ethereumjs/util';
import { encodeRlp, keccak256 } from 'ethers';
import { bytesToHex, hexToBytes, rlpQuantity, word, type Hex } from '../chain/hex';
import { decodeRlpBytes, isList, type RlpValue } from '../chain/rlp';
import { keccak256Bytes } from '../chain/keccak';
import { trieRoot, type TrieEntry } from '../chain/trieRoot';
import { isEmptyAccount, StateLayer, type AccountRecord, type StateDraft } from './worldState';

export const EMPTY_TRIE_ROOT: Hex = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
export const EMPTY_CODE_HASH: Hex = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

/** rlp(''): the root node of an empty trie, the whole proof of any key in it. */
const EMPTY_TRIE_NODE: Hex = '0x80';

/** Committed roots whose nodes survive a collection (reorgs and rebuilt pending blocks build on these without planting). */
const RECENT_LAYERS = 32;
/** Nodes in the store before the first collection; then a collection runs when the store doubles. */
const MIN_COLLECT_NODES = 4096;

export function codeHash(code: Hex): Hex {
  return code === '0x' ? EMPTY_CODE_HASH : keccak256(code);
}

function sameAccount(a: AccountRecord, b: AccountRecord): boolean {
  return a === b || (a.nonce === b.nonce && a.balance === b.balance && a.code === b.code);
}

/** The RLP of an account as the state trie holds it. */
function encodeAccount(record: AccountRecord, storageRoot: Hex): Uint8Array {
  return hexToBytes(encodeRlp([rlpQuantity(record.nonce), rlpQuantity(record.balance), storageRoot, codeHash(record.code)]));
}

/** A genesis whose nodes are not in the store yet. */
interface Unplanted {
  accounts: Map<Hex, AccountRecord>;
  storage: Map<Hex, Map<bigint, bigint>>;
  stateRoot: Hex;
}

export class StateTrie {
  private tries: { db: MapDB<string, string>; accounts: MerklePatriciaTrie; slots: MerklePatriciaTrie } | undefined;
  private readonly unplanted: Unplanted[] = [];
  private tail: Promise<unknown> = Promise.resolve();
  /** The newest committed layers (their roots survive a collection), oldest first. */
  private readonly recent: StateLayer[] = [];
  /** Nodes kept by the last collection. */
  private keptNodes = 0;
  private readonly addresses = new Map<Hex, Hex>();

  constructor(private readonly limits: { recentLayers: number; minCollectNodes: number } = { recentLayers: RECENT_LAYERS, minCollectNodes: MIN_COLLECT_NODES }) {}

  /** The node store and its two views, made before the first change. */
  private get store(): { db: MapDB<string, string>; accounts: MerklePatriciaTrie; slots: MerklePatriciaTrie } {
    if (!this.tries) {
      const db = new MapDB<string, string>();
      this.tries = { db, accounts: new MerklePatriciaTrie({ db, useKeyHashing: true }), slots: new MerklePatriciaTrie({ db, useKeyHashing: true }) };
    }
    return this.tries;
  }

  /** Builds the genesis layer from full account and storage maps (its roots at once; its nodes later). */
  genesis(accounts: Map<Hex, AccountRecord>, storage: Map<Hex, Map<bigint, bigint>>): Promise<StateLayer> {
    return this.serialized(async () => {
      const storageRoots = new Map<Hex, Hex>();
      for (const [address, slots] of storage) {
        const entries: TrieEntry[] = [...slots].map(([slot, value]) => [
          keccak256Bytes(hexToBytes(word(slot))),
          value === 0n ? new Uint8Array() : hexToBytes(encodeRlp(rlpQuantity(value))),
        ]);
        storageRoots.set(address, bytesToHex(trieRoot(entries)));
      }
      const entries: TrieEntry[] = [];
      for (const [address, record] of accounts) {
        const storageRoot = storageRoots.get(address) ?? EMPTY_TRIE_ROOT;
        if (isEmptyAccount(record) && storageRoot === EMPTY_TRIE_ROOT) continue;
        entries.push([keccak256Bytes(hexToBytes(address)), encodeAccount(record, storageRoot)]);
      }
      const stateRoot = bytesToHex(trieRoot(entries));
      this.unplanted.push({ accounts, storage, stateRoot });
      return StateLayer.genesis(accounts, storage, stateRoot, storageRoots);
    });
  }

  /** Puts the nodes of every genesis made so far into the store (checking the roots agree). */
  private async plant(): Promise<void> {
    for (const genesis of this.unplanted.splice(0)) {
      const { stateRoot } = await this.apply(EMPTY_TRIE_ROOT, () => undefined, genesis.accounts, genesis.storage);
      if (stateRoot !== genesis.stateRoot) throw new Error(`genesis state root mismatch: ${stateRoot} in the store, ${genesis.stateRoot} computed`);
    }
  }

  /** Freezes a draft made directly over `base` into a new layer with its real state root. */
  commit(base: StateLayer, draft: StateDraft): Promise<StateLayer> {
    if (draft.isEmpty()) return Promise.resolve(base);
    // Only what differs from `base` goes into the layer (a write of the value already there, as a
    // transfer back and forth within one flashblock leaves, is no change: history does not keep it).
    const accounts = new Map<Hex, AccountRecord>();
    for (const [address, record] of draft.accountChanges) if (!sameAccount(record, base.account(address))) accounts.set(this.intern(address), record);
    const storage = new Map<Hex, Map<bigint, bigint>>();
    for (const [address, slots] of draft.storageWrites) {
      let changed: Map<bigint, bigint> | undefined;
      for (const [slot, value] of slots) if (base.storage(address, slot) !== value) (changed ??= new Map()).set(slot, value);
      if (changed) storage.set(this.intern(address), changed);
    }
    if (accounts.size === 0 && storage.size === 0) return Promise.resolve(base);
    return this.serialized(async () => {
      await this.plant();
      await this.ensurePlanted(base);
      const touched = new Map(accounts);
      for (const address of storage.keys()) if (!touched.has(address)) touched.set(address, base.account(address));
      const { stateRoot, storageRoots } = await this.apply(base.stateRoot, (a) => base.storageRoot(a), touched, storage);
      const layer = base.extend(accounts, storage, stateRoot, storageRoots);
      this.recent.push(layer);
      if (this.recent.length > this.limits.recentLayers) this.recent.shift();
      if (this.nodeCount() > Math.max(this.limits.minCollectNodes, 2 * this.keptNodes)) this.collect();
      return layer;
    });
  }

  /**
   * One string per address for every layer's keys: each transaction's sender and recipient
   * arrive as new strings, and a layer kept for history would otherwise hold its own copies.
   */
  private intern(address: Hex): Hex {
    const known = this.addresses.get(address);
    if (known !== undefined) return known;
    this.addresses.set(address, address);
    return address;
  }

  private nodeCount(): number {
    return this.tries ? mapOf(this.tries.db).size : 0;
  }

  /** Plants `layer`'s whole state when the store no longer holds its root (its nodes were collected). */
  private async ensurePlanted(layer: StateLayer): Promise<void> {
    if (layer.stateRoot === EMPTY_TRIE_ROOT || mapOf(this.store.db).has(layer.stateRoot.slice(2))) return;
    const storage = new Map<Hex, Map<bigint, bigint>>();
    for (const address of layer.storageOwners()) storage.set(address, layer.allStorage(address));
    const { stateRoot } = await this.apply(EMPTY_TRIE_ROOT, () => undefined, layer.allAccounts(), storage);
    if (stateRoot !== layer.stateRoot) throw new Error(`state root mismatch planting a layer again: ${stateRoot} in the store, ${layer.stateRoot} kept`);
  }

  /**
   * Keeps the nodes the recent roots reach (account tries, and the storage tries their accounts
   * name) and drops every other node. A node in the store always has its children there, so a
   * root present means its whole trie is.
   */
  private collect(): void {
    const old = mapOf(this.store.db);
    const kept = new Map<string, string>();
    const stack = this.recent.map((layer) => layer.stateRoot.slice(2));
    while (stack.length > 0) {
      const key = stack.pop()!;
      if (kept.has(key)) continue;
      const node = old.get(key);
      if (node === undefined) continue;
      kept.set(key, node);
      for (const child of referencedNodes(Buffer.from(node, 'hex'))) if (!kept.has(child)) stack.push(child);
    }
    const db = new MapDB<string, string>(kept);
    this.tries = { db, accounts: new MerklePatriciaTrie({ db, useKeyHashing: true }), slots: new MerklePatriciaTrie({ db, useKeyHashing: true }) };
    this.keptNodes = kept.size;
  }

  /**
   * The trie nodes from `root` down the path of `key` (hashed, as the secure trie stores it):
   * an EIP-1186 proof of the key's value, or of its absence. Nodes are never deleted from the
   * store, so the root of any layer the chain still holds can be proven.
   */
  async prove(root: Hex, key: Hex, layer?: StateLayer): Promise<Hex[]> {
    // The empty trie is the one node rlp(''); proving against it needs no lookup.
    if (root === EMPTY_TRIE_ROOT) return [EMPTY_TRIE_NODE];
    return this.serialized(async () => {
      await this.plant();
      // `root` is the layer's state root or one of its storage roots: planting the layer brings both.
      if (layer && !mapOf(this.store.db).has(root.slice(2))) {
        await this.ensurePlanted(layer);
        if (!mapOf(this.store.db).has(root.slice(2))) await this.plantStorageOf(layer, root);
      }
      const reader = new MerklePatriciaTrie({ db: this.store.db, useKeyHashing: true, root: hexToBytes(root) });
      return (await createMerkleProof(reader, hexToBytes(key))).map(bytesToHex);
    });
  }

  /** Plants the storage trie of `layer` whose root is `root` (a storage root the account trie no longer names the same way). */
  private async plantStorageOf(layer: StateLayer, root: Hex): Promise<void> {
    for (const address of layer.storageOwners()) {
      if (layer.storageRoot(address) !== root) continue;
      await this.apply(EMPTY_TRIE_ROOT, () => undefined, new Map(), new Map([[address, layer.allStorage(address)]]));
      return;
    }
  }

  private async apply(
    parentRoot: Hex,
    previousStorageRoot: (address: Hex) => Hex | undefined,
    accounts: Map<Hex, AccountRecord>,
    storage: Map<Hex, Map<bigint, bigint>>,
  ): Promise<{ stateRoot: Hex; storageRoots: Map<Hex, Hex> }> {
    const trie = this.store;
    const storageRoots = new Map<Hex, Hex>();
    for (const [address, slots] of storage) {
      trie.slots.root(hexToBytes(previousStorageRoot(address) ?? EMPTY_TRIE_ROOT));
      for (const [slot, value] of slots) {
        const key = hexToBytes(word(slot));
        if (value === 0n) await trie.slots.del(key);
        else await trie.slots.put(key, hexToBytes(encodeRlp(rlpQuantity(value))));
      }
      storageRoots.set(address, bytesToHex(trie.slots.root()));
    }
    trie.accounts.root(hexToBytes(parentRoot));
    for (const [address, record] of accounts) {
      const storageRoot = storageRoots.get(address) ?? previousStorageRoot(address) ?? EMPTY_TRIE_ROOT;
      const key = hexToBytes(address);
      if (isEmptyAccount(record) && storageRoot === EMPTY_TRIE_ROOT) {
        await trie.accounts.del(key);
      } else {
        await trie.accounts.put(key, encodeAccount(record, storageRoot));
      }
    }
    return { stateRoot: bytesToHex(trie.accounts.root()), storageRoots };
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }
}

/** The MapDB's own map (the store is read and rebuilt whole by collect()). */
function mapOf(db: MapDB<string, string>): Map<string, string> {
  return (db as unknown as { _database: Map<string, string> })._database;
}

/**
 * The stored nodes a trie node refers to by hash: its children, and for an account leaf the root
 * of the account's storage trie. Embedded children (under 32 bytes) hold no hash references.
 */
function referencedNodes(encoded: Uint8Array): string[] {
  const node = decodeRlpBytes(encoded);
  if (!isList(node)) return [];
  const out: string[] = [];
  const reference = (item: RlpValue | undefined) => {
    if (item instanceof Uint8Array && item.length === 32) out.push(Buffer.from(item).toString('hex'));
  };
  if (node.items.length === 17) {
    for (let i = 0; i < 16; i++) reference(node.items[i]);
    return out;
  }
  const [path, value] = node.items;
  if (!(path instanceof Uint8Array) || path.length === 0) return out;
  const leaf = path[0] >> 4 >= 2;
  if (!leaf) {
    reference(value);
    return out;
  }
  // A leaf: an account's value is rlp([nonce, balance, storageRoot, codeHash]); a slot's is rlp(uint).
  if (value instanceof Uint8Array && value.length > 0 && value[0] >= 0xc0) {
    try {
      const account = decodeRlpBytes(value);
      if (isList(account) && account.items.length === 4) {
        const storageRoot = account.items[2];
        if (storageRoot instanceof Uint8Array && storageRoot.length === 32) {
          const hex = Buffer.from(storageRoot).toString('hex');
          if (hex !== EMPTY_TRIE_ROOT.slice(2)) out.push(hex);
        }
      }
    } catch {
      // Not an account: no references.
    }
  }
  return out;
}
