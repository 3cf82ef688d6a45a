// Transaction intake: every transaction type, geth-like rejections that change nothing, nonce
// gaps that wait in the queue, base fee movement, and the control methods.
import assert from 'node:assert/strict';
import { Signature, Wallet, concat, encodeRlp, keccak256, toBeHex } from 'ethers';
import type { RunningMockNode } from '../../../mock-node/index';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';

/** Signs an EIP-1559 transaction by hand: ethers and viem refuse to sign a tip above the fee cap. */
function signUnchecked(wallet: Wallet, maxFee: bigint, tip: bigint): string {
  const q = (v: bigint | number) => (BigInt(v) === 0n ? '0x' : toBeHex(v));
  const fields = [q(31337), q(0), q(tip), q(maxFee), q(21_000), '0x' + 'ab'.repeat(20), q(1), '0x', []];
  const digest = keccak256(concat(['0x02', encodeRlp(fields)]));
  const sig = Signature.from(wallet.signingKey.sign(digest));
  return concat(['0x02', encodeRlp([...fields, q(sig.yParity), q(BigInt(sig.r)), q(BigInt(sig.s))])]);
}

describe('transaction intake', () => {
  let node: RunningMockNode;
  let wallet: Wallet;
  const to = '0x' + 'ab'.repeat(20);
  const fees = { maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1_000_000n };
  beforeEach(async () => {
    node = await startTestNode();
    wallet = new Wallet(node.accounts[1].privateKey);
  });
  afterEach(() => node.stop());

  const sign = (fields: Record<string, unknown>) => wallet.signTransaction({ to, value: 1n, gasLimit: 21_000, chainId: 31337, nonce: 0, ...fees, ...fields });

  it('accepts legacy, EIP-2930 and EIP-1559 transactions and executes them in order', async () => {
    const raws = [
      await sign({ type: 0, gasPrice: 2_000_000_000n, maxFeePerGas: undefined, maxPriorityFeePerGas: undefined, nonce: 0 }),
      await sign({ type: 1, gasPrice: 2_000_000_000n, maxFeePerGas: undefined, maxPriorityFeePerGas: undefined, nonce: 1, accessList: [{ address: to, storageKeys: ['0x' + '00'.repeat(32)] }], gasLimit: 30_000 }),
      await sign({ type: 2, nonce: 2 }),
    ];
    const hashes = [];
    for (const raw of raws) hashes.push(await rpc(node.url, 'eth_sendRawTransaction', [raw]));
    await rpc(node.url, 'evm_mine');
    const block = await rpc(node.url, 'eth_getBlockByNumber', ['latest', true]);
    assert.deepEqual(block.transactions.map((t: any) => [t.hash, t.type]), hashes.map((h, i) => [h, '0x' + i]));
    const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [hashes[1]]);
    assert.equal(receipt.gasUsed, '0x' + (21_000 + 2_400 + 1_900).toString(16));
    assert.equal(await rpc(node.url, 'eth_getBalance', [to, 'latest']), '0x3');
  });

  it('takes raw bytes in any hex case (both RPC paths)', async () => {
    const first = await sign({ nonce: 0 });
    const second = await sign({ nonce: 1 });
    const shout = (raw: string) => '0x' + raw.slice(2).toUpperCase();
    const hash = await rpc(node.url, 'eth_sendRawTransaction', [shout(first)]);
    assert.equal(hash, keccak256(first));
    // This node mines on request: the synchronous call answers once evm_mine has sealed it.
    const syncing = rpc(node.url, 'eth_sendRawTransactionSync', [shout(second)]);
    while ((await rpc(node.url, 'eth_getTransactionCount', [wallet.address, 'pending'])) !== '0x2') await new Promise((resolve) => setTimeout(resolve, 10));
    await rpc(node.url, 'evm_mine');
    const receipt = await syncing;
    assert.equal(receipt.transactionHash, keccak256(second));
    for (const [h, nonce] of [[hash, '0x0'], [receipt.transactionHash, '0x1']]) {
      const tx = await rpc(node.url, 'eth_getTransactionByHash', [h]);
      assert.deepEqual([tx.from, tx.to, tx.nonce], [wallet.address.toLowerCase(), to, nonce]);
    }
  });

  const rejections: [string, () => Promise<string>, RegExp][] = [
    ['a wrong chain id', () => sign({ chainId: 1 }), /^invalid chain id for signer: have 1 want 31337$/],
    ['intrinsic gas too low', () => sign({ gasLimit: 20_000 }), /^intrinsic gas too low: gas 20000, minimum needed 21000$/],
    ['a fee cap below the base fee', () => sign({ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }), /^max fee per gas less than block base fee/],
    ['a tip above the fee cap', async () => signUnchecked(wallet, 2_000_000_000n, 3_000_000_000n), /^max priority fee per gas higher than max fee per gas/],
    ['insufficient funds', () => sign({ value: 10n ** 30n }), /^insufficient funds for gas \* price \+ value: balance \d+, tx cost \d+, overshot \d+$/],
    ['a gas limit above the block gas limit', () => sign({ gasLimit: 40_000_000 }), /^exceeds block gas limit$/],
    // A creation pays 32,000 more and 2 per initcode word (EIP-3860): 21,000 + 32,000 + 16 + 4 + 2.
    ['a creation below its intrinsic gas', () => sign({ to: null, data: '0x6000', gasLimit: 53_021 }), /^intrinsic gas too low: gas 53021, minimum needed 53022$/],
    ['initcode above 49,152 bytes (EIP-3860)', () => sign({ to: null, data: `0x${'00'.repeat(49_153)}`, gasLimit: 20_000_000 }), /^max initcode size exceeded: code size 49153 limit 49152$/],
  ];
  for (const [what, make, message] of rejections) {
    it(`rejects ${what} with -32000 and changes nothing`, async () => {
      const before = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
      const error = await rpcError(node.url, 'eth_sendRawTransaction', [await make()]);
      assert.equal(error.code, -32000);
      assert.match(error.message, message);
      await rpc(node.url, 'mock_flashblock');
      const after = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
      assert.equal(after.stateRoot, before.stateRoot);
      assert.equal(after.transactions.length, 0);
    });
  }

  it('rejects nonce too low and a duplicate', async () => {
    const raw = await sign({ nonce: 0 });
    await rpc(node.url, 'eth_sendRawTransaction', [raw]);
    assert.equal((await rpcError(node.url, 'eth_sendRawTransaction', [raw])).message, 'already known');
    await rpc(node.url, 'mock_flashblock');
    const error = await rpcError(node.url, 'eth_sendRawTransaction', [await sign({ nonce: 0, value: 2n })]);
    assert.equal(error.message, 'nonce too low: next nonce 1, tx nonce 0');
  });

  it('a nonce gap waits in the queue until it is filled', async () => {
    const later = await rpc(node.url, 'eth_sendRawTransaction', [await sign({ nonce: 1 })]);
    await rpc(node.url, 'mock_flashblock');
    assert.equal((await rpc(node.url, 'eth_getBlockByNumber', ['pending', false])).transactions.length, 0);
    const queued = await rpc(node.url, 'eth_getTransactionByHash', [later]);
    assert.equal(queued.blockHash, null);
    const first = await rpc(node.url, 'eth_sendRawTransaction', [await sign({ nonce: 0 })]);
    await rpc(node.url, 'mock_flashblock');
    assert.deepEqual((await rpc(node.url, 'eth_getBlockByNumber', ['pending', false])).transactions, [first, later]);
  });

  it('the base fee follows EIP-1559: down on empty blocks, never below the minimum', async () => {
    const fees: bigint[] = [];
    for (let i = 0; i < 3; i++) {
      await rpc(node.url, 'evm_mine');
      fees.push(BigInt((await rpc(node.url, 'eth_getBlockByNumber', ['latest', false])).baseFeePerGas));
    }
    assert.equal(fees[1], fees[0] - fees[0] / 8n);
    assert.equal(fees[2], fees[1] - fees[1] / 8n);
  });

  it('evm_snapshot / evm_revert restore blocks, state and the clock', async () => {
    const id = await rpc(node.url, 'evm_snapshot');
    await rpc(node.url, 'eth_sendRawTransaction', [await sign({ nonce: 0 })]);
    await rpc(node.url, 'evm_mine', [3]);
    await rpc(node.url, 'evm_increaseTime', [3600]);
    assert.equal(await rpc(node.url, 'eth_blockNumber'), '0x3');
    assert.equal(await rpc(node.url, 'evm_revert', [id]), true);
    assert.equal(await rpc(node.url, 'eth_blockNumber'), '0x0');
    assert.equal(await rpc(node.url, 'eth_getBalance', [to, 'pending']), '0x0');
    assert.equal(await rpc(node.url, 'evm_revert', [id]), false);
  });

  it('evm_increaseTime and evm_setNextBlockTimestamp move block timestamps', async () => {
    const t0 = BigInt((await rpc(node.url, 'eth_getBlockByNumber', ['latest', false])).timestamp);
    await rpc(node.url, 'evm_increaseTime', [1000]);
    await rpc(node.url, 'evm_mine');
    const t1 = BigInt((await rpc(node.url, 'eth_getBlockByNumber', ['latest', false])).timestamp);
    assert.ok(t1 >= t0 + 1000n);
    await rpc(node.url, 'evm_setNextBlockTimestamp', [Number(t1 + 5000n)]);
    await rpc(node.url, 'evm_mine');
    assert.equal(BigInt((await rpc(node.url, 'eth_getBlockByNumber', ['latest', false])).timestamp), t1 + 5000n);
    const error = await rpcError(node.url, 'evm_setNextBlockTimestamp', [1]);
    assert.equal(error.code, -32000);
  });

  it('anvil_setBalance changes the balance at latest and pending at once (as Anvil), under the same latest header', async () => {
    const head = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
    await rpc(node.url, 'anvil_setBalance', [to, '0x1234']);
    assert.equal(await rpc(node.url, 'eth_getBalance', [to, 'pending']), '0x1234');
    assert.equal(await rpc(node.url, 'eth_getBalance', [to, 'latest']), '0x1234');
    assert.deepEqual(await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]), head);
  });

  it('eth_call and eth_estimateGas for a plain transfer', async () => {
    assert.equal(await rpc(node.url, 'eth_call', [{ from: wallet.address, to, value: '0x1' }, 'latest']), '0x');
    assert.equal(await rpc(node.url, 'eth_estimateGas', [{ from: wallet.address, to, value: '0x1' }]), '0x5208');
    // Intrinsic 21,000 + 4 + 16 = 21,020, under the EIP-7623 floor of 21,000 + 10 × (1 + 4) = 21,050.
    assert.equal(await rpc(node.url, 'eth_estimateGas', [{ from: wallet.address, to, data: '0x0001' }]), '0x' + (21_000 + 10 * 5).toString(16));
  });

  it('in auto mode flashblock j holds up to (j+1)/N of the gas limit, so a burst spreads over the block', async () => {
    // Auto mode with timers far away: flashblocks are cut by hand, the cap still applies.
    const spread = await startTestNode({ auto: true, blockTimeMs: 1_000_000, flashblockMs: 100_000, gasLimit: 210_000 });
    try {
      const sender = new Wallet(spread.accounts[2].privateKey);
      for (let nonce = 0; nonce < 5; nonce++) {
        await rpc(spread.url, 'eth_sendRawTransaction', [await sender.signTransaction({ to, value: 1n, gasLimit: 21_000, chainId: 31337, nonce, ...fees })]);
      }
      const counts = [];
      for (let i = 0; i < 3; i++) counts.push((await rpc(spread.url, 'mock_flashblock')).transactions);
      assert.deepEqual(counts, [2, 3, 4], 'index 1 holds 2/10 of 210000 gas, index 2 3/10, index 3 4/10');
    } finally {
      await spread.stop();
    }
  });

  it('control methods can be turned off', async () => {
    const locked = await startTestNode({ control: false });
    try {
      assert.equal((await rpcError(locked.url, 'evm_mine')).code, -32601);
    } finally {
      await locked.stop();
    }
  });
});
