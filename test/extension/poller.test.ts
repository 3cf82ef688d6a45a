import * as assert from 'node:assert/strict';
import type { TickOutcome } from '../../extension/explorer/explorerModel';
import { ticksToSkip } from '../../extension/explorer/explorerModel';
import { Poller } from '../../extension/explorer/poller';

/** Timers run by hand: the test decides when a scheduled tick fires. */
class ManualTimers {
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

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('Poller', () => {
  it('runs one tick at a time and schedules the next only after the previous ends', async () => {
    const timers = new ManualTimers();
    let inFlight = 0;
    let maxInFlight = 0;
    let release: () => void = () => undefined;
    const poller = new Poller({
      intervalMs: () => 200,
      tick: async () => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise<void>((resolve) => { release = resolve; });
        inFlight--;
        return { failures: 0, successes: 1 };
      },
      afterTick: () => undefined,
      timers,
    });
    poller.setActive(true);
    assert.equal(timers.fire(), 0, 'the first tick starts at once');
    await flush();
    assert.equal(timers.queue.length, 0, 'nothing scheduled while a tick is in flight');
    release();
    await flush();
    assert.equal(timers.queue.length, 1);
    assert.equal(timers.fire(), 200);
    await flush();
    release();
    await flush();
    assert.equal(maxInFlight, 1);
    assert.equal(poller.ticks, 2);
    poller.dispose();
  });

  it('stops: aborts the tick in flight and schedules nothing more', async () => {
    const timers = new ManualTimers();
    let signal: AbortSignal | undefined;
    let finish: () => void = () => undefined;
    let after = 0;
    const poller = new Poller({
      intervalMs: () => 200,
      tick: async (s) => {
        signal = s;
        await new Promise<void>((resolve) => { finish = resolve; });
        return { failures: 0, successes: 1 };
      },
      afterTick: () => { after++; },
      timers,
    });
    poller.setActive(true);
    timers.fire();
    await flush();
    poller.setActive(false);
    assert.equal(signal?.aborted, true);
    finish();
    await flush();
    assert.equal(timers.queue.length, 0);
    assert.equal(after, 0, 'a tick that ended after stop does not update the tree');
    assert.equal(poller.active, false);
  });

  it('backs off when every endpoint fails, honours Retry-After, and resets on success', () => {
    const poller = new Poller({ intervalMs: () => 200, tick: async () => ({ failures: 0 }), afterTick: () => undefined, maxBackoffMs: 5000 });
    const fail: TickOutcome = { failures: 1, successes: 0 };
    assert.equal(poller.nextDelay(fail), 400);
    assert.equal(poller.nextDelay(fail), 800);
    assert.equal(poller.nextDelay(fail), 1600);
    assert.equal(poller.nextDelay(fail), 3200);
    assert.equal(poller.nextDelay(fail), 5000, 'capped');
    assert.equal(poller.nextDelay({ failures: 0, successes: 1 }), 200, 'a good tick resets');
    assert.equal(poller.nextDelay({ failures: 1, successes: 0, retryAfterMs: 7000 }), 7000);
    assert.equal(poller.nextDelay({ failures: 1, successes: 2 }), 200, 'one dead endpoint does not slow the others');
  });

  it('lets a failing endpoint sit out a growing number of ticks', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 9].map(ticksToSkip), [0, 1, 3, 7, 15, 31, 31, 31]);
  });
});
