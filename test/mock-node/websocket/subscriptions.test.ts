// WebSocket on the same port and paths: ordinary JSON-RPC, every eth_subscribe kind, unsubscribe,
// and a slow consumer that is closed without slowing anyone else.
import assert from 'node:assert/strict';
import type { RunningMockNode } from '../../../mock-node/index';
import { post, rpc, startTestNode } from '../../helpers/rpc';
import { sendTokenTransfer, transferData, TRANSFER_TOPIC } from '../profiles/helpers';
import { TestSocket } from './wsClient';

function wsUrl(httpUrl: string): string {
  return httpUrl.replace(/^http/, 'ws');
}

describe('WebSocket', () => {
  let node: RunningMockNode;
  let socket: TestSocket;
  beforeEach(async () => {
    node = await startTestNode();
    socket = await TestSocket.open(node.wsUrl);
  });
  afterEach(async () => {
    socket.close();
    await node.stop();
  });

  describe('ordinary JSON-RPC over the socket', () => {
    it('single calls and batches go through the same handler as HTTP', async () => {
      assert.equal(await socket.call('eth_chainId'), '0x7a69');
      const batch = await socket.raw(
        [
          { jsonrpc: '2.0', id: 'a', method: 'eth_blockNumber', params: [] },
          { jsonrpc: '2.0', id: 'b', method: 'eth_chainId', params: [] },
        ],
        'a',
      );
      assert.deepEqual(batch.map((r: any) => r.result), ['0x0', '0x7a69']);
      const parse = await new Promise<any>((resolve) => {
        socket.ws.once('message', (data) => resolve(JSON.parse(data.toString())));
        socket.ws.send('{not json');
      });
      assert.equal(parse.error.code, -32700);
    });

    it('the public socket refuses eth_getBlockReceipts with -32004; the dedicated socket serves it', async () => {
      const refused = await socket.raw({ jsonrpc: '2.0', id: 9, method: 'eth_getBlockReceipts', params: ['latest'] }, 9);
      assert.equal(refused.error.code, -32004);
      const dedicated = await TestSocket.open(node.dedicatedWsUrl);
      assert.equal(node.dedicatedWsUrl, wsUrl(node.dedicatedUrl));
      try {
        assert.deepEqual(await dedicated.call('eth_getBlockReceipts', ['pending']), []);
      } finally {
        dedicated.close();
      }
    });

    it('a wrong key is refused with HTTP 401 before the upgrade; eth_subscribe over HTTP says to use a socket', async () => {
      await assert.rejects(TestSocket.open(wsUrl(node.dedicatedUrl) + 'x'), (error: any) => error.status === 401);
      const reply = await post(node.url, { jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] });
      assert.equal(reply.body.error.code, -32601);
      assert.match(reply.body.error.message, /notifications not supported/);
    });
  });

  describe('subscriptions', () => {
    it('newHeads: one header per sealed block, the same hash as eth_getBlockByNumber', async () => {
      const id = await socket.subscribe('newHeads');
      assert.match(id, /^0x[0-9a-f]{32}$/);
      await rpc(node.url, 'evm_mine', [2]);
      await socket.until(() => socket.of(id).length === 2, 5000, 'two heads');
      const heads = socket.of(id);
      for (const [i, head] of heads.entries()) {
        const block = await rpc(node.url, 'eth_getBlockByNumber', ['0x' + (i + 1).toString(16), false]);
        assert.equal(head.number, block.number);
        assert.equal(head.hash, block.hash);
        assert.equal(head.stateRoot, block.stateRoot);
        assert.ok(!('transactions' in head));
      }
    });

    it('logs: matching logs of each sealed block, one per message, as eth_getLogs returns them', async () => {
      const all = await socket.subscribe('logs', { address: node.tokenAddress, topics: [TRANSFER_TOPIC] });
      const none = await socket.subscribe('logs', { topics: ['0x' + '11'.repeat(32)] });
      const fromOne = await socket.subscribe('logs', { topics: [TRANSFER_TOPIC, '0x' + node.accounts[1].address.slice(2).toLowerCase().padStart(64, '0')] });
      await sendTokenTransfer(node, 0, 2, 5n);
      await sendTokenTransfer(node, 1, 2, 6n);
      await rpc(node.url, 'mock_flashblock');
      assert.equal(socket.of(all).length, 0, 'nothing before the block seals');
      await rpc(node.url, 'evm_mine');
      await socket.until(() => socket.of(all).length === 2 && socket.of(fromOne).length === 1, 5000, 'logs');
      const expected = await rpc(node.url, 'eth_getLogs', [{ fromBlock: 'latest', toBlock: 'latest' }]);
      assert.deepEqual(socket.of(all), expected);
      assert.deepEqual(socket.of(fromOne), [expected[1]]);
      assert.equal(socket.of(none).length, 0);
      assert.equal(socket.of(all)[0].removed, false);
    });

    it('newPendingTransactions: the hash when queued, or the transaction with true', async () => {
      const hashes = await socket.subscribe('newPendingTransactions');
      const full = await socket.subscribe('newPendingTransactions', true);
      const hash = await rpc(node.url, 'eth_sendTransaction', [{ from: node.accounts[0].address, to: node.accounts[1].address, value: '0x1' }]);
      await socket.until(() => socket.of(hashes).length === 1 && socket.of(full).length === 1, 5000, 'pending tx');
      assert.deepEqual(socket.of(hashes), [hash]);
      assert.equal(socket.of(full)[0].hash, hash);
      assert.equal(socket.of(full)[0].from, node.accounts[0].address.toLowerCase());
      assert.equal(socket.of(full)[0].blockHash, null);
    });

    it('pendingLogs: the newest flashblock\'s matching logs, one per message, delivered with the flashblock that holds them', async () => {
      const filtered = await socket.subscribe('pendingLogs', { address: node.tokenAddress, topics: [TRANSFER_TOPIC] });
      const other = await socket.subscribe('pendingLogs', { address: '0x' + '22'.repeat(20) });
      const a = await sendTokenTransfer(node, 0, 1, 1n);
      await rpc(node.url, 'mock_flashblock');
      await socket.until(() => socket.of(filtered).length === 1, 5000, 'first pending log');
      assert.equal(socket.of(filtered)[0].transactionHash, a);
      const b = await sendTokenTransfer(node, 2, 1, 2n);
      const c = await sendTokenTransfer(node, 3, 1, 3n);
      await rpc(node.url, 'mock_flashblock');
      await socket.until(() => socket.of(filtered).length === 3, 5000, 'second flashblock logs');
      assert.deepEqual(socket.of(filtered).slice(1).map((log) => log.transactionHash), [b, c], 'only the newest flashblock\'s logs');
      const pendingLogs = await rpc(node.url, 'eth_getLogs', [{ fromBlock: 'pending', toBlock: 'pending' }]);
      // The first log's pending block hash was that of the flashblock it arrived in (partial identity).
      const { blockHash: _old, ...firstWithoutHash } = socket.of(filtered)[0];
      const { blockHash: _now, ...expectedWithoutHash } = pendingLogs[0];
      assert.deepEqual(firstWithoutHash, expectedWithoutHash);
      assert.deepEqual(socket.of(filtered).slice(1), pendingLogs.slice(1));
      await rpc(node.url, 'mock_flashblock');
      assert.equal(socket.of(other).length, 0);
    });

    it('newFlashblocks: the accumulated pending block with full transactions, once per flashblock', async () => {
      const id = await socket.subscribe('newFlashblocks');
      const a = await sendTokenTransfer(node, 0, 1, 1n);
      await rpc(node.url, 'mock_flashblock');
      const b = await sendTokenTransfer(node, 1, 0, 1n);
      await rpc(node.url, 'mock_flashblock');
      await socket.until(() => socket.of(id).length === 2, 5000, 'two flashblocks');
      const [first, second] = socket.of(id);
      assert.equal(first.number, second.number);
      assert.deepEqual(first.transactions.map((tx: any) => tx.hash), [a]);
      assert.deepEqual(second.transactions.map((tx: any) => tx.hash), [a, b]);
      assert.ok(BigInt(second.gasUsed) > BigInt(first.gasUsed));
      const pending = await rpc(node.url, 'eth_getBlockByNumber', ['pending', true]);
      assert.deepEqual(second, pending);
    });

    it('newFlashblockTransactions: hashes, or with true the transaction with its logs and receipt fields', async () => {
      const hashes = await socket.subscribe('newFlashblockTransactions');
      const full = await socket.subscribe('newFlashblockTransactions', true);
      const a = await sendTokenTransfer(node, 0, 1, 7n);
      const b = await rpc(node.url, 'eth_sendTransaction', [{ from: node.accounts[2].address, to: node.accounts[3].address, value: '0x5' }]);
      await rpc(node.url, 'mock_flashblock');
      await socket.until(() => socket.of(full).length === 2, 5000, 'flashblock transactions');
      assert.deepEqual(socket.of(hashes), [a, b]);
      const [withLog, plain] = socket.of(full);
      assert.equal(withLog.hash, a);
      assert.equal(withLog.status, '0x1');
      assert.equal(withLog.logs.length, 1);
      assert.equal(withLog.logs[0].topics[0], TRANSFER_TOPIC);
      const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [a]);
      for (const field of ['gasUsed', 'cumulativeGasUsed', 'effectiveGasPrice', 'logsBloom', 'status']) assert.equal(withLog[field], receipt[field], field);
      assert.equal(plain.hash, b);
      assert.deepEqual(plain.logs, []);
      assert.equal(plain.transactionIndex, '0x1');
    });

    it('eth_unsubscribe stops a subscription; only its owner can end it; unknown kinds are -32602', async () => {
      const id = await socket.subscribe('newHeads');
      const other = await TestSocket.open(node.wsUrl);
      try {
        assert.equal(await other.call('eth_unsubscribe', [id]), false);
      } finally {
        other.close();
      }
      assert.equal(await socket.call('eth_unsubscribe', [id]), true);
      assert.equal(await socket.call('eth_unsubscribe', [id]), false);
      const probe = await socket.subscribe('newHeads');
      await rpc(node.url, 'evm_mine');
      await socket.until(() => socket.of(probe).length === 1, 5000, 'probe head');
      assert.equal(socket.of(id).length, 0);
      await assert.rejects(socket.subscribe('syncing'), (error: any) => error.code === -32602 && /no "syncing" subscription/.test(error.message));
      await assert.rejects(socket.subscribe('logs', { fromBlock: '0x1' }), (error: any) => error.code === -32602);
    });
  });

  describe('auto mode (flashblocks every 50 ms)', () => {
    it('pendingLogs: a sent transfer\'s log arrives with the first flashblock that holds it, within two flashblocks of the send', async () => {
      const auto = await startTestNode({ auto: true, flashblockMs: 50, blockTimeMs: 500 });
      const live = await TestSocket.open(auto.wsUrl);
      try {
        const flashblocks = await live.subscribe('newFlashblocks');
        const logs = await live.subscribe('pendingLogs', { topics: [TRANSFER_TOPIC] });
        const data = transferData(auto, 1, 1n);
        const samples: number[] = [];
        for (let round = 0; round < 5; round++) {
          const sentAt = performance.now();
          const { id, result: hash } = await live.callWithId('eth_sendTransaction', [{ from: auto.accounts[0].address, to: auto.tokenAddress, data }]);
          await live.until(() => live.of(logs).some((log) => log.transactionHash === hash), 5000, 'pending log');
          samples.push(performance.now() - sentAt);
          const after = live.all.slice(live.replyPositions.get(id)!);
          const logAt = after.findIndex((n) => n.subscription === logs && n.result.transactionHash === hash);
          const flashblocksBefore = after.slice(0, logAt).filter((n) => n.subscription === flashblocks);
          assert.ok(flashblocksBefore.length >= 1 && flashblocksBefore.length <= 2, `${flashblocksBefore.length} flashblocks before the log`);
          const holding = flashblocksBefore[flashblocksBefore.length - 1].result;
          assert.ok(holding.transactions.some((tx: any) => tx.hash === hash), 'the flashblock right before the log holds the transaction');
        }
        console.log(`      send -> pendingLogs notification: ${samples.map((ms) => ms.toFixed(1)).join(', ')} ms (flashblock 50 ms)`);
      } finally {
        live.close();
        await auto.stop();
      }
    });
  });

  describe('a large event', () => {
    it('does not close a socket that keeps up, even when one event is larger than the buffer limit', async () => {
      const small = await startTestNode({ wsMaxBufferedBytes: 16 * 1024 });
      const reader = await TestSocket.open(small.wsUrl);
      try {
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) ids.push(await reader.subscribe('newFlashblocks'));
        for (let round = 0; round < 3; round++) {
          for (let i = 0; i < 20; i++) await sendTokenTransfer(small, i % 10, (i + 3) % 10, 1n);
          await rpc(small.url, 'mock_flashblock');
          await reader.until(() => reader.of(ids[4]).length === round + 1, 5000, 'the flashblock on every subscription');
        }
        const size = JSON.stringify(reader.of(ids[0])[2]).length;
        console.log(`      one event: 5 x ${size} bytes against a 16384-byte limit; socket still open`);
        assert.ok(size * 5 > 16 * 1024, 'the event is larger than the limit');
        assert.equal(reader.closed, undefined);
        assert.equal(small.websocket.stats().closedSlowConsumers, 0);
      } finally {
        reader.close();
        await small.stop();
      }
    });
  });

  describe('a slow consumer', () => {
    it('is closed with 1008 and a clear reason once its buffer passes the limit; other sockets keep up', async () => {
      const small = await startTestNode({ wsMaxBufferedBytes: 64 * 1024 });
      const slow = await TestSocket.open(small.wsUrl);
      const healthy = await TestSocket.open(small.wsUrl);
      try {
        for (let i = 0; i < 20; i++) await slow.subscribe('newFlashblocks');
        const watch = await healthy.subscribe('newFlashblocks');
        for (let i = 0; i < 10; i++) await sendTokenTransfer(small, i % 10, (i + 1) % 10, 1n);
        (slow.ws as any)._socket.pause(); // stop reading: the node's send buffer for it grows
        let cuts = 0;
        while (small.websocket.stats().closedSlowConsumers === 0 && cuts < 3000) {
          await rpc(small.url, 'mock_flashblock');
          cuts++;
        }
        const stats = small.websocket.stats();
        console.log(`      slow consumer closed after ${cuts} flashblocks; stats ${JSON.stringify(stats)}`);
        assert.equal(stats.closedSlowConsumers, 1);
        await healthy.until(() => healthy.of(watch).length === cuts, 10000, 'healthy socket keeps every flashblock');
        (slow.ws as any)._socket.resume();
        await slow.until(() => slow.closed !== undefined, 40000, 'close frame');
        assert.equal(slow.closed!.code, 1008);
        assert.equal(slow.closed!.reason, 'slow consumer: more than 65536 bytes waiting to be sent');
        assert.equal(small.websocket.stats().subscriptions, 1, 'the slow socket\'s subscriptions are gone');
      } finally {
        slow.close();
        healthy.close();
        await small.stop();
      }
    });
  });
});
