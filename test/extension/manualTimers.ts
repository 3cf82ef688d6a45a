// Timers run by hand: the test decides when a scheduled callback fires.
import * as assert from 'node:assert/strict';

export class ManualTimers {
  queue: { fn: () => void; ms: number; id: number }[] = [];
  private next = 1;
  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = this.next++;
    this.queue.push({ fn, ms, id });
    return id;
  };
  clearTimeout = (handle: unknown): void => {
    this.queue = this.queue.filter((t) => t.id !== handle);
  };
  /** Fires the oldest timer; returns its delay. */
  fire(): number {
    const timer = this.queue.shift();
    assert.ok(timer, 'a timer is scheduled');
    timer.fn();
    return timer.ms;
  }
}

/** Lets pending promise callbacks run. */
export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
