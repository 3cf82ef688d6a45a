// Go to, Recent blocks, the address node and following latest, against the real mock node in
// manual mode (every block is mined by the test), on its public profile with its limits.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Interface } from 'ethers';
import { ExplorerModel, type ExplorerEndpoint, type ModelSettings } from '../../extension/explorer/explorerModel';
import type { NodeSpec } from '../../extension/explorer/nodeSpec';
import { startMockNode, type MockNodeOptionsInput, type RunningMockNode } from '../../mock-node/index';

const erc20 = new Interface(['function transfer(address to, uint256 value) returns (bool)']);

function find(nodes: NodeSpec[] | undefined, label: string): NodeSpec {
  const node = nodes?.find((n) => n.label.startsWith(label));
  assert.ok(node, `no "${label}" in ${nodes?.map((n) => n.label).join(', ')}`);
  return node;
}

function byId(nodes: NodeSpec[] | undefined, id: string): NodeSpec | undefined {
  for (const node of nodes ?? []) {
    if (node.id === id) return node;
    const inner = byId(node.children, id);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * A Go to result by the id Go to gave it, wherever it is now: an older result's id also names the
 * newest result (so VS Code shows it collapsed), but it ends with the same `/kind/key`.
 */
function foundRow(nodes: NodeSpec[] | undefined, nodeId: string): NodeSpec | undefined {
  const exact = byId(nodes, nodeId);
  if (exact) return exact;
  const [group, kind, key] = [nodeId.slice(0, nodeId.indexOf('/found/') + 6), ...nodeId.slice(nodeId.indexOf('/found/') + 7).split('/')];
  return byId(nodes, group)?.children?.find((row) => row.id.startsWith(`${group}/under-`) && row.id.endsWith(`/${kind}/${key}`));
}

async function withNode(
  options: MockNodeOptionsInput, settings: Partial<ModelSettings>,
  run: (node: RunningMockNode, model: ExplorerModel) => Promise<void>,
): Promise<void> {
  const node = await startMockNode({ port: 0, auto: false, quiet: true, ...options });
  const endpoints: ExplorerEndpoint[] = [{ id: 'ep:public', name: 'public', url: node.url, displayUrl: node.url, tokenAddress: node.tokenAddress }];
  const all: ModelSettings = {
    requestTimeoutMs: 5000, showSafeFinalized: false, watchedAccounts: [], storageSlots: [], logFilters: [], recentBlocks: 10, addressHistoryBlocks: 2000, activityBlocks: 100, ...settings,
  };
  const model = new ExplorerModel(() => endpoints, () => all);
  try {
    await run(node, model);
  } finally {
    await node.stop();
  }
}

/** A loopback proxy in front of `target` that notes every JSON-RPC method asked (batches too). */
async function countingProxy(target: string): Promise<{ url: string; methods: string[]; close(): Promise<void> }> {
  const methods: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const parsed = JSON.parse(body) as { method?: string } | { method?: string }[];
        for (const call of Array.isArray(parsed) ? parsed : [parsed]) methods.push(String(call.method));
      } catch { /* forwarded as it is */ }
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(await answer.text());
      }, () => { res.writeHead(502); res.end(); });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    methods,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Sends 2.5 USDC from the first dev account to the second and mines it; returns the hash. */
async function tokenTransfer(node: RunningMockNode): Promise<string> {
  const [from, to] = node.accounts;
  const hash = await node.request('eth_sendTransaction', [{ from: from.address, to: node.tokenAddress, data: erc20.encodeFunctionData('transfer', [to.address, 2_500_000n]) }]) as string;
  await node.request('evm_mine', []);
  return hash;
}

