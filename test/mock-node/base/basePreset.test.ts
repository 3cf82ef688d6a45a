// --chain base and --chain base-sepolia against real clients: viem's `base` chain (its op-stack
// formatters, serializer and getSourceHash as the independent decoder of the deposit) and
// publicActionsL2 (estimateL1Fee and estimateTotalFee call the GasPriceOracle predeploy's real
// code), @ethereumjs/mpt for the tries, and the default chain checked to have none of it.
import assert from 'node:assert/strict';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { encodeRlp, toBeHex } from 'ethers';
import { createPublicClient, createWalletClient, http, keccak256, parseAbi, type Hex as ViemHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base, baseSepolia } from 'viem/chains';
import { getSourceHash, publicActionsL2, serializeTransaction } from 'viem/op-stack';
import type { RunningMockNode } from '../../../mock-node/index';
import { rpc, startTestNode } from '../../helpers/rpc';
import { unsignedTransactionL1Fee } from '../../../mock-node/execution/opStack/l1Fee';

const L1_BLOCK = '0x4200000000000000000000000000000000000015';
const L1_FEE_VAULT = '0x420000000000000000000000000000000000001a';
const BASE_FEE_VAULT = '0x4200000000000000000000000000000000000019';
const DEPOSITOR = '0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001';
const L1_BLOCK_ABI = parseAbi([
  'function number() view returns (uint64)',
  'function timestamp() view returns (uint64)',
  'function basefee() view returns (uint256)',
  'function hash() view returns (bytes32)',
  'function sequenceNumber() view returns (uint64)',
  'function batcherHash() view returns (bytes32)',
  'function baseFeeScalar() view returns (uint32)',
  'function blobBaseFeeScalar() view returns (uint32)',
  'function blobBaseFee() view returns (uint256)',
  'function operatorFeeScalar() view returns (uint32)',
  'function operatorFeeConstant() view returns (uint64)',
]);
const GAS_PRICE_ORACLE_ABI = parseAbi(['function isFjord() view returns (bool)', 'function isEcotone() view returns (bool)', 'function isIsthmus() view returns (bool)']);
const TOKEN_ABI = parseAbi(['function name() view returns (string)', 'function version() view returns (string)', 'function symbol() view returns (string)']);

/** The setL1BlockValuesIsthmus calldata read by hand (offsets of the spec's packed layout). */
function readIsthmus(input: string) {
  const hex = input.slice(2);
  const at = (byte: number, size: number) => BigInt('0x' + hex.slice(byte * 2, (byte + size) * 2));
  return {
    selector: '0x' + hex.slice(0, 8),
    baseFeeScalar: at(4, 4), blobBaseFeeScalar: at(8, 4), sequenceNumber: at(12, 8), timestamp: at(20, 8), number: at(28, 8),
    basefee: at(36, 32), blobBaseFee: at(68, 32), hash: ('0x' + hex.slice(200, 264)) as ViemHex, batcherHash: ('0x' + hex.slice(264, 328)) as ViemHex,
    operatorFeeScalar: at(164, 4), operatorFeeConstant: at(168, 8),
    length: hex.length / 2,
  };
}

function clientsFor(node: RunningMockNode, chain = base) {
  const transport = http(node.url);
  const publicClient = createPublicClient({ chain, transport }).extend(publicActionsL2());
  return { publicClient, wallet: (i: number) => createWalletClient({ chain, transport, account: privateKeyToAccount(node.accounts[i].privateKey as ViemHex) }) };
}

