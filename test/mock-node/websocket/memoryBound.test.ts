// WebSocket memory stays bounded whatever clients do (loopback only, bounded in count and time):
// 1,000 sockets that never read, five subscriptions each, under 30 transactions per second; a
// socket that sends requests and never reads the replies; more connections than allowed. The node
// closes what falls behind with clear close codes and its heap plus buffers stay under a stated
// bound, while a client that reads keeps getting every flashblock.
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { Socket } from 'node:net';
import { CLOSE_GRACE_MS, OVER_CAPACITY_CLOSE_CODE } from '../../../mock-node/rpc/websocket/gateway';
import { clientTextFrame, rawUpgrade } from '../../helpers/rawHttp';
import { rpc, sleep, startTestNode } from '../../helpers/rpc';
import { sendTokenTransfer } from '../profiles/helpers';
import { TestSocket } from './wsClient';

const MiB = 1024 * 1024;
/** The stated bound: live heap + buffers grow by less than this over the whole run (twice the default total cap of 64 MiB). */
const BOUND_BYTES = 128 * MiB;
const SOCKETS = 1000;
const RUN_MS = 20_000;
const CALL_DATA = '0x' + 'ab'.repeat(4096);

// Live memory, not garbage waiting for a collection: a full collection before each reading.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

function memory(): number {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

/** A WebSocket that subscribes (raw frames) and then never reads again. */
async function nonReadingSocket(url: string, subscriptions: unknown[][]): Promise<Socket> {
  const { status, socket } = await rawUpgrade(url, '/');
  if (status !== 101) throw new Error(`upgrade answered ${status}`);
  socket.on('error', () => undefined);
  subscriptions.forEach((params, i) => socket.write(clientTextFrame(JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'eth_subscribe', params }))));
  socket.pause();
  return socket;
}

