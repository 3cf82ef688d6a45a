// The real Ethereum state root: a secure Merkle-Patricia trie of accounts
// (keccak(address) -> rlp[nonce, balance, storageRoot, codeHash]) whose storage roots are
// secure tries of slots (keccak(slot) -> rlp(value)). The tries are persistent (persistentTrie.ts):
// a commit rebuilds only the paths of the accounts and slots a draft touched, sharing every other
// node with the version before. The roots of the newest RECENT_LAYERS committed layers stay
// reachable (reorgs and rebuilt pending blocks build on them); older versions are left to the
// garbage collector, so history costs the layers' own change maps, not a copy of every trie
// version. A layer whose trie went is planted again from its full state when a change builds on
// it or a proof asks for it (a deep revert, eth_getProof at an old block). A genesis's roots are
// computed at once from its entries (trieRoot.ts); its tries are built only before the first
// change on top of it, so start-up does not build them.
import { bytesHex, hexBytes, uintBytes, wordBytes } from '../encoding/bytes';
import type { Hex } from '../encoding/hex';
import { keccak256Bytes } from '../encoding/keccak';
import { encodeBytes, encodeList, trieRoot, type TrieEntry } from '../encoding/trieRoot';
import { keyNibbles, proof, put, remove, rootHash, type TrieNode } from './persistentTrie';
import type { StateBelow } from './forkReads';
import { isEmptyAccount, StateLayer, type AccountRecord, type StateDraft } from './worldState';

export const EMPTY_TRIE_ROOT: Hex = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
export const EMPTY_CODE_HASH: Hex = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

const codeHashes = new Map<Hex, Hex>();

/** Committed layers whose roots stay reachable (reorgs and rebuilt pending blocks build on these without planting). */
const RECENT_LAYERS = 32;
/** Reachable roots before the first prune; then a prune runs when their number doubles. */
const MIN_PRUNE_ROOTS = 128;

function sameAccount(a: AccountRecord, b: AccountRecord): boolean {
  return a === b || (a.nonce === b.nonce && a.balance === b.balance && a.code === b.code);
}

export function codeHash(code: Hex): Hex {
  if (code === '0x') return EMPTY_CODE_HASH;
  let hash = codeHashes.get(code);
  if (hash === undefined) {
    hash = bytesHex(keccak256Bytes(hexBytes(code)));
    if (codeHashes.size >= 256) codeHashes.clear();
    codeHashes.set(code, hash);
  }
  return hash;
}

/** A code's hash known ahead (the default genesis's constants), so that no commit hashes that code again. */
export function rememberCodeHash(code: Hex, hash: Hex): void {
  if (code !== '0x' && !codeHashes.has(code)) codeHashes.set(code, hash);
}

/** The roots of a genesis: its state root and each contract's storage root. */
export interface GenesisRoots {
  stateRoot: Hex;
  storageRoots: Map<Hex, Hex>;
}

/** The RLP of an account as the state trie holds it. */
function encodeAccount(record: AccountRecord, storageRoot: Hex): Uint8Array {
  return encodeList([
    encodeBytes(uintBytes(record.nonce)),
    encodeBytes(uintBytes(record.balance)),
    encodeBytes(hexBytes(storageRoot)),
    encodeBytes(hexBytes(codeHash(record.code))),
  ]);
}

/** rlp(value) of a storage slot's value. */
function encodeSlotValue(value: bigint): Uint8Array {
  return encodeBytes(uintBytes(value));
}

const hashedKey = (key: Hex): Uint8Array => keyNibbles(keccak256Bytes(hexBytes(key)));
const slotKey = (slot: bigint): Uint8Array => keyNibbles(keccak256Bytes(wordBytes(slot)));

/** A genesis whose nodes are not in the store yet. */
interface Unplanted {
  accounts: Map<Hex, AccountRecord>;
  storage: Map<Hex, Map<bigint, bigint>>;
  stateRoot: Hex;
}

