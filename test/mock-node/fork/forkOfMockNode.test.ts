// The mock node as the upstream of another mock node's fork (and, as before, of anvil --fork-url):
// the fork keeps its chain id and fork block, reads its token and balances as of that block, and
// builds on top while the upstream goes on.
import assert from 'node:assert/strict';
import { Interface } from 'ethers';
import type { RunningMockNode } from '../../../mock-node/index';
import { anvilOrSkip, startAnvil, type RunningAnvil } from '../../helpers/anvil';
import { rpc, startTestNode } from '../../helpers/rpc';

const TOKEN = new Interface(['function balanceOf(address) view returns (uint256)', 'function transfer(address,uint256) returns (bool)']);
const hex = (n: bigint) => `0x${n.toString(16)}`;

describe('fork: the mock node as the upstream', function () {
  this.timeout(60_000);
  let upstream: RunningMockNode;
  let fork: RunningMockNode;
  let anvil: RunningAnvil;
  let forkBlock: bigint;
  const payee = '0x00000000000000000000000000000000000a11ce';

  before(async function () {
    const binary = anvilOrSkip(this);
    upstream = await startTestNode();
    await rpc(upstream.url, 'eth_sendTransaction', [{ from: upstream.accounts[0].address, to: upstream.tokenAddress, data: TOKEN.encodeFunctionData('transfer', [payee, 777n]) }]);
    await rpc(upstream.url, 'evm_mine');
    forkBlock = BigInt(await rpc(upstream.url, 'eth_blockNumber'));
    fork = await startTestNode({ fork: { url: upstream.url, blockNumber: forkBlock } });
    anvil = await startAnvil(binary, ['--fork-url', upstream.url, '--fork-block-number', String(forkBlock), '--no-storage-caching']);
    // The upstream goes on after the fork block.
    await rpc(upstream.url, 'eth_sendTransaction', [{ from: upstream.accounts[0].address, to: upstream.tokenAddress, data: TOKEN.encodeFunctionData('transfer', [payee, 1n]) }]);
    await rpc(upstream.url, 'evm_mine');
  });

  after(async () => {
    await fork?.stop();
    await anvil?.stop();
    await upstream?.stop();
  });

  it("reads the upstream's token as of the fork block, as anvil --fork-url of it does", async () => {
    const call = [{ to: upstream.tokenAddress, data: TOKEN.encodeFunctionData('balanceOf', [payee]) }, 'latest'];
    const hash = (await rpc(upstream.url, 'eth_getBlockByNumber', [hex(forkBlock), false])).hash;
    for (const url of [fork.url, anvil.url]) {
      assert.equal(BigInt(await rpc(url, 'eth_call', call)), 777n, url);
      assert.equal((await rpc(url, 'eth_getBlockByNumber', [hex(forkBlock), false])).hash, hash, url);
      assert.equal(BigInt(await rpc(url, 'eth_chainId')), 31337n, url);
    }
    assert.equal(fork.core.services.contracts.get(upstream.tokenAddress.toLowerCase()), undefined, "the upstream's token is the upstream's contract");
  });

  it('builds its own blocks and transfers on top, leaving the upstream untouched', async () => {
    const hash = await rpc(fork.url, 'eth_sendTransaction', [{ from: fork.accounts[1].address, to: upstream.tokenAddress, data: TOKEN.encodeFunctionData('transfer', [payee, 5n]) }]);
    await rpc(fork.url, 'evm_mine');
    assert.equal((await rpc(fork.url, 'eth_getTransactionReceipt', [hash])).status, '0x1');
    assert.equal(BigInt(await rpc(fork.url, 'eth_call', [{ to: upstream.tokenAddress, data: TOKEN.encodeFunctionData('balanceOf', [payee]) }, 'latest'])), 782n);
    assert.equal(BigInt(await rpc(upstream.url, 'eth_call', [{ to: upstream.tokenAddress, data: TOKEN.encodeFunctionData('balanceOf', [payee]) }, 'latest'])), 778n);
    assert.equal((await rpc(fork.url, 'eth_getBlockByNumber', [hex(forkBlock + 1n), false])).parentHash, (await rpc(upstream.url, 'eth_getBlockByNumber', [hex(forkBlock), false])).hash);
  });

  it('runs flashblocks and interval mining on a fork: a transaction is pre-confirmed in pending, then sealed', async () => {
    const live = await startTestNode({ auto: true, fork: { url: upstream.url, blockNumber: forkBlock } });
    try {
      const hash = await rpc(live.url, 'eth_sendTransaction', [{ from: live.accounts[2].address, to: upstream.tokenAddress, data: TOKEN.encodeFunctionData('transfer', [payee, 9n]) }]);
      let pending: any;
      for (let tries = 0; tries < 100 && !pending?.transactions.includes(hash); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        pending = await rpc(live.url, 'eth_getBlockByNumber', ['pending', false]);
      }
      assert.ok(pending.transactions.includes(hash), 'pre-confirmed in a flashblock');
      assert.ok(BigInt(pending.number) > forkBlock);
      let receipt: any;
      for (let tries = 0; tries < 100 && !receipt?.blockHash; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const sealed = await rpc(live.url, 'eth_getBlockByNumber', ['latest', false]);
        if (sealed.transactions.includes(hash)) receipt = await rpc(live.url, 'eth_getTransactionReceipt', [hash]);
      }
      assert.equal(receipt.status, '0x1');
    } finally {
      await live.stop();
    }
  });
});