describe('WebSocket memory is bounded', function () {
  this.timeout(120_000);

  it(`${SOCKETS} sockets that never read, 5 subscriptions each, 30 tx/s for ${RUN_MS / 1000} s: heap + buffers grow < ${BOUND_BYTES / MiB} MiB, a reader keeps up`, async () => {
    const node = await startTestNode({ auto: true, wsMaxConnections: SOCKETS + 10 });
    const sockets: Socket[] = [];
    const reader = await TestSocket.open(node.wsUrl);
    let sampler: NodeJS.Timeout | undefined;
    try {
      const watch = await reader.subscribe('newFlashblocks');
      const kinds = [['newHeads'], ['logs', {}], ['newPendingTransactions', true], ['pendingLogs', {}], ['newFlashblocks']];
      for (let i = 0; i < SOCKETS; i += 50) {
        sockets.push(...await Promise.all(Array.from({ length: 50 }, () => nonReadingSocket(node.wsUrl, kinds))));
      }
      await waitFor(() => node.websocket.stats().subscriptions >= SOCKETS * 5 + 1, 30_000, 'every subscription');
      const baseline = memory();
      let peak = 0;
      sampler = setInterval(() => {
        peak = Math.max(peak, memory() - baseline);
      }, 500);
      const started = Date.now();
      let sent = 0;
      // 30 transactions a second with 4 KiB of call data each (as fast as the node takes them, at
      // most), so every socket is sent far more than the kernel's socket buffers hold within the
      // run (each flashblock event carries the pending block so far): without the node's own bounds
      // its buffers pass the bound within seconds. Stop at once if the bound breaks.
      while (Date.now() - started < RUN_MS && peak <= BOUND_BYTES) {
        const tick = Date.now();
        await rpc(node.url, 'eth_sendTransaction', [{ from: node.accounts[sent % 10].address, to: node.accounts[(sent + 1) % 10].address, data: CALL_DATA }]);
        sent++;
        await sleep(Math.max(0, 33 - (Date.now() - tick)));
      }
      clearInterval(sampler);
      peak = Math.max(peak, memory() - baseline);
      const seconds = (Date.now() - started) / 1000;
      const stats = node.websocket.stats();
      console.log(`      ${sent} transactions in ${seconds.toFixed(1)} s; peak growth of live heap + buffers ${(peak / MiB).toFixed(1)} MiB (bound ${BOUND_BYTES / MiB} MiB); ` +
        `waiting in the node ${(stats.bufferedBytes / MiB).toFixed(1)} MiB; closed ${stats.closedSlowConsumers} slow (1008), ${stats.closedOverCapacity} over the total (1013)`);
      assert.ok(peak <= BOUND_BYTES, `live heap + buffers grew past ${BOUND_BYTES / MiB} MiB`);
      // Sockets closed over the cap hold their buffers until they take the close or the grace period cuts them off.
      await waitFor(() => node.websocket.stats().bufferedBytes <= node.options.wsMaxTotalBufferedBytes, CLOSE_GRACE_MS + 5000, 'what waits in the node to be under its total cap');
      assert.equal(await rpc(node.url, 'eth_chainId'), '0x7a69', 'HTTP is served');
      const seen = reader.of(watch).length;
      await reader.until(() => reader.of(watch).length > seen, 30_000, 'one more flashblock on the reading socket');
      assert.equal(reader.closed, undefined, 'the reading socket stayed open');
    } finally {
      clearInterval(sampler);
      for (const socket of sockets) socket.destroy();
      reader.close();
      await node.stop();
    }
  });

  it('over --ws-max-total-buffered-bytes, the sockets holding the most are closed with 1013 until under it; a reader stays', async () => {
    const cap = 512 * 1024;
    const node = await startTestNode({ wsMaxTotalBufferedBytes: cap, wsMaxBufferedBytes: 4 * 1024 * 1024 });
    const sockets: Socket[] = [];
    const reader = await TestSocket.open(node.wsUrl);
    try {
      const watch = await reader.subscribe('newFlashblocks');
      for (let i = 0; i < 20; i++) sockets.push(await nonReadingSocket(node.wsUrl, [['newFlashblocks'], ['newFlashblocks']]));
      await waitFor(() => node.websocket.stats().subscriptions >= 41, 10_000, 'every subscription');
      for (let i = 0; i < 30; i++) await rpc(node.url, 'eth_sendTransaction', [{ from: node.accounts[i % 10].address, to: node.accounts[(i + 1) % 10].address, data: '0x' + 'ab'.repeat(8 * 1024) }]);
      let peak = 0;
      let cuts = 0;
      // Each flashblock sends the block so far (30 transactions of 8 KiB) to every socket.
      while (node.websocket.stats().closedOverCapacity < 20 && cuts < 400) {
        await rpc(node.url, 'mock_flashblock');
        cuts++;
        await sleep(5);
        peak = Math.max(peak, node.websocket.stats().bufferedBytes);
      }
      const stats = node.websocket.stats();
      console.log(`      after ${cuts} flashblocks: ${stats.closedOverCapacity} closed over the total (1013); most waiting at once ${peak} bytes (cap ${cap})`);
      assert.equal(stats.closedOverCapacity, 20, 'every non-reading socket was closed');
      const event = JSON.stringify(reader.of(watch).at(-1)).length;
      assert.ok(peak <= cap + 20 * 2 * (event + 200), `what waits (${peak}) stays within the cap plus one flashblock to every subscription (${event} bytes each)`);
      // A closed socket that does not read is cut off after the close grace period.
      await waitFor(() => node.websocket.stats().clients === 1, 10_000, 'the closed sockets to be cut off');
      assert.equal(reader.closed, undefined);
      const seen = reader.of(watch).length;
      await rpc(node.url, 'mock_flashblock');
      await reader.until(() => reader.of(watch).length > seen, 5000, 'the reader\'s next flashblock');
    } finally {
      for (const socket of sockets) socket.destroy();
      reader.close();
      await node.stop();
    }
  });

  it('a socket that sends requests and never reads the replies is no longer read (or is closed with 1008) and its buffer stays near the limit; others are served', async () => {
    const node = await startTestNode({ wsMaxBufferedBytes: 64 * 1024 });
    const { socket } = await rawUpgrade(node.wsUrl, '/');
    socket.on('error', () => undefined);
    socket.pause();
    try {
      for (let i = 0; i < 20; i++) await sendTokenTransfer(node, i % 10, (i + 1) % 10, 1n);
      await rpc(node.url, 'evm_mine');
      const request = clientTextFrame(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', true] }));
      let peakBuffered = 0;
      let written = 0;
      const deadline = Date.now() + 20_000;
      // Write requests as fast as the node takes them (honouring back-pressure) until it closes the socket or stops reading.
      while (Date.now() < deadline && !socket.destroyed && node.websocket.stats().closedSlowConsumers === 0) {
        const ok = socket.write(request);
        written++;
        peakBuffered = Math.max(peakBuffered, node.websocket.stats().bufferedBytes);
        if (!ok) {
          const drained = await Promise.race([new Promise((resolve) => socket.once('drain', () => resolve(true))), sleep(2000).then(() => false)]);
          if (!drained) break; // the node stopped reading: the kernel buffers are full
        }
        if (written % 50 === 0) await sleep(1);
      }
      const stats = node.websocket.stats();
      console.log(`      ${written} requests written; node's buffer for it peaked at ${peakBuffered} bytes (limit 65536); closed slow: ${stats.closedSlowConsumers}`);
      assert.ok(peakBuffered < 64 * 1024 + 2 * 20_000, `the buffer stays near the limit (${peakBuffered})`);
      assert.equal(await rpc(node.url, 'eth_chainId'), '0x7a69', 'others are served');
    } finally {
      socket.destroy();
      await node.stop();
    }
  });

  it('more connections than --ws-max-connections: the extra one is closed with 1013 and a reason', async () => {
    const node = await startTestNode({ wsMaxConnections: 2 });
    const open = [await TestSocket.open(node.wsUrl), await TestSocket.open(node.wsUrl)];
    try {
      const extra = await TestSocket.open(node.wsUrl);
      await extra.until(() => extra.closed !== undefined, 5000, 'the close');
      assert.deepEqual(extra.closed, { code: OVER_CAPACITY_CLOSE_CODE, reason: 'too many WebSocket connections: limit 2' });
      assert.equal(await open[0].call('eth_chainId'), '0x7a69');
      open[1].close();
      await waitFor(() => node.websocket.stats().clients === 1, 5000, 'the close to be seen');
      const again = await TestSocket.open(node.wsUrl);
      assert.equal(await again.call('eth_chainId'), '0x7a69');
      again.close();
    } finally {
      for (const socket of open) socket.close();
      await node.stop();
    }
  });
});

async function waitFor(predicate: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

