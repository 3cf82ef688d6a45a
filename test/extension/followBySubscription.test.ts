// The explorer following the real mock node by subscription, without VS Code: the model, the
// subscription driver and the WebSocket client over real sockets. A pending transaction reaches
// the model by a newFlashblocks notification (no poll); a flashblock with nothing new does no
// work; a socket cut by a proxy in the middle falls back to polling and reconnects.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { ExplorerModel, type ExplorerEndpoint, type ModelSettings } from '../../extension/explorer/explorerModel';
import type { FollowMode } from '../../extension/explorer/followMode';
import { SubscriptionDriver } from '../../extension/explorer/subscriptionDriver';
import { WsRpcClient } from '../../extension/rpc/wsClient';
import { startMockNode, type RunningMockNode } from '../../mock-node/index';

const settings: ModelSettings = { requestTimeoutMs: 5000, showSafeFinalized: false, recentBlocks: 10, addressHistoryBlocks: 2000, activityBlocks: 100, watchedAccounts: [], storageSlots: [], logFilters: [] };

/** A TCP proxy to the node whose connections the test can cut (and refuse for a while). */
class CuttableProxy {
  private readonly sockets = new Set<net.Socket>();
  refusing = false;
  private readonly server: net.Server;
  constructor(private readonly target: number) {
    this.server = net.createServer((client) => {
      if (this.refusing) {
        client.destroy();
        return;
      }
      const upstream = net.connect(this.target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }
  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }
  cut(): void {
    for (const socket of this.sockets) socket.destroy();
  }
  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function waitFor(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  for (const deadline = Date.now() + ms; !check();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Rig {
  node: RunningMockNode;
  model: ExplorerModel;
  driver: SubscriptionDriver;
  modes: FollowMode[];
  changes: string[][];
  follows: { count: number };
}

async function withRig(wsPort: (nodePort: number) => Promise<number>, run: (rig: Rig) => Promise<void>): Promise<void> {
  const node = await startMockNode({ port: 0, auto: false, quiet: true });
  const port = await wsPort(node.port);
  const endpoint: ExplorerEndpoint = { id: 'ep', name: 'mock', url: node.url, displayUrl: node.url, wsUrl: `ws://127.0.0.1:${port}/` };
  const model = new ExplorerModel(() => [endpoint], () => settings);
  const changes: string[][] = [];
  model.onDidChange((ids) => changes.push(ids));
  const modes: FollowMode[] = [];
  const follows = { count: 0 };
  const follow = (news: Parameters<ExplorerModel['follow']>[1]) => {
    follows.count++;
    void model.follow('ep', news);
  };
  const driver = new SubscriptionDriver({
    connect: (url) => new WsRpcClient(url, { timeoutMs: 2000 }),
    reconnectMs: 50,
    maxReconnectMs: 200,
    listener: {
      head: () => follow({ kind: 'head' }),
      flashblock: (_id, block) => follow({ kind: 'flashblock', block }),
      pendingActivity: () => follow({ kind: 'read' }),
      subscribed: () => follow({ kind: 'read' }),
      mode: (id, mode) => { modes.push(mode); model.setFollowMode(id, mode); },
    },
  });
  try {
    model.setTag('pending');
    await model.expandEndpoint('ep');
    driver.sync([{ id: 'ep', wsUrl: endpoint.wsUrl! }], 'pending', true);
    await waitFor('the subscription', () => driver.mode('ep') === 'subscribed');
    await waitFor('the catch-up read', () => follows.count === 1);
    await model.follow('ep', { kind: 'read' }); // the catch-up read has finished
    await run({ node, model, driver, modes, changes, follows });
  } finally {
    driver.dispose();
    await node.stop();
  }
}

async function sendTransfer(node: RunningMockNode, value: number): Promise<string> {
  const [from, to] = node.accounts;
  return node.request('eth_sendTransaction', [{ from: from.address, to: to.address, value: `0x${value.toString(16)}` }]) as Promise<string>;
}

describe('the explorer follows the mock node by subscription @integration', function () {
  this.timeout(30_000);

  it('a pending transaction reaches the tree by its flashblock notification, without a poll; a flashblock with nothing new does nothing', async () => {
    await withRig(async (port) => port, async ({ node, model, driver, changes, follows }) => {
      assert.match(model.roots()[0].description ?? '', /subscribed/, 'the endpoint row says it is followed by subscription');
      assert.equal(driver.covers('ep'), true, 'the poller skips it');
      const before = changes.length;
      const hash = await sendTransfer(node, 7);
      await node.request('mock_flashblock', []);
      await waitFor('the pending transaction in the tree', () => JSON.stringify(model.roots()).includes(hash));
      assert.ok(changes.length > before, 'the model said what changed');

      // A flashblock that adds nothing: the node notifies (the same pending block), nothing else happens.
      const followsBefore = follows.count;
      const changesBefore = changes.length;
      await node.request('mock_flashblock', []);
      await node.request('mock_flashblock', []);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(follows.count, followsBefore, 'the driver drops a flashblock that brings nothing new');
      assert.equal(changes.length, changesBefore, 'no tree work');

      // A tick of the poller over a covered endpoint reads nothing.
      const changesAtTick = changes.length;
      const outcome = await model.tick(undefined, (id) => driver.covers(id));
      assert.deepEqual(outcome, { failures: 0, successes: 0 });
      assert.equal(changes.length, changesAtTick);
    });
  });

  it('a poll tick at pending that sees the same pending block says nothing changed', async () => {
    await withRig(async (port) => port, async ({ model, changes }) => {
      await model.tick(); // uncovered: read over HTTP
      const before = changes.length;
      await model.tick();
      await model.tick();
      assert.equal(changes.length, before, 'quiet ticks ask for no tree work');
    });
  });

  it('a cut WebSocket: polled meanwhile (reconnecting), then subscribed again with one catch-up read', async () => {
    let proxy: CuttableProxy | undefined;
    try {
      await withRig(async (nodePort) => {
        proxy = new CuttableProxy(nodePort);
        return proxy.listen();
      }, async ({ node, model, driver, modes }) => {
        proxy!.refusing = true;
        proxy!.cut();
        await waitFor('the fallback', () => driver.mode('ep') === 'reconnecting');
        assert.equal(driver.covers('ep'), false);
        assert.match(model.roots()[0].description ?? '', /polling, reconnecting/);
        // Meanwhile the poller reads it: a transaction shows through a poll tick.
        const hash = await sendTransfer(node, 9);
        await node.request('mock_flashblock', []);
        const outcome = await model.tick(undefined, (id) => driver.covers(id));
        assert.equal(outcome.successes, 1, 'the poll tick read the endpoint');
        assert.ok(JSON.stringify(model.roots()).includes(hash), 'the polled transaction shows');

        proxy!.refusing = false;
        await waitFor('the reconnect', () => driver.mode('ep') === 'subscribed');
        assert.match(model.roots()[0].description ?? '', /subscribed/);
        assert.deepEqual(modes.slice(0, 2), ['connecting', 'subscribed']);
        assert.ok(modes.slice(2).includes('reconnecting'));
        assert.equal(modes[modes.length - 1], 'subscribed');
        // Subscribed again: a new transaction arrives by notification.
        const second = await sendTransfer(node, 10);
        await node.request('mock_flashblock', []);
        await waitFor('the second transaction by subscription', () => JSON.stringify(model.roots()).includes(second));
      });
    } finally {
      await proxy?.close();
    }
  });
});
