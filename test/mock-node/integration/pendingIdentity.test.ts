// The pending block's identity in each mode (SPEC 2.1): partial (the seed's rule), zero (Base's
// node code) and null (the generic docs), in blocks, transactions, receipts and logs.
import assert from 'node:assert/strict';
import type { PendingIdentity, RunningMockNode } from '../../../mock-node/index';
import { rpc, startTestNode } from '../../helpers/rpc';

const ZERO = '0x' + '00'.repeat(32);

for (const mode of ['partial', 'zero', 'null'] as PendingIdentity[]) {
  describe(`pending identity: ${mode}`, () => {
    let node: RunningMockNode;
    let hash: string;
    before(async () => {
      node = await startTestNode({ pendingIdentity: mode });
      await rpc(node.url, 'evm_mine', [2]);
      hash = await rpc(node.url, 'eth_sendTransaction', [{ from: node.accounts[0].address, to: node.accounts[1].address, value: '0x1' }]);
      await rpc(node.url, 'mock_flashblock');
    });
    after(() => node.stop());

    it('shapes the pending block', async () => {
      const block = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
      const expectedNumber = mode === 'null' ? null : '0x3';
      assert.equal(block.number, expectedNumber);
      if (mode === 'partial') assert.match(block.hash, /^0x[0-9a-f]{64}$/);
      if (mode === 'partial') assert.notEqual(block.hash, ZERO);
      if (mode === 'zero') assert.equal(block.hash, ZERO);
      if (mode === 'null') assert.equal(block.hash, null);
      const latest = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
      assert.equal(block.parentHash, latest.hash);
      assert.deepEqual(block.transactions, [hash]);
    });

    it('shapes the pre-confirmed receipt and transaction', async () => {
      const block = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
      const lookedUp = await rpc(node.url, 'eth_getTransactionReceipt', [hash]);
      if (mode === 'null') assert.equal(lookedUp, null, 'no receipt by hash until sealed');
      const [receipt] = await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', ['pending']);
      if (mode !== 'null') assert.deepEqual(lookedUp, receipt);
      assert.equal(receipt.transactionHash, hash);
      assert.equal(receipt.blockHash, block.hash);
      assert.equal(receipt.blockNumber, block.number);
      assert.equal(receipt.transactionIndex, '0x0');
      const tx = await rpc(node.url, 'eth_getTransactionByHash', [hash]);
      assert.equal(tx.blockHash, mode === 'partial' ? block.hash : null);
      assert.equal(tx.blockNumber, block.number);
    });

    it('sealing gives the real number and hash everywhere', async () => {
      await rpc(node.url, 'evm_mine');
      const sealed = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
      assert.equal(sealed.number, '0x3');
      const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [hash]);
      assert.equal(receipt.blockHash, sealed.hash);
      assert.equal(receipt.blockNumber, '0x3');
    });
  });
}
