// Mining modes composed with flashblocks (what Anvil cannot show): interval mining keeps
// pre-confirming inside the block; with mining off the pending block still shows what is queued
// and nothing seals until evm_mine; with automine the request after a send sees its block sealed; a
// dropped pre-confirmed transaction rebuilds the pending block (and a pending log filter hears
// removed: true); the pending block takes a new base fee, gas limit and coinbase at once.
import assert from 'node:assert/strict';
import type { RunningMockNode } from '../../../mock-node/index';
import { rpc, sleep, startTestNode } from '../../helpers/rpc';
import { waitUntil } from '../../helpers/wait';
import { sendTokenTransfer, TRANSFER_TOPIC } from '../profiles/helpers';

describe('mining modes with flashblocks', () => {
  let node: RunningMockNode;
  afterEach(() => node?.stop());

  it('interval mining (evm_setIntervalMining) on a --no-auto node: a transfer is pre-confirmed before its block seals', async () => {
    node = await startTestNode({ auto: false, flashblockMs: 100 });
    assert.equal(await rpc(node.url, 'eth_mining'), false);
    await rpc(node.url, 'evm_setIntervalMining', [1]);
    assert.equal(await rpc(node.url, 'eth_mining'), true);
    const hash = await sendTokenTransfer(node, 1, 2, 5n);
    const preconfirmed = await waitUntil('pre-confirmed', async () => {
      const head = BigInt(await rpc(node.url, 'eth_blockNumber'));
      const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [hash]);
      return receipt ? { head, number: BigInt(receipt.blockNumber) } : undefined;
    });
    assert.ok(preconfirmed.number > preconfirmed.head, 'seen in the pending block first');
    await waitUntil('sealed by the interval', async () => BigInt(await rpc(node.url, 'eth_blockNumber')) >= preconfirmed.number);
    const block = await rpc(node.url, 'eth_getBlockByNumber', [`0x${preconfirmed.number.toString(16)}`, false]);
    assert.ok(block.transactions.includes(hash));
    await rpc(node.url, 'evm_setIntervalMining', [0]);
  });

  it('mining off on an auto node: flashblocks still show what is queued at pending; nothing seals until evm_mine', async () => {
    node = await startTestNode({ auto: true, blockTimeMs: 400, flashblockMs: 50 });
    await rpc(node.url, 'evm_setIntervalMining', [0]);
    assert.equal(await rpc(node.url, 'anvil_getAutomine'), false);
    const head = await rpc(node.url, 'eth_blockNumber');
    const hash = await sendTokenTransfer(node, 1, 2, 5n);
    await waitUntil('in the pending block', async () => (await rpc(node.url, 'eth_getBlockByNumber', ['pending', false])).transactions.includes(hash));
    await sleep(1000);
    assert.equal(await rpc(node.url, 'eth_blockNumber'), head, 'nothing sealed on its own');
    assert.deepEqual(await rpc(node.url, 'txpool_status'), { pending: '0x1', queued: '0x0' });
    await rpc(node.url, 'evm_mine');
    const latest = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
    assert.deepEqual(latest.transactions, [hash]);
    assert.deepEqual(await rpc(node.url, 'txpool_status'), { pending: '0x0', queued: '0x0' });
  });

  it('automine: the request after eth_sendRawTransaction sees its own block sealed; timers stop', async () => {
    node = await startTestNode({ auto: true, blockTimeMs: 400, flashblockMs: 50 });
    await rpc(node.url, 'evm_setAutomine', [true]);
    const before = BigInt(await rpc(node.url, 'eth_blockNumber'));
    for (let i = 0; i < 3; i++) {
      const hash = await sendTokenTransfer(node, 1, 2, BigInt(i + 1));
      const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [hash]);
      assert.equal(BigInt(receipt.blockNumber), before + BigInt(i + 1), 'its own block, sealed before the next request was served');
      assert.equal(await rpc(node.url, 'eth_blockNumber'), receipt.blockNumber);
    }
    await sleep(600);
    assert.equal(BigInt(await rpc(node.url, 'eth_blockNumber')), before + 3n, 'no empty blocks in automine');
  });

  it('automine: eth_sendTransaction from an impersonated account is sealed in its own block, as a signed one is', async () => {
    node = await startTestNode();
    await rpc(node.url, 'evm_setAutomine', [true]);
    const who = '0x00000000000000000000000000000000000000b1';
    await rpc(node.url, 'anvil_setBalance', [who, '0xde0b6b3a7640000']);
    await rpc(node.url, 'anvil_impersonateAccount', [who]);
    const before = BigInt(await rpc(node.url, 'eth_blockNumber'));
    const hash = await rpc(node.url, 'eth_sendTransaction', [{ from: who, to: node.accounts[1].address, value: '0x1' }]);
    const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [hash]);
    assert.ok(receipt, 'mined before the next request');
    assert.equal(BigInt(receipt.blockNumber), before + 1n);
    assert.equal(receipt.from, who);
  });

  it('anvil_dropTransaction of a pre-confirmed transaction builds the pending block again; a pending log filter hears removed: true', async () => {
    node = await startTestNode();
    const filter = await rpc(node.url, 'eth_newFilter', [{ fromBlock: 'latest', toBlock: 'pending', topics: [TRANSFER_TOPIC] }]);
    const keep = await sendTokenTransfer(node, 1, 2, 5n);
    const drop = await sendTokenTransfer(node, 3, 2, 6n);
    await rpc(node.url, 'mock_flashblock');
    const reported = await rpc<any[]>(node.url, 'eth_getFilterChanges', [filter]);
    assert.equal(reported.length, 2);
    assert.equal(await rpc(node.url, 'anvil_dropTransaction', [drop]), drop);
    assert.equal(await rpc(node.url, 'anvil_dropTransaction', [drop]), null);
    const pending = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
    assert.deepEqual(pending.transactions, [keep]);
    assert.equal(await rpc(node.url, 'eth_getTransactionByHash', [drop]), null);
    const after = await rpc<any[]>(node.url, 'eth_getFilterChanges', [filter]);
    // Both logs of the dropped pending block come back removed; the kept one is pre-confirmed again.
    assert.deepEqual(after.filter((log) => log.removed).map((log) => log.transactionHash).sort(), [keep, drop].sort());
    assert.deepEqual(after.filter((log) => !log.removed).map((log) => log.transactionHash), [keep]);
  });

  it('the pending block takes a new base fee, gas limit and coinbase at once; later blocks keep gas limit and coinbase', async () => {
    node = await startTestNode();
    const coinbase = node.accounts[7].address.toLowerCase();
    await rpc(node.url, 'anvil_setNextBlockBaseFeePerGas', ['0x3b9aca01']);
    assert.equal(await rpc(node.url, 'evm_setBlockGasLimit', ['0x2000000']), true);
    await rpc(node.url, 'anvil_setCoinbase', [coinbase]);
    const pending = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
    assert.deepEqual([pending.baseFeePerGas, pending.gasLimit, pending.miner], ['0x3b9aca01', '0x2000000', coinbase]);
    await rpc(node.url, 'evm_mine', [2]);
    const [first, second] = [await rpc(node.url, 'eth_getBlockByNumber', ['0x1', false]), await rpc(node.url, 'eth_getBlockByNumber', ['0x2', false])];
    assert.equal(first.baseFeePerGas, '0x3b9aca01');
    assert.notEqual(second.baseFeePerGas, '0x3b9aca01', 'the base fee setting is for one block');
    assert.deepEqual([second.gasLimit, second.miner], ['0x2000000', coinbase]);
    await rpc(node.url, 'anvil_reset');
    const reset = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
    assert.equal(reset.number, '0x1');
    assert.notEqual(reset.miner, coinbase);
  });
});
