// --chain base with --fork-url: Base's blocks on top of a fork of an OP Stack chain. The upstream
// is the mock node itself with --chain base (L1Block, GasPriceOracle and their values as Base has
// them); the fork's own blocks open with their L1-attributes deposit, continuing the upstream's L1
// origin, and its transactions pay the L1 fee from the forked L1Block's values, as viem reads them.
import assert from 'node:assert/strict';
import { createPublicClient, createWalletClient, http, parseAbi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { publicActionsL2 } from 'viem/op-stack';
import type { RunningMockNode } from '../../../mock-node/index';
import { rpc, startTestNode } from '../../helpers/rpc';

const L1_BLOCK = '0x4200000000000000000000000000000000000015';
const L1_FEE_VAULT = '0x420000000000000000000000000000000000001a';
const DEPOSITOR = '0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001';
const L1_BLOCK_ABI = parseAbi(['function number() view returns (uint64)', 'function sequenceNumber() view returns (uint64)', 'function basefee() view returns (uint256)']);

describe('--chain base on a fork of an OP Stack chain', function () {
  this.timeout(60_000);
  let upstream: RunningMockNode;
  let fork: RunningMockNode;
  let forkBlock: bigint;

  before(async () => {
    upstream = await startTestNode({ chain: 'base' });
    for (let i = 0; i < 4; i++) await rpc(upstream.url, 'evm_mine');
    forkBlock = BigInt(await rpc(upstream.url, 'eth_blockNumber'));
    fork = await startTestNode({ chain: 'base', fork: { url: upstream.url, blockNumber: forkBlock } });
  });

  after(async () => {
    await fork?.stop();
    await upstream?.stop();
  });

  it("builds Base's blocks on the fork: an L1-attributes deposit first, continuing the upstream's L1 origin, and L1 fees from the forked L1Block", async () => {
    const transport = http(fork.url);
    const publicClient = createPublicClient({ chain: base, transport }).extend(publicActionsL2());
    const upstreamClient = createPublicClient({ chain: base, transport: http(upstream.url) });
    const read = (client: typeof upstreamClient, functionName: 'number' | 'sequenceNumber', blockNumber: bigint) => client.readContract({ address: L1_BLOCK, abi: L1_BLOCK_ABI, functionName, blockNumber });
    const originAtFork = await read(upstreamClient, 'number', forkBlock);
    const sequenceAtFork = await read(upstreamClient, 'sequenceNumber', forkBlock);

    const sender = fork.accounts[4];
    const wallet = createWalletClient({ chain: base, transport, account: privateKeyToAccount(sender.privateKey as Hex) });
    const request = { to: fork.accounts[5].address as Hex, value: 1_000n, data: '0xdeadbeef' as Hex };
    const estimatedL1Fee = await publicClient.estimateL1Fee({ ...request, account: sender.address as Hex });
    const before = await publicClient.getBalance({ address: sender.address as Hex });
    const vaultBefore = await publicClient.getBalance({ address: L1_FEE_VAULT });
    const hash = await wallet.sendTransaction(request);
    await rpc(fork.url, 'evm_mine');
    const receipt: any = await publicClient.getTransactionReceipt({ hash });
    assert.equal(receipt.blockNumber, forkBlock + 1n, 'the first block the fork builds');

    const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber, includeTransactions: true });
    const deposit = block.transactions[0];
    assert.equal(deposit.type, 'deposit');
    assert.equal(deposit.from, DEPOSITOR);
    assert.equal(deposit.to, L1_BLOCK);
    const origin = await read(publicClient as unknown as typeof upstreamClient, 'number', receipt.blockNumber);
    const sequence = await read(publicClient as unknown as typeof upstreamClient, 'sequenceNumber', receipt.blockNumber);
    assert.ok(origin >= originAtFork, 'the L1 origin never goes back');
    assert.equal(sequence, origin === originAtFork ? sequenceAtFork + 1n : 0n, "the sequence number continues the upstream's");

    assert.ok(receipt.l1Fee > 0n, 'the L1 fee comes from the forked L1Block values');
    assert.equal(receipt.l1Fee, estimatedL1Fee, "viem's estimateL1Fee (the forked GasPriceOracle's code) agrees");
    const after = await publicClient.getBalance({ address: sender.address as Hex, blockNumber: receipt.blockNumber });
    assert.equal(before - after, 1_000n + (receipt.gasUsed as bigint) * (receipt.effectiveGasPrice as bigint) + (receipt.l1Fee as bigint));
    assert.equal((await publicClient.getBalance({ address: L1_FEE_VAULT, blockNumber: receipt.blockNumber })) - vaultBefore, receipt.l1Fee);
    assert.equal(BigInt(await rpc(upstream.url, 'eth_blockNumber')), forkBlock, 'the upstream is untouched');
  });
});
