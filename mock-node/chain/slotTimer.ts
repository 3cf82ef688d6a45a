// The flashblock timer: fixed slots every `interval` ms on a monotonic clock, counted from start
// (never from the previous tick, so lateness does not add up). Each slot's work starts `lead` ms
// early and its result goes out at the slot itself (waitForSlot), so the time a cut takes does not
// move the cadence; the lead follows the slowest recent cuts. A slot missed by more than half an
// interval (the event loop was held, or the previous slot's work still runs) is skipped: the next
// one comes at its own time, never a burst of catch-up slots, as Base's flashblocks skip a slot.

/** The clock and timers the slot timer runs on (a fake one in tests). */
export interface SlotClock {
  /** Milliseconds on a monotonic clock (fractional). */
  now(): number;
  /**
   * A timer; `keepAlive` holds the process open until it fires (a cut waiting for its slot must
   * finish: a stopping node saves its state after it), otherwise it does not.
   */
  setTimer(callback: () => void, ms: number, keepAlive?: boolean): unknown;
  clearTimer(handle: unknown): void;
  /** Waits, without yielding to the event loop, until now() reaches `until` (under a millisecond: finer than a timer). */
  spin(until: number): void;
}

/** process.hrtime in milliseconds: no module to load, but an array allocated per call. */
function hrtimeMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1000 + nanoseconds / 1e6;
}

/** performance.now() − hrtimeMs(), once the timer has switched to performance.now. */
let performanceOffset: number | undefined;

/**
 * Milliseconds on the process's monotonic clock. It starts on process.hrtime: the global
 * `performance` loads node:perf_hooks and nine modules behind it on first use, which the timer's
 * first tick would otherwise pay for inside the CLI's start-up. The first sub-millisecond wait (a
 * slot after the start) switches to performance.now, which allocates no array, offset so that both
 * read the same time at the switch.
 */
export function monotonicMs(): number {
  return performanceOffset === undefined ? hrtimeMs() : performance.now() - performanceOffset;
}

function usePerformanceClock(): void {
  performanceOffset ??= performance.now() - hrtimeMs();
}

/**
 * A word nothing ever notifies: Atomics.wait on it sleeps the thread until its timeout, in the
 * kernel (a futex with a fractional-millisecond timeout), instead of reading the clock in a loop.
 * Null where the thread may not block (a browser's main thread): there the wait spins.
 */
let sleepWord: Int32Array | null | undefined;

function sleepMs(ms: number): boolean {
  if (sleepWord === undefined) {
    try {
      sleepWord = new Int32Array(new SharedArrayBuffer(4));
      Atomics.wait(sleepWord, 0, 0, 0);
    } catch {
      sleepWord = null;
    }
  }
  if (sleepWord === null) return false;
  Atomics.wait(sleepWord, 0, 0, ms);
  return true;
}

export const systemSlotClock: SlotClock = {
  now: monotonicMs,
  setTimer(callback, ms, keepAlive = false) {
    const handle = setTimeout(callback, ms);
    if (!keepAlive) handle.unref();
    return handle;
  },
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
  spin(until) {
    usePerformanceClock();
    // The thread sleeps most of the wait (no CPU, no clock reads); the kernel wakes it a few tens
    // of microseconds late at most, and the last of those is a busy wait again.
    for (let left = until - monotonicMs(); left > 0; left = until - monotonicMs()) {
      if (left > SLEEP_GRAIN_MS && sleepMs(left - SLEEP_GRAIN_MS)) continue;
      while (monotonicMs() < until) {
        // the last SLEEP_GRAIN_MS: a busy wait
      }
    }
  },
};

/** How much of a sub-millisecond wait stays a busy wait: a futex's wake-up is this late at most, as a rule. */
const SLEEP_GRAIN_MS = 0.1;

/** Recent cut durations the lead is sized from. */
const RECENT_CUTS = 16;
/** Bounds of the lead in milliseconds, whatever the interval (a 12 s block without flashblocks too). */
const MIN_LEAD_MS = 10;
const FIRST_LEAD_MS = 20;
const MAX_LEAD_MS = 50;
/** Below this much time to wait, the wait is a short spin, not a timer (timers have 1 ms granularity). */
const SPIN_MS = 1;

