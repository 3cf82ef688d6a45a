// Runs poll ticks one at a time (never overlapping), at an interval that can change between
// ticks, backing off on errors (doubling, capped, at least Retry-After). No vscode import.
import type { TickOutcome } from './explorerModel';

export interface PollerOptions {
  /** Period between the end of one tick and the start of the next, read before each wait. */
  intervalMs: () => number;
  /** One tick; the model it reads says itself what changed. */
  tick: (signal: AbortSignal) => Promise<TickOutcome>;
  maxBackoffMs?: number;
  timers?: { setTimeout: (fn: () => void, ms: number) => unknown; clearTimeout: (handle: unknown) => void };
}

export class Poller {
  private generation = 0;
  private timer: unknown;
  private inFlight: AbortController | undefined;
  private consecutiveFailures = 0;
  /** Ticks started since creation (diagnostics and tests). */
  ticks = 0;
  private readonly timers: NonNullable<PollerOptions['timers']>;

  constructor(private readonly options: PollerOptions) {
    this.timers = options.timers ?? {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
    };
  }

  get active(): boolean {
    return this.generation % 2 === 1;
  }

  /** Starts (first tick at once) or stops polling; stopping aborts a tick in flight. */
  setActive(active: boolean): void {
    if (active === this.active) return;
    this.generation++;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    if (active) {
      this.consecutiveFailures = 0;
      this.schedule(0, this.generation);
    } else {
      this.inFlight?.abort();
      this.inFlight = undefined;
    }
  }

  /**
   * The wait after a tick: the interval; when every endpoint failed, doubled per consecutive
   * failed tick up to the cap; never shorter than a Retry-After.
   */
  nextDelay(outcome: TickOutcome): number {
    const base = this.options.intervalMs();
    const allFailed = outcome.failures > 0 && (outcome.successes ?? 0) === 0;
    this.consecutiveFailures = allFailed ? this.consecutiveFailures + 1 : 0;
    if (this.consecutiveFailures === 0) return base;
    const cap = this.options.maxBackoffMs ?? 30_000;
    const backoff = Math.min(cap, base * 2 ** this.consecutiveFailures);
    return Math.max(backoff, outcome.retryAfterMs ?? 0);
  }

  private schedule(delay: number, generation: number): void {
    this.timer = this.timers.setTimeout(() => { void this.run(generation); }, delay);
  }

  private async run(generation: number): Promise<void> {
    if (generation !== this.generation) return;
    this.timer = undefined;
    const controller = new AbortController();
    this.inFlight = controller;
    this.ticks++;
    let outcome: TickOutcome;
    try {
      outcome = await this.options.tick(controller.signal);
    } catch {
      outcome = { failures: 1 };
    }
    if (generation !== this.generation) return; // stopped (or restarted) meanwhile
    this.inFlight = undefined;
    this.schedule(this.nextDelay(outcome), generation);
  }

  dispose(): void {
    this.setActive(false);
  }
}