export class StateTrie {
  /** Reachable roots (state and storage tries alike), by hash: those of the recent layers, and any made since the last prune. */
  private roots = new Map<Hex, TrieNode | undefined>([[EMPTY_TRIE_ROOT, undefined]]);
  private readonly unplanted: Unplanted[] = [];
  /** The newest committed layers (their roots survive a prune), oldest first. */
  private readonly recent: StateLayer[] = [];
  private rootsAfterPrune = 1;
  private readonly addresses = new Map<Hex, Hex>();

  /** `minCollectNodes`: reachable roots before the first prune (then one runs when their map doubles). */
  constructor(private readonly limits: { recentLayers: number; minCollectNodes?: number } = { recentLayers: RECENT_LAYERS }) {}

  /**
   * Builds the genesis layer from full account and storage maps (its roots at once, or `known`
   * ones; its tries later, when planting checks the state root).
   */
  async genesis(accounts: Map<Hex, AccountRecord>, storage: Map<Hex, Map<bigint, bigint>>, known?: GenesisRoots, below?: StateBelow): Promise<StateLayer> {
    if (known) {
      this.unplanted.push({ accounts, storage, stateRoot: known.stateRoot });
      return StateLayer.genesis(accounts, storage, known.stateRoot, known.storageRoots, below);
    }
    const storageRoots = new Map<Hex, Hex>();
    for (const [address, slots] of storage) {
      const entries: TrieEntry[] = [...slots].map(([slot, value]) => [
        keccak256Bytes(wordBytes(slot)),
        value === 0n ? new Uint8Array() : encodeSlotValue(value),
      ]);
      storageRoots.set(address, bytesHex(trieRoot(entries)));
    }
    const entries: TrieEntry[] = [];
    for (const [address, record] of accounts) {
      const storageRoot = storageRoots.get(address) ?? EMPTY_TRIE_ROOT;
      if (isEmptyAccount(record) && storageRoot === EMPTY_TRIE_ROOT) continue;
      entries.push([keccak256Bytes(hexBytes(address)), encodeAccount(record, storageRoot)]);
    }
    const stateRoot = bytesHex(trieRoot(entries));
    this.unplanted.push({ accounts, storage, stateRoot });
    return StateLayer.genesis(accounts, storage, stateRoot, storageRoots, below);
  }

  /**
   * Builds the genesis tries now, in idle time, instead of in the first commit over them (a
   * flashblock's cut). Nothing else changes: the roots are those the genesis already has.
   */
  prepare(): void {
    this.plant();
  }

  /** Builds the tries of every genesis made so far (checking the roots agree). */
  private plant(): void {
    for (const genesis of this.unplanted.splice(0)) {
      const { stateRoot } = this.apply(EMPTY_TRIE_ROOT, () => undefined, genesis.accounts, genesis.storage);
      if (stateRoot !== genesis.stateRoot) throw new Error(`genesis state root mismatch: ${stateRoot} in the tries, ${genesis.stateRoot} computed`);
    }
  }

