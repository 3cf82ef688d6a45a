// The explorer model against the real mock node in manual mode (no timers: every change is made
// by the test), without VS Code: what the tree shows, and which nodes a poll tick would refresh.
import * as assert from 'node:assert/strict';
import { diffTrees, indexTree } from '../../extension/explorer/changeDetection';
import { ExplorerModel, type ExplorerEndpoint, type ModelSettings } from '../../extension/explorer/explorerModel';
import type { NodeSpec } from '../../extension/explorer/nodeSpec';
import { startMockNode, type PendingIdentity, type RunningMockNode } from '../../mock-node/index';

const settings: ModelSettings = { requestTimeoutMs: 5000, showSafeFinalized: true, recentBlocks: 10, addressHistoryBlocks: 2000, activityBlocks: 100, watchedAccounts: [], storageSlots: [], logFilters: [] };

function find(nodes: NodeSpec[] | undefined, label: string): NodeSpec {
  const node = nodes?.find((n) => n.label.startsWith(label));
  assert.ok(node, `no "${label}" in ${nodes?.map((n) => n.label).join(', ')}`);
  return node;
}

async function withNode(pendingIdentity: PendingIdentity, run: (node: RunningMockNode, model: ExplorerModel, endpoints: ExplorerEndpoint[]) => Promise<void>) {
  const node = await startMockNode({ port: 0, auto: false, quiet: true, pendingIdentity });
  const accounts = node.accounts.slice(0, 2).map((a) => a.address);
  const endpoints: ExplorerEndpoint[] = [
    { id: 'ep:public', name: 'public', url: node.url, displayUrl: node.url, tokenAddress: node.tokenAddress, defaultAccounts: accounts },
    { id: 'ep:dedicated', name: 'dedicated', url: node.dedicatedUrl, displayUrl: 'dedicated', tokenAddress: node.tokenAddress, defaultAccounts: accounts },
  ];
  const model = new ExplorerModel(() => endpoints, () => settings);
  try {
    await run(node, model, endpoints);
  } finally {
    await node.stop();
  }
}

async function send(node: RunningMockNode, value: number): Promise<void> {
  const [from, to] = node.accounts;
  await node.request('eth_sendTransaction', [{ from: from.address, to: to.address, value: `0x${value.toString(16)}` }]);
  await node.request('mock_flashblock', []);
}

