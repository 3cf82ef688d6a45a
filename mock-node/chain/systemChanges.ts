// The state changes made outside any transaction while a block was built (state setters such as
// anvil_setCode or anvil_setStorageAt, and what a reorg carries over), each with its place among
// the block's transactions. The block keeps them so that a replay (debug_traceTransaction,
// debug_traceBlockBy*) meets the state each transaction met: a setter applied before a
// transaction is applied again before it in the replay, as Anvil's traces see it. A state file
// keeps them too.
import type { Hex } from '../encoding/hex';
import type { StateChanges } from '../state/savedState';
import { StateDraft, type AccountRecord, type StateReader } from '../state/worldState';
import type { SystemStateChange } from './types';

const hx = (value: bigint) => `0x${value.toString(16)}`;

/** What `written` (a draft over the block's state) changed, placed before the block's transaction `before`. */
export function systemStateChange(before: number, written: StateDraft): SystemStateChange {
  const storage = new Map<Hex, ReadonlyMap<bigint, bigint>>();
  for (const [address, slots] of written.storageWrites) storage.set(address, new Map(slots));
  return { before, accounts: new Map(written.accountChanges), storage };
}

/** `base` with `change` written over it. */
export function withSystemChange(base: StateReader, change: SystemStateChange): StateDraft {
  const draft = new StateDraft(base);
  for (const [address, record] of change.accounts) draft.setAccount(address, record);
  for (const [address, slots] of change.storage) for (const [slot, value] of slots) draft.setStorage(address, slot, value);
  return draft;
}

/** A change as a state file holds it. */
export function savedSystemChange(change: SystemStateChange): { before: number; changes: StateChanges } {
  const changes: StateChanges = { accounts: {}, storage: {} };
  for (const [address, { nonce, balance, code }] of change.accounts) changes.accounts[address] = [hx(nonce), hx(balance), code];
  for (const [address, slots] of change.storage) {
    const out: Record<string, string> = {};
    for (const [slot, value] of slots) out[hx(slot)] = hx(value);
    changes.storage[address] = out;
  }
  return { before: change.before, changes };
}

/** A change from a state file (its shape already checked). */
export function loadedSystemChange(saved: { before: number; changes: StateChanges }): SystemStateChange {
  const accounts = new Map<Hex, AccountRecord>();
  for (const [address, [nonce, balance, code]] of Object.entries(saved.changes.accounts)) accounts.set(address, { nonce: BigInt(nonce), balance: BigInt(balance), code });
  const storage = new Map<Hex, ReadonlyMap<bigint, bigint>>();
  for (const [address, slots] of Object.entries(saved.changes.storage)) storage.set(address, new Map(Object.entries(slots).map(([slot, value]) => [BigInt(slot), BigInt(value)])));
  return { before: saved.before, accounts, storage };
}
