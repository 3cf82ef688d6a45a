// mock_reorg: replaced blocks, canonical eth_getLogs, safe/finalized never move back, removed:true
// notifications, and the seed's confirmed-log reader ending with exactly the canonical logs.
import assert from 'node:assert/strict';
import type { RunningMockNode } from '../../../mock-node/index';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';
import { waitUntil } from '../../helpers/wait';
import { blockWithTransfers, hex, sendTokenTransfer, TRANSFER_TOPIC } from '../profiles/helpers';
import { TestSocket } from '../websocket/wsClient';
import { ConfirmedLogReader, toStoredLog, type StoredLog } from './confirmedLogReader';

async function blockAt(node: RunningMockNode, n: number): Promise<any> {
  return rpc(node.url, 'eth_getBlockByNumber', [hex(n), false]);
}

/** One block with one transfer from each sender (distinct senders: no nonce order to keep). */
async function blockFromSenders(node: RunningMockNode, senders: number[]): Promise<string[]> {
  const hashes: string[] = [];
  for (const from of senders) hashes.push(await sendTokenTransfer(node, from, 9, BigInt(from + 1)));
  await rpc(node.url, 'evm_mine');
  return hashes;
}

describe('mock_reorg', () => {
  let node: RunningMockNode;
  beforeEach(async () => {
    node = await startTestNode({ safeDepth: 3, finalizedDepth: 5 });
  });
  afterEach(() => node.stop());

  it('replaces the newest blocks at the same heights: new hashes, same transactions in reverse order, canonical logs only', async () => {
    await rpc(node.url, 'evm_mine', [4]);
    const a = await blockFromSenders(node, [0, 1, 2]); // block 5
    const b = await blockFromSenders(node, [3, 4]); // block 6
    const before = [await blockAt(node, 5), await blockAt(node, 6)];
    const logsBefore = await rpc(node.url, 'eth_getLogs', [{ fromBlock: '0x5', toBlock: '0x6' }]);
    const result = await rpc(node.url, 'mock_reorg', [2]);
    assert.deepEqual(result.removed, before.map((block) => block.hash));
    assert.equal(await rpc(node.url, 'eth_blockNumber'), '0x6');
    const after = [await blockAt(node, 5), await blockAt(node, 6)];
    assert.deepEqual(result.added, after.map((block) => block.hash));
    for (let i = 0; i < 2; i++) assert.notEqual(after[i].hash, before[i].hash);
    assert.equal(after[0].parentHash, (await blockAt(node, 4)).hash);
    assert.equal(after[1].parentHash, after[0].hash);
    assert.deepEqual(after[0].transactions, [...a].reverse());
    assert.deepEqual(after[1].transactions, [...b].reverse());
    assert.equal(await rpc(node.url, 'eth_getBlockByHash', [before[0].hash, false]), null, 'an orphaned block is gone by hash');
    const logsAfter = await rpc(node.url, 'eth_getLogs', [{ fromBlock: '0x5', toBlock: '0x6' }]);
    assert.equal(logsAfter.length, logsBefore.length);
    assert.ok(logsAfter.every((log: any) => after.some((block) => block.hash === log.blockHash)), 'only canonical blocks');
    assert.deepEqual(logsAfter.map((log: any) => log.transactionHash), [...[...a].reverse(), ...[...b].reverse()]);
    const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [a[0]]);
    assert.equal(receipt.blockHash, after[0].hash);
    assert.equal(receipt.transactionIndex, '0x2');
    const orphanedByHash = await rpcError(node.url, 'eth_getLogs', [{ blockHash: before[0].hash }]);
    assert.equal(orphanedByHash.code, -32000);
  });

  it('an empty block still gets a new hash; order "same" keeps the order', async () => {
    await rpc(node.url, 'evm_mine', [3]);
    const txs = await blockWithTransfers(node, 2);
    const empty = await blockAt(node, 3);
    const full = await blockAt(node, 4);
    await rpc(node.url, 'mock_reorg', [2, { order: 'same' }]);
    assert.notEqual((await blockAt(node, 3)).hash, empty.hash);
    const replaced = await blockAt(node, 4);
    assert.notEqual(replaced.hash, full.hash);
    assert.deepEqual(replaced.transactions, txs);
    assert.equal(BigInt(replaced.timestamp), BigInt(full.timestamp) + 1n);
  });

  it('a transaction left out returns to the queue and lands in the pending block', async () => {
    await rpc(node.url, 'evm_mine', [3]);
    const txs = await blockWithTransfers(node, 3, 0, 1);
    const other = await sendTokenTransfer(node, 4, 5, 9n);
    await rpc(node.url, 'mock_flashblock'); // `other` is pre-confirmed when the reorg happens
    const result = await rpc(node.url, 'mock_reorg', [1, { leaveOut: [txs[1]] }]);
    assert.deepEqual(result.returned, [txs[1]]);
    const latest = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
    // txs[2] has the next nonce of the same sender: it waits for txs[1] and moves along with it
    assert.deepEqual(latest.transactions, [txs[0]]);
    const pending = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
    assert.deepEqual(new Set(pending.transactions), new Set([txs[1], txs[2], other]));
    const logs = await rpc(node.url, 'eth_getLogs', [{ fromBlock: 'latest', toBlock: 'latest' }]);
    assert.deepEqual(logs.map((log: any) => log.transactionHash), [txs[0]]);
    await rpc(node.url, 'evm_mine');
    assert.equal((await rpc(node.url, 'eth_getTransactionReceipt', [txs[1]])).status, '0x1');
    // a count leaves out the newest transactions
    const again = await rpc(node.url, 'mock_reorg', [1, { leaveOut: 1 }]);
    assert.equal(again.returned.length, 1);
  });

  it('state changes made by control methods (mock_mint, anvil_setBalance) are replayed in the new blocks and the pending block', async () => {
    await rpc(node.url, 'evm_mine', [3]);
    const fresh = '0x' + '5a'.repeat(20);
    await rpc(node.url, 'mock_mint', [node.accounts[6].address, 1000]);
    const spend = await sendTokenTransfer(node, 6, 7, 10_000_000_000n + 500n); // needs the minted units
    await rpc(node.url, 'evm_mine'); // block 4: mint, then the transfer
    await rpc(node.url, 'anvil_setBalance', [fresh, '0x77']); // in the pending block
    assert.equal((await rpc(node.url, 'eth_getTransactionReceipt', [spend])).status, '0x1');
    const before = await blockAt(node, 4);
    await rpc(node.url, 'mock_reorg', [1]);
    const after = await blockAt(node, 4);
    assert.notEqual(after.hash, before.hash);
    assert.equal(after.stateRoot, before.stateRoot, 'the same state: the mint was replayed before the transfer');
    assert.equal((await rpc(node.url, 'eth_getTransactionReceipt', [spend])).status, '0x1');
    assert.equal(await rpc(node.url, 'eth_getBalance', [fresh, 'pending']), '0x77');
  });

  it('safe and finalized never move back: a deeper reorg is refused with a clear error and changes nothing', async () => {
    await rpc(node.url, 'evm_mine', [10]);
    const safe = await rpc(node.url, 'eth_getBlockByNumber', ['safe', false]);
    const finalized = await rpc(node.url, 'eth_getBlockByNumber', ['finalized', false]);
    const head = await blockAt(node, 10);
    const refused = await rpcError(node.url, 'mock_reorg', [4]);
    assert.equal(refused.code, -32000);
    assert.equal(
      refused.message,
      'reorg depth 4 refused: it would replace block 7, at or below the safe block 7 (safe trails latest by 3, finalized by 5); the deepest reorg allowed now is 3',
    );
    assert.deepEqual(refused.data, { depth: 4, maxDepth: 3, safe: 7, finalized: 5, latest: 10 });
    assert.equal((await blockAt(node, 10)).hash, head.hash, 'nothing changed');
    await rpc(node.url, 'mock_reorg', [3]);
    assert.equal((await rpc(node.url, 'eth_getBlockByNumber', ['safe', false])).hash, safe.hash);
    assert.equal((await rpc(node.url, 'eth_getBlockByNumber', ['finalized', false])).hash, finalized.hash);
    assert.notEqual((await blockAt(node, 8)).hash, undefined);
    assert.equal((await rpcError(node.url, 'mock_reorg', [0])).code, -32602);
    const young = await startTestNode({ safeDepth: 10 });
    try {
      await rpc(young.url, 'evm_mine', [2]);
      assert.match((await rpcError(young.url, 'mock_reorg', [3])).message, /deepest reorg allowed now is 2/, 'genesis is never replaced');
    } finally {
      await young.stop();
    }
  });

  it('a logs subscription gets removed: true for the orphaned logs, then the new ones; newHeads gets the new heads', async () => {
    const socket = await TestSocket.open(node.wsUrl);
    try {
      const logs = await socket.subscribe('logs', { topics: [TRANSFER_TOPIC] });
      const heads = await socket.subscribe('newHeads');
      await rpc(node.url, 'evm_mine', [3]);
      await blockWithTransfers(node, 2, 0, 1); // block 4
      await blockWithTransfers(node, 1, 2, 3); // block 5
      await socket.until(() => socket.of(logs).length === 3, 5000, 'first logs');
      const original = socket.of(logs).slice();
      await rpc(node.url, 'mock_reorg', [2]);
      await socket.until(() => socket.of(logs).length === 9, 5000, 'removed and new logs');
      const removed = socket.of(logs).slice(3, 6);
      const added = socket.of(logs).slice(6);
      assert.deepEqual(removed, original.map((log) => ({ ...log, removed: true })), 'the orphaned logs, as first sent, with removed: true');
      assert.ok(added.every((log) => log.removed === false));
      const canonical = await rpc(node.url, 'eth_getLogs', [{ fromBlock: '0x4', toBlock: '0x5' }]);
      assert.deepEqual(added, canonical);
      await socket.until(() => socket.of(heads).length === 7, 5000, 'new heads');
      assert.deepEqual(socket.of(heads).slice(5).map((head) => head.hash), [(await blockAt(node, 4)).hash, (await blockAt(node, 5)).hash]);
    } finally {
      socket.close();
    }
  });
});

