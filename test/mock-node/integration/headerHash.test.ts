// A client recomputing a block's hash from the returned header gets the node's `hash`; the
// transactions root recomputed from the returned transactions matches too.
import assert from 'node:assert/strict';
import { createBlockFromRPC, createBlockHeaderFromRPC } from '@ethereumjs/block';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { bytesToHex } from '@ethereumjs/util';
import type { RunningMockNode } from '../../../mock-node/index';
import { rpc, startTestNode } from '../../helpers/rpc';

function common(chainId: bigint): Common {
  return new Common({ chain: { ...Mainnet, chainId: Number(chainId) }, hardfork: Hardfork.Prague });
}

describe('header hashing (recomputed by @ethereumjs/block)', () => {
  let node: RunningMockNode;
  before(async () => {
    node = await startTestNode();
    const [a, b] = node.accounts;
    for (let i = 0; i < 3; i++) await rpc(node.url, 'eth_sendTransaction', [{ from: a.address, to: b.address, value: '0x' + (1000 + i).toString(16) }]);
    await rpc(node.url, 'eth_sendTransaction', [{ from: b.address, to: a.address, value: '0x5', gasPrice: '0x77359400' }]);
    await rpc(node.url, 'evm_mine');
  });
  after(() => node.stop());

  for (const tag of ['earliest', 'latest']) {
    it(`the ${tag} block's hash is keccak(rlp(header)) with every Prague field`, async () => {
      const block = await rpc(node.url, 'eth_getBlockByNumber', [tag, false]);
      const header = createBlockHeaderFromRPC(block, { common: common(node.chainId) });
      assert.equal(bytesToHex(header.hash()), block.hash);
    });
  }

  it('the pending block hash (partial mode) is the hash of the partial header', async () => {
    const [a, b] = node.accounts;
    await rpc(node.url, 'eth_sendTransaction', [{ from: a.address, to: b.address, value: '0x1' }]);
    await rpc(node.url, 'mock_flashblock');
    const block = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
    assert.equal(block.transactions.length, 1);
    const header = createBlockHeaderFromRPC(block, { common: common(node.chainId) });
    assert.equal(bytesToHex(header.hash()), block.hash);
  });

  it('transactionsRoot matches the root recomputed from the full transactions (legacy and EIP-1559)', async () => {
    const block = await rpc(node.url, 'eth_getBlockByNumber', ['0x1', true]);
    assert.equal(block.transactions.length, 4);
    assert.deepEqual(new Set(block.transactions.map((t: any) => t.type)), new Set(['0x0', '0x2']));
    const rebuilt = createBlockFromRPC(block, [], { common: common(node.chainId) });
    assert.equal(bytesToHex(await rebuilt.genTxTrie()), block.transactionsRoot);
    assert.equal(bytesToHex(rebuilt.hash()), block.hash);
  });

  it('size is the RLP length of [header, transactions, uncles, withdrawals]', async () => {
    const block = await rpc(node.url, 'eth_getBlockByNumber', ['0x1', true]);
    const rebuilt = createBlockFromRPC(block, [], { common: common(node.chainId) });
    assert.equal(Number(block.size), rebuilt.serialize().length);
  });
});