  /** Freezes a draft made directly over `base` into a new layer with its real state root. */
  async commit(base: StateLayer, draft: StateDraft): Promise<StateLayer> {
    if (draft.isEmpty()) return base;
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
    if (accounts.size === 0 && storage.size === 0) return base;
    this.plant();
    this.ensurePlanted(base);
    const touched = new Map(accounts);
    for (const address of storage.keys()) if (!touched.has(address)) touched.set(address, base.account(address));
    const { stateRoot, storageRoots } = this.apply(base.stateRoot, (a) => base.storageRoot(a), touched, storage);
    const layer = base.extend(accounts, storage, stateRoot, storageRoots);
    this.recent.push(layer);
    if (this.recent.length > this.limits.recentLayers) this.recent.shift();
    if (this.roots.size > Math.max(this.limits.minCollectNodes ?? MIN_PRUNE_ROOTS, 2 * this.rootsAfterPrune)) this.prune();
    return layer;
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

  /** Keeps the roots of the recent layers (state roots and their accounts' storage roots) and lets the rest go. */
  private prune(): void {
    const kept = new Map<Hex, TrieNode | undefined>([[EMPTY_TRIE_ROOT, undefined]]);
    const keep = (root: Hex | undefined) => {
      if (root !== undefined && this.roots.has(root)) kept.set(root, this.roots.get(root));
    };
    for (const layer of this.recent) {
      keep(layer.stateRoot);
      for (const address of layer.storageOwners()) keep(layer.storageRoot(address));
    }
    this.roots = kept;
    this.rootsAfterPrune = kept.size;
  }

  /** Plants `layer`'s whole state when its root is no longer reachable. */
  private ensurePlanted(layer: StateLayer): void {
    if (this.roots.has(layer.stateRoot)) return;
    const storage = new Map<Hex, Map<bigint, bigint>>();
    for (const address of layer.storageOwners()) storage.set(address, layer.allStorage(address));
    const { stateRoot } = this.apply(EMPTY_TRIE_ROOT, () => undefined, layer.allAccounts(), storage);
    if (stateRoot !== layer.stateRoot) throw new Error(`state root mismatch planting a layer again: ${stateRoot} in the tries, ${layer.stateRoot} kept`);
  }

  /**
   * The trie nodes from `root` down the path of `key` (hashed, as the secure trie stores it):
   * an EIP-1186 proof of the key's value, or of its absence. `root` is `layer`'s state root or
   * one of its storage roots; a layer whose trie went is planted again.
   */
  async prove(root: Hex, key: Hex, layer?: StateLayer): Promise<Hex[]> {
    this.plant();
    if (layer && !this.roots.has(root)) {
      this.ensurePlanted(layer);
      if (!this.roots.has(root)) this.plantStorageOf(layer, root);
    }
    return proof(this.trie(root), hashedKey(key)).map(bytesHex);
  }

  /** Plants the storage trie of `layer` whose root is `root`. */
  private plantStorageOf(layer: StateLayer, root: Hex): void {
    for (const address of layer.storageOwners()) {
      if (layer.storageRoot(address) !== root) continue;
      this.apply(EMPTY_TRIE_ROOT, () => undefined, new Map(), new Map([[address, layer.allStorage(address)]]));
      return;
    }
  }

  private trie(root: Hex): TrieNode | undefined {
    if (!this.roots.has(root)) throw new Error(`unknown trie root ${root}`);
    return this.roots.get(root);
  }

  private keep(node: TrieNode | undefined): Hex {
    const root = bytesHex(rootHash(node));
    if (!this.roots.has(root)) this.roots.set(root, node);
    return root;
  }

  private apply(
    parentRoot: Hex,
    previousStorageRoot: (address: Hex) => Hex | undefined,
    accounts: Map<Hex, AccountRecord>,
    storage: Map<Hex, Map<bigint, bigint>>,
  ): { stateRoot: Hex; storageRoots: Map<Hex, Hex> } {
    const storageRoots = new Map<Hex, Hex>();
    for (const [address, slots] of storage) {
      let slotsTrie = this.trie(previousStorageRoot(address) ?? EMPTY_TRIE_ROOT);
      for (const [slot, value] of slots) {
        const key = slotKey(slot);
        slotsTrie = value === 0n ? remove(slotsTrie, key) : put(slotsTrie, key, encodeSlotValue(value));
      }
      storageRoots.set(address, this.keep(slotsTrie));
    }
    let accountsTrie = this.trie(parentRoot);
    for (const [address, record] of accounts) {
      const storageRoot = storageRoots.get(address) ?? previousStorageRoot(address) ?? EMPTY_TRIE_ROOT;
      const key = hashedKey(address);
      accountsTrie = isEmptyAccount(record) && storageRoot === EMPTY_TRIE_ROOT ? remove(accountsTrie, key) : put(accountsTrie, key, encodeAccount(record, storageRoot));
    }
    return { stateRoot: this.keep(accountsTrie), storageRoots };
  }
}