describe('evm_revert and log subscribers', () => {
  it('reverting to a snapshot sends removed: true for the logs of the dropped blocks', async () => {
    const node = await startTestNode();
    const socket = await TestSocket.open(node.wsUrl);
    try {
      const logs = await socket.subscribe('logs', {});
      const snapshot = await rpc(node.url, 'evm_snapshot');
      await blockWithTransfers(node, 2);
      await socket.until(() => socket.of(logs).length === 2, 5000, 'logs');
      assert.equal(await rpc(node.url, 'evm_revert', [snapshot]), true);
      await socket.until(() => socket.of(logs).length === 4, 5000, 'removed logs');
      assert.deepEqual(socket.of(logs).slice(2), socket.of(logs).slice(0, 2).map((log) => ({ ...log, removed: true })));
    } finally {
      socket.close();
      await node.stop();
    }
  });
});

describe('mock_reorg in auto mode', () => {
  it('runs between ticks of the builder: the chain keeps growing and every log stays canonical', async () => {
    const node = await startTestNode({ auto: true, flashblockMs: 20, blockTimeMs: 100, safeDepth: 5 });
    try {
      const socket = await TestSocket.open(node.wsUrl);
      const logs = await socket.subscribe('logs', { topics: [TRANSFER_TOPIC] });
      const sent: string[] = [];
      const headNow = async () => Number(BigInt(await rpc(node.url, 'eth_blockNumber')));
      /** Every sent transfer in a sealed block; answers the head. */
      const allSealed = async () => {
        const head = await headNow();
        const receipts = await Promise.all(sent.map((hash) => rpc(node.url, 'eth_getTransactionReceipt', [hash])));
        return receipts.every((r) => r && Number(BigInt(r.blockNumber)) <= head) ? head : undefined;
      };
      for (let i = 0; i < 12; i++) {
        sent.push(await sendTokenTransfer(node, i % 5, 9, BigInt(i + 1)));
        if (i % 3 === 2) {
          // Spread the transfers over blocks: the next ones go out once a new block has sealed.
          const from = await headNow();
          await waitUntil('a new block', async () => (await headNow()) > from);
        }
      }
      await waitUntil('every transfer sealed', allSealed);
      const result = await rpc(node.url, 'mock_reorg', [3]);
      assert.equal(result.removed.length, 3);
      const head = await waitUntil('every transfer sealed again after the reorg', allSealed);
      const canonical = await rpc(node.url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: hex(head) }]);
      assert.deepEqual(new Set(canonical.map((log: any) => log.transactionHash)), new Set(sent), 'each transfer logged once');
      for (const log of canonical) assert.equal((await blockAt(node, Number(BigInt(log.blockNumber)))).hash, log.blockHash);
      // The socket's view: adding non-removed and dropping removed logs gives the canonical set.
      await socket.until(() => socket.of(logs).filter((l) => !l.removed).length - socket.of(logs).filter((l) => l.removed).length >= canonical.length, 5000, 'logs');
      const live = new Map<string, any>();
      for (const log of socket.of(logs)) {
        const key = `${log.blockHash}:${log.logIndex}`;
        if (log.removed) live.delete(key);
        else live.set(key, log);
      }
      const upToHead = [...live.values()].filter((log) => Number(BigInt(log.blockNumber)) <= head);
      assert.deepEqual(upToHead.sort((a, b) => Number(BigInt(a.blockNumber) - BigInt(b.blockNumber)) || Number(BigInt(a.logIndex) - BigInt(b.logIndex))), canonical);
      socket.close();
    } finally {
      await node.stop();
    }
  });
});

