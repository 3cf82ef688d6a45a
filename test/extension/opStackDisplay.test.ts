// The explorer on an OP Stack chain: a deposit row says what it is ("L1 attributes, L1 block N"),
// a transaction shows its L1 fee beside its L2 fee and the total, and the mock node's endpoint rows
// are named after the chain. The JSON comes from a real node started with --chain base (the same
// fields Base's own endpoints answer); Isthmus calldata, which Base sends today, is built by hand.
import { strict as assert } from 'node:assert';
import { transactionNode, receiptNode } from '../../extension/explorer/blockNodes';
import { decodeTransaction } from '../../extension/explorer/decoding';
import { depositSummary, feeBreakdown, l1AttributesBlock } from '../../extension/explorer/opStackDisplay';
import { transactionPageText } from '../../extension/explorer/transactionPageText';
import { mockEndpointNames } from '../../extension/mockNode/mockEndpointNames';
import { startMockNode, type RunningMockNode } from '../../mock-node/index';

describe('explorer: OP Stack deposits and L1 fees', function () {
  this.timeout(30_000);
  let node: RunningMockNode;
  before(async () => {
    node = await startMockNode({ chain: 'base', port: 0, auto: false, quiet: true });
  });
  after(() => node.stop());

  it('the deposit row reads "L1 attributes, L1 block N" with N the origin L1Block stored', async () => {
    await node.request('evm_mine');
    const block = (await node.request('eth_getBlockByNumber', ['latest', true])) as { transactions: Record<string, unknown>[] };
    const deposit = block.transactions[0];
    const stored = BigInt((await node.request('eth_call', [{ to: '0x4200000000000000000000000000000000000015', data: '0x8381f58a' }, 'latest'])) as string); // number()
    assert.ok(stored > 0n);
    assert.equal(l1AttributesBlock(deposit.input), stored);
    assert.equal(decodeTransaction(deposit, {}).summary, `L1 attributes, L1 block ${stored}`);
    const row = transactionNode('b', 'ep', deposit as never, 0);
    assert.equal(row.label, `#0 L1 attributes, L1 block ${stored}`);
  });

  it('reads Isthmus calldata (0x098999be, 176 bytes) as Base sends it today; other inputs are not L1 attributes', () => {
    const number = 23_456_789n;
    const isthmus = `0x098999be${'00'.repeat(24)}${number.toString(16).padStart(16, '0')}${'00'.repeat(176 - 36)}`;
    assert.equal((isthmus.length - 2) / 2, 176);
    assert.equal(l1AttributesBlock(isthmus), number);
    assert.equal(l1AttributesBlock(isthmus.slice(0, -2)), undefined, 'a wrong length is not taken');
    assert.equal(l1AttributesBlock('0xa9059cbb'), undefined);
    assert.equal(depositSummary({ type: '0x7e', input: '0x', mint: '0xde0b6b3a7640000', value: '0x0' }), 'deposit from L1 · mints 1.0 ETH');
  });

  it('a transaction shows its L1 fee beside its L2 fee and the total, in the tree and on its page', async () => {
    const [from, to] = node.accounts;
    const hash = (await node.request('eth_sendTransaction', [{ from: from.address, to: to.address, value: '0x1' }])) as string;
    await node.request('evm_mine');
    const receipt = (await node.request('eth_getTransactionReceipt', [hash])) as Record<string, string> & { transactionHash: string };
    const tx = (await node.request('eth_getTransactionByHash', [hash])) as Record<string, unknown> & { hash: string };
    const fees = feeBreakdown(receipt)!;
    assert.equal(fees.l2Fee, BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice));
    assert.equal(fees.l1Fee, BigInt(receipt.l1Fee));
    assert.equal(fees.total, fees.l2Fee + fees.l1Fee);
    const receiptRow = receiptNode('r', 'ep', receipt as never, {});
    const feesRow = receiptRow.children!.find((child) => child.label === 'fees')!;
    assert.match(String(feesRow.description), /^L2 fee [0-9.]+ ETH · L1 fee [0-9.]+ ETH · total [0-9.]+ ETH$/);
    const txRow = transactionNode('b', 'ep', tx as never, 1, { status: '0x1', fees });
    assert.ok(txRow.children!.some((child) => child.label === 'fees'));
    const page = transactionPageText({ endpointName: 'Base (mock)', hash, tx, receipt, latest: 10n, ctx: {} });
    assert.match(page, /L2 fee: +[0-9.]+ ETH/);
    assert.match(page, new RegExp(`L1 fee: +[0-9.]+ ETH \\(L1 gas ${BigInt(receipt.l1GasUsed)} at ${BigInt(receipt.l1GasPrice)} wei\\)`));
    assert.match(page, /total fee: +[0-9.]+ ETH/);
    // A receipt without an L1 fee (any other chain) keeps the one fee line.
    const plain = { ...receipt, l1Fee: undefined };
    assert.equal(feeBreakdown(plain), undefined);
    assert.match(transactionPageText({ endpointName: 'x', hash, tx, receipt: plain, latest: 10n, ctx: {} }), /  fee: +[0-9.]+ ETH/);
  });

  it('names the mock endpoints after the chain: "Base (mock)", "Base Sepolia (mock)", else "Mock node"', async () => {
    assert.equal(node.chainLabel, 'Base');
    assert.deepEqual(mockEndpointNames(node.chainLabel), { public: 'Base (mock)', dedicated: 'Base (mock, dedicated)' });
    assert.equal(mockEndpointNames('Base Sepolia').public, 'Base Sepolia (mock)');
    assert.equal(mockEndpointNames(undefined).public, 'Mock node (public)');
  });
});
