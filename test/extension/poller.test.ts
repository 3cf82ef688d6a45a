import * as assert from 'node:assert/strict';
import type { TickOutcome } from '../../extension/explorer/explorerModel';
import { ticksToSkip } from '../../extension/explorer/explorerModel';
import { Poller } from '../../extension/explorer/poller';
import { flush, ManualTimers } from './manualTimers';

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
    const poller = new Poller({
      intervalMs: () => 200,
      tick: async (s) => {
        signal = s;
        await new Promise<void>((resolve) => { finish = resolve; });
        return { failures: 0, successes: 1 };
      },
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
    assert.equal(poller.active, false);
  });

  it('backs off when every endpoint fails, honours Retry-After, and resets on success', () => {
    const poller = new Poller({ intervalMs: () => 200, tick: async () => ({ failures: 0 }), maxBackoffMs: 5000 });
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
