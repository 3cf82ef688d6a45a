import * as assert from 'node:assert/strict';
import { id } from 'ethers';
import { blockNode } from '../../extension/explorer/blockNodes';
import { blockTitle, PendingRefreshCounter, statusBarText } from '../../extension/explorer/blockTitle';
import { endpointNode } from '../../extension/explorer/endpointNodes';
import type { NodeSpec } from '../../extension/explorer/nodeSpec';
import { decodeTokenLog } from '../../extension/explorer/tokenEvents';
import { ALICE, BOB, TOKEN, block, endpointView, receipt1, transferLog, tx1, tx2 } from './fixtures';

function child(node: NodeSpec | undefined, label: string): NodeSpec {
  const found = node?.children?.find((c) => c.label === label || c.label.startsWith(label));
  assert.ok(found, `no child "${label}" under ${node?.id}: ${node?.children?.map((c) => c.label).join(', ')}`);
  return found;
}

describe('explorer tree nodes', () => {
  it('builds the endpoint with its chain id (the client version in the tooltip), the Go to row first', () => {
    const node = endpointNode(endpointView(), { tag: 'latest', pendingRefreshes: 0 }, { showSafeFinalized: false, hasToken: true });
    assert.equal(node.label, 'Mock node (public)');
    assert.equal(node.description, 'chain 31337');
    assert.match(node.tooltip ?? '', /chain-mock-node\/0\.1\.0/);
    assert.deepEqual(node.children?.map((c) => c.label), ['Go to…', 'latest #123', 'Recent blocks', 'Activity', 'Accounts', 'Storage', 'Token']);
    assert.deepEqual(node.children?.[0].command, { id: 'chainExplorer.goTo', title: 'Go to…', arguments: ['ep:mock'] });
  });

  it('never gives an expandable block row without children: loading, and a null block, say so under it', () => {
    const loading = blockNode(endpointView({ block: undefined }), { tag: 'latest', pendingRefreshes: 0 });
    assert.equal(loading.description, 'loading…');
    assert.notEqual(loading.collapsible, 'none');
    assert.deepEqual(loading.children?.map((c) => [c.label, c.collapsible]), [['loading…', 'none']]);
    const none = blockNode(endpointView({ block: { ok: true, value: null } }), { tag: 'pending', pendingRefreshes: 0 });
    assert.deepEqual(none.children?.map((c) => [c.label, c.description]), [['no pending block', 'the endpoint answered null']]);
    // The row keeps its id while it loads, so VS Code keeps it open when the block arrives.
    assert.equal(loading.id, blockNode(endpointView(), { tag: 'latest', pendingRefreshes: 0 }).id);
  });

  it('shows header fields as decimal and time, copyable as raw hex', () => {
    const node = blockNode(endpointView(), { tag: 'latest', pendingRefreshes: 0 });
    const header = child(node, 'Header');
    assert.equal(child(header, 'number').description, '123  (0x7b)');
    assert.equal(child(header, 'number').copyValue, '0x7b');
    assert.equal(child(header, 'timestamp').description, '2024-11-23 10:46:56 UTC  (1732358816)');
    assert.equal(child(header, 'gasUsed').description, '42000  (0xa410)');
    assert.equal(child(header, 'baseFeePerGas').description, '1000000000 wei');
  });

  it('lists transactions with from → to, value and nonce, the full object on expand', () => {
    const expectedFields = {
      gas: '21000', maxFeePerGas: '2000000000 wei', maxPriorityFeePerGas: '1000000000 wei', chainId: '31337', type: '2',
      yParity: '1', v: '1', blockNumber: '123', blockTimestamp: '2024-11-23 10:46:56 UTC  (1732358816)', hash: tx1.hash, input: '0x',
    };
    const node = blockNode(endpointView({ block: { ok: true, value: block({ transactions: [tx1, tx2] }) } }), { tag: 'latest', pendingRefreshes: 0 });
    const txs = child(node, 'Transactions');
    assert.equal(txs.description, '2');
    assert.equal(txs.children?.length, 2);
    const first = txs.children![0];
    assert.equal(first.id, `ep:mock/block/transactions/${tx1.hash}`);
    assert.equal(first.label, '#0 send 1.0 ETH to 0x7099…79c8');
    assert.equal(first.description, `${tx1.hash.slice(0, 10)}…${tx1.hash.slice(-6)} · from 0xf39f…2266 · nonce 3`);
    assert.deepEqual(first.json?.value, tx1);
    assert.equal(child(first, 'nonce').description, '3');
    assert.equal(child(first, 'value').description, `1.0 ETH  (${tx1.value})`);
    for (const [field, shown] of Object.entries(expectedFields)) assert.equal(child(first, field).description, shown, field);
    assert.deepEqual(first.request, { method: 'eth_getTransactionByHash', params: [tx1.hash] });
  });

  it('shows the pending shapes: partial hash, zero hash as "not sealed", null number as "pending (latest+1)"', () => {
    const partial = blockTitle('pending', block({ number: '0x7c' }), '0x7b');
    assert.equal(partial.label, 'pending #124');
    assert.equal(partial.description, '0xabababab…ababab');
    const zero = blockTitle('pending', block({ number: '0x7c', hash: `0x${'0'.repeat(64)}` }), '0x7b');
    assert.equal(zero.label, 'pending #124');
    assert.equal(zero.description, 'not sealed');
    const nulls = blockTitle('pending', block({ number: null, hash: null }), '0x7b');
    assert.equal(nulls.label, 'pending (latest+1)');
    assert.equal(nulls.description, 'hash null');
    assert.equal(nulls.number, 124n);
    const node = blockNode(endpointView({ block: { ok: true, value: block({ number: null, hash: null }) } }), { tag: 'pending', pendingRefreshes: 2 });
    assert.equal(node.label, 'pending (latest+1)');
    assert.equal(child(child(node, 'Header'), 'number').description, 'null (pending: latest+1 = 124)');
  });

  it('counts pending refreshes per block number for the status bar', () => {
    const counter = new PendingRefreshCounter();
    assert.equal(counter.observe(124n, block({ number: '0x7c', transactions: [] })), 0);
    assert.equal(counter.observe(124n, block({ number: '0x7c', transactions: [] })), 0, 'unchanged data is not a refresh');
    assert.equal(counter.observe(124n, block({ number: '0x7c', transactions: [tx1] })), 1);
    assert.equal(counter.observe(124n, block({ number: '0x7c', transactions: [tx1, tx2] })), 2);
    assert.equal(counter.observe(125n, block({ number: '0x7d', transactions: [] })), 0, 'a new block starts at 0');
    assert.equal(statusBarText('pending', 125n, 0), 'pending #125.0');
    assert.equal(counter.observe(125n, block({ number: '0x7d', flashblockIndex: '0x4' })), 4, 'the flashblock index when the endpoint tells it');
    assert.equal(statusBarText('latest', 123n, 7), 'latest #123');
  });

  it('shows receipts, or the 403 node on a public endpoint', () => {
    const withReceipts = blockNode(endpointView({ open: new Set(['receipts']), receipts: { ok: true, value: [receipt1] } }), { tag: 'latest', pendingRefreshes: 0 });
    const receipts = child(withReceipts, 'Receipts');
    assert.equal(receipts.children?.length, 1);
    const r = receipts.children![0];
    assert.equal(r.description, 'success · gas 21000 · 1 log');
    // No token read for this endpoint: the amount is the raw integer.
    assert.match(child(r, 'Transfer').label, /^Transfer 1500000 0xf39F…2266 → 0x7099…79C8$/);

    const forbidden = blockNode(endpointView({
      open: new Set(['receipts']),
      receipts: { ok: false, error: 'public endpoint: needs a dedicated endpoint (HTTP 403)', needsDedicated: true },
    }), { tag: 'latest', pendingRefreshes: 0 });
    const node = child(forbidden, 'Receipts');
    assert.equal(node.description, 'HTTP 403');
    assert.equal(node.children?.[0].label, 'needs a dedicated endpoint (HTTP 403)');
    assert.equal(node.children?.[0].kind, 'error');
    assert.deepEqual(node.request, { method: 'eth_getBlockReceipts', params: ['0x7b'] });
  });

  it('leaves a section unloaded until it is opened', () => {
    const node = blockNode(endpointView({ receipts: { ok: true, value: [receipt1] } }), { tag: 'latest', pendingRefreshes: 0 });
    assert.equal(child(node, 'Receipts').children, undefined);
    assert.equal(child(node, 'Receipts').section, 'receipts');
  });

  it('decodes the token events and leaves other logs raw', () => {
    assert.equal(decodeTokenLog(transferLog, 6, 'USDC')?.summary, 'Transfer 0xf39F…2266 → 0x7099…79C8 1.5 USDC');
    const nonce = `0x${'ab'.repeat(32)}`;
    const used = decodeTokenLog({ address: TOKEN, data: '0x', topics: ['0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5', `0x${ALICE.slice(2).padStart(64, '0')}`, nonce] });
    assert.equal(used?.name, 'AuthorizationUsed');
    assert.equal(used?.args.find((a) => a.name === 'nonce')?.value, nonce);
    const memoTopic = '0x' + '00'.repeat(31) + '07';
    const memoLog = decodeTokenLog({
      address: TOKEN,
      topics: [
        id('Memo(address,address,uint256,bytes32)'),
        `0x${ALICE.slice(2).padStart(64, '0')}`, `0x${BOB.slice(2).padStart(64, '0')}`, memoTopic,
      ],
      data: `0x${(2_000_000n).toString(16).padStart(64, '0')}`,
    }, 6, 'USDC');
    assert.equal(memoLog?.name, 'Memo');
    assert.equal(memoLog?.args.find((a) => a.name === 'value')?.value, '2 USDC');
    assert.equal(decodeTokenLog({ address: TOKEN, topics: [`0x${'12'.repeat(32)}`], data: '0x' }), undefined);
  });

  it('shows accounts with nonce at latest and pending side by side, ETH and token balance', () => {
    const ep = endpointView({
      open: new Set(['accounts', 'token']),
      token: { ok: true, value: { address: TOKEN, name: 'USD Coin', symbol: 'USDC', version: '2', decimals: 6, totalSupply: '0x2540be400', paused: false } },
      accounts: { ok: true, value: [{ address: ALICE, nonceLatest: '0x3', noncePending: '0x5', balance: '0xde0b6b3a7640000', tokenBalance: '0x16e360' }] },
    });
    const node = endpointNode(ep, { tag: 'latest', pendingRefreshes: 0 }, { showSafeFinalized: false, hasToken: true });
    const account = child(child(node, 'Accounts'), '0xf39fd6');
    assert.equal(account.description, 'nonce 3 / pending 5 · 1.0 ETH · 1.5 USDC');
    const token = child(node, 'Token');
    assert.equal(child(token, 'name').description, 'USD Coin');
    assert.equal(child(token, 'totalSupply').description, '10000 USDC');
    assert.equal(child(token, 'paused').description, 'false');
  });
});
