// World state as immutable layers. A sealed block or a flashblock owns one frozen layer; the
// builder writes into a StateDraft on top of the newest layer and freezes it when the flashblock
// is cut. Reads walk the layers from newest to oldest; chains of layers are flattened once they
// grow deep so a read stays a handful of map lookups.
import type { Hex } from '../encoding/hex';
import { MissingState, missedAccount, missedSlot, readWaitingAtMisses, type MissingKeys, type StateBelow } from './forkReads';

export interface AccountRecord {
  readonly nonce: bigint;
  readonly balance: bigint;
  /** Runtime code, '0x' for an externally owned account. */
  readonly code: Hex;
}

export const EMPTY_ACCOUNT: AccountRecord = Object.freeze({ nonce: 0n, balance: 0n, code: '0x' });

export function isEmptyAccount(account: AccountRecord): boolean {
  return account.nonce === 0n && account.balance === 0n && account.code === '0x';
}

/** Read access to a state, whatever it is made of. */
export interface StateReader {
  account(address: Hex): AccountRecord;
  storage(address: Hex, slot: bigint): bigint;
  /** True over a fork's upstream (reads may miss: forkReads.ts). */
  readonly forked?: boolean;
  /** On a fork: the account as far as it is known here, undefined when the upstream has not given it yet. */
  knownAccount?(address: Hex): AccountRecord | undefined;
  /** On a fork: the slot as far as it is known here, undefined when the upstream has not given it yet. */
  knownStorage?(address: Hex, slot: bigint): bigint | undefined;
  /** On a fork: fetches what a run over this state missed (one batch), so that it can run again here. */
  fetchMissing?(missing: MissingKeys): Promise<void>;
  /** On a fork: how long a run over this state may wait at a miss (StateBelow.waitAtMissMs). */
  waitAtMissMs?(): number | undefined;
}

const FLATTEN_DEPTH = 32;

/** One frozen layer of changes over its parent. Never modified after construction. */
export class StateLayer implements StateReader {
  readonly depth: number;

  private constructor(
    readonly parent: StateLayer | undefined,
    readonly accounts: ReadonlyMap<Hex, AccountRecord>,
    readonly storageChanges: ReadonlyMap<Hex, ReadonlyMap<bigint, bigint>>,
    /** Root of the state trie after this layer (computed by StateTrie). */
    readonly stateRoot: Hex,
    /** Storage trie root per account whose storage this layer (or, when flattened, any layer) changed. */
    readonly storageRoots: ReadonlyMap<Hex, Hex>,
    /** On a fork: the upstream's state at the fork block, below every layer (forkReads.ts). */
    readonly below?: StateBelow,
  ) {
    this.depth = parent ? parent.depth + 1 : 0;
  }

  static genesis(
    accounts: Map<Hex, AccountRecord>,
    storage: Map<Hex, Map<bigint, bigint>>,
    stateRoot: Hex,
    storageRoots: Map<Hex, Hex>,
    below?: StateBelow,
  ): StateLayer {
    return new StateLayer(undefined, accounts, storage, stateRoot, storageRoots, below);
  }

  /** Freezes a set of changes on top of this layer; flattens the chain when it grows deep. */
  extend(
    accounts: Map<Hex, AccountRecord>,
    storage: Map<Hex, Map<bigint, bigint>>,
    stateRoot: Hex,
    storageRoots: Map<Hex, Hex>,
  ): StateLayer {
    if (accounts.size === 0 && storage.size === 0) return this;
    const layer = new StateLayer(this, accounts, storage, stateRoot, storageRoots, this.below);
    return layer.depth >= FLATTEN_DEPTH ? layer.flatten() : layer;
  }

  account(address: Hex): AccountRecord {
    for (let layer: StateLayer | undefined = this; layer; layer = layer.parent) {
      const found = layer.accounts.get(address);
      if (found) return found;
    }
    if (this.below) return this.accountBelow(address);
    return EMPTY_ACCOUNT;
  }