describe('the confirmed-log reader pattern against reorgs', () => {
  it('holding for a depth and rescanning an overlapping range ends with exactly the canonical logs', async function () {
    this.timeout(60_000);
    const node = await startTestNode({ safeDepth: 6, finalizedDepth: 12 });
    try {
      const filter = { address: node.tokenAddress, topics: [TRANSFER_TOPIC] };
      const reader = new ConfirmedLogReader(node.url, filter, 2, 6);
      const naive = new ConfirmedLogReader(node.url, filter, 2, 0); // no overlap: cannot repair
      let seed = 7;
      const random = (n: number) => {
        // mulberry32: a small deterministic generator
        seed = (seed + 0x6d2b79f5) | 0;
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return (((t ^ (t >>> 14)) >>> 0) % n);
      };
      let reorgs = 0;
      for (let round = 0; round < 40; round++) {
        const count = random(4);
        for (let i = 0; i < count; i++) await sendTokenTransfer(node, random(10), random(10), BigInt(1 + random(1000)));
        await rpc(node.url, 'evm_mine');
        if (round > 8 && random(3) === 0) {
          const leaveOut = random(2);
          await rpc(node.url, 'mock_reorg', [1 + random(4), { leaveOut }]);
          reorgs++;
        }
        await reader.poll();
        await naive.poll();
      }
      // Quiet chain: let everything reach the depth, then a final poll.
      await rpc(node.url, 'evm_mine', [3]);
      await reader.poll();
      await naive.poll();
      const head = Number(BigInt(await rpc(node.url, 'eth_blockNumber')));
      const canonical: StoredLog[] = (await rpc<any[]>(node.url, 'eth_getLogs', [{ ...filter, fromBlock: '0x0', toBlock: hex(head - 2) }])).map(toStoredLog);
      console.log(
        `      ${reorgs} reorgs; reader replaced ${reader.replacedRows} orphaned rows; ${canonical.length} canonical logs; ` +
          `naive reader (no overlap) holds ${naive.stored().filter((row) => !canonical.some((c) => c.blockHash === row.blockHash && c.logIndex === row.logIndex)).length} orphaned rows`,
      );
      assert.ok(reorgs >= 3);
      assert.ok(reader.replacedRows > 0, 'some stored rows were orphaned and replaced');
      assert.deepEqual(reader.stored(), canonical);
      assert.notDeepEqual(naive.stored(), canonical, 'without the overlapping rescan the store keeps orphaned rows');
    } finally {
      await node.stop();
    }
  });
});