describe('--chain base: OP Stack blocks, L1 fees and predeploys against viem\'s base chain', function () {
  this.timeout(60_000);
  let node: RunningMockNode;
  before(async () => {
    node = await startTestNode({ chain: 'base' });
  });
  after(() => node.stop());

  it('is chain 8453 with USDC at Base\'s address, domain "USD Coin" version "2", on both token paths', async () => {
    const { publicClient } = clientsFor(node);
    assert.equal(await publicClient.getChainId(), 8453);
    assert.equal(node.tokenAddress, '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913');
    const address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
    assert.equal(await publicClient.readContract({ address: address as ViemHex, abi: TOKEN_ABI, functionName: 'name' }), 'USD Coin');
    assert.equal(await publicClient.readContract({ address: address as ViemHex, abi: TOKEN_ABI, functionName: 'version' }), '2');
    assert.equal(await publicClient.readContract({ address: address as ViemHex, abi: TOKEN_ABI, functionName: 'symbol' }), 'USDC');
    // FiatTokenV2_2's bytecode is there, over the same storage the native path uses.
    assert.notEqual(await publicClient.getCode({ address: address as ViemHex }), undefined);
  });

  it('every sealed block opens with the L1-attributes deposit; its hash and sourceHash follow from its fields; L1Block stores it', async () => {
    const { publicClient, wallet } = clientsFor(node);
    await rpc(node.url, 'evm_mine');
    await wallet(1).sendTransaction({ to: node.accounts[2].address as ViemHex, value: 1000n });
    await rpc(node.url, 'evm_mine');
    await rpc(node.url, 'evm_mine');
    let previous: ReturnType<typeof readIsthmus> | undefined;
    for (const number of [1n, 2n, 3n]) {
      const block = await publicClient.getBlock({ blockNumber: number, includeTransactions: true });
      const deposit = block.transactions[0] as any;
      assert.equal(deposit.type, 'deposit', `block ${number}: viem's formatter reads type 0x7e`);
      assert.equal(deposit.from, DEPOSITOR);
      assert.equal(deposit.to, L1_BLOCK);
      assert.equal(deposit.mint, 0n);
      assert.equal(deposit.value, 0n);
      assert.equal(deposit.gas, 1_000_000n);
      assert.equal(deposit.isSystemTx, undefined, 'isSystemTx left out when false');
      const values = readIsthmus(deposit.input);
      assert.equal(values.selector, '0x098999be');
      assert.equal(values.length, 176);
      // The hash from the fields alone, with viem's op-stack serializer.
      const bytes = serializeTransaction({ type: 'deposit', sourceHash: deposit.sourceHash, from: deposit.from, to: deposit.to, mint: 0n, value: 0n, gas: deposit.gas, isSystemTx: false, data: deposit.input });
      assert.equal(keccak256(bytes), deposit.hash);
      assert.equal(getSourceHash({ domain: 'l1InfoDeposit', l1BlockHash: values.hash, sequenceNumber: Number(values.sequenceNumber) }), deposit.sourceHash);
      // The origin advances: same L1 block with the next sequence number, or a later block from 0.
      if (previous) {
        if (values.number === previous.number) assert.equal(values.sequenceNumber, previous.sequenceNumber + 1n);
        else assert.ok(values.number > previous.number && values.sequenceNumber === 0n);
      }
      assert.ok(values.timestamp <= block.timestamp, 'the L1 origin is not after its L2 block');
      previous = values;
      // L1Block's storage is what this block's deposit set (read through its real code).
      const read = (functionName: any) => publicClient.readContract({ address: L1_BLOCK, abi: L1_BLOCK_ABI, functionName, blockNumber: number }) as Promise<any>;
      assert.deepEqual(
        [await read('number'), await read('timestamp'), await read('basefee'), await read('hash'), await read('sequenceNumber'), await read('batcherHash'), BigInt(await read('baseFeeScalar')), BigInt(await read('blobBaseFeeScalar')), await read('blobBaseFee'), BigInt(await read('operatorFeeScalar')), BigInt(await read('operatorFeeConstant'))],
        [values.number, values.timestamp, values.basefee, values.hash, values.sequenceNumber, values.batcherHash, values.baseFeeScalar, values.blobBaseFeeScalar, values.blobBaseFee, values.operatorFeeScalar, values.operatorFeeConstant],
      );
      const receipt = await publicClient.getTransactionReceipt({ hash: deposit.hash });
      assert.equal(receipt.status, 'success');
      assert.equal((receipt as any).depositReceiptVersion, 1);
      assert.equal(typeof (receipt as any).depositNonce, 'bigint');
      assert.equal((receipt as any).l1Fee, null, 'a deposit pays no L1 fee');
    }
  });

  it('the transactions and receipts tries hold the deposit (its receipt with depositNonce and version)', async () => {
    const { wallet } = clientsFor(node);
    const signer = wallet(3);
    const signed = await signer.signTransaction(await signer.prepareTransactionRequest({ to: node.accounts[4].address as ViemHex, value: 7n, data: '0x1234' }) as any);
    await signer.sendRawTransaction({ serializedTransaction: signed });
    await rpc(node.url, 'evm_mine');
    const block = await rpc(node.dedicatedUrl, 'eth_getBlockByNumber', ['latest', true]);
    const receipts = await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', ['latest']);
    assert.equal(block.transactions.length, 2);
    assert.equal(receipts[0].type, '0x7e');
    assert.equal(receipts[0].depositReceiptVersion, '0x1');
    const key = (i: number) => hexToBytes(encodeRlp(i === 0 ? '0x' : toBeHex(i)) as `0x${string}`);
    const txTrie = new MerklePatriciaTrie();
    const receiptTrie = new MerklePatriciaTrie();
    for (let i = 0; i < block.transactions.length; i++) {
      const tx = block.transactions[i];
      const raw = i === 0
        ? serializeTransaction({ type: 'deposit', sourceHash: tx.sourceHash, from: tx.from, to: tx.to, mint: BigInt(tx.mint), value: BigInt(tx.value), gas: BigInt(tx.gas), isSystemTx: false, data: tx.input })
        : signed;
      await txTrie.put(key(i), hexToBytes(raw));
      const r = receipts[i];
      const items: unknown[] = [r.status === '0x1' ? '0x01' : '0x', toBeHex(BigInt(r.cumulativeGasUsed)), r.logsBloom, r.logs.map((l: any) => [l.address, l.topics, l.data])];
      if (i === 0) items.push(BigInt(r.depositNonce) === 0n ? '0x' : toBeHex(BigInt(r.depositNonce)), '0x01');
      await receiptTrie.put(key(i), hexToBytes(('0x' + r.type.slice(2).padStart(2, '0') + encodeRlp(items as any).slice(2)) as `0x${string}`));
    }
    assert.equal(bytesToHex(txTrie.root()), block.transactionsRoot);
    assert.equal(bytesToHex(receiptTrie.root()), block.receiptsRoot);
  });

  it('a transfer pays value + gasUsed × effectiveGasPrice + l1Fee exactly; the L1 fee and the base fee reach their vaults', async () => {
    const { publicClient, wallet } = clientsFor(node);
    const sender = node.accounts[5].address as ViemHex;
    const head = await publicClient.getBlockNumber();
    const before = await publicClient.getBalance({ address: sender, blockNumber: head });
    const vaultBefore = await publicClient.getBalance({ address: L1_FEE_VAULT, blockNumber: head });
    const baseVaultBefore = await publicClient.getBalance({ address: BASE_FEE_VAULT, blockNumber: head });
    const hash = await wallet(5).sendTransaction({ to: node.accounts[6].address as ViemHex, value: 123_456n, data: '0xdeadbeef' });
    await rpc(node.url, 'evm_mine');
    const receipt: any = await publicClient.getTransactionReceipt({ hash });
    for (const field of ['l1Fee', 'l1GasPrice', 'l1GasUsed']) assert.equal(typeof receipt[field], 'bigint', `viem's base formatter reads ${field}`);
    // viem passes the other three through as the node sent them: quantities.
    for (const field of ['l1BaseFeeScalar', 'l1BlobBaseFee', 'l1BlobBaseFeeScalar']) assert.match(receipt[field], /^0x[0-9a-f]+$/, field);
    assert.ok(receipt.l1Fee > 0n);
    const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber });
    const after = await publicClient.getBalance({ address: sender, blockNumber: receipt.blockNumber });
    assert.equal(before - after, 123_456n + (receipt.gasUsed as bigint) * (receipt.effectiveGasPrice as bigint) + (receipt.l1Fee as bigint));
    assert.equal(await publicClient.getBalance({ address: L1_FEE_VAULT, blockNumber: receipt.blockNumber }) - vaultBefore, receipt.l1Fee);
    assert.equal(await publicClient.getBalance({ address: BASE_FEE_VAULT, blockNumber: receipt.blockNumber }) - baseVaultBefore, receipt.gasUsed * block.baseFeePerGas!);
    // The receipt's L1 fields are the block's deposit's values.
    const deposit = readIsthmus((await publicClient.getBlock({ blockNumber: receipt.blockNumber, includeTransactions: true })).transactions[0].input);
    assert.equal(receipt.l1GasPrice, deposit.basefee);
    assert.equal(BigInt(receipt.l1BaseFeeScalar), deposit.baseFeeScalar);
    assert.equal(BigInt(receipt.l1BlobBaseFeeScalar), deposit.blobBaseFeeScalar);
    assert.equal(BigInt(receipt.l1BlobBaseFee), deposit.blobBaseFee);
    assert.equal(BigInt(receipt.operatorFeeScalar), deposit.operatorFeeScalar);
    assert.equal(BigInt(receipt.operatorFeeConstant), deposit.operatorFeeConstant);
  });

  it('GasPriceOracle is Fjord and Isthmus; estimateL1Fee (its getL1Fee) agrees with the node\'s FastLZ over many payloads; estimateGas stays L2 gas; estimateTotalFee adds them up', async () => {
    const { publicClient } = clientsFor(node);
    assert.equal(await publicClient.readContract({ address: '0x420000000000000000000000000000000000000F', abi: GAS_PRICE_ORACLE_ABI, functionName: 'isFjord' }), true);
    assert.equal(await publicClient.readContract({ address: '0x420000000000000000000000000000000000000F', abi: GAS_PRICE_ORACLE_ABI, functionName: 'isIsthmus' }), true);
    const blockNumber = await publicClient.getBlockNumber();
    const read = (functionName: any) => publicClient.readContract({ address: L1_BLOCK, abi: L1_BLOCK_ABI, functionName, blockNumber }) as Promise<any>;
    const params = {
      l1BaseFee: await read('basefee'), l1BlobBaseFee: await read('blobBaseFee'), baseFeeScalar: BigInt(await read('baseFeeScalar')), blobBaseFeeScalar: BigInt(await read('blobBaseFeeScalar')),
      operatorFeeScalar: BigInt(await read('operatorFeeScalar')), operatorFeeConstant: BigInt(await read('operatorFeeConstant')),
    };
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 8) & 0xff;
    const payloads: ViemHex[] = ['0x'];
    for (const size of [1, 13, 31, 64, 200, 700, 3000]) {
      payloads.push(`0x${Buffer.from(Array.from({ length: size }, random)).toString('hex')}`);
      payloads.push(`0x${'ab'.repeat(size)}`);
      payloads.push(`0x${Buffer.from(Array.from({ length: size }, (_, i) => (i % 7 === 0 ? random() : i % 3))).toString('hex')}`);
    }
    const account = node.accounts[7].address as ViemHex;
    for (const data of payloads) {
      const to = node.accounts[8].address as ViemHex;
      const fee = await publicClient.estimateL1Fee({ account, to, value: 1n, data, blockNumber } as any);
      // The unsigned transaction estimateL1Fee sends to getL1Fee (its documented stub values for gas, fees and nonce).
      const unsigned = serializeTransaction({ to, value: 1n, data, chainId: 8453, type: 'eip1559', gas: 300_000n, maxFeePerGas: 5_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, nonce: 1 });
      assert.equal(fee, unsignedTransactionL1Fee(hexToBytes(unsigned), params), `payload of ${(data.length - 2) / 2} bytes`);
    }
    const gas = await publicClient.estimateGas({ account, to: node.accounts[8].address as ViemHex, value: 1n });
    assert.equal(gas, 21_000n, 'eth_estimateGas answers L2 gas only');
    // estimateTotalFee: the L1 fee, GasPriceOracle.getOperatorFee (Isthmus) and the L2 gas at the gas price.
    const to = node.accounts[8].address as ViemHex;
    const total = await publicClient.estimateTotalFee({ account, to, value: 1n, chain: base } as any);
    const l1 = await publicClient.estimateL1Fee({ account, to, value: 1n, chain: base } as any);
    const operator = await publicClient.estimateOperatorFee({ account, to, value: 1n, chain: base } as any);
    const gasPrice = await publicClient.getGasPrice();
    assert.equal(operator, 0n, 'Base\'s operator fee parameters are 0');
    assert.equal(total, l1 + operator + 21_000n * gasPrice);
  });

  it('flashblock 0 of each block holds the deposit alone; user transactions start at index 1', async () => {
    await rpc(node.url, 'evm_mine');
    const pending = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
    assert.equal(pending.transactions.length, 1);
    const { wallet } = clientsFor(node);
    const hash = await wallet(9).sendTransaction({ to: node.accounts[1].address as ViemHex, value: 1n });
    await rpc(node.url, 'mock_flashblock');
    const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [hash]);
    assert.equal(receipt.transactionIndex, '0x1');
    assert.equal(receipt.blockNumber, pending.number);
  });

  it('debug_traceBlockByNumber traces the deposit first', async () => {
    await rpc(node.url, 'evm_mine');
    const head = await rpc(node.url, 'eth_blockNumber');
    const traces = await rpc(node.dedicatedUrl, 'debug_traceBlockByNumber', [head, { tracer: 'callTracer' }]);
    assert.ok(traces.length >= 1);
    assert.equal(traces[0].result.from, DEPOSITOR);
    assert.equal(traces[0].result.to, L1_BLOCK);
  });
});