  get forked(): boolean {
    return this.below !== undefined;
  }

  fetchMissing(missing: MissingKeys): Promise<void> {
    return this.below ? this.below.fetch(missing) : Promise.reject(new MissingState(missing));
  }

  waitAtMissMs(): number | undefined {
    return this.below?.waitAtMissMs();
  }

  private accountBelow(address: Hex): AccountRecord {
    return this.below!.account(address) ?? missedAccount(address);
  }

  knownAccount(address: Hex): AccountRecord | undefined {
    for (let layer: StateLayer | undefined = this; layer; layer = layer.parent) {
      const found = layer.accounts.get(address);
      if (found) return found;
    }
    return this.below ? this.below.account(address) : EMPTY_ACCOUNT;
  }

  knownStorage(address: Hex, slot: bigint): bigint | undefined {
    for (let layer: StateLayer | undefined = this; layer; layer = layer.parent) {
      const value = layer.storageChanges.get(address)?.get(slot);
      if (value !== undefined) return value;
    }
    return this.below ? this.below.storage(address, slot) : 0n;
  }

  storage(address: Hex, slot: bigint): bigint {
    for (let layer: StateLayer | undefined = this; layer; layer = layer.parent) {
      const value = layer.storageChanges.get(address)?.get(slot);
      if (value !== undefined) return value;
    }
    if (this.below) return this.storageBelow(address, slot);
    return 0n;
  }

  private storageBelow(address: Hex, slot: bigint): bigint {
    const fetched = this.below!.storage(address, slot);
    return fetched !== undefined ? fetched : missedSlot(address, slot);
  }

  storageRoot(address: Hex): Hex | undefined {
    for (let layer: StateLayer | undefined = this; layer; layer = layer.parent) {
      const root = layer.storageRoots.get(address);
      if (root !== undefined) return root;
    }
    return undefined;
  }

  /** Every account with a record in any layer (for dumps and full scans). */
  allAccounts(): Map<Hex, AccountRecord> {
    const result = new Map<Hex, AccountRecord>();
    for (let layer: StateLayer | undefined = this; layer; layer = layer.parent) {
      for (const [address, record] of layer.accounts) if (!result.has(address)) result.set(address, record);
    }
    return result;
  }

  /** Every storage slot of one account. */
  allStorage(address: Hex): Map<bigint, bigint> {
    const result = new Map<bigint, bigint>();
    for (let layer: StateLayer | undefined = this; layer; layer = layer.parent) {
      const slots = layer.storageChanges.get(address);
      if (slots) for (const [slot, value] of slots) if (!result.has(slot)) result.set(slot, value);
    }
    return result;
  }

  /** Addresses that have storage in any layer. */
  storageOwners(): Set<Hex> {
    const result = new Set<Hex>();
    for (let layer: StateLayer | undefined = this; layer; layer = layer.parent) {
      for (const address of layer.storageChanges.keys()) result.add(address);
    }
    return result;
  }

  private flatten(): StateLayer {
    const accounts = this.allAccounts();
    const storage = new Map<Hex, Map<bigint, bigint>>();
    for (const address of this.storageOwners()) storage.set(address, this.allStorage(address));
    const roots = new Map<Hex, Hex>();
    for (let layer: StateLayer | undefined = this; layer; layer = layer.parent) {
      for (const [address, root] of layer.storageRoots) if (!roots.has(address)) roots.set(address, root);
    }
    return new StateLayer(undefined, accounts, storage, this.stateRoot, roots, this.below);
  }
}

/**
 * A writable view over a base state. Drafts nest: a transaction runs in a child draft that is
 * merged into its parent on success and dropped on revert.
 */
export class StateDraft implements StateReader {
  readonly accountChanges = new Map<Hex, AccountRecord>();
  readonly storageWrites = new Map<Hex, Map<bigint, bigint>>();