describe('ExplorerModel against the mock node @integration', function () {
  this.timeout(20_000);

  it('follows pending: a new transaction refreshes only the block node, a quiet tick nothing', async () => {
    await withNode('partial', async (node, model) => {
      model.setTag('pending');
      await model.expandEndpoint('ep:public');
      await model.openSection('ep:public', 'accounts');
      const first = model.roots();
      assert.match(find(first[0].children, 'pending').label, /^pending #1$/);

      await model.tick();
      const quiet = model.roots();
      assert.deepEqual(diffTrees(indexTree(first), indexTree(quiet), ['ep:public', 'ep:dedicated'], ['ep:public', 'ep:dedicated']), { root: false, nodes: [] });

      await send(node, 1000);
      await model.tick();
      const after = model.roots();
      const changes = diffTrees(indexTree(quiet), indexTree(after), ['ep:public', 'ep:dedicated'], ['ep:public', 'ep:dedicated']);
      const [sender, receiver] = node.accounts.map((a) => a.address.toLowerCase());
      assert.deepEqual(changes.nodes.sort(), ['ep:public/block', `ep:public/accounts/${sender}`, `ep:public/accounts/${receiver}`].sort(),
        'the block, the sender (pending nonce) and the receiver (pending balance) changed, nothing else');
      const block = find(after[0].children, 'pending');
      assert.equal(find(block.children, 'Transactions').children?.length, 1);
      assert.match(find(find(after[0].children, 'Accounts').children, '0xf39F').description ?? '', /^nonce 0 \/ pending 1 · /);
      assert.equal(model.statusText().text, 'pending #1.1');
    });
  });

  for (const identity of ['partial', 'zero'] as PendingIdentity[]) {
    it(`a quiet tick (pending identity ${identity}) reads only the block; a balance set without a transaction still shows`, async () => {
      const calls: string[] = [];
      const node = await startMockNode({ port: 0, auto: false, logLevel: 'debug', logSink: (entry) => { if (entry.fields?.profile) calls.push(entry.message); }, pendingIdentity: identity });
      try {
        const [first] = node.accounts.map((a) => a.address);
        const endpoint: ExplorerEndpoint = { id: 'ep', name: 'mock', url: node.url, displayUrl: node.url, tokenAddress: node.tokenAddress, defaultAccounts: [first] };
        const model = new ExplorerModel(() => [endpoint], () => settings);
        model.setTag('pending');
        await model.expandEndpoint('ep');
        for (const section of ['accounts', 'logs'] as const) await model.openSection('ep', section);
        await model.tick();
        calls.length = 0;
        await model.tick();
        assert.deepEqual(calls.sort(), ['eth_blockNumber', 'eth_getBlockByNumber'], 'a quiet tick asks for the block (and the head) only');

        await node.request('anvil_setBalance', [first, '0x1000']);
        await model.tick();
        const account = find(find(model.roots()[0].children, 'Accounts').children, first.slice(0, 6));
        assert.match(account.description ?? '', / 0\.000000000000004096 ETH /);
      } finally {
        await node.stop();
      }
    });
  }

  it('shows the 403 node on the public profile (asked once, not every tick) and receipts on the dedicated one', async () => {
    await withNode('partial', async (node, model) => {
      model.setTag('pending');
      await send(node, 5);
      await model.expandEndpoint('ep:public');
      await model.expandEndpoint('ep:dedicated');
      await model.openSection('ep:public', 'receipts');
      await model.openSection('ep:dedicated', 'receipts');
      const roots = model.roots();
      const publicReceipts = find(find(roots[0].children, 'pending').children, 'Receipts');
      assert.equal(publicReceipts.children?.[0].label, 'needs a dedicated endpoint (HTTP 403)');
      const dedicatedReceipts = find(find(roots[1].children, 'pending').children, 'Receipts');
      assert.equal(dedicatedReceipts.children?.length, 1);
      assert.match(dedicatedReceipts.children?.[0].description ?? '', /^success · gas 21000/);
      const client = model.client('ep:public')!;
      const before = client.requestCount;
      await model.tick();
      assert.equal(client.requestCount - before, 1, 'one batch (block + head) per tick; the 403 is not asked again');
    });
  });

  for (const [identity, label, description] of [
    ['partial', /^pending #1$/, /^0x[0-9a-f]{8}…[0-9a-f]{6} · 1 tx$/],
    ['zero', /^pending #1$/, /^not sealed · 1 tx$/],
    ['null', /^pending \(latest\+1\)$/, /^hash null · 1 tx$/],
  ] as const) {
    it(`shows the pending shape "${identity}"`, async () => {
      await withNode(identity, async (node, model) => {
        model.setTag('pending');
        await send(node, 7);
        await model.expandEndpoint('ep:public');
        const block = find(model.roots()[0].children, 'pending');
        assert.match(block.label, label);
        assert.match(block.description ?? '', description);
        assert.match(model.statusText().text, /^pending #1\.0$/);
      });
    });
  }

  it('shows latest after sealing, and an unreachable endpoint as an error with back-off', async () => {
    await withNode('partial', async (node, model) => {
      await send(node, 9);
      await node.request('evm_mine', []);
      await model.expandEndpoint('ep:public');
      const block = find(model.roots()[0].children, 'latest');
      assert.equal(block.label, 'latest #1');
      assert.equal(find(block.children, 'Transactions').children?.length, 1);
      await node.stop();
      const outcome = await model.tick();
      assert.equal(outcome.failures, 1);
      const root = model.roots()[0];
      assert.match(root.description ?? '', /endpoint unreachable/);
      const second = await model.tick();
      assert.equal(second.failures, 0, 'the failed endpoint sits out the next tick');
    });
  });
});

describe('ExplorerModel retries an unexpanded endpoint that could not be read @integration', () => {
  it('reads it again within 25 ticks once it answers', async () => {
    const node = await startMockNode({ port: 0, auto: false, quiet: true });
    const port = node.port;
    await node.stop();
    const url = `http://127.0.0.1:${port}/`;
    const endpoints: ExplorerEndpoint[] = [{ id: 'ep:later', name: 'later', url, displayUrl: url }];
    const model = new ExplorerModel(() => endpoints, () => settings);
    await model.syncEndpoints();
    assert.match(model.roots()[0].description ?? '', /endpoint unreachable/);
    const again = await startMockNode({ port, auto: false, quiet: true });
    try {
      for (let i = 0; i < 25; i++) await model.tick();
      assert.equal(model.roots()[0].description, 'chain 31337');
    } finally {
      await again.stop();
    }
  });
});
