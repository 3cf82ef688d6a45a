// The tree refresher with hand-run timers and a hand-made tree: what it fires, and when.
import * as assert from 'node:assert/strict';
import type { NodeSpec } from '../../extension/explorer/nodeSpec';
import { TreeRefresher, type ExplorerNode } from '../../extension/explorer/treeRefresher';
import { flush, ManualTimers } from './manualTimers';

/** A small tree: an endpoint with a block (two transactions) and accounts. */
function tree(endpointLook: string, blockLook: string, txs: string[], accounts = 'a'): NodeSpec[] {
  const leaf = (id: string, label: string): NodeSpec => ({ id, label, endpointId: 'ep', kind: 'field', collapsible: 'none' });
  return [{
    id: 'ep', label: 'endpoint', description: endpointLook, endpointId: 'ep', kind: 'endpoint', collapsible: 'collapsed',
    children: [
      { id: 'ep/block', label: blockLook, endpointId: 'ep', kind: 'block', collapsible: 'collapsed', children: txs.map((t) => leaf(`ep/block/${t}`, t)) },
      { id: 'ep/accounts', label: 'Accounts', description: accounts, endpointId: 'ep', kind: 'accounts', collapsible: 'collapsed', children: [] },
    ],
  }];
}

function setup() {
  const timers = new ManualTimers();
  let specs = tree('chain 1', 'latest #1', ['t1']);
  const fired: (string | undefined)[] = [];
  let rebuilds = 0;
  const refresher = new TreeRefresher({
    build: () => { rebuilds++; return specs; },
    fire: (node: ExplorerNode | undefined) => fired.push(node?.id),
    settleMs: 1000,
    timers,
  });
  return {
    timers, fired, refresher,
    set: (next: NodeSpec[]) => { specs = next; },
    rebuilds: () => rebuilds,
  };
}

describe('TreeRefresher', () => {
  it('coalesces requests into one rebuild and fires only the topmost changed nodes in scope', () => {
    const t = setup();
    t.refresher.rootNodes();
    const before = t.rebuilds();
    t.set(tree('chain 1', 'latest #2', ['t1', 't2'], 'b'));
    t.refresher.request(['ep/block']);
    t.refresher.request(['ep/block']);
    assert.equal(t.timers.queue.length, 1, 'one flush scheduled');
    t.timers.fire();
    assert.equal(t.rebuilds(), before + 1);
    assert.deepEqual(t.fired, ['ep/block'], 'the accounts changed too, but nobody said so: not compared');
    t.refresher.request(['ep']);
    t.timers.fire();
    assert.deepEqual(t.fired, ['ep/block', 'ep/accounts']);
  });

  it('fires nothing when a rebuild finds nothing changed', () => {
    const t = setup();
    t.refresher.rootNodes();
    t.refresher.request(['ep']);
    t.timers.fire();
    assert.deepEqual(t.fired, []);
  });

  it('keeps node objects across rebuilds', () => {
    const t = setup();
    const [endpoint] = t.refresher.rootNodes();
    t.set(tree('chain 1', 'latest #2', ['t1']));
    t.refresher.request();
    t.timers.fire();
    assert.equal(t.refresher.node('ep'), endpoint);
    assert.equal(t.refresher.node('ep/block')?.spec.label, 'latest #2');
  });

  it('fires nothing while VS Code is loading children, and what changed meanwhile once it is done', async () => {
    const t = setup();
    const [endpoint] = t.refresher.rootNodes();
    let finishLoad: () => void = () => undefined;
    const listing = t.refresher.children(endpoint, () => new Promise<void>((resolve) => { finishLoad = resolve; }));
    t.set(tree('chain 1', 'latest #1', ['t1'], 'b'));
    t.refresher.request(['ep/accounts']);
    t.timers.fire();
    assert.deepEqual(t.fired, [], 'not while getChildren is in flight');
    finishLoad();
    const children = await listing;
    assert.deepEqual(children.map((c) => c.id), ['ep/block', 'ep/accounts']);
    assert.deepEqual(t.fired, [], 'changes under the node being listed need no event');
  });

  it('fires a change outside the listed node after the listing returns', async () => {
    const t = setup();
    const [endpoint] = t.refresher.rootNodes();
    const block = t.refresher.node('ep/block')!;
    t.set(tree('chain 1', 'latest #1', ['t1'], 'b'));
    t.refresher.request(['ep/accounts']);
    const listing = t.refresher.children(block);
    assert.ok(endpoint);
    await listing;
    await flush();
    assert.equal(t.timers.queue.length, 1);
    t.timers.fire();
    assert.deepEqual(t.fired, ['ep/accounts']);
  });

  it('refreshes the row of a node just listed only after it settled (its children would be lost)', async () => {
    const t = setup();
    const [endpoint] = t.refresher.rootNodes();
    t.set(tree('chain 1 · read', 'latest #1', ['t1']));
    t.refresher.request(['ep']);
    const children = await t.refresher.children(endpoint);
    assert.equal(children.length, 2);
    await flush();
    assert.deepEqual(t.timers.queue.map((q) => q.ms), [0, 1000], 'the flush asked for before the listing, and the settle timer');
    t.timers.fire();
    assert.deepEqual(t.fired, [], 'not at once');
    t.timers.fire();
    t.timers.fire();
    assert.deepEqual(t.fired, ['ep'], 'after it settled');
  });

  it('quiet() waits for 300 ms without a refresh, but 2 s at most: a busy tree is never quiet', async () => {
    const timers = new ManualTimers();
    let clock = 0;
    let specs = tree('chain 1', 'pending #1.0', ['t1']);
    const refresher = new TreeRefresher({ build: () => specs, fire: () => undefined, timers: { ...timers, now: () => clock } });
    refresher.rootNodes();
    let quietAt: number | undefined;
    void refresher.quiet().then(() => { quietAt = clock; });
    // A new flashblock every 200 ms changes the pending block.
    for (let k = 1; quietAt === undefined && clock < 5000; k++) {
      clock += 200;
      specs = tree('chain 1', `pending #1.${k}`, ['t1']);
      refresher.request(['ep']);
      // The timers due by now: quiet()'s check and the refresh (each schedules the next later).
      for (let due = timers.queue.length; due > 0; due--) {
        timers.fire();
        await flush();
      }
    }
    assert.equal(quietAt, 2000);
    assert.ok(refresher.changeEvents >= 9, `refreshed every 200 ms (${refresher.changeEvents})`);
    // Without changes it is quiet 300 ms after the last refresh.
    clock += 1000;
    const start = clock;
    let idleAt: number | undefined;
    void refresher.quiet().then(() => { idleAt = clock; });
    await flush();
    assert.equal(idleAt, start, 'quiet at once: the last refresh was 1 s ago');
  });

  it('refreshes everything when the list of roots changes, and nothing more when VS Code then reads the roots', () => {
    const t = setup();
    t.refresher.rootNodes();
    t.set([...tree('chain 1', 'latest #1', ['t1']), { id: 'ep2', label: 'other', endpointId: 'ep2', kind: 'endpoint', collapsible: 'collapsed' }]);
    t.refresher.request();
    t.timers.fire();
    assert.deepEqual(t.fired, [undefined]);
    assert.equal(t.refresher.rootNodes().length, 2);
  });
});
