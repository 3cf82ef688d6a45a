// Base's flashblocks stream (--chain base): clients that rebuild every sealed block from its
// FlashblocksPayloadV1 frames, one reading JSON text frames and one brotli binary frames, each
// parsing a frame the way Blockscout's flashblocks page does (text that starts with "{" is JSON,
// anything else is brotli-compressed JSON). The rebuilt blocks are checked against what
// eth_getBlockByNumber answers for the sealed block: the transactions in order (the deposit alone
// in index 0), the roots, bloom, gas and hash of the last frame.
import assert from 'node:assert/strict';
import { brotliDecompressSync } from 'node:zlib';
import { keccak256 } from 'ethers';
import WebSocket from 'ws';
import { createWalletClient, http, type Hex as ViemHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import type { RunningMockNode } from '../../../mock-node/index';
import { rpc, sleep, startTestNode } from '../../helpers/rpc';

interface Frame {
  payload_id: string;
  index: number;
  base?: Record<string, string>;
  diff: { state_root: string; receipts_root: string; logs_bloom: string; gas_used: string; block_hash: string; transactions: string[]; withdrawals: unknown[]; withdrawals_root: string };
  metadata: { block_number: number; receipts: Record<string, Record<string, { status: string; cumulativeGasUsed: string }>>; new_account_balances: Record<string, string> };
}

/** Blockscout's reading of one message: JSON text, or brotli-compressed JSON. */
function parseMessage(data: Buffer): Frame {
  const text = data.toString('utf8');
  if (text.trim().startsWith('{')) return JSON.parse(text) as Frame;
  return JSON.parse(brotliDecompressSync(data).toString('utf8')) as Frame;
}

/** Collects frames per block number, in arrival order. */
function collector(url: string) {
  const blocks = new Map<number, Frame[]>();
  let binary = 0;
  const ws = new WebSocket(url);
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) binary++;
    const frame = parseMessage(data);
    const list = blocks.get(frame.metadata.block_number) ?? [];
    list.push(frame);
    blocks.set(frame.metadata.block_number, list);
  });
  return { ws, blocks, binaryFrames: () => binary, opened: new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); }) };
}

async function checkRebuilt(node: RunningMockNode, number: number, frames: Frame[]): Promise<void> {
  const sealed = await rpc(node.url, 'eth_getBlockByNumber', [`0x${number.toString(16)}`, false]);
  assert.equal(frames[0].index, 0);
  assert.ok(frames[0].base, 'index 0 carries base');
  assert.equal(frames[0].base!.block_number, sealed.number);
  assert.equal(frames[0].base!.parent_hash, sealed.parentHash);
  assert.equal(frames[0].diff.transactions.length, 1, 'flashblock 0 holds the deposit alone');
  assert.ok(frames[0].diff.transactions[0].startsWith('0x7e'));
  frames.forEach((frame, i) => {
    assert.equal(frame.index, i, 'indices count up from 0');
    assert.equal(frame.payload_id, frames[0].payload_id);
    if (i > 0) assert.equal(frame.base, undefined);
  });
  const transactions = frames.flatMap((frame) => frame.diff.transactions);
  assert.deepEqual(transactions.map((raw) => keccak256(raw)), sealed.transactions, `block ${number}: its flashblocks add up to its transactions`);
  const receipts = Object.assign({}, ...frames.map((frame) => frame.metadata.receipts));
  assert.deepEqual(Object.keys(receipts).sort(), [...sealed.transactions].sort());
  assert.ok('Deposit' in receipts[sealed.transactions[0]]);
  const last = frames[frames.length - 1].diff;
  assert.deepEqual(
    [last.block_hash, last.state_root, last.receipts_root, last.logs_bloom, last.gas_used, last.withdrawals_root],
    [sealed.hash, sealed.stateRoot, sealed.receiptsRoot, sealed.logsBloom, sealed.gasUsed, sealed.withdrawalsRoot],
  );
}

