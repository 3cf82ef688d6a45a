// Tree builders for Recent blocks, Go to results (transaction, block, address) and links, from
// fixed JSON: what each row says and where its links go.
import * as assert from 'node:assert/strict';
import type { AddressData } from '../../extension/explorer/chainData';
import { compareLogs } from '../../extension/explorer/chainLookups';
import { foundGroup } from '../../extension/explorer/foundNodes';
import type { NodeSpec } from '../../extension/explorer/nodeSpec';
import { recentNode } from '../../extension/explorer/recentNodes';
import { ALICE, BOB, TOKEN, block, endpointView, receipt1, transferLog, tx1 } from './fixtures';

function child(node: NodeSpec | undefined, label: string): NodeSpec {
  const found = node?.children?.find((c) => c.label === label || c.label.startsWith(label));
  assert.ok(found, `no child "${label}" under ${node?.id}: ${node?.children?.map((c) => c.label).join(', ')}`);
  return found;
}

const token = { token: { decimals: 6, symbol: 'USDC', address: TOKEN } };
const headers = [block({ number: '0x7c', hash: `0x${'7c'.repeat(32)}`, transactions: [] }), block({ number: '0x7b', transactions: [tx1.hash] })];

describe('tree builders for browsing', () => {
  it('lists recent blocks newest first, lazily, with a row that loads older ones', () => {
    const closed = recentNode(endpointView({ recent: { ok: true, value: headers } }));
    assert.equal(closed.children, undefined, 'not built until opened');
    const node = recentNode(endpointView({ recent: { ok: true, value: headers }, open: new Set(['recent']), recentPageSize: 10 }));
    assert.equal(node.description, '#123–#124');
    assert.deepEqual(node.children?.map((c) => c.label), ['#124', '#123', 'Load 10 older blocks…']);
    const older = child(node, 'Load');
    assert.deepEqual(older.command, { id: 'chainExplorer.loadOlderBlocks', title: 'Load older blocks', arguments: ['ep:mock'] });
    const row = child(node, '#123');
    assert.equal(row.section, 'block:0x7b');
    assert.match(row.description ?? '', /^0xabababab…ababab · 1 tx · \d\d:\d\d:\d\d UTC$/);
    assert.equal(row.children, undefined, 'each block loads when expanded');
  });

  it('expands a recent block into its transactions (receipt status inline) and header', () => {
    const receipts = new Map([[tx1.hash, { status: '0x1', gasUsed: '0x5208' }]]);
    const node = recentNode(endpointView({
      recent: { ok: true, value: headers }, open: new Set(['recent', 'block:0x7b']),
      recentBlocks: new Map([['block:0x7b', { ok: true, value: { block: block({ number: '0x7b' }), receipts } }]]),
    }));
    const row = child(node, '#123');
    assert.deepEqual(row.children?.map((c) => c.label), ['Transactions', 'Header']);
    const tx = child(child(row, 'Transactions'), '#0');
    assert.equal(tx.label, '#0 send 1.0 ETH to 0x7099…79c8', 'the label leads with what it does');
    assert.match(tx.description ?? '', /^success · 0x11111111…111111 · from 0xf39f…2266 · nonce 3$/);
    assert.equal(tx.icon, 'pass');
  });

  it('links a transaction to its block and its from / to addresses', () => {
    const node = recentNode(endpointView({
      recent: { ok: true, value: headers }, open: new Set(['recent', 'block:0x7b']),
      recentBlocks: new Map([['block:0x7b', { ok: true, value: { block: block({ number: '0x7b' }), receipts: new Map() } }]]),
    }));
    const tx = child(child(child(node, '#123'), 'Transactions'), '#0');
    assert.deepEqual(child(tx, 'from').command?.arguments, ['ep:mock', ALICE]);
    assert.deepEqual(child(tx, 'to').command?.arguments, ['ep:mock', BOB]);
    assert.deepEqual(child(tx, 'blockNumber').command?.arguments, ['ep:mock', '123']);
    assert.equal(child(tx, 'nonce').command, undefined, 'plain fields are not links');
  });

  it('shows a found transaction with its receipt status inline, its logs linked to the transaction', () => {
    const group = foundGroup(endpointView({ found: [{ kind: 'transaction', key: tx1.hash, found: { tx: tx1, receipt: receipt1 } }] }), token);
    const tx = child(group, 'send 1.0 ETH');
    assert.equal(tx.description, 'success · #123 · tx 0x11111111…111111');
    assert.match(tx.tooltip ?? '', new RegExp(tx1.hash));
    const receipt = child(tx, 'receipt:');
    const log = child(receipt, 'Transfer');
    assert.equal(log.label, 'Transfer 1.5 USDC 0xf39F…2266 → 0x7099…79C8');
    assert.deepEqual(child(log, 'transactionHash').command?.arguments, ['ep:mock', tx1.hash]);
    assert.deepEqual(child(log, 'from').command?.arguments?.[1]?.toString().toLowerCase(), ALICE);
  });

  it('says when a found transaction has no receipt yet', () => {
    const group = foundGroup(endpointView({ found: [{ kind: 'transaction', key: tx1.hash, found: { tx: { ...tx1, blockNumber: null }, receipt: null } }] }), token);
    const tx = child(group, 'send');
    assert.match(tx.description ?? '', /^no receipt · pending · tx /);
    assert.equal(child(tx, 'receipt:').label, 'receipt: no receipt yet');
  });

  it('shows an address: balances and nonces at latest and pending, token balance, code, transfers in and out', () => {
    const out = transferLog;
    const incoming = { ...transferLog, topics: [transferLog.topics[0], transferLog.topics[2], transferLog.topics[1]], blockNumber: '0x7c', logIndex: '0x1', transactionHash: `0x${'33'.repeat(32)}` };
    const data: AddressData = {
      address: ALICE, head: '0x7c', balanceLatest: '0xde0b6b3a7640000', balancePending: '0x6f05b59d3b20000', nonceLatest: '0x3', noncePending: '0x4',
      code: '0x', tokenBalance: '0x989680',
      transfers: { ok: true, value: { fromBlock: '0x0', toBlock: '0x7c', logs: [incoming, out].sort((a, b) => compareLogs(b, a)), requests: 2 } },
    };
    const group = foundGroup(endpointView({ found: [{ kind: 'address', key: ALICE, data }] }), token);
    const address = child(group, '0xf39fd6');
    assert.equal(address.description, '1.0 ETH · 10 USDC · nonce 3');
    assert.equal(child(address, 'balance').description, '1.0 ETH · pending 0.5 ETH');
    assert.equal(child(address, 'nonce').description, '3 · pending 4');
    assert.equal(child(address, 'code').description, 'no code');
    const transfers = child(address, 'Token transfers');
    assert.equal(transfers.description, '2 in blocks #0–#124');
    assert.deepEqual(transfers.children?.map((c) => c.label.split(' · ')[0]), ['in', 'out']);
    assert.match(transfers.children?.[1].label ?? '', /^out · Transfer 1\.5 USDC 0xf39F…2266 → 0x7099…79C8$/);
  });

  it('opens the newest Go to result and collapses the older ones under ids that change with each new result (VS Code keeps a row\'s state by id)', () => {
    const data: AddressData = {
      address: ALICE, head: '0x7c', balanceLatest: '0x1', balancePending: '0x1', nonceLatest: '0x3', noncePending: '0x3', code: '0x',
      transfers: { ok: true, value: { fromBlock: '0x0', toBlock: '0x7c', logs: [], requests: 1 } },
    };
    const transaction = { kind: 'transaction' as const, key: tx1.hash, found: { tx: tx1, receipt: receipt1 } };
    const address = { kind: 'address' as const, key: ALICE, data };
    const first = foundGroup(endpointView({ found: [transaction] }), token)!;
    assert.equal(first.children?.[0].id, `ep:mock/found/transaction/${tx1.hash}`);
    assert.equal(first.children?.[0].collapsible, 'expanded');
    const second = foundGroup(endpointView({ found: [address, transaction] }), token)!;
    const [newest, older] = second.children!;
    assert.equal(newest.id, `ep:mock/found/address/${ALICE}`, 'Go to reveals this id');
    assert.equal(newest.collapsible, 'expanded');
    assert.equal(child(newest, 'balance').id, `ep:mock/found/address/${ALICE}/balance`);
    assert.equal(older.collapsible, 'collapsed');
    assert.notEqual(older.id, first.children?.[0].id, 'a new id, so VS Code draws it collapsed');
    assert.ok(older.children?.every((c) => c.id.startsWith(`${older.id}/`)), 'its rows are under its new id');
    // Another result on top gives the older ones new ids again; the same list keeps them.
    const third = foundGroup(endpointView({ found: [{ ...transaction, key: `0x${'44'.repeat(32)}` }, address, transaction] }), token)!;
    assert.notEqual(third.children?.[2].id, older.id);
    assert.equal(foundGroup(endpointView({ found: [address, transaction] }), token)!.children?.[1].id, older.id);
  });

  it('says how many calls a split log range took, and shows a contract as one', () => {
    const data: AddressData = {
      address: TOKEN, head: '0x7c', balanceLatest: '0x0', balancePending: '0x0', nonceLatest: '0x0', noncePending: '0x0', code: '0x6080',
      transfers: { ok: true, value: { fromBlock: '0x0', toBlock: '0x7c', logs: [], requests: 6 } },
    };
    const address = child(foundGroup(endpointView({ found: [{ kind: 'address', key: TOKEN, data }] }), token), '0x360000');
    assert.equal(child(address, 'code').description, '2 bytes');
    assert.match(address.description ?? '', / · contract$/);
    assert.equal(child(address, 'Token transfers').description, '0 in blocks #0–#124 (6 eth_getLogs: range split)');
  });
});