export class SlotTimer {
  private started = 0;
  /** Index of the next slot to run (slot k is at started + k * interval). */
  private next = 1;
  private handle: unknown;
  private running = false;
  private readonly cuts: number[] = [];
  private wokeAt = 0;
  /** When the last slot's work ended (its announcement): the next slot is at least half an interval later. */
  private lastEnd = -Infinity;

  /**
   * `run(slotAt)`: the slot's work; it calls waitForSlot(slotAt) when its result is ready to go
   * out. The next slot is armed once it ends, so slots that pass meanwhile are skipped.
   */
  constructor(
    readonly interval: number,
    private readonly run: (slotAt: number) => Promise<unknown>,
    private readonly clock: SlotClock = systemSlotClock,
  ) {}

  start(): void {
    this.stop();
    this.running = true;
    this.started = this.clock.now();
    this.next = 1;
    this.lastEnd = -Infinity;
    this.arm();
  }

  stop(): void {
    this.running = false;
    if (this.handle !== undefined) this.clock.clearTimer(this.handle);
    this.handle = undefined;
  }

  /**
   * How early a slot's work starts: twice the slowest of the recent cuts, within [interval / 20,
   * interval / 4] and never more than 10 to 50 ms (the chain stays held while its cut waits for
   * the slot, and a transaction sent meanwhile waits for the next one); a tenth of the interval
   * (at most 20 ms) before the first cut. 10 to 50 ms at 200 ms.
   */
  get lead(): number {
    const floor = Math.min(this.interval / 20, MIN_LEAD_MS);
    if (this.cuts.length === 0) return Math.min(this.interval / 10, FIRST_LEAD_MS);
    return Math.min(this.interval / 4, MAX_LEAD_MS, Math.max(floor, 2 * Math.max(...this.cuts)));
  }

  /** When slot `index` is due. */
  slotTime(index: number): number {
    return this.started + index * this.interval;
  }

  /**
   * Resolves at `slotAt` (at once when it has passed): the slot's result goes out on time. The
   * lead this slot needed is recorded: the time since its work woke up, or, when other work held
   * the event loop past the slot while it waited (a sealed block packed on the next turn), the
   * lead it had plus how late it went out.
   */
  async waitForSlot(slotAt: number): Promise<void> {
    const cut = this.clock.now() - this.wokeAt;
    await this.until(slotAt);
    const late = this.clock.now() - slotAt;
    this.cuts.push(late > 0 ? Math.max(cut, slotAt - this.wokeAt + late) : cut);
    if (this.cuts.length > RECENT_CUTS) this.cuts.shift();
  }

  private async until(at: number): Promise<void> {
    for (;;) {
      const left = at - this.clock.now();
      if (left <= 0) return;
      if (left <= SPIN_MS) return this.clock.spin(at);
      await new Promise<void>((resolve) => this.clock.setTimer(resolve, left - SPIN_MS, true));
    }
  }

  private arm(): void {
    if (!this.running) return;
    const earliest = Math.ceil((this.lastEnd + this.interval / 2 - this.started) / this.interval);
    if (earliest > this.next) this.next = earliest;
    const wakeAt = this.slotTime(this.next) - this.lead;
    this.handle = this.clock.setTimer(() => this.wake(), Math.max(0, wakeAt - this.clock.now()));
  }

  private wake(): void {
    this.handle = undefined;
    if (!this.running) return;
    const now = this.clock.now();
    // Slots already more than half an interval behind are skipped, not run one after another.
    const nearest = Math.floor((now - this.started) / this.interval + 0.5);
    if (nearest > this.next) this.next = nearest;
    const slotAt = this.slotTime(this.next);
    if (slotAt - now > this.lead + 1) {
      this.arm(); // woke before the slot's lead (the slot it woke for was skipped): wait for it
      return;
    }
    this.next++;
    this.wokeAt = now;
    // The next slot is armed when this one's work ends: a slot that passes while it still runs
    // (it waited for another change) is skipped.
    this.run(slotAt).finally(() => {
      this.lastEnd = this.clock.now();
      this.arm();
    });
  }
}