describe('--chain base-sepolia', function () {
  this.timeout(30_000);
  it('is chain 84532 with USDC at 0x036C…CF7e, domain "USDC" version "2", and the deposit first', async () => {
    const node = await startTestNode({ chain: 'base-sepolia' });
    try {
      const { publicClient } = clientsFor(node, baseSepolia as unknown as typeof base);
      assert.equal(await publicClient.getChainId(), 84532);
      const address = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
      assert.equal(node.tokenAddress, address.toLowerCase());
      assert.equal(await publicClient.readContract({ address, abi: TOKEN_ABI, functionName: 'name' }), 'USDC');
      assert.equal(await publicClient.readContract({ address, abi: TOKEN_ABI, functionName: 'version' }), '2');
      await rpc(node.url, 'evm_mine');
      const block = await publicClient.getBlock({ includeTransactions: true });
      assert.equal(block.transactions[0].type, 'deposit');
    } finally {
      await node.stop();
    }
  });

  it('refuses an unknown chain name, naming the known ones', async () => {
    await assert.rejects(startTestNode({ chain: 'optimism' as never }), /chain must be one of base, base-sepolia/);
  });
});

describe('the default chain (no --chain) has none of it', function () {
  this.timeout(30_000);
  it('chain 31337, token at 0x3600…, no deposit, no L1 fee fields, no predeploy code', async () => {
    const node = await startTestNode();
    try {
      assert.equal(node.chainId, 31337n);
      assert.equal(node.tokenAddress, '0x3600000000000000000000000000000000000000');
      await rpc(node.url, 'evm_mine');
      const empty = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
      assert.deepEqual(empty.transactions, []);
      assert.equal(await rpc(node.url, 'eth_getCode', [L1_BLOCK, 'latest']), '0x');
      const wallet = createWalletClient({ chain: { ...base, id: 31337 }, transport: http(node.url), account: privateKeyToAccount(node.accounts[1].privateKey as ViemHex) });
      const hash = await wallet.sendTransaction({ to: node.accounts[2].address as ViemHex, value: 1n });
      await rpc(node.url, 'evm_mine');
      const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [hash]);
      assert.equal(receipt.transactionIndex, '0x0');
      assert.equal('l1Fee' in receipt, false);
      assert.equal('depositNonce' in receipt, false);
    } finally {
      await node.stop();
    }
  });
});

