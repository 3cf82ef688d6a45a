// Intake rules that were too lenient: a replacement must raise both the fee cap and the tip by 10%
// (geth), timestamps stop at 2^64 - 1, and the queue is bounded per sender and in total with
// geth's errors.
import assert from 'node:assert/strict';
import { Wallet } from 'ethers';
import type { RunningMockNode } from '../../../mock-node/index';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';

const DEV = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const MAX = '0x' + 'f'.repeat(64);
const GWEI = 1_000_000_000n;

describe('intake rules: replacement, timestamps, queue bounds', function () {
  this.timeout(30_000);
  let node: RunningMockNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.stop());

  it('a replacement must raise both the fee cap and the tip by 10%', async () => {
    const wallet = new Wallet(node.accounts[3].privateKey);
    const nonce = Number(BigInt(await rpc(node.url, 'eth_getTransactionCount', [wallet.address, 'pending'])));
    const sign = (maxFeePerGas: bigint, maxPriorityFeePerGas: bigint) =>
      wallet.signTransaction({ to: TO, value: 1n, gasLimit: 21_000, chainId: 31337, nonce, maxFeePerGas, maxPriorityFeePerGas });
    await rpc(node.url, 'eth_sendRawTransaction', [await sign(10n * GWEI, 2n * GWEI)]);
    const cases: [bigint, bigint, boolean][] = [
      [12n * GWEI, 1n, false], // +20% fee cap, tip cut to 1 wei: once accepted
      [11n * GWEI, 2n * GWEI, false], // tip not raised
      [10n * GWEI, 3n * GWEI, false], // fee cap not raised
      [11n * GWEI - 1n, 22n * GWEI / 10n, false], // fee cap just under +10%
      [11n * GWEI, 22n * GWEI / 10n, true], // both exactly +10%
    ];
    for (const [fee, tip, accepted] of cases) {
      const raw = await sign(fee, tip);
      if (accepted) assert.match(await rpc(node.url, 'eth_sendRawTransaction', [raw]), /^0x/);
      else assert.equal((await rpcError(node.url, 'eth_sendRawTransaction', [raw])).message, 'replacement transaction underpriced', `${fee}/${tip}`);
    }
    await rpc(node.url, 'evm_mine');
  });

  it('timestamps stop at 2^64 - 1: larger moves are -32000 (as a timestamp not after the latest); a block at the limit still hashes and reads', async () => {
    const limit = 2n ** 64n - 1n;
    for (const [method, params, message] of [
      ['evm_increaseTime', [MAX], /^the clock would pass 2\^64 - 1, the largest block timestamp \(now \d+, at most \d+ more seconds\)$/],
      ['evm_increaseTime', ['0x' + (2n ** 64n).toString(16)], /the clock would pass 2\^64 - 1/],
      ['evm_setNextBlockTimestamp', ['0x' + (limit + 1n).toString(16)], /^timestamp 18446744073709551616 is past 2\^64 - 1, the largest a block header holds$/],
      ['evm_mine', [{ blocks: 1, timestamp: '0x' + (limit + 1n).toString(16) }], /^timestamp 18446744073709551616 is past 2\^64 - 1, the largest a block header holds$/],
    ] as [string, unknown[], RegExp][]) {
      const error = await rpcError(node.url, method, params);
      assert.equal(error.code, -32000, method);
      assert.match(error.message, message, method);
    }
    const probe = await startTestNode();
    try {
      await rpc(probe.url, 'evm_setNextBlockTimestamp', ['0x' + limit.toString(16)]);
      await rpc(probe.url, 'evm_mine', [2]);
      const block = await rpc(probe.url, 'eth_getBlockByNumber', ['latest', false]);
      assert.equal(BigInt(block.timestamp), limit);
      assert.equal((await rpc(probe.url, 'eth_getBlockByHash', [block.hash, false])).number, block.number);
    } finally {
      await probe.stop();
    }
  });

  it("the queue is bounded per sender and in total, with geth's errors; a replacement still fits", async () => {
    const small = await startTestNode({ maxQueuedPerSender: 3, maxQueued: 5 });
    try {
      const signer = (i: number) => new Wallet(small.accounts[i].privateKey);
      const raw = (i: number, nonce: number) => signer(i).signTransaction({ to: TO, value: 1n, gasLimit: 21_000, chainId: 31337, nonce, maxFeePerGas: 2n * GWEI, maxPriorityFeePerGas: 1n * GWEI });
      for (let n = 0; n < 3; n++) await rpc(small.url, 'eth_sendRawTransaction', [await raw(0, n)]);
      assert.deepEqual(await rpcError(small.url, 'eth_sendRawTransaction', [await raw(0, 3)]), { code: -32000, message: 'account limit exceeded', status: 200 });
      const replacement = await signer(0).signTransaction({ to: TO, value: 1n, gasLimit: 21_000, chainId: 31337, nonce: 2, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
      assert.match(await rpc(small.url, 'eth_sendRawTransaction', [replacement]), /^0x/, 'a replacement fits at the limit');
      for (let n = 0; n < 2; n++) await rpc(small.url, 'eth_sendRawTransaction', [await raw(1, n)]);
      assert.deepEqual(await rpcError(small.url, 'eth_sendRawTransaction', [await raw(2, 0)]), { code: -32000, message: 'txpool is full', status: 200 });
      await rpc(small.url, 'mock_flashblock');
      assert.match(await rpc(small.url, 'eth_sendRawTransaction', [await raw(2, 0)]), /^0x/, 'room again once the queue ran');
    } finally {
      await small.stop();
    }
  });
});