describe('--chain base: the flashblocks stream (FlashblocksPayloadV1), rebuilt by clients', function () {
  this.timeout(60_000);
  let node: RunningMockNode;
  afterEach(() => node?.stop());

  it('a JSON client and a brotli client each rebuild every sealed block from its flashblocks', async () => {
    node = await startTestNode({ chain: 'base', auto: true, blockTimeMs: 600, flashblockMs: 100 });
    assert.match(node.flashblocksWsUrl!, /^ws:\/\/127\.0\.0\.1:\d+\/flashblocks$/);
    // Fifty clients that never read (their sockets paused) beside the two readers.
    const idle = await Promise.all(Array.from({ length: 50 }, (_, i) => new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`${node.flashblocksWsUrl!}${i % 2 ? '?encoding=brotli' : ''}`);
      ws.once('open', () => {
        (ws as unknown as { _socket: { pause(): void } })._socket.pause();
        resolve(ws);
      });
      ws.once('error', reject);
    })));
    const json = collector(node.flashblocksWsUrl!);
    const brotli = collector(`${node.flashblocksWsUrl!}?encoding=brotli`);
    await Promise.all([json.opened, brotli.opened]);
    assert.equal(node.websocket.stats().clients, 52);
    const wallet = createWalletClient({ chain: base, transport: http(node.url), account: privateKeyToAccount(node.accounts[1].privateKey as ViemHex) });
    const start = Number(await rpc(node.url, 'eth_blockNumber'));
    for (let i = 0; i < 6; i++) {
      await wallet.sendTransaction({ to: node.accounts[2].address as ViemHex, value: BigInt(i + 1) });
      await sleep(150);
    }
    // Wait until a few blocks after the transactions are sealed.
    const target = Number(await rpc(node.url, 'eth_blockNumber')) + 2;
    while (Number(await rpc(node.url, 'eth_blockNumber')) < target) await sleep(100);
    await sleep(50);
    json.ws.close();
    brotli.ws.close();
    for (const ws of idle) ws.terminate();
    assert.ok(brotli.binaryFrames() > 0 && json.binaryFrames() === 0);
    let withUserTransactions = 0;
    for (const client of [json, brotli]) {
      const complete = [...client.blocks.keys()].filter((n) => n > start + 1 && n <= target);
      assert.ok(complete.length >= 2, `blocks seen: ${[...client.blocks.keys()].join(', ')}`);
      for (const number of complete) {
        const frames = client.blocks.get(number)!;
        await checkRebuilt(node, number, frames);
        if (frames.some((frame) => frame.index > 0 && frame.diff.transactions.length > 0)) withUserTransactions++;
      }
    }
    assert.ok(withUserTransactions > 0, 'some rebuilt block held user transactions');
  });

  it('manual mode: evm_mine\'s block is rebuilt too (the seal\'s own hash arrives as a last frame)', async () => {
    node = await startTestNode({ chain: 'base' });
    const client = collector(node.flashblocksWsUrl!);
    await client.opened;
    await rpc(node.url, 'evm_mine'); // the block in progress when the client joined
    await rpc(node.url, 'evm_mine'); // empty: deposit only
    const wallet = createWalletClient({ chain: base, transport: http(node.url), account: privateKeyToAccount(node.accounts[1].privateKey as ViemHex) });
    await wallet.sendTransaction({ to: node.accounts[2].address as ViemHex, value: 5n });
    await rpc(node.url, 'evm_mine');
    await sleep(100);
    client.ws.close();
    const head = Number(await rpc(node.url, 'eth_blockNumber'));
    for (const number of [head - 1, head]) await checkRebuilt(node, number, client.blocks.get(number)!);
  });

  it('follows the node\'s WebSocket rules: Origin refused, unknown encoding refused, no stream without a preset', async () => {
    node = await startTestNode({ chain: 'base' });
    const refused = (url: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(url, { headers });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => { ws.close(); resolve(101); });
        ws.on('error', () => undefined);
      });
    assert.equal(await refused(node.flashblocksWsUrl!, { Origin: 'https://evil.example' }), 403);
    assert.equal(await refused(`${node.flashblocksWsUrl!}?encoding=gzip`), 400);
    const plain = await startTestNode();
    try {
      assert.equal(plain.flashblocksWsUrl, undefined);
      assert.equal(await refused(plain.wsUrl.replace(/\/$/, '/flashblocks')), 404);
    } finally {
      await plain.stop();
    }
  });
});
