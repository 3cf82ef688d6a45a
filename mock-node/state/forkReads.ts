// Reads of a forked state that reach below what this node holds: the upstream's state at the fork
// block (upstream/upstreamState.ts), which only answers what it has fetched. Execution is
// synchronous and the upstream is not, so a read of something not fetched never waits: a plain
// read throws MissingState (never an empty value), and a run that should find everything it
// misses in one go reads through a MissRecorder (missRecorder.ts), which notes a miss and answers
// empty; the caller throws that run's outcome away, fetches all it missed in one batch and runs
// it again. No AsyncLocalStorage: on Node 20 it slows every promise of the process (the EVM's many).
import type { Hex } from '../encoding/hex';
import type { MissingKeys, UpstreamAccount } from '../upstream/upstreamState';

export type { MissingKeys };

/** What lies below a fork's first layer: the upstream's state, as far as it was fetched. */
export interface StateBelow {
  account(address: Hex): UpstreamAccount | undefined;
  storage(address: Hex, slot: bigint): bigint | undefined;
  /** Fetches what a run missed (one batch); the upstream's error when it fails. */
  fetch(missing: MissingKeys): Promise<void>;
  /**
   * How long a run may wait at a miss for its key (missRecorder.ts), in ms; undefined when it
   * should not wait: the upstream is far, and the run's misses are better found together.
   */
  waitAtMissMs(): number | undefined;
}

/** A read of forked state that was not fetched (the caller fetches what it names and tries again). */
export class MissingState extends Error {
  constructor(readonly missing: MissingKeys) {
    super(`state not fetched from the fork's upstream yet (${missing.accounts.size} accounts, ${countSlots(missing)} slots)`);
    this.name = 'MissingState';
  }
}

/**
 * A miss the run may wait at (the EVM reads state asynchronously): `wait()` resolves once the key
 * is fetched, the fetch failed or the wait's deadline passed; the read is then made again (and,
 * if the key is still not there, noted as missed like any other).
 */
export class WaitableMiss extends MissingState {
  readonly wait: () => Promise<void>;

  constructor(missing: MissingKeys, wait: () => Promise<void>) {
    // A signal caught a few frames up, never shown: no stack trace to capture (through the EVM's
    // deep async frames it is most of the cost of throwing).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(missing);
    Error.stackTraceLimit = limit;
    this.wait = wait;
    this.name = 'WaitableMiss';
  }
}

/** Reads in progress that may wait at a miss (only around the EVM's reads: readWaitingAtMisses). */
let waitableReads = 0;

/** Whether the read in progress may wait at a miss (MissRecorder throws a WaitableMiss only then). */
export function missMayWait(): boolean {
  return waitableReads > 0;
}

/**
 * Makes a synchronous read where a miss may be waited at: its value at once when nothing is
 * missed (most reads); else a promise of it, once the WaitableMiss it threw is waited for and the
 * read made again. The EVM's state adapter reads this way, through StateDraft.waitingRead (the
 * EVM's bundle has its own copy of this module: the counter and the class must be this one's).
 */
export function readWaitingAtMisses<T>(read: () => T): T | Promise<T> {
  let miss: WaitableMiss;
  waitableReads++;
  try {
    return read();
  } catch (error) {
    if (!(error instanceof WaitableMiss)) throw error;
    miss = error;
  } finally {
    waitableReads--;
  }
  return miss.wait().then(() => readWaitingAtMisses(read));
}

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

/** An account that is not fetched: thrown. */
export function missedAccount(address: Hex): never {
  const missing = noKeys();
  missing.accounts.add(address);
  throw new MissingState(missing);
}

/** A slot that is not fetched: thrown. */
export function missedSlot(address: Hex, slot: bigint): never {
  const missing = noKeys();
  missing.slots.set(address, new Set([slot]));
  throw new MissingState(missing);
}