describe('Explorer browsing against the mock node @integration', function () {
  this.timeout(30_000);

  it('goes to a token transfer by its hash: the transaction, its receipt status and its decoded log', async () => {
    await withNode({}, {}, async (node, model) => {
      const hash = await tokenTransfer(node);
      await model.expandEndpoint('ep:public');
      const outcome = await model.goTo('ep:public', hash.toUpperCase().replace('0X', '0x'));
      assert.ok(outcome.ok, JSON.stringify(outcome));
      const tx = byId(model.roots(), outcome.nodeId);
      assert.ok(tx, 'the result is in the tree');
      assert.equal(tx.label, 'transfer 2.5 USDC to 0x7099…79C8', 'the decoded call, without expanding anything');
      assert.match(tx.description ?? '', /^success · #1 · tx 0x/);
      const log = find(find(tx.children, 'receipt:').children, 'Transfer');
      assert.match(log.label, /^Transfer 2\.5 USDC 0xf39F…2266 → 0x7099…79C8$/);
    });
  });

  it('goes to the sender\'s address: nonce and balances at latest and pending, token balance, the transfer out, no code', async () => {
    await withNode({}, {}, async (node, model) => {
      await tokenTransfer(node);
      const sender = node.accounts[0].address;
      const outcome = await model.goTo('ep:public', sender);
      assert.ok(outcome.ok, JSON.stringify(outcome));
      const address = byId(model.roots(), outcome.nodeId)!;
      assert.match(address.description ?? '', /^[\d.]+ ETH · [\d.]+ USDC · nonce 1$/);
      assert.equal(find(address.children, 'nonce').description, '1 · pending 1');
      assert.equal(find(address.children, 'code').description, 'no code');
      const transfers = find(address.children, 'Token transfers');
      assert.equal(transfers.description, '1 in blocks #0–#1');
      assert.match(transfers.children?.[0].label ?? '', /^out · Transfer 2\.5 USDC 0xf39F…2266 → 0x7099…79C8$/);
      const token = await model.goTo('ep:public', node.tokenAddress);
      assert.ok(token.ok);
      assert.match(find(byId(model.roots(), token.nodeId)?.children, 'code').description ?? '', /^\d+ bytes$/);
    });
  });

  it('Go to results follow new heads: an address shows a later transfer, a pending transaction its sealed receipt', async () => {
    await withNode({}, {}, async (node, model) => {
      await model.expandEndpoint('ep:public');
      const sender = node.accounts[0].address;
      const address = await model.goTo('ep:public', sender);
      assert.ok(address.ok, JSON.stringify(address));
      assert.equal(find(byId(model.roots(), address.nodeId)?.children, 'Token transfers').description, '0 in blocks #0–#0');
      const [from, to] = node.accounts;
      const hash = await node.request('eth_sendTransaction', [{ from: from.address, to: node.tokenAddress, data: erc20.encodeFunctionData('transfer', [to.address, 2_500_000n]) }]) as string;
      const tx = await model.goTo('ep:public', hash);
      assert.ok(tx.ok, JSON.stringify(tx));
      assert.doesNotMatch(byId(model.roots(), tx.nodeId)?.description ?? '', /block #1/, 'not sealed yet');
      await node.request('evm_mine', []);
      await model.tick();
      // The address is an older result now (the transaction is the newest): still followed.
      assert.equal(byId(model.roots(), address.nodeId), undefined, 'an older result has a new id');
      const older = foundRow(model.roots(), address.nodeId);
      assert.equal(older?.collapsible, 'collapsed');
      const transfers = find(older?.children, 'Token transfers');
      assert.equal(transfers.description, '1 in blocks #0–#1');
      assert.match(transfers.children?.[0].label ?? '', /^out · Transfer 2\.5 USDC 0xf39F…2266 → 0x7099…79C8$/);
      assert.equal(find(older?.children, 'nonce').description, '1 · pending 1');
      assert.match(byId(model.roots(), tx.nodeId)?.description ?? '', /^success · #1 · /);
    });
  });

  it('an address followed to a new head reads only the new blocks and the last 64 before them, keeping older transfers', async () => {
    await withNode({ limits: { public: { maxLogBlockRange: 100 } } }, {}, async (node, model) => {
      await model.expandEndpoint('ep:public');
      const mine = async (n: number) => { for (let i = 0; i < n; i++) await node.request('evm_mine', []); };
      await mine(70);
      await tokenTransfer(node); // block 71
      await mine(70); // head 141
      const outcome = await model.goTo('ep:public', node.accounts[1].address);
      assert.ok(outcome.ok, JSON.stringify(outcome));
      const first = find(byId(model.roots(), outcome.nodeId)?.children, 'Token transfers');
      assert.match(first.description ?? '', /^1 in blocks #0–#141 \(\d+ eth_getLogs: range split\)$/, 'the first read covers 142 blocks: split');
      await tokenTransfer(node); // block 142
      await model.tick();
      const followed = find(byId(model.roots(), outcome.nodeId)?.children, 'Token transfers');
      // Blocks #78–#142 read again (65 blocks: no split); the transfer of #71 kept from the first read.
      assert.equal(followed.description, '2 in blocks #0–#142');
      assert.deepEqual(followed.children?.map((c) => c.description?.split(' · ')[0]), ['#142', '#71']);
    });
  });

  it('reads an address\'s history in halves where the endpoint refuses the range (-32005)', async () => {
    await withNode({ limits: { public: { maxLogBlockRange: 3 } } }, { addressHistoryBlocks: 12 }, async (node, model) => {
      for (let i = 0; i < 6; i++) await node.request('evm_mine', []);
      await tokenTransfer(node);
      for (let i = 0; i < 5; i++) await node.request('evm_mine', []);
      const outcome = await model.goTo('ep:public', node.accounts[1].address);
      assert.ok(outcome.ok);
      const transfers = find(byId(model.roots(), outcome.nodeId)?.children, 'Token transfers');
      assert.match(transfers.description ?? '', /^1 in blocks #1–#12 \(\d+ eth_getLogs: range split\)$/);
      assert.match(transfers.children?.[0].label ?? '', /^in · Transfer/);
    });
  });

  it('says clearly what the endpoint does not know', async () => {
    await withNode({}, {}, async (_node, model) => {
      const unknownHash = await model.goTo('ep:public', `0x${'ab'.repeat(32)}`);
      assert.deepEqual(unknownHash, { ok: false, message: `the endpoint knows no transaction and no block with hash 0x${'ab'.repeat(32)}` });
      assert.deepEqual(await model.goTo('ep:public', '99'), { ok: false, message: 'the endpoint has no block #99 (its head is #0)' });
      assert.deepEqual(await model.goTo('ep:public', 'hello'), { ok: false, message: 'not a block number, hash or address: hello' });
    });
  });

  it('goes to a block by number and by hash', async () => {
    await withNode({}, {}, async (node, model) => {
      await tokenTransfer(node);
      const byNumber = await model.goTo('ep:public', '1');
      assert.ok(byNumber.ok);
      const block = byId(model.roots(), byNumber.nodeId)!;
      assert.match(block.label, /^block #1$/);
      assert.match(find(find(block.children, 'Transactions').children, '#0').description ?? '', /^success · /);
      const hash = block.copyValue!;
      const byHash = await model.goTo('ep:public', hash);
      assert.ok(byHash.ok);
      assert.equal(byHash.nodeId, byNumber.nodeId, 'the same result, kept once');
    });
  });

  it('lists recent blocks newest first, expands one with receipt status inline, and loads older pages', async () => {
    await withNode({}, { recentBlocks: 2 }, async (node, model) => {
      const hash = await tokenTransfer(node);
      for (let i = 0; i < 2; i++) await node.request('evm_mine', []);
      await model.expandEndpoint('ep:public');
      await model.openSection('ep:public', 'recent');
      let recent = find(model.roots()[0].children, 'Recent blocks');
      assert.deepEqual(recent.children?.map((c) => c.label), ['#3', '#2', 'Load 2 older blocks…']);
      await model.loadOlderBlocks('ep:public');
      recent = find(model.roots()[0].children, 'Recent blocks');
      assert.deepEqual(recent.children?.map((c) => c.label), ['#3', '#2', '#1', '#0']);
      await model.openSection('ep:public', 'block:0x1');
      const block = find(find(model.roots()[0].children, 'Recent blocks').children, '#1');
      const tx = find(find(block.children, 'Transactions').children, '#0');
      assert.equal(tx.copyValue, hash);
      assert.match(tx.description ?? '', /^success · /);
    });
  });

  it('Activity: a filter follows a transfer across three blocks, and shows a reorg\'s dropped log as removed', async () => {
    await withNode({}, {}, async (node, model) => {
      await model.expandEndpoint('ep:public');
      await model.openSection('ep:public', 'activity');
      const activity = () => find(find(model.roots()[0].children, 'Activity').children, 'Token events');
      assert.deepEqual(activity().children, []);
      const hash = await tokenTransfer(node);
      for (let block = 1; block <= 3; block++) {
        if (block > 1) await node.request('evm_mine', []);
        await model.tick();
        const rows = activity().children ?? [];
        assert.deepEqual(rows.map((r) => r.description?.split(' · ')[0]), ['#1'], `still there at block #${block}`);
        assert.match(rows[0].label, /^Transfer 2\.5 USDC 0xf39F…2266 → 0x7099…79C8$/);
      }
      await node.request('mock_reorg', [3, { leaveOut: [hash] }]);
      await node.request('evm_mine', []);
      await model.tick();
      const rows = activity().children ?? [];
      assert.deepEqual(rows.map((r) => `${r.description?.split(' · ').slice(0, 2).join(' · ')}`), [`#4 · tx ${hash.slice(0, 10)}…${hash.slice(-6)} #0`, '#1 · removed']);
      assert.equal(activity().description, '1 · 1 removed');
    });
  });

  it('Activity reads logs only at a new head whose bloom may hold a match: an empty block costs no eth_getLogs', async () => {
    const node = await startMockNode({ port: 0, auto: false, quiet: true });
    const proxy = await countingProxy(node.url);
    const endpoints: ExplorerEndpoint[] = [{ id: 'ep:public', name: 'public', url: proxy.url, displayUrl: proxy.url, tokenAddress: node.tokenAddress }];
    const model = new ExplorerModel(() => endpoints, () => ({
      requestTimeoutMs: 5000, showSafeFinalized: false, watchedAccounts: [], storageSlots: [], logFilters: [], recentBlocks: 10, addressHistoryBlocks: 2000, activityBlocks: 100,
    }));
    const getLogs = () => proxy.methods.filter((m) => m === 'eth_getLogs').length;
    try {
      await model.expandEndpoint('ep:public');
      await model.openSection('ep:public', 'activity');
      const activity = () => find(find(model.roots()[0].children, 'Activity').children, 'Token events');
      let before = getLogs();
      for (let i = 0; i < 3; i++) {
        await node.request('evm_mine', []); // a block without logs
        await model.tick();
      }
      assert.equal(getLogs(), before, 'no eth_getLogs for three empty blocks');
      assert.equal(find(model.roots()[0].children, 'latest').label, 'latest #3', 'the head was followed');
      before = getLogs();
      const hash = await tokenTransfer(node);
      await model.tick();
      assert.equal(getLogs(), before + 1, 'one eth_getLogs for the block with the transfer');
      assert.deepEqual((activity().children ?? []).map((r) => r.description?.split(' · ')[0]), ['#4']);
      // A reorg (the new head's parent is not the head Activity read): the window is read again.
      await node.request('mock_reorg', [1, { leaveOut: [hash] }]);
      await node.request('evm_mine', []);
      before = getLogs();
      await model.tick();
      assert.ok(getLogs() > before, 'read again after the reorg');
      // The dropped transfer is a removed replay; back in the pool, it was mined again in #5.
      assert.deepEqual((activity().children ?? []).map((r) => r.description?.split(' · ')[0] + (r.description?.includes('removed') ? ' removed' : '')), ['#5', '#4 removed']);
    } finally {
      await proxy.close();
      await node.stop();
    }
  });

  it('follows latest: a quiet tick costs one eth_blockNumber; a new block updates latest and the recent list', async () => {
    await withNode({}, { recentBlocks: 3 }, async (node, model) => {
      await model.expandEndpoint('ep:public');
      await model.openSection('ep:public', 'recent');
      const client = model.client('ep:public')!;
      const before = client.requestCount;
      await model.tick();
      assert.equal(client.requestCount, before + 1, 'one request for a quiet tick');
      const changes: string[][] = [];
      model.onDidChange((ids) => changes.push(ids));
      await model.tick();
      assert.deepEqual(changes, [], 'nothing said to have changed');
      await node.request('evm_mine', []);
      await node.request('evm_mine', []);
      await model.tick();
      assert.deepEqual(changes, [['ep:public']]);
      const root = model.roots()[0];
      assert.equal(find(root.children, 'latest').label, 'latest #2');
      assert.deepEqual(find(root.children, 'Recent blocks').children?.map((c) => c.label), ['#2', '#1', '#0']);
    });
  });
});
