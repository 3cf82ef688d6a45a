// The flashblock slot timer (chain/slotTimer.ts) on a hand-run clock: each slot's work starts
// early enough to be announced at its slot, the lead follows how long the work takes, a missed
// slot is skipped instead of a burst of catch-up slots, and a slot whose previous work still runs
// is skipped. No wall-clock time is measured: the clock moves only when the test moves it.
import assert from 'node:assert/strict';
import { monotonicMs, SlotTimer, systemSlotClock, type SlotClock } from '../../../mock-node/chain/slotTimer';

interface FakeTimer {
  at: number;
  order: number;
  callback: () => void;
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

class HandRunClock implements SlotClock {
  time = 10_000;
  private timers: FakeTimer[] = [];
  private order = 0;

  now(): number {
    return this.time;
  }

  setTimer(callback: () => void, ms: number): unknown {
    const timer: FakeTimer = { at: this.time + Math.max(0, ms), order: this.order++, callback };
    this.timers.push(timer);
    return timer;
  }

  clearTimer(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer !== handle);
  }

  spin(until: number): void {
    if (until > this.time) this.time = until;
  }

  /** Moves the clock `ms` forward, firing each timer when it falls due (promises settle in between). */
  async advance(ms: number): Promise<void> {
    const until = this.time + ms;
    for (;;) {
      await settle();
      const due = this.timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (!due) break;
      this.timers.splice(this.timers.indexOf(due), 1);
      this.time = Math.max(this.time, due.at);
      due.callback();
    }
    this.time = until;
    await settle();
  }

  /** The event loop was held for `ms`: the clock moves on and no timer fires meanwhile. */
  stall(ms: number): void {
    this.time += ms;
  }
}

/** A slot timer whose work takes `cutMs(slot)` of clock time and records when each slot is announced. */
function slots(clock: HandRunClock, cutMs: (slotIndex: number) => number, interval = 200) {
  const ran: number[] = [];
  const announced: number[] = [];
  const start = clock.now();
  const timer: SlotTimer = new SlotTimer(
    interval,
    async (slotAt) => {
      const index = Math.round((slotAt - start) / interval);
      ran.push(index);
      clock.time += cutMs(index);
      await timer.waitForSlot(slotAt);
      announced.push(clock.now() - start);
    },
    clock,
  );
  timer.start();
  return { timer, ran, announced };
}

