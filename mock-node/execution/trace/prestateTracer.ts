// geth's prestateTracer from a recorded message: the accounts it touched (sender, recipient, fee
// recipient, every account an opcode touched, every storage owner) with their state before it;
// with `diffMode`, `pre` and `post` of what changed only.
import { quantity, word, type Hex } from '../../encoding/hex';
import type { StateReader } from '../../state/worldState';
import type { TraceRecorder } from './recorder';

export interface PrestateConfig {
  diffMode?: boolean;
  disableCode?: boolean;
  disableStorage?: boolean;
}

export interface PrestateAccountJson {
  balance?: Hex;
  nonce?: number;
  code?: Hex;
  storage?: Record<Hex, Hex>;
}

export type PrestateJson = Record<Hex, PrestateAccountJson>;

export interface PrestateInput {
  recorder: TraceRecorder;
  /** State before the message (before the sender pays for gas). */
  pre: StateReader;
  /** State after it (after fees). */
  post: StateReader;
  from: Hex;
  to: Hex | null;
  coinbase: Hex;
}

function touchedAccounts(input: PrestateInput): Hex[] {
  const all = new Set<Hex>([input.from, ...(input.to ? [input.to] : []), input.coinbase].map((a) => a.toLowerCase()));
  for (const address of input.recorder.accounts) all.add(address);
  for (const address of input.recorder.slots.keys()) all.add(address);
  for (const address of input.recorder.created) all.add(address);
  return [...all].sort();
}

function accountJson(state: StateReader, address: Hex, slots: Iterable<bigint>, config: PrestateConfig, skipZero = false): PrestateAccountJson {
  const account = state.account(address);
  const json: PrestateAccountJson = { balance: quantity(account.balance) };
  if (account.nonce > 0n) json.nonce = Number(account.nonce);
  if (account.code !== '0x' && !config.disableCode) json.code = account.code;
  if (!config.disableStorage) {
    const storage: Record<Hex, Hex> = {};
    let any = false;
    for (const slot of [...slots].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
      const value = state.storage(address, slot);
      // In diffMode a slot that was empty before is new: it appears in `post` only.
      if (skipZero && value === 0n) continue;
      storage[word(slot)] = word(value);
      any = true;
    }
    if (any) json.storage = storage;
  }
  return json;
}

export function prestateJson(input: PrestateInput, config: PrestateConfig = {}): PrestateJson | { pre: PrestateJson; post: PrestateJson } {
  const accounts = touchedAccounts(input);
  if (!config.diffMode) {
    const result: PrestateJson = {};
    for (const address of accounts) result[address] = accountJson(input.pre, address, input.recorder.slots.get(address) ?? [], config);
    return result;
  }
  const pre: PrestateJson = {};
  const post: PrestateJson = {};
  for (const address of accounts) {
    const before = input.pre.account(address);
    const after = input.post.account(address);
    const changedSlots = [...(input.recorder.slots.get(address) ?? [])].filter((slot) => input.pre.storage(address, slot) !== input.post.storage(address, slot));
    const changed = before.balance !== after.balance || before.nonce !== after.nonce || before.code !== after.code || changedSlots.length > 0;
    if (!changed) continue;
    // An account a creation made did not exist before it: it is in `post` only (as Anvil answers).
    if (!input.recorder.created.has(address)) pre[address] = accountJson(input.pre, address, changedSlots, config, true);
    const postJson: PrestateAccountJson = {};
    if (before.balance !== after.balance) postJson.balance = quantity(after.balance);
    if (before.nonce !== after.nonce) postJson.nonce = Number(after.nonce);
    if (before.code !== after.code && !config.disableCode) postJson.code = after.code;
    if (!config.disableStorage) {
      const storage: Record<Hex, Hex> = {};
      let any = false;
      for (const slot of changedSlots.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
        const value = input.post.storage(address, slot);
        if (value === 0n) continue;
        storage[word(slot)] = word(value);
        any = true;
      }
      if (any) postJson.storage = storage;
    }
    post[address] = postJson;
  }
  return { post, pre };
}
