// A run over forked state that finds everything it misses in one go: it reads through a
// MissRecorder, which answers what is known and notes (and answers empty) what the upstream has
// not given yet. The run's outcome then rests on empty values and is thrown away; runRecorded()
// fetches everything noted in one batch and runs again, until a run misses nothing.
//
// Against an upstream on this machine (StateBelow.waitAtMissMs), a run's first WAITS_PER_RUN
// misses are waited at instead, where the read can wait: a read the EVM makes (forkReads.ts,
// readWaitingAtMisses) throws a WaitableMiss, the EVM's state adapter waits for that one key (up
// to the deadline) and reads again. A call that misses a key or two (a balanceOf of a new
// holder, from a new caller) then runs once instead of twice; later misses of the same run are
// noted as usual, so a call touching many slots still fetches them in one batch. A remote
// upstream is never waited at: there a round trip costs more than a run.
import type { Hex } from '../encoding/hex';
import { hasKeys, MAX_FETCH_ROUNDS, mergeKeys, missMayWait, MissingState, noKeys, TooManyFetchRounds, WaitableMiss, type MissingKeys } from './forkReads';
import { EMPTY_ACCOUNT, type AccountRecord, type StateReader } from './worldState';

type Fetch = (missing: MissingKeys) => Promise<void>;

/** Misses a run may wait at (the caller's account and one slot: the commonest first call). */
const WAITS_PER_RUN = 2;

/** Resolves once `work` settles or `ms` pass, whichever comes first; never rejects. */
function settledWithin(work: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    work.then(done, done);
  });
}

export class MissRecorder implements StateReader {
  readonly missing: MissingKeys = noKeys();
  /** How long the run may wait at a miss; undefined: it never waits. */
  private readonly waitMs: number | undefined;
  private waitsLeft = WAITS_PER_RUN;

  constructor(
    private readonly base: StateReader,
    private readonly fetch?: Fetch,
  ) {
    this.waitMs = fetch ? base.waitAtMissMs?.() : undefined;
  }

  get forked(): boolean {
    return true;
  }

  account(address: Hex): AccountRecord {
    const known = this.knownAccount(address);
    if (known !== undefined) return known;
    if (this.mayWait()) this.waitAt({ accounts: new Set([address]), slots: new Map() });
    this.missing.accounts.add(address);
    return EMPTY_ACCOUNT;
  }

  storage(address: Hex, slot: bigint): bigint {
    const known = this.knownStorage(address, slot);
    if (known !== undefined) return known;
    if (this.mayWait()) this.waitAt({ accounts: new Set(), slots: new Map([[address, new Set([slot])]]) });
    let slots = this.missing.slots.get(address);
    if (!slots) this.missing.slots.set(address, (slots = new Set()));
    slots.add(slot);
    return 0n;
  }

  knownAccount(address: Hex): AccountRecord | undefined {
    return this.base.knownAccount ? this.base.knownAccount(address) : this.base.account(address);
  }

  knownStorage(address: Hex, slot: bigint): bigint | undefined {
    return this.base.knownStorage ? this.base.knownStorage(address, slot) : this.base.storage(address, slot);
  }

  /** Whether this miss is one of the run's first, in a read that can wait, over a near upstream. */
  private mayWait(): boolean {
    return this.waitMs !== undefined && this.waitsLeft > 0 && missMayWait();
  }

  /** Throws the miss as a WaitableMiss: the EVM's state adapter waits for its key, then reads again. */
  private waitAt(missing: MissingKeys): never {
    this.waitsLeft--;
    const waitMs = this.waitMs!;
    const fetch = this.fetch!;
    // The fetch's failure is not the wait's: the read misses again, is noted, and the batch
    // fetch that follows the run meets the same failure and reports it.
    throw new WaitableMiss(missing, () => settledWithin(fetch(missing), waitMs));
  }
}

/** One run of `run` over a MissRecorder of `state`: what it answered or threw, and every key it missed. */
async function recordedRun<T>(state: StateReader, run: (reader: MissRecorder) => T | Promise<T>, fetch?: Fetch): Promise<{ missing: MissingKeys; outcome: { value: T } | { error: unknown } }> {
  const recorder = new MissRecorder(state, fetch);
  try {
    return { missing: recorder.missing, outcome: { value: await run(recorder) } };
  } catch (error) {
    if (error instanceof MissingState) mergeKeys(recorder.missing, error.missing);
    return { missing: recorder.missing, outcome: { error } };
  }
}

function settled<T>(outcome: { value: T } | { error: unknown }): T {
  if ('value' in outcome) return outcome.value;
  throw outcome.error;
}

/**
 * Runs `run` over a MissRecorder of `base()` until a run misses nothing, fetching what each run
 * missed (one batch) in between. The fetch's error (the upstream failed) is the caller's.
 */
export async function runRecorded<T>(fetch: Fetch, base: () => StateReader, run: (reader: MissRecorder) => T | Promise<T>): Promise<T> {
  for (let round = 0; round <= MAX_FETCH_ROUNDS; round++) {
    const { missing, outcome } = await recordedRun(base(), run, fetch);
    if (!hasKeys(missing)) return settled(outcome);
    await fetch(missing);
  }
  throw new TooManyFetchRounds();
}

/** One run over a MissRecorder of `state`; what it missed is thrown as one MissingState (the caller fetches it and runs again). */
export async function missesTogether<T>(state: StateReader, run: (reader: MissRecorder) => T | Promise<T>): Promise<T> {
  const { missing, outcome } = await recordedRun(state, run);
  if (hasKeys(missing)) throw new MissingState(missing);
  return settled(outcome);
}
