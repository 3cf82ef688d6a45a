// Polling filters and flashblocks (what Anvil cannot show, so not in the drop-in suite): a log
// filter to `pending` reports each log once when a flashblock pre-confirms it and not again at the
// seal; a revert or a reorg reports the dropped logs again with removed: true; block and
// pending-transaction filters; the bound on their number; expiry after 5 minutes without a poll
// (a hand-run clock); a filter that falls too far behind.
import assert from 'node:assert/strict';
import type { RunningMockNode } from '../../../mock-node/index';
import { PollingFilters } from '../../../mock-node/rpc/pollingFilters';
import { parseLogFilter } from '../../../mock-node/rpc/methods/logs';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';
import { sendTokenTransfer, TRANSFER_TOPIC } from '../profiles/helpers';

describe('polling filters (eth_newFilter and the like) with flashblocks', () => {
  let node: RunningMockNode;
  beforeEach(async () => {
    node = await startTestNode({ safeDepth: 2, finalizedDepth: 2, maxFilters: 4 });
  });
  afterEach(() => node.stop());

  const changes = (id: string) => rpc<any[]>(node.url, 'eth_getFilterChanges', [id]);

  it('to pending: a log once when its flashblock is cut, not again when its block seals', async () => {
    const pendingFilter = await rpc(node.url, 'eth_newFilter', [{ fromBlock: 'latest', toBlock: 'pending', topics: [TRANSFER_TOPIC] }]);
    const latestFilter = await rpc(node.url, 'eth_newFilter', [{ topics: [TRANSFER_TOPIC] }]);
    const pendingOnly = await rpc(node.url, 'eth_newFilter', [{ fromBlock: 'pending', toBlock: 'pending' }]);
    const hash = await sendTokenTransfer(node, 1, 2, 5n);
    assert.deepEqual(await changes(pendingFilter), [], 'nothing before the flashblock');
    await rpc(node.url, 'mock_flashblock');
    const pending = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
    const first = await changes(pendingFilter);
    assert.equal(first.length, 1);
    assert.equal(first[0].transactionHash, hash);
    assert.equal(first[0].blockNumber, pending.number);
    assert.equal(first[0].blockHash, pending.hash, 'the partial block\'s hash (--pending-identity partial)');
    assert.equal(first[0].removed, false);
    assert.deepEqual(await changes(latestFilter), [], 'a filter to latest waits for the seal');
    assert.equal((await changes(pendingOnly)).length, 1);
    await rpc(node.url, 'evm_mine');
    assert.deepEqual(await changes(pendingFilter), [], 'not reported twice at the seal');
    assert.deepEqual(await changes(pendingOnly), []);
    const sealed = await changes(latestFilter);
    assert.equal(sealed.length, 1);
    const block = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
    assert.equal(sealed[0].blockHash, block.hash);
    // eth_getFilterLogs answers as eth_getLogs with the filter.
    assert.deepEqual(await rpc(node.url, 'eth_getFilterLogs', [pendingFilter]), await rpc(node.url, 'eth_getLogs', [{ fromBlock: 'latest', toBlock: 'pending', topics: [TRANSFER_TOPIC] }]));
  });

  it('evm_revert: pre-confirmed and sealed logs come back with removed: true, exactly as reported', async () => {
    const filter = await rpc(node.url, 'eth_newFilter', [{ fromBlock: 'latest', toBlock: 'pending' }]);
    const snapshot = await rpc(node.url, 'evm_snapshot');
    await sendTokenTransfer(node, 1, 2, 5n);
    await rpc(node.url, 'evm_mine');
    await sendTokenTransfer(node, 3, 2, 6n);
    await rpc(node.url, 'mock_flashblock');
    const reported = await changes(filter);
    assert.equal(reported.length, 2);
    assert.equal(await rpc(node.url, 'evm_revert', [snapshot]), true);
    const removed = await changes(filter);
    assert.deepEqual(removed, reported.map((log) => ({ ...log, removed: true })));
    // Both transactions were sent after the snapshot, so the revert drops them: nothing comes back.
    await rpc(node.url, 'mock_flashblock');
    assert.deepEqual(await changes(filter), []);
  });

  it('mock_reorg: the replaced block\'s logs with removed: true, then the new block\'s', async () => {
    await rpc(node.url, 'evm_mine', [3]);
    const filter = await rpc(node.url, 'eth_newFilter', [{ topics: [TRANSFER_TOPIC] }]);
    const hash = await sendTokenTransfer(node, 1, 2, 5n);
    await rpc(node.url, 'evm_mine');
    const [log] = await changes(filter);
    assert.equal(log.transactionHash, hash);
    const reorg = await rpc(node.url, 'mock_reorg', [1]);
    const after = await changes(filter);
    assert.equal(after.length, 2);
    assert.deepEqual(after[0], { ...log, removed: true });
    assert.equal(after[1].transactionHash, hash);
    assert.equal(after[1].removed, false);
    assert.equal(after[1].blockHash, reorg.added[0]);
  });

  it('block filters report sealed hashes; pending-transaction filters report hashes as they are queued', async () => {
    const blocks = await rpc(node.url, 'eth_newBlockFilter');
    const pool = await rpc(node.url, 'eth_newPendingTransactionFilter');
    const hash = await sendTokenTransfer(node, 1, 2, 5n);
    assert.deepEqual(await changes(pool), [hash], 'before any flashblock');
    assert.deepEqual(await changes(blocks), []);
    await rpc(node.url, 'evm_mine', [2]);
    const head = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
    const got = await changes(blocks);
    assert.equal(got.length, 2);
    assert.equal(got[1], head.hash);
    assert.equal(got[0], head.parentHash);
    assert.deepEqual(await changes(pool), []);
  });

  it('the number of filters is bounded: -32005 past it, room again after eth_uninstallFilter; bad ids', async () => {
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await rpc(node.url, 'eth_newBlockFilter'));
    const refused = await rpcError(node.url, 'eth_newFilter', [{}]);
    assert.equal(refused.code, -32005);
    assert.match(refused.message, /too many filters: this node keeps at most 4 \(--max-filters\)/);
    assert.equal(await rpc(node.url, 'eth_uninstallFilter', [ids[0]]), true);
    assert.equal(await rpc(node.url, 'eth_uninstallFilter', [ids[0]]), false);
    await rpc(node.url, 'eth_newPendingTransactionFilter');
    assert.deepEqual(await rpcError(node.url, 'eth_getFilterChanges', [ids[0]]), { code: -32000, message: 'filter not found', status: 200 });
    assert.equal((await rpcError(node.url, 'eth_getFilterChanges', [7])).code, -32602);
    assert.equal((await rpcError(node.url, 'eth_getFilterLogs', [ids[1]])).message, 'filter not found', 'a block filter has no logs');
    assert.equal((await rpcError(node.url, 'eth_newFilter', [{ fromBlock: 'pending', toBlock: 'latest' }])).code, -32602);
    assert.equal((await rpcError(node.url, 'eth_newFilter', [{ fromBlock: '0x5', toBlock: '0x4' }])).code, -32602);
  });

  it('a filter not polled for 5 minutes expires; polling keeps it (hand-run clock)', async () => {
    let now = 1_000_000;
    const chain = node.core.services.chain;
    const filters = new PollingFilters(chain, { maxFilters: 10, identity: () => 'partial', now: () => now });
    try {
      const polled = filters.newBlockFilter();
      const idle = filters.newLogFilter(parseLogFilter({}));
      now += 4 * 60_000;
      assert.deepEqual(filters.changes(polled), []);
      now += 60_000 + 1; // idle: 5 min + 1 ms without a poll; polled: 1 min
      assert.throws(() => filters.changes(idle), /filter not found/);
      assert.deepEqual(filters.changes(polled), []);
      assert.equal(filters.size, 1);
      now += 5 * 60_000 + 1;
      assert.equal(filters.size, 0);
    } finally {
      filters.dispose();
    }
  });

  it('a filter that falls more than its backlog behind is removed, and its next poll says why', async () => {
    const chain = node.core.services.chain;
    const filters = new PollingFilters(chain, { maxFilters: 10, identity: () => 'partial', maxBacklog: 3 });
    try {
      const id = filters.newBlockFilter();
      await rpc(node.url, 'evm_mine', [3]);
      assert.equal(filters.changes(id).length, 3, 'exactly the backlog is kept');
      await rpc(node.url, 'evm_mine', [4]);
      assert.throws(() => filters.changes(id), /was removed: more than 3 changes waited for a poll/);
      assert.throws(() => filters.changes(id), /filter not found/);
    } finally {
      filters.dispose();
    }
  });
});
