// The real Ethereum state root: a secure Merkle-Patricia trie of accounts
// (keccak(address) -> rlp[nonce, balance, storageRoot, codeHash]) whose storage roots are
// secure tries of slots (keccak(slot) -> rlp(value)). One node store keeps every version, so
// the root of any earlier layer stays valid after reorgs and reverts. A genesis's roots are
// computed at once from its entries (trieRoot.ts); its nodes go into the store only before the
// first change on top of it, so start-up does not build the node store.
import { createMerkleProof, MerklePatriciaTrie } from '@ethereumjs/mpt';
import { MapDB } from '@ethereumjs/util';
import { encodeRlp, keccak256 } from 'ethers';
import { bytesToHex, hexToBytes, rlpQuantity, word, type Hex } from '../chain/hex';
import { keccak256Bytes } from '../chain/keccak';
import { trieRoot, type TrieEntry } from '../chain/trieRoot';
import { isEmptyAccount, StateLayer, type AccountRecord, type StateDraft } from './worldState';

export const EMPTY_TRIE_ROOT: Hex = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
export const EMPTY_CODE_HASH: Hex = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

/** rlp(''): the root node of an empty trie, the whole proof of any key in it. */
const EMPTY_TRIE_NODE: Hex = '0x80';

export function codeHash(code: Hex): Hex {
  return code === '0x' ? EMPTY_CODE_HASH : keccak256(code);
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
    const accounts = new Map(draft.accountChanges);
    const storage = new Map([...draft.storageWrites].map(([address, slots]) => [address, new Map(slots)] as const));
    return this.serialized(async () => {
      await this.plant();
      const touched = new Map(accounts);
      for (const address of storage.keys()) if (!touched.has(address)) touched.set(address, base.account(address));
      const { stateRoot, storageRoots } = await this.apply(base.stateRoot, (a) => base.storageRoot(a), touched, storage);
      return base.extend(accounts, storage, stateRoot, storageRoots);
    });
  }

  /**
   * The trie nodes from `root` down the path of `key` (hashed, as the secure trie stores it):
   * an EIP-1186 proof of the key's value, or of its absence. Nodes are never deleted from the
   * store, so the root of any layer the chain still holds can be proven.
   */
  async prove(root: Hex, key: Hex): Promise<Hex[]> {
    // The empty trie is the one node rlp(''); proving against it needs no lookup.
    if (root === EMPTY_TRIE_ROOT) return [EMPTY_TRIE_NODE];
    return this.serialized(async () => {
      await this.plant();
      const reader = new MerklePatriciaTrie({ db: this.store.db, useKeyHashing: true, root: hexToBytes(root) });
      return (await createMerkleProof(reader, hexToBytes(key))).map(bytesToHex);
    });
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
