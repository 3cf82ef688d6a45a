import * as assert from 'node:assert/strict';
import { diffTrees, indexTree } from '../../extension/explorer/changeDetection';
import { endpointNode } from '../../extension/explorer/endpointNodes';
import type { EndpointView, TagView } from '../../extension/explorer/nodeSpec';
import { block, endpointView, tx1, tx2 } from './fixtures';

const pending: TagView = { tag: 'pending', pendingRefreshes: 0 };
const options = { showSafeFinalized: false, hasToken: false };

function changes(before: EndpointView, after: EndpointView, tagBefore = pending, tagAfter = pending) {
  const a = [endpointNode(before, tagBefore, options)];
  const b = [endpointNode(after, tagAfter, options)];
  return diffTrees(indexTree(a), indexTree(b), a.map((n) => n.id), b.map((n) => n.id));
}

describe('change detection', () => {
  it('fires nothing when a poll brings the same data', () => {
    const view = endpointView({ block: { ok: true, value: block({ number: '0x7c' }) } });
    const again = endpointView({ block: { ok: true, value: block({ number: '0x7c' }) } });
    assert.deepEqual(changes(view, again), { root: false, nodes: [] });
  });

  it('fires only the block node when a pending transaction arrives', () => {
    const before = endpointView({ block: { ok: true, value: block({ number: '0x7c', transactions: [tx1] }) } });
    const after = endpointView({ block: { ok: true, value: block({ number: '0x7c', transactions: [tx1, tx2], gasUsed: '0xa410' }) } });
    assert.deepEqual(changes(before, after), { root: false, nodes: ['ep:mock/block'] });
  });

  it('fires only the changed header field when nothing else changed', () => {
    const before = endpointView({ block: { ok: true, value: block({ number: '0x7c', stateRoot: `0x${'01'.repeat(32)}` }) } });
    const after = endpointView({ block: { ok: true, value: block({ number: '0x7c', stateRoot: `0x${'02'.repeat(32)}` }) } });
    assert.deepEqual(changes(before, after), { root: false, nodes: ['ep:mock/block/field/stateRoot'] });
  });

  it('leaves the endpoint row alone when only the head moves (refreshing it reloads its whole subtree)', () => {
    const before = endpointView();
    const after = endpointView({ overview: { ok: true, value: { chainId: '0x7a69', clientVersion: 'chain-mock-node/0.1.0', head: '0x7c' } } });
    assert.deepEqual(changes(before, after, { tag: 'latest', pendingRefreshes: 0 }, { tag: 'latest', pendingRefreshes: 0 }), { root: false, nodes: [] });
  });

  it('compares only the subtrees in scope', () => {
    const before = endpointView({ block: { ok: true, value: block({ number: '0x7c', transactions: [tx1] }) } });
    const after = endpointView({ block: { ok: true, value: block({ number: '0x7c', transactions: [tx1, tx2], gasUsed: '0xa410' }) } });
    const a = [endpointNode(before, pending, options)];
    const b = [endpointNode(after, pending, options)];
    const diff = (scope: string[]) => diffTrees(indexTree(a), indexTree(b), ['ep:mock'], ['ep:mock'], new Set(scope));
    assert.deepEqual(diff(['ep:mock/accounts']), { root: false, nodes: [] });
    assert.deepEqual(diff(['ep:mock/block/transactions']), { root: false, nodes: ['ep:mock/block/transactions'] });
    assert.deepEqual(diff(['ep:mock']), { root: false, nodes: ['ep:mock/block'] });
  });

  it('refreshes the whole tree when the endpoint list changes', () => {
    const a = [endpointNode(endpointView(), pending, options)];
    const b = [...a, endpointNode(endpointView({ id: 'ep:other', name: 'Other' }), pending, options)];
    assert.deepEqual(diffTrees(indexTree(a), indexTree(b), a.map((n) => n.id), b.map((n) => n.id)), { root: true, nodes: [] });
  });
});