describe('SlotTimer: flashblocks on fixed slots', () => {
  it('announces each slot at its time, however long its cut takes within the lead', async () => {
    const clock = new HandRunClock();
    const cuts = [3, 9, 8, 10, 1, 6, 2, 0.5, 7, 4];
    const { timer, announced, ran } = slots(clock, (index) => cuts[(index - 1) % cuts.length]);
    await clock.advance(200 * 10 + 50);
    timer.stop();
    assert.deepEqual(ran, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.deepEqual(announced, [200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000]);
  });

  it('a cut slower than the lead is announced when it is ready, and the lead grows for the next slots', async () => {
    const clock = new HandRunClock();
    const { timer, announced } = slots(clock, () => 40);
    assert.equal(timer.lead, 20, 'a tenth of the interval before any cut');
    await clock.advance(200 * 4 + 10);
    timer.stop();
    assert.equal(announced[0], 220, 'the first cut took 40 ms with a 20 ms lead');
    assert.equal(timer.lead, 50, 'twice the slowest recent cut, at most a quarter of the interval');
    assert.deepEqual(announced.slice(1), [400, 600, 800]);
  });

  it('work that holds the event loop past the slot while the cut waits (a sealed block packed on the next turn) grows the lead too', async () => {
    const clock = new HandRunClock();
    const announced: number[] = [];
    const start = clock.now();
    const timer: SlotTimer = new SlotTimer(
      200,
      async (slotAt) => {
        clock.time += 2;
        // Every fifth slot leaves 25 ms of work for the next turn of the event loop.
        if (Math.round((slotAt - start) / 200) % 5 === 1) clock.setTimer(() => (clock.time += 25), 0);
        await timer.waitForSlot(slotAt);
        announced.push(clock.now() - start);
      },
      clock,
    );
    timer.start();
    await clock.advance(200 * 11 + 10);
    timer.stop();
    assert.equal(announced[0], 207, 'woke 20 ms early, cut in 2, then 25 ms of other work');
    assert.deepEqual(announced.slice(1), [400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000, 2200]);
  });

  it('a long interval (blocks without flashblocks) keeps the lead within 50 ms', async () => {
    const clock = new HandRunClock();
    const { timer, announced } = slots(clock, () => 300, 5000);
    assert.equal(timer.lead, 20);
    await clock.advance(5000 * 3 + 10);
    timer.stop();
    assert.equal(timer.lead, 50);
    assert.deepEqual(announced, [5280, 10250, 15250], 'a 300 ms cut with a 20 ms lead, then 50 ms');
  });

  it('the lead shrinks again when the cuts get faster', async () => {
    const clock = new HandRunClock();
    const { timer } = slots(clock, (index) => (index === 1 ? 20 : 2));
    await clock.advance(210);
    assert.equal(timer.lead, 40);
    await clock.advance(200 * 30);
    timer.stop();
    assert.equal(timer.lead, 10, 'a twentieth of the interval at least');
  });

  it('after a stall longer than an interval the missed slots are skipped, not cut one after another', async () => {
    const clock = new HandRunClock();
    const { timer, ran, announced } = slots(clock, () => 2);
    await clock.advance(410);
    assert.deepEqual(announced, [200, 400]);
    clock.stall(640); // the event loop was held from 410 to 1050: slots 3, 4 and 5 passed
    await clock.advance(400);
    timer.stop();
    assert.deepEqual(ran, [1, 2, 5, 6, 7], 'slots 3 and 4 skipped; slot 5, 50 ms behind, is cut at once');
    assert.deepEqual(announced, [200, 400, 1052, 1200, 1400]);
    for (let i = 1; i < announced.length; i++) assert.ok(announced[i] - announced[i - 1] >= 100, `announcements ${announced[i - 1]} and ${announced[i]} are a burst`);
  });

  it('after a stall that ends closer to the next slot, that slot comes at its own time', async () => {
    const clock = new HandRunClock();
    const { timer, ran, announced } = slots(clock, () => 2);
    await clock.advance(410);
    clock.stall(740); // held until 1150: slot 5 is 150 ms behind, slot 6 is 50 ms ahead
    await clock.advance(300);
    timer.stop();
    assert.deepEqual(ran, [1, 2, 6, 7]);
    assert.deepEqual(announced, [200, 400, 1200, 1400]);
  });

  it('a slot whose previous work still runs is skipped', async () => {
    const clock = new HandRunClock();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const ran: number[] = [];
    const start = clock.now();
    const timer: SlotTimer = new SlotTimer(
      200,
      async (slotAt) => {
        ran.push(slotAt - start);
        if (slotAt - start === 200) await gate; // held (another change had the chain) until 450
        await timer.waitForSlot(slotAt);
      },
      clock,
    );
    timer.start();
    await clock.advance(450);
    release();
    await clock.advance(400);
    timer.stop();
    assert.deepEqual(ran, [200, 600, 800], 'slot 2 passed while slot 1 was held; slot 3 comes at its own time');
  });

  it('stop() ends the slots', async () => {
    const clock = new HandRunClock();
    const { timer, ran } = slots(clock, () => 1);
    await clock.advance(450);
    timer.stop();
    await clock.advance(1000);
    assert.deepEqual(ran, [1, 2]);
  });
});

describe('the system slot clock', () => {
  it('keeps one monotonic time across its switch from process.hrtime to performance.now (the first spin)', () => {
    const samples: number[] = [];
    for (let i = 0; i < 1000; i++) samples.push(monotonicMs());
    const before = monotonicMs();
    systemSlotClock.spin(before + 0.5);
    for (let i = 0; i < 1000; i++) samples.push(monotonicMs());
    for (let i = 1; i < samples.length; i++) assert.ok(samples[i] >= samples[i - 1], `went back at sample ${i}: ${samples[i - 1]} -> ${samples[i]}`);
    const after = monotonicMs();
    assert.ok(after >= before + 0.5, 'the spin returned early');
    // The same clock as process.hrtime, within a millisecond, after the switch too.
    const [seconds, nanoseconds] = process.hrtime();
    assert.ok(Math.abs(seconds * 1000 + nanoseconds / 1e6 - monotonicMs()) < 1);
  });

  it('a sub-millisecond wait returns at its time or after, never before, and at once for a time passed', () => {
    for (const ahead of [0.02, 0.1, 0.3, 0.95, -1]) {
      const until = monotonicMs() + ahead;
      systemSlotClock.spin(until);
      assert.ok(monotonicMs() >= until, `returned before ${ahead} ms had passed`);
    }
  });

  it('sleeps most of a wait instead of reading the clock in a loop (Atomics.wait on a word nothing notifies)', () => {
    const real = Atomics.wait;
    const sleeps: number[] = [];
    Atomics.wait = ((array: Int32Array, index: number, value: number, timeout?: number) => {
      if (timeout !== undefined && timeout > 0) sleeps.push(timeout);
      return real(array, index, value, timeout);
    }) as typeof Atomics.wait;
    try {
      systemSlotClock.spin(monotonicMs() + 0.8);
    } finally {
      Atomics.wait = real;
    }
    assert.ok(sleeps.length >= 1, 'no sleep in a 0.8 ms wait');
    // What it sleeps stops short of the end (the last tenth of a millisecond is a busy wait).
    for (const ms of sleeps) assert.ok(ms > 0 && ms < 0.8, `slept ${ms} ms of 0.8`);
  });
});
