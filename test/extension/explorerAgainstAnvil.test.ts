// The explorer model against a real node that is not ours: Anvil (Foundry) with mining off, so
// sent transactions wait in its pending block until the test mines. Same reads, another
// implementation: what the tree shows must hold for any node that serves the five methods.
import * as assert from 'node:assert/strict';
import { ExplorerModel, type ExplorerEndpoint, type ModelSettings } from '../../extension/explorer/explorerModel';
import type { NodeSpec } from '../../extension/explorer/nodeSpec';
import { anvilOrSkip, startAnvil, type RunningAnvil } from '../helpers/anvil';
import { rpc } from '../helpers/rpc';

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

function find(nodes: NodeSpec[] | undefined, label: string): NodeSpec {
  const node = nodes?.find((n) => n.label.startsWith(label));
  assert.ok(node, `no "${label}" in ${nodes?.map((n) => n.label).join(', ')}`);
  return node;
}


describe('ExplorerModel against Anvil, a node that is not ours @integration', function () {
  this.timeout(30_000);
  let anvil: RunningAnvil;
  let model: ExplorerModel;

  before(async function () {
    const binary = anvilOrSkip(this);
    anvil = await startAnvil(binary, ['--no-mining']);
    await rpc(anvil.url, 'evm_mine');
    const endpoints: ExplorerEndpoint[] = [{ id: 'ep:anvil', name: 'anvil', url: anvil.url, displayUrl: anvil.url, defaultAccounts: [ALICE, BOB] }];
    const settings: ModelSettings = {
      requestTimeoutMs: 5000, showSafeFinalized: true, recentBlocks: 10, addressHistoryBlocks: 2000, activityBlocks: 100, watchedAccounts: [], logFilters: [{ name: 'transfers', topics: [TRANSFER] }],
      storageSlots: [{ address: BOB, slot: '0x0', label: 'slot 0 of an account' }],
    };
    model = new ExplorerModel(() => endpoints, () => settings);
  });
  after(async () => {
    await anvil?.stop();
  });

  it('shows the endpoint (chain id, client version, head) and the latest block with its header', async () => {
    await model.expandEndpoint('ep:anvil');
    const root = model.roots()[0];
    assert.equal(root.description, 'chain 31337 · polling', 'expanded, without a WebSocket URL: followed by polling');
    assert.match(root.tooltip ?? '', /anvil\/v[\d.]+/);
    const latest = find(root.children, 'latest');
    assert.equal(latest.label, 'latest #1');
    const header = find(latest.children, 'Header');
    assert.match(find(header.children, 'number').description ?? '', /^1 {2}\(0x1\)$/);
    assert.match(find(header.children, 'timestamp').description ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  });

  it('follows pending: a sent transaction shows in the pending block and in the pending nonce before it is mined', async () => {
    model.setTag('pending');
    await model.openSection('ep:anvil', 'accounts');
    await model.openSection('ep:anvil', 'storage');
    const hash: string = await rpc(anvil.url, 'eth_sendTransaction', [{ from: ALICE, to: BOB, value: '0xde0b6b3a7640000' }]);
    await model.tick();
    const root = model.roots()[0];
    const pending = find(root.children, 'pending');
    assert.equal(pending.label, 'pending #2');
    const txs = find(pending.children, 'Transactions').children ?? [];
    assert.deepEqual(txs.map((t) => t.copyValue), [hash]);
    assert.equal(txs[0].label, '#0 send 1.0 ETH to 0x7099…79c8');
    assert.match(txs[0].description ?? '', /^0x[0-9a-f]{8}…[0-9a-f]{6} · from 0xf39f…2266 · nonce 0$/);
    assert.match(find(txs[0].children, 'maxFeePerGas').description ?? '', /^\d+ wei$/);
    assert.match(find(find(root.children, 'Accounts').children, '0xf39Fd6').description ?? '', /^nonce 0 \/ pending 1 · /);
    assert.equal(find(find(root.children, 'Storage').children, 'slot 0').description, '0');
    assert.match(model.statusText().text, /^pending #2\.\d+$/);
  });

  it('after mining: the transaction in latest with its receipt (Anvil serves eth_getBlockReceipts), nonce caught up', async () => {
    await rpc(anvil.url, 'evm_mine');
    model.setTag('latest');
    await model.refreshAll();
    await model.openSection('ep:anvil', 'receipts');
    await model.openSection('ep:anvil', 'logs');
    const root = model.roots()[0];
    const latest = find(root.children, 'latest');
    assert.equal(latest.label, 'latest #2');
    const receipts = find(latest.children, 'Receipts').children ?? [];
    assert.equal(receipts.length, 1);
    assert.match(receipts[0].description ?? '', /^success · gas 21000 · 0 logs$/);
    assert.equal(find(find(latest.children, 'Logs').children, 'transfers').description, '0', 'eth_getLogs answered: no Transfer in a plain ETH transfer');
    assert.match(find(find(root.children, 'Accounts').children, '0xf39Fd6').description ?? '', /^nonce 1 \/ pending 1 · /);
    const outcome = await model.tick();
    assert.equal(outcome.failures, 0);
  });

  it('Go to, Recent blocks and the address node read Anvil the same way', async () => {
    const hash: string = await rpc(anvil.url, 'eth_sendTransaction', [{ from: ALICE, to: BOB, value: '0x1' }]);
    await rpc(anvil.url, 'evm_mine');
    const tx = await model.goTo('ep:anvil', hash);
    assert.ok(tx.ok, JSON.stringify(tx));
    const root = model.roots()[0];
    const found = find(root.children, 'Go to results');
    const sent = find(found.children, 'send ');
    assert.equal(sent.label, 'send 0.000000000000000001 ETH to 0x7099…79c8');
    assert.match(sent.description ?? '', /^success · #3 · tx 0x/);
    const address = await model.goTo('ep:anvil', BOB);
    assert.ok(address.ok);
    const bob = find(find(model.roots()[0].children, 'Go to results').children, '0x709979');
    assert.equal(find(bob.children, 'code').description, 'no code');
    assert.equal(find(bob.children, 'Token transfers').description, '0 in blocks #0–#3');
    await model.openSection('ep:anvil', 'recent');
    assert.deepEqual(find(model.roots()[0].children, 'Recent blocks').children?.map((c) => c.label), ['#3', '#2', '#1', '#0']);
    assert.deepEqual(await model.goTo('ep:anvil', '9'), { ok: false, message: 'the endpoint has no block #9 (its head is #3)' });
  });
});
