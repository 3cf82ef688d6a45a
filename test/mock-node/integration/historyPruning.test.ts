// --history-blocks N: the node keeps the newest N sealed blocks. A read of an older block, by
// number, tag or hash, of a transaction or receipt in it, of its logs, or of the state at it,
// answers 4444 "pruned history unavailable" with how many blocks are kept: never null as for
// an unknown block, never another block's answer. What is kept answers as before.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Interface } from 'ethers';
import { STABLE_TOKEN_ABI, resolveOptions, OptionError } from '../../../mock-node/index';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';
import { logIndexOf } from '../../../mock-node/chain/logIndex';
import type { RunningMockNode } from '../../../mock-node/index';

const TOKEN = new Interface(STABLE_TOKEN_ABI as never);
const KEEP = 6;

describe('--history-blocks: pruned blocks answer a clear error', () => {
  let node: RunningMockNode;
  let alice: string;
  let bob: string;
  beforeEach(async () => {
    node = await startTestNode({ historyBlocks: KEEP, safeDepth: 1, finalizedDepth: 3 });
    alice = node.accounts[0].address.toLowerCase();
    bob = node.accounts[1].address.toLowerCase();
  });
  afterEach(() => node.stop());

  /** One block with a token transfer (a log) and an ETH transfer; answers their hashes and the block. */
  async function block(): Promise<{ transfer: string; payment: string; number: string; hash: string }> {
    const transfer = await rpc(node.url, 'eth_sendTransaction', [{ from: alice, to: node.tokenAddress, data: TOKEN.encodeFunctionData('transfer', [bob, 1n]) }]);
    const payment = await rpc(node.url, 'eth_sendTransaction', [{ from: bob, to: alice, value: '0x1' }]);
    await rpc(node.url, 'evm_mine');
    const latest = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
    return { transfer, payment, number: latest.number, hash: latest.hash };
  }

  function assertPruned(error: { code: number; message: string; data?: unknown }, number: number): void {
    assert.equal(error.code, 4444, error.message);
    assert.match(error.message, /^pruned history unavailable: /);
    assert.match(error.message, new RegExp(`block ${number}\\b`));
    assert.match(error.message, new RegExp(`keeps the newest ${KEEP} blocks \\(--history-blocks ${KEEP}\\)`));
    assert.equal((error.data as { historyBlocks: number }).historyBlocks, KEEP);
  }

  it('answers 4444 for a pruned block by number, tag, hash, its transactions, receipts, logs and state; the kept blocks answer as before', async () => {
    const first = await block();
    for (let i = 0; i < KEEP + 2; i++) await block();
    const head = Number(await rpc(node.url, 'eth_blockNumber'));
    const oldest = head - KEEP + 1;
    assert.ok(Number(first.number) < oldest);

    const n = Number(first.number);
    assertPruned(await rpcError(node.url, 'eth_getBlockByNumber', [first.number, false]), n);
    assertPruned(await rpcError(node.url, 'eth_getBlockByHash', [first.hash, true]), n);
    assertPruned(await rpcError(node.url, 'eth_getBlockByNumber', ['earliest', false]), 0);
    assertPruned(await rpcError(node.url, 'eth_getBlockTransactionCountByNumber', [first.number]), n);
    assertPruned(await rpcError(node.url, 'eth_getTransactionByBlockNumberAndIndex', [first.number, '0x0']), n);
    for (const hash of [first.transfer, first.payment]) {
      const error = await rpcError(node.url, 'eth_getTransactionByHash', [hash]);
      assertPruned(error, n);
      assert.match(error.message, new RegExp(`transaction ${hash} is in block ${n}`));
      assertPruned(await rpcError(node.url, 'eth_getTransactionReceipt', [hash]), n);
    }
    assertPruned(await rpcError(node.dedicatedUrl, 'eth_getBlockReceipts', [first.number]), n);
    assertPruned(await rpcError(node.url, 'eth_getLogs', [{ fromBlock: first.number, toBlock: 'latest', address: node.tokenAddress }]), n);
    assertPruned(await rpcError(node.url, 'eth_getLogs', [{ blockHash: first.hash }]), n);
    assertPruned(await rpcError(node.url, 'eth_getBalance', [alice, first.number]), n);
    assertPruned(await rpcError(node.url, 'eth_getStorageAt', [node.tokenAddress, '0x0', first.number]), n);
    assertPruned(await rpcError(node.url, 'eth_getProof', [alice, [], first.number]), n);
    assertPruned(await rpcError(node.url, 'eth_call', [{ from: alice, to: bob }, first.number]), n);

    // Unknown hashes are still unknown (null), not pruned.
    assert.equal(await rpc(node.url, 'eth_getBlockByHash', ['0x' + '12'.repeat(32), false]), null);
    assert.equal(await rpc(node.url, 'eth_getTransactionByHash', ['0x' + '34'.repeat(32)]), null);

    // Every kept block, its transactions and its logs answer as before.
    const logs = await rpc(node.url, 'eth_getLogs', [{ fromBlock: '0x' + oldest.toString(16), toBlock: 'latest', address: node.tokenAddress }]);
    assert.equal(logs.length, KEEP);
    for (let k = oldest; k <= head; k++) {
      const kept = await rpc(node.url, 'eth_getBlockByNumber', ['0x' + k.toString(16), true]);
      assert.equal(kept.transactions.length, 2);
      for (const tx of kept.transactions) {
        assert.equal((await rpc(node.url, 'eth_getTransactionByHash', [tx.hash])).blockNumber, kept.number);
        assert.equal((await rpc(node.url, 'eth_getTransactionReceipt', [tx.hash])).status, '0x1');
      }
      assert.equal((await rpc(node.url, 'eth_getBlockByHash', [kept.hash, false])).number, kept.number);
    }
    for (const tag of ['safe', 'finalized', 'latest', 'pending']) assert.ok(await rpc(node.url, 'eth_getBlockByNumber', [tag, false]), tag);
    assert.ok(BigInt(await rpc(node.url, 'eth_getBalance', [alice, '0x' + oldest.toString(16)])) > 0n);
  });

  it('a reverted snapshot whose block was pruned is refused with 4444; anvil_reset goes back to a readable genesis', async () => {
    const id = await rpc(node.url, 'evm_snapshot');
    for (let i = 0; i < KEEP + 1; i++) await block();
    assertPruned(await rpcError(node.url, 'evm_revert', [id]), 0);
    const head = await rpc(node.url, 'eth_blockNumber');
    assert.equal(Number(head), KEEP + 1, 'nothing changed');

    const later = await rpc(node.url, 'evm_snapshot');
    await block();
    assert.equal(await rpc(node.url, 'evm_revert', [later]), true, 'a snapshot at a kept block still reverts');

    await rpc(node.url, 'anvil_reset');
    assert.equal(await rpc(node.url, 'eth_blockNumber'), '0x0');
    const genesis = await rpc(node.url, 'eth_getBlockByNumber', ['0x0', false]);
    assert.equal(genesis.number, '0x0');
    const again = await block();
    assert.equal(again.number, '0x1');
    assert.equal((await rpc(node.url, 'eth_getTransactionReceipt', [again.transfer])).blockNumber, '0x1');
  });

  it('saves a pruned chain from its oldest kept block (format 2, full state there) and loads it back, verified', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'history-'));
    try {
      const file = join(dir, 'chain.json');
      const first = await startTestNode({ historyBlocks: KEEP, safeDepth: 1, finalizedDepth: 3, stateFile: file });
      let last;
      try {
        for (let i = 0; i < KEEP + 3; i++) {
          const [a, b] = [first.accounts[0].address, first.accounts[1].address];
          await rpc(first.url, 'eth_sendTransaction', [{ from: a, to: first.tokenAddress, data: TOKEN.encodeFunctionData('transfer', [b, 5n]) }]);
          await rpc(first.url, 'evm_mine');
        }
        last = await rpc(first.url, 'eth_getBlockByNumber', ['latest', true]);
        await rpc(first.url, 'mock_dumpState');
      } finally {
        await first.stop();
      }
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(saved.version, 2);
      assert.equal(saved.blocks.length, KEEP);
      assert.equal(BigInt(saved.blocks[0].header.number), BigInt(last.number) - BigInt(KEEP - 1));

      const second = await startTestNode({ historyBlocks: KEEP, safeDepth: 1, finalizedDepth: 3, stateFile: file });
      try {
        assert.deepEqual(await rpc(second.url, 'eth_getBlockByNumber', ['latest', true]), last);
        const tx = last.transactions[0].hash;
        assert.equal((await rpc(second.url, 'eth_getTransactionReceipt', [tx])).logs.length, 1);
        const oldest = BigInt(saved.blocks[0].header.number);
        assert.ok(await rpc(second.url, 'eth_getBlockByNumber', ['0x' + oldest.toString(16), false]));
        assertPruned(await rpcError(second.url, 'eth_getBlockByNumber', ['0x' + (oldest - 1n).toString(16), false]), Number(oldest - 1n));
        // The chain goes on from the loaded head.
        await rpc(second.url, 'evm_mine');
        assert.equal(BigInt(await rpc(second.url, 'eth_blockNumber')), BigInt(last.number) + 1n);
      } finally {
        await second.stop();
      }

      // A file whose first block's state was tampered with is refused.
      const tampered = JSON.parse(readFileSync(file, 'utf8'));
      const [address] = Object.keys(tampered.blocks[0].state.accounts);
      tampered.blocks[0].state.accounts[address][1] = '0x1';
      const third = await startTestNode({ historyBlocks: KEEP, safeDepth: 1, finalizedDepth: 3 });
      try {
        const error = await rpcError(third.url, 'mock_loadState', [tampered]);
        assert.match(error.message, /does not match the header's state root/);
      } finally {
        await third.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps its indexes bounded over a long run: pruned blocks leave the transaction and log indexes, and a recent pruned hash still answers 4444', async () => {
    const chain = node.core.services.chain;
    const blocks = 4 * KEEP + 3;
    const sent: { transfer: string; number: string }[] = [];
    for (let i = 0; i < blocks; i++) {
      // Each block pays a new recipient: the log index sees a new topic value per block.
      const recipient = '0x' + (0x1000 + i).toString(16).padStart(40, '0');
      const transfer = await rpc(node.url, 'eth_sendTransaction', [{ from: alice, to: node.tokenAddress, data: TOKEN.encodeFunctionData('transfer', [recipient, 1n]) }]);
      await rpc(node.url, 'evm_mine');
      sent.push({ transfer, number: (await rpc(node.url, 'eth_getTransactionReceipt', [transfer])).blockNumber });
      // An explorer polling the token's logs over what is kept keeps the log index in use.
      const logs = await rpc(node.url, 'eth_getLogs', [{ fromBlock: '0x' + Number(chain.oldestBlock).toString(16), toBlock: 'latest', address: node.tokenAddress }]);
      assert.equal(logs.length, Math.min(i + 1, KEEP));
      const entries = logIndexOf(chain).entries;
      // Per block: the token, the Transfer topic, alice's topic, the recipient's topic and the
      // any-log list; at most the kept blocks and as many pruned ones not yet dropped.
      assert.ok(entries.blocks <= 5 * (2 * KEEP + 1), `log index holds ${entries.blocks} block entries after ${i + 1} blocks`);
      assert.ok(entries.values <= 3 + 2 * KEEP + 1, `log index holds ${entries.values} values after ${i + 1} blocks`);
    }
    const sizes = chain.historySizes();
    assert.equal(sizes.blocks, KEEP);
    assert.equal(sizes.indexedTransactions, KEEP, 'only the kept blocks\' transactions are indexed');
    assert.equal(sizes.rememberedPrunedTransactions, blocks - KEEP);
    assert.equal(sizes.rememberedPrunedBlocks, blocks + 1 - KEEP, 'genesis too');

    // Pruned transactions still answer 4444 with their block; kept ones answer as before.
    for (const { transfer, number } of sent.slice(0, blocks - KEEP)) assertPruned(await rpcError(node.url, 'eth_getTransactionReceipt', [transfer]), Number(number));
    for (const { transfer, number } of sent.slice(blocks - KEEP)) assert.equal((await rpc(node.url, 'eth_getTransactionReceipt', [transfer])).blockNumber, number);
    assert.equal(await rpc(node.url, 'eth_getTransactionByHash', ['0x' + '56'.repeat(32)]), null, 'unknown is still unknown');
  });

  it('refuses a history shorter than the finalized depth, and keeps every block by default', () => {
    assert.throws(() => resolveOptions({ historyBlocks: 30 }), (error: unknown) => error instanceof OptionError && /historyBlocks \(30\) must be 0 \(keep every block\) or more than finalizedDepth \(30\)/.test(error.message));
    assert.equal(resolveOptions({}).historyBlocks, 0);
    assert.equal(resolveOptions({ historyBlocks: 31 }).historyBlocks, 31);
  });
});