describe('--chain base with --state', function () {
  this.timeout(30_000);
  it('saves and restores deposits and L1 fees; the pending block\'s deposit is made again, not queued', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'base-state-'));
    const stateFile = join(dir, 'chain.json');
    try {
      const first = await startTestNode({ chain: 'base', stateFile });
      const [a, b] = first.accounts;
      await rpc(first.url, 'evm_mine');
      const sealedHash = await rpc(first.url, 'eth_sendTransaction', [{ from: a.address, to: b.address, value: '0x5' }]);
      await rpc(first.url, 'evm_mine');
      const pendingHash = await rpc(first.url, 'eth_sendTransaction', [{ from: b.address, to: a.address, value: '0x6' }]);
      await rpc(first.url, 'mock_flashblock');
      const before = await rpc(first.dedicatedUrl, 'eth_getBlockReceipts', ['latest']);
      const head = await rpc(first.url, 'eth_blockNumber');
      await first.stop();

      const second = await startTestNode({ chain: 'base', stateFile });
      try {
        assert.equal(await rpc(second.url, 'eth_blockNumber'), head);
        assert.deepEqual(await rpc(second.dedicatedUrl, 'eth_getBlockReceipts', [head]), before, 'receipts (deposit fields, L1 fees) as they were');
        assert.ok((await rpc(second.url, 'eth_getTransactionReceipt', [sealedHash])).l1Fee);
        await rpc(second.url, 'evm_mine');
        const block = await rpc(second.url, 'eth_getBlockByNumber', ['latest', true]);
        assert.equal(block.transactions[0].type, '0x7e');
        assert.deepEqual(block.transactions.map((tx: { hash: string }) => tx.hash).slice(1), [pendingHash], 'the pending transaction, once, after a new deposit');
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('--chain base: reorgs and rebuilt pending blocks', function () {
  this.timeout(30_000);
  it('mock_reorg gives every new block its own deposit; user transactions stay once each, deposits are never queued', async () => {
    const node = await startTestNode({ chain: 'base', safeDepth: 3, finalizedDepth: 3 });
    try {
      const [a, b] = node.accounts;
      const sent: string[] = [];
      for (let i = 0; i < 3; i++) {
        sent.push(await rpc(node.url, 'eth_sendTransaction', [{ from: a.address, to: b.address, value: `0x${(i + 1).toString(16)}` }]));
        await rpc(node.url, 'evm_mine');
      }
      const head = Number(await rpc(node.url, 'eth_blockNumber'));
      const before = await rpc(node.url, 'eth_getBlockByNumber', [`0x${head.toString(16)}`, false]);
      await rpc(node.url, 'mock_reorg', [2]);
      await rpc(node.url, 'evm_mine');
      const seen: string[] = [];
      for (let n = 1; n <= Number(await rpc(node.url, 'eth_blockNumber')); n++) {
        const block = await rpc(node.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, true]);
        assert.equal(block.transactions[0].type, '0x7e', `block ${n} opens with a deposit`);
        assert.equal(block.transactions.filter((tx: { type: string }) => tx.type === '0x7e').length, 1, `block ${n} has one deposit`);
        seen.push(...block.transactions.slice(1).map((tx: { hash: string }) => tx.hash));
      }
      assert.notEqual((await rpc(node.url, 'eth_getBlockByNumber', [`0x${head.toString(16)}`, false])).hash, before.hash, 'the head was replaced');
      assert.deepEqual([...seen].sort(), [...sent].sort(), 'each user transaction once');
      const pool = await rpc(node.url, 'txpool_content');
      assert.equal(JSON.stringify(pool).includes('0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001'), false, 'no deposit in the pool');
    } finally {
      await node.stop();
    }
  });
});
