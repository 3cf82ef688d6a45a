// The subscription driver with fake sockets and a clock run by hand: what it subscribes to at each
// tag, which notifications reach the model (only new blocks and flashblocks), the fallback kinds,
// the reconnect back-off with polling meanwhile, and no work while the view is not seen.
import * as assert from 'node:assert/strict';
import { JsonRpcError } from '../../extension/rpc/errors';
import type { FollowMode } from '../../extension/explorer/followMode';
import { SubscriptionDriver, type DriverListener, type FollowSocket, type HeadNotice } from '../../extension/explorer/subscriptionDriver';
import type { BlockJson } from '../../extension/explorer/chainData';
import { ManualTimers, flush } from './manualTimers';

class FakeSocket implements FollowSocket {
  readonly subscriptions = new Map<string, { kind: string; listener: (result: unknown) => void }>();
  private closeListeners: ((reason: string) => void)[] = [];
  disposed = false;
  private next = 1;
  private settleOpen!: { resolve: () => void; reject: (error: Error) => void };
  private readonly opened = new Promise<void>((resolve, reject) => { this.settleOpen = { resolve, reject }; });

  constructor(readonly url: string, private readonly refuse: ReadonlySet<string>) {
    this.opened.catch(() => undefined);
  }

  open(): Promise<void> { return this.opened; }
  accept(): void { this.settleOpen.resolve(); }
  fail(): void {
    this.settleOpen.reject(new Error('ECONNREFUSED'));
    for (const listener of this.closeListeners) listener('ECONNREFUSED');
  }

  async subscribe(params: unknown[], listener: (result: unknown) => void): Promise<string> {
    const kind = String(params[0]);
    if (this.refuse.has(kind)) throw new JsonRpcError('eth_subscribe', -32602, `no "${kind}" subscription`);
    const id = `0x${this.next++}`;
    this.subscriptions.set(id, { kind, listener });
    return id;
  }

  async unsubscribe(id: string): Promise<void> { this.subscriptions.delete(id); }
  onClose(listener: (reason: string) => void): void { this.closeListeners.push(listener); }
  dispose(): void { this.disposed = true; }

  kinds(): string[] { return [...this.subscriptions.values()].map((s) => s.kind).sort(); }
  notify(kind: string, result: unknown): void {
    for (const subscription of [...this.subscriptions.values()]) if (subscription.kind === kind) subscription.listener(result);
  }
  /** The node drops the socket. */
  drop(): void { for (const listener of this.closeListeners) listener('closed (1006)'); }
}

class Recorder implements DriverListener {
  events: string[] = [];
  modes: FollowMode[] = [];
  head(id: string, head: HeadNotice): void { this.events.push(`head ${id} ${head.number}`); }
  flashblock(id: string, block: BlockJson): void { this.events.push(`flashblock ${id} ${block.number} ${block.transactions.length}`); }
  pendingActivity(id: string): void { this.events.push(`activity ${id}`); }
  subscribed(id: string): void { this.events.push(`catch-up ${id}`); }
  mode(_id: string, mode: FollowMode): void { this.modes.push(mode); }
  take(): string[] {
    const events = this.events;
    this.events = [];
    return events;
  }
}

function setup(refuse: string[] = []) {
  const timers = new ManualTimers();
  const sockets: FakeSocket[] = [];
  const recorder = new Recorder();
  const driver = new SubscriptionDriver({
    connect: (url) => {
      const socket = new FakeSocket(url, new Set(refuse));
      sockets.push(socket);
      return socket;
    },
    listener: recorder,
    timers,
  });
  const target = [{ id: 'ep', wsUrl: 'ws://node/' }];
  return { timers, sockets, recorder, driver, target, last: () => sockets[sockets.length - 1] };
}

const head = (n: number) => ({ number: `0x${n.toString(16)}`, hash: `0x${'ab'.repeat(31)}${n.toString(16).padStart(2, '0')}`, parentHash: '0x00' });
const pendingBlock = (n: number, txs: number) => ({
  number: `0x${n.toString(16)}`, hash: null, stateRoot: `0x${txs}`, gasUsed: `0x${(txs * 21000).toString(16)}`, timestamp: '0x1',
  transactions: Array.from({ length: txs }, (_, i) => ({ hash: `0x${i}` })),
});

