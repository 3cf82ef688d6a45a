// The EVM's view of the node's world state: @ethereumjs/evm reads and writes accounts, code and
// storage through this adapter, which keeps them in StateDrafts over the block builder's draft
// (or a call's throw-away draft). A checkpoint is a child draft, a commit merges it into its
// parent, a revert drops it, so the EVM never writes anywhere the block builder does not own.
// Over a fork, its reads are the ones that may wait at a miss for the upstream (missRecorder.ts).
import { Account, Address, KECCAK256_NULL, KECCAK256_RLP, bytesToBigInt, bytesToHex, bigIntToUnpaddedBytes, hexToBytes } from '@ethereumjs/util';
import type { AccountFields, StateManagerInterface } from '@ethereumjs/common';
import { keccak256 } from 'ethers';
import type { Hex } from '../../encoding/hex';
import { EMPTY_ACCOUNT, isEmptyAccount, type AccountRecord, type StateDraft, type StateReader } from '../../state/worldState';

const CODE_CACHE_LIMIT = 512;

/** Code bytes and hashes by hex, so a contract called again is neither decoded nor hashed again. */
class CodeCache {
  private readonly bytes = new Map<Hex, { code: Uint8Array; hash: Uint8Array }>();

  get(code: Hex): { code: Uint8Array; hash: Uint8Array } {
    let entry = this.bytes.get(code);
    if (!entry) {
      const bytes = hexToBytes(code as `0x${string}`);
      entry = { code: bytes, hash: hexToBytes(keccak256(bytes) as `0x${string}`) };
      if (this.bytes.size >= CODE_CACHE_LIMIT) this.bytes.delete(this.bytes.keys().next().value as Hex);
      this.bytes.set(code, entry);
    }
    return entry;
  }
}

const codeCache = new CodeCache();

function key(address: Address): Hex {
  return address.toString();
}

export class DraftStateManager implements StateManagerInterface {
  /** Drafts from the transaction's own (bottom) to the innermost open checkpoint (top). */
  private stack: StateDraft[] = [];
  /** The state before the transaction: EIP-2200's "original" storage values. */
  private original: StateReader = { account: () => EMPTY_ACCOUNT, storage: () => 0n };

  /** Over a fork: reads go through StateDraft.waitingRead (a miss may be waited at). */
  private forked = false;

  readonly originalStorageCache = {
    get: async (address: Address, slot: Uint8Array): Promise<Uint8Array> => {
      const owner = key(address);
      const at = bytesToBigInt(slot);
      const found = this.forked ? this.top.waitingRead(() => this.original.storage(owner, at)) : this.original.storage(owner, at);
      return bigIntToUnpaddedBytes(found instanceof Promise ? await found : found);
    },
    clear: (): void => {},
  };

  /** Points the EVM at `draft` (which it writes) for one transaction; `original` is the state before it. */
  attach(draft: StateDraft, original: StateReader): void {
    this.stack = [draft];
    this.original = original;
    this.forked = draft.forked;
  }

  /**
   * The top draft's account: over a fork through StateDraft.waitingRead, which answers at once
   * unless the read waits at a miss (missRecorder.ts); the waiting is the state bundle's, as this
   * module runs in the EVM's own bundle.
   */
  private accountRecord(address: Address): AccountRecord | Promise<AccountRecord> {
    const owner = key(address);
    return this.forked ? this.top.waitingRead(() => this.top.account(owner)) : this.top.account(owner);
  }

  detach(): void {
    this.stack = [];
  }

  private get top(): StateDraft {
    const draft = this.stack[this.stack.length - 1];
    if (!draft) throw new Error('the EVM ran outside a transaction');
    return draft;
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const found = this.accountRecord(address);
    const record = found instanceof Promise ? await found : found;
    if (isEmptyAccount(record)) return undefined;
    const codeHash = record.code === '0x' ? KECCAK256_NULL : codeCache.get(record.code).hash;
    return new Account(record.nonce, record.balance, KECCAK256_RLP, codeHash);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (!account) return this.deleteAccount(address);
    const found = this.accountRecord(address);
    const current = found instanceof Promise ? await found : found;
    const code = account.codeHash.every((b, i) => b === KECCAK256_NULL[i]) ? '0x' : current.code;
    this.top.setAccount(key(address), { nonce: account.nonce, balance: account.balance, code });
  }

  async deleteAccount(address: Address): Promise<void> {
    this.top.setAccount(key(address), EMPTY_ACCOUNT);
    await this.clearStorage(address);
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const found = this.accountRecord(address);
    const current = found instanceof Promise ? await found : found;
    this.top.setAccount(key(address), {
      nonce: fields.nonce ?? current.nonce,
      balance: fields.balance ?? current.balance,
      code: current.code,
    });
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    const found = this.accountRecord(address);
    const current = found instanceof Promise ? await found : found;
    this.top.setAccount(key(address), { nonce: current.nonce, balance: current.balance, code: value.length === 0 ? '0x' : bytesToHex(value) });
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const found = this.accountRecord(address);
    const code = (found instanceof Promise ? await found : found).code;
    return code === '0x' ? new Uint8Array() : codeCache.get(code).code;
  }

  async getCodeSize(address: Address): Promise<number> {
    const found = this.accountRecord(address);
    const code = (found instanceof Promise ? await found : found).code;
    return (code.length - 2) / 2;
  }

  async getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    const owner = key(address);
    const at = bytesToBigInt(slot);
    const found = this.forked ? this.top.waitingRead(() => this.top.storage(owner, at)) : this.top.storage(owner, at);
    return bigIntToUnpaddedBytes(found instanceof Promise ? await found : found);
  }

  async putStorage(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    this.top.setStorage(key(address), bytesToBigInt(slot), bytesToBigInt(value));
  }

  /**
   * Zeroes every slot the transaction wrote for the account (a contract created and destroyed in
   * the same transaction, EIP-6780). Storage from before the transaction is left: the EVM clears
   * only accounts that are new, whose storage is all in these drafts (EIP-7610 refuses the rest).
   */
  async clearStorage(address: Address): Promise<void> {
    const owner = key(address);
    for (const draft of this.stack) {
      const slots = draft.storageWrites.get(owner);
      if (slots) for (const slot of slots.keys()) this.top.setStorage(owner, slot, 0n);
    }
  }

  async checkpoint(): Promise<void> {
    this.stack.push(this.top.child());
  }

  async commit(): Promise<void> {
    if (this.stack.length < 2) return;
    const done = this.stack.pop()!;
    done.mergeInto(this.top);
  }

  async revert(): Promise<void> {
    if (this.stack.length < 2) return;
    this.stack.pop();
  }

  async getStateRoot(): Promise<Uint8Array> {
    throw new Error('the EVM asked for a state root; the node computes roots when it commits a flashblock');
  }

  async setStateRoot(): Promise<void> {
    throw new Error('the node keeps its own state layers; the EVM cannot set a state root');
  }

  async hasStateRoot(): Promise<boolean> {
    return false;
  }

  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    return new DraftStateManager();
  }
}
