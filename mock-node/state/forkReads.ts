// Reads of a forked state that reach below what this node holds: the upstream's state at the fork
// block (upstream/upstreamState.ts), which only answers what it has fetched. Execution is
// synchronous and the upstream is not, so a read of something not fetched yet never waits:
// - inside collectMisses() (a transaction, a call, a setter, a JSON-RPC request on a fork) it is
//   noted and answered as empty, so the run goes on and finds everything else it needs; the
//   caller throws the run's outcome away, fetches everything noted in one batch and runs again;
// - anywhere else it throws MissingState, so no empty value ever leaves unnoticed.
// The collector follows the run through its awaits (AsyncLocalStorage), so two runs at once
// (a call while the builder cuts a flashblock) each see their own misses.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Hex } from '../encoding/hex';
import type { MissingKeys, UpstreamAccount } from '../upstream/upstreamState';

export type { MissingKeys };

/** What lies below a fork's first layer: the upstream's state, as far as it was fetched. */
export interface StateBelow {
  account(address: Hex): UpstreamAccount | undefined;
  storage(address: Hex, slot: bigint): bigint | undefined;
}

/** A read of forked state that was not fetched, outside any collector (the caller fetches it and tries again). */
export class MissingState extends Error {
  constructor(readonly missing: MissingKeys) {
    super(`state not fetched from the fork's upstream yet (${missing.accounts.size} accounts, ${countSlots(missing)} slots)`);
    this.name = 'MissingState';
  }
}

const collector = new AsyncLocalStorage<MissingKeys>();

export function noKeys(): MissingKeys {
  return { accounts: new Set(), slots: new Map() };
}

export function hasKeys(keys: MissingKeys): boolean {
  return keys.accounts.size > 0 || keys.slots.size > 0;
}

export function mergeKeys(into: MissingKeys, from: MissingKeys): void {
  for (const address of from.accounts) into.accounts.add(address);
  for (const [address, slots] of from.slots) {
    let set = into.slots.get(address);
    if (!set) into.slots.set(address, (set = new Set()));
    for (const slot of slots) set.add(slot);
  }
}

function countSlots(keys: MissingKeys): number {
  let n = 0;
  for (const slots of keys.slots.values()) n += slots.size;
  return n;
}

/** An account that is not fetched: noted by the run's collector (answered empty), or thrown. */
export function missedAccount(address: Hex): void {
  const keys = collector.getStore();
  if (keys) {
    keys.accounts.add(address);
    return;
  }
  const missing = noKeys();
  missing.accounts.add(address);
  throw new MissingState(missing);
}

/** A slot that is not fetched: noted, or thrown. */
export function missedSlot(address: Hex, slot: bigint): void {
  const keys = collector.getStore() ?? noKeys();
  let set = keys.slots.get(address);
  if (!set) keys.slots.set(address, (set = new Set()));
  set.add(slot);
  if (!collector.getStore()) throw new MissingState(keys);
}

/**
 * Runs `run` with its own collector: what it read that was not fetched is in `missing` (a
 * MissingState it threw is merged in). With misses, the outcome rests on empty values: throw it away.
 */
export async function collectMisses<T>(run: () => T | Promise<T>): Promise<{ outcome: { value: T } | { error: unknown }; missing: MissingKeys }> {
  const missing = noKeys();
  return collector.run(missing, async () => {
    try {
      return { outcome: { value: await run() }, missing };
    } catch (error) {
      if (error instanceof MissingState) mergeKeys(missing, error.missing);
      return { outcome: { error }, missing };
    }
  });
}

/** Most fetch-and-run-again rounds of one run (each fetches at least one new key; a deeper chain of reads is refused). */
export const MAX_FETCH_ROUNDS = 64;

/** A run that still missed state after MAX_FETCH_ROUNDS fetches. */
export class TooManyFetchRounds extends Error {
  constructor() {
    super(`the run still needed state from the fork's upstream after ${MAX_FETCH_ROUNDS} rounds of fetches`);
    this.name = 'TooManyFetchRounds';
  }
}

/**
 * Runs `run` until it misses nothing: after a run that missed state, fetches all it missed (one
 * batch) and runs it again. The fetch's error (the upstream failed) is the caller's.
 */
export async function runFetching<T>(fetch: (missing: MissingKeys) => Promise<void>, run: () => T | Promise<T>): Promise<T> {
  for (let round = 0; round <= MAX_FETCH_ROUNDS; round++) {
    const { outcome, missing } = await collectMisses(run);
    if (!hasKeys(missing)) {
      if ('value' in outcome) return outcome.value;
      throw outcome.error;
    }
    await fetch(missing);
  }
  throw new TooManyFetchRounds();
}

/**
 * Runs `run` collecting its misses; with any, throws them all as one MissingState (the caller, up
 * the stack, fetches them in one batch and runs again). For executions: a call that touches 30
 * slots costs one round trip, not 30.
 */
export async function missesTogether<T>(run: () => T | Promise<T>): Promise<T> {
  const { outcome, missing } = await collectMisses(run);
  if (hasKeys(missing)) throw new MissingState(missing);
  if ('value' in outcome) return outcome.value;
  throw outcome.error;
}

/**
 * Runs `run` again after each MissingState it throws, once what it missed is fetched. Reads
 * outside a collector throw at the first miss, before anything changes, so a run again is safe
 * for any method.
 */
export async function retryFetching<T>(fetch: (missing: MissingKeys) => Promise<void>, run: () => T | Promise<T>): Promise<T> {
  for (let round = 0; round <= MAX_FETCH_ROUNDS; round++) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof MissingState)) throw error;
      await fetch(error.missing);
    }
  }
  throw new TooManyFetchRounds();
}