describe('SubscriptionDriver (hand-run clock)', () => {
  it('follows latest by newHeads: one catch-up read once subscribed, then only heads not seen before', async () => {
    const { driver, recorder, target, last, timers } = setup();
    driver.sync(target, 'latest', true);
    assert.equal(driver.mode('ep'), 'connecting');
    assert.equal(driver.covers('ep'), false, 'polled while it connects');
    last().accept();
    await flush();
    assert.deepEqual(last().kinds(), ['newHeads']);
    assert.equal(driver.mode('ep'), 'subscribed');
    assert.equal(driver.covers('ep'), true);
    assert.deepEqual(recorder.take(), ['catch-up ep']);

    last().notify('newHeads', head(5));
    last().notify('newHeads', head(5)); // the same block again (a reconnect, a second subscription)
    last().notify('newHeads', { number: 7 }); // not a head: dropped
    last().notify('newHeads', head(6));
    assert.deepEqual(recorder.take(), ['head ep 0x5', 'head ep 0x6']);
    assert.equal(timers.queue.length, 0, 'no timer runs while subscribed');
    // Syncing again with nothing changed does nothing.
    driver.sync(target, 'latest', true);
    await flush();
    assert.deepEqual(recorder.take(), []);
    assert.equal(recorder.modes.filter((m) => m === 'subscribed').length, 1);
  });

  it('follows pending by newFlashblocks: a flashblock that brings nothing new reaches nobody', async () => {
    const { driver, recorder, target, last } = setup();
    driver.sync(target, 'pending', true);
    last().accept();
    await flush();
    assert.deepEqual(last().kinds(), ['newFlashblocks']);
    recorder.take();
    last().notify('newFlashblocks', pendingBlock(3, 0));
    last().notify('newFlashblocks', pendingBlock(3, 0));
    last().notify('newFlashblocks', pendingBlock(3, 1));
    last().notify('newFlashblocks', pendingBlock(3, 1));
    last().notify('newFlashblocks', pendingBlock(4, 0));
    assert.deepEqual(recorder.take(), ['flashblock ep 0x3 0', 'flashblock ep 0x3 1', 'flashblock ep 0x4 0']);

    // Back to latest: the flashblock subscription is cancelled, newHeads made, on the same socket.
    driver.sync(target, 'latest', true);
    await flush();
    assert.deepEqual(last().kinds(), ['newHeads']);
    last().notify('newFlashblocks', pendingBlock(4, 1));
    assert.deepEqual(recorder.take(), []);
  });

  it('where newFlashblocks is refused, follows pending by newHeads, pendingLogs and newPendingTransactions', async () => {
    const { driver, recorder, target, last } = setup(['newFlashblocks']);
    driver.sync(target, 'pending', true);
    last().accept();
    await flush();
    await flush();
    assert.deepEqual(last().kinds(), ['newHeads', 'newPendingTransactions', 'pendingLogs']);
    assert.equal(driver.mode('ep'), 'subscribed');
    recorder.take();
    last().notify('pendingLogs', { address: '0x1' });
    last().notify('newPendingTransactions', '0xabc');
    last().notify('newHeads', head(9));
    assert.deepEqual(recorder.take(), ['activity ep', 'activity ep', 'activity ep']);
  });

  it('an endpoint without subscriptions is polled, and asked again only after the longest wait', async () => {
    const { driver, target, last, timers } = setup(['newHeads']);
    driver.sync(target, 'latest', true);
    last().accept();
    await flush();
    assert.equal(driver.mode('ep'), 'polling');
    assert.equal(last().disposed, true);
    assert.deepEqual(timers.queue.map((t) => t.ms), [30_000]);
  });

  it('a dropped socket: polled meanwhile, reconnected after 1 s, 2 s, …, then a catch-up read', async () => {
    const { driver, recorder, target, sockets, last, timers } = setup();
    driver.sync(target, 'pending', true);
    last().accept();
    await flush();
    recorder.take();
    last().notify('newFlashblocks', pendingBlock(3, 1));
    recorder.take();

    last().drop();
    assert.equal(driver.mode('ep'), 'reconnecting');
    assert.equal(driver.covers('ep'), false, 'the poller covers it while it reconnects');
    assert.equal(sockets[0].disposed, true);
    sockets[0].notify('newFlashblocks', pendingBlock(3, 2)); // a late frame from the dead socket
    assert.deepEqual(recorder.take(), []);

    assert.equal(timers.fire(), 1000);
    assert.equal(sockets.length, 2);
    last().fail(); // the node is still away
    await flush();
    assert.equal(driver.mode('ep'), 'reconnecting');
    assert.equal(timers.fire(), 2000);
    last().fail();
    await flush();
    assert.equal(timers.fire(), 4000);
    last().accept();
    await flush();
    assert.equal(driver.mode('ep'), 'subscribed');
    assert.deepEqual(recorder.take(), ['catch-up ep'], 'one read for what was missed');
    // The wait starts again from 1 s after a success.
    last().drop();
    assert.equal(timers.queue[0].ms, 1000);
    assert.deepEqual(recorder.modes, ['connecting', 'subscribed', 'reconnecting', 'subscribed', 'reconnecting']);
  });

  it('works only while seen: hidden, the subscriptions are cancelled and nothing reconnects; seen again, one catch-up read', async () => {
    const { driver, recorder, target, sockets, last, timers } = setup();
    driver.sync(target, 'pending', true);
    last().accept();
    await flush();
    recorder.take();

    driver.sync(target, 'pending', false);
    await flush();
    assert.deepEqual(last().kinds(), [], 'no subscription while hidden');
    last().notify('newFlashblocks', pendingBlock(5, 1));
    assert.deepEqual(recorder.take(), []);

    driver.sync(target, 'pending', true);
    await flush();
    assert.deepEqual(last().kinds(), ['newFlashblocks']);
    assert.deepEqual(recorder.take(), ['catch-up ep']);
    assert.equal(sockets.length, 1, 'the same socket');

    // Dropped while hidden: no reconnect until seen again, then at once.
    driver.sync(target, 'pending', false);
    await flush();
    last().drop();
    assert.equal(timers.queue.length, 0, 'nothing scheduled while hidden');
    driver.sync(target, 'pending', true);
    assert.equal(sockets.length, 2);
    last().accept();
    await flush();
    assert.deepEqual(recorder.take(), ['catch-up ep']);
  });

  it('an endpoint collapsed or with another URL: its socket closes; a new URL gets a new one', async () => {
    const { driver, target, sockets, last } = setup();
    driver.sync(target, 'latest', true);
    last().accept();
    await flush();
    driver.sync([{ id: 'ep', wsUrl: 'ws://node:2/' }], 'latest', true);
    assert.equal(sockets[0].disposed, true);
    assert.equal(last().url, 'ws://node:2/');
    driver.sync([], 'latest', true);
    assert.equal(last().disposed, true);
    assert.equal(driver.mode('ep'), 'polling');
  });
});
