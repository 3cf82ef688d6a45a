// A run over forked state that finds everything it misses in one go: it reads through a
// MissRecorder, which answers what is known and notes (and answers empty) what the upstream has
// not given yet. The run's outcome then rests on empty values and is thrown away; runRecorded()
// fetches everything noted in one batch and runs again, until a run misses nothing.
import type { Hex } from '../encoding/hex';
import { hasKeys, MAX_FETCH_ROUNDS, mergeKeys, MissingState, noKeys, TooManyFetchRounds, type MissingKeys } from './forkReads';
import { EMPTY_ACCOUNT, type AccountRecord, type StateReader } from './worldState';

export class MissRecorder implements StateReader {
  readonly missing: MissingKeys = noKeys();

  constructor(private readonly base: StateReader) {}

  get forked(): boolean {
    return true;
  }

  account(address: Hex): AccountRecord {
    const known = this.knownAccount(address);
    if (known !== undefined) return known;
    this.missing.accounts.add(address);
    return EMPTY_ACCOUNT;
  }

  storage(address: Hex, slot: bigint): bigint {
    const known = this.knownStorage(address, slot);
    if (known !== undefined) return known;
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
}

/** One run of `run` over a MissRecorder of `state`: what it answered or threw, and every key it missed. */
async function recordedRun<T>(state: StateReader, run: (reader: MissRecorder) => T | Promise<T>): Promise<{ missing: MissingKeys; outcome: { value: T } | { error: unknown } }> {
  const recorder = new MissRecorder(state);
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
export async function runRecorded<T>(fetch: (missing: MissingKeys) => Promise<void>, base: () => StateReader, run: (reader: MissRecorder) => T | Promise<T>): Promise<T> {
  for (let round = 0; round <= MAX_FETCH_ROUNDS; round++) {
    const { missing, outcome } = await recordedRun(base(), run);
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