  constructor(readonly base: StateReader) {}

  get forked(): boolean {
    return this.base.forked === true;
  }

  /** Over a state that cannot fetch (a recorder's), the misses are thrown for the caller to fetch. */
  fetchMissing(missing: MissingKeys): Promise<void> {
    return this.base.fetchMissing ? this.base.fetchMissing(missing) : Promise.reject(new MissingState(missing));
  }

  waitAtMissMs(): number | undefined {
    return this.base.waitAtMissMs?.();
  }

  /** A read of this draft (or another over the same fork) that may wait at a miss: forkReads.ts, readWaitingAtMisses. */
  waitingRead<T>(read: () => T): T | Promise<T> {
    return readWaitingAtMisses(read);
  }

  knownAccount(address: Hex): AccountRecord | undefined {
    return this.accountChanges.get(address) ?? (this.base.knownAccount ? this.base.knownAccount(address) : this.base.account(address));
  }

  knownStorage(address: Hex, slot: bigint): bigint | undefined {
    const value = this.storageWrites.get(address)?.get(slot);
    if (value !== undefined) return value;
    return this.base.knownStorage ? this.base.knownStorage(address, slot) : this.base.storage(address, slot);
  }

  account(address: Hex): AccountRecord {
    return this.accountChanges.get(address) ?? this.base.account(address);
  }

  storage(address: Hex, slot: bigint): bigint {
    const value = this.storageWrites.get(address)?.get(slot);
    return value !== undefined ? value : this.base.storage(address, slot);
  }

  setAccount(address: Hex, record: AccountRecord): void {
    this.accountChanges.set(address, record);
  }

  // Account records are written out field by field, never as `{ ...current, balance }`: on Node 20
  // (V8 11) every run of a spread followed by more keys makes a hidden class of its own, which
  // only a full GC frees and whose descriptors keep young objects alive through scavenges.
  updateAccount(address: Hex, change: Partial<AccountRecord>): AccountRecord {
    const current = this.account(address);
    const next: AccountRecord = { nonce: change.nonce ?? current.nonce, balance: change.balance ?? current.balance, code: change.code ?? current.code };
    this.accountChanges.set(address, next);
    return next;
  }

  addBalance(address: Hex, amount: bigint): void {
    const current = this.account(address);
    this.accountChanges.set(address, { nonce: current.nonce, balance: current.balance + amount, code: current.code });
  }

  subtractBalance(address: Hex, amount: bigint): void {
    const current = this.account(address);
    if (current.balance < amount) throw new Error(`balance of ${address} below ${amount}`);
    this.accountChanges.set(address, { nonce: current.nonce, balance: current.balance - amount, code: current.code });
  }

  setStorage(address: Hex, slot: bigint, value: bigint): void {
    let slots = this.storageWrites.get(address);
    if (!slots) {
      slots = new Map();
      this.storageWrites.set(address, slots);
    }
    slots.set(slot, value);
  }

  child(): StateDraft {
    return new StateDraft(this);
  }

  /** Merges this draft's writes into the draft it was made from. */
  mergeInto(parent: StateDraft): void {
    for (const [address, record] of this.accountChanges) parent.setAccount(address, record);
    for (const [address, slots] of this.storageWrites) for (const [slot, value] of slots) parent.setStorage(address, slot, value);
  }

  isEmpty(): boolean {
    return this.accountChanges.size === 0 && this.storageWrites.size === 0;
  }

  /**
   * Reads from `base` everything a commit of these changes compares with (StateTrie.commit): on a
   * fork, so that what the upstream has not given yet is noted inside the change's run, not met
   * by the commit.
   */
  readWhatCommitCompares(base: StateReader): void {
    for (const address of this.accountChanges.keys()) base.account(address);
    for (const [address, slots] of this.storageWrites) {
      base.account(address);
      for (const slot of slots.keys()) base.storage(address, slot);
    }
  }
}
