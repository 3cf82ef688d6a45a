// A fork of the same upstream, on the mock node and on `anvil --fork-url`, side by side: the
// upstream is a local Anvil with Base's chain id and Circle's FiatTokenV2_2 (helpers/forkUpstream.ts).
import assert from 'node:assert/strict';
import { Signature, hexlify, randomBytes } from 'ethers';
import type { RunningMockNode } from '../../../mock-node/index';
import { anvilOrSkip, startAnvil, type RunningAnvil } from '../../helpers/anvil';
import { BASE_CHAIN_ID, BASE_USDC, USDC, balanceOfCall, startForkUpstream, type ForkUpstream } from '../../helpers/forkUpstream';
import { rpc, startTestNode } from '../../helpers/rpc';

let anvilUrlForMessages = "";
const hex = (n: bigint) => `0x${n.toString(16)}`;

/** A receipt, waiting for it a moment (Anvil answers the hash before its receipt under load). */
async function receiptOf(url: string, hash: string): Promise<any> {
  for (let tries = 0; tries < 200; tries++) {
    const receipt = await rpc(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no receipt for ${hash} on ${url === anvilUrlForMessages ? "anvil" : "the mock"}`);
}

describe('fork: the mock node and anvil --fork-url of the same upstream', function () {
  this.timeout(120_000);
  let upstream: ForkUpstream;
  let mock: RunningMockNode;
  let anvil: RunningAnvil;
  let both: { name: string; url: string; mine: () => Promise<void> }[];

  before(async function () {
    const binary = anvilOrSkip(this);
    upstream = await startForkUpstream();
    mock = await startTestNode({ fork: { url: upstream.anvil.url, blockNumber: upstream.forkBlock } });
    anvil = await startAnvil(binary, ['--fork-url', upstream.anvil.url, '--fork-block-number', String(upstream.forkBlock), '--no-storage-caching']);
    anvilUrlForMessages = anvil.url;
    both = [
      { name: 'mock', url: mock.url, mine: async () => void (await rpc(mock.url, 'evm_mine')) },
      { name: 'anvil', url: anvil.url, mine: async () => undefined },
    ];
  });

  after(async () => {
    await mock?.stop();
    await anvil?.stop();
    await upstream?.stop();
  });

  it("keeps the upstream's chain id, and its fork block with the same number and hash", async () => {
    const upstreamBlock = await rpc(upstream.anvil.url, 'eth_getBlockByNumber', [hex(upstream.forkBlock), false]);
    for (const node of both) {
      assert.equal(BigInt(await rpc(node.url, 'eth_chainId')), BASE_CHAIN_ID, node.name);
      const block = await rpc(node.url, 'eth_getBlockByNumber', [hex(upstream.forkBlock), false]);
      assert.equal(block.hash, upstreamBlock.hash, node.name);
      assert.equal(block.stateRoot, upstreamBlock.stateRoot, node.name);
    }
    assert.equal(mock.chainId, BASE_CHAIN_ID);
    for (const node of both) {
      const metadata = await rpc(node.url, 'anvil_metadata');
      assert.deepEqual(metadata.forkedNetwork, { chainId: Number(BASE_CHAIN_ID), forkBlockNumber: Number(upstream.forkBlock), forkBlockHash: upstreamBlock.hash }, node.name);
    }
    assert.equal(mock.tokenAddress, BASE_USDC, "on chain 8453 the token is Base's USDC address");
  });

  it("answers BLOCKHASH of blocks below the fork block with the upstream's hashes", async () => {
    // PUSH1 4, CALLDATALOAD, BLOCKHASH, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN: blockhash(the word after a selector).
    const reader = '0x00000000000000000000000000000000b10c4a54';
    const code = '0x6004354060005260206000f3';
    const numbers = [upstream.forkBlock - 4n, upstream.forkBlock - 2n, upstream.forkBlock - 1n];
    const expected = await Promise.all(numbers.map(async (n) => (await rpc(upstream.anvil.url, 'eth_getBlockByNumber', [hex(n), false])).hash));
    for (const node of both) {
      await rpc(node.url, 'anvil_setCode', [reader, code]);
      for (const [i, n] of numbers.entries()) {
        const answer = await rpc(node.url, 'eth_call', [{ to: reader, data: `0x00000000${n.toString(16).padStart(64, '0')}` }, 'latest']);
        assert.equal(answer, expected[i], `${node.name}: blockhash(${n})`);
      }
    }
  });

  it('reads state as of the fork block, not after it', async () => {
    const atFork = BigInt(await rpc(upstream.anvil.url, 'eth_call', [balanceOfCall(upstream.holder), hex(upstream.forkBlock)]));
    const now = BigInt(await rpc(upstream.anvil.url, 'eth_call', [balanceOfCall(upstream.holder), 'latest']));
    assert.notEqual(atFork, now, 'the upstream changed after the fork block');
    const ethAtFork = BigInt(await rpc(upstream.anvil.url, 'eth_getBalance', [upstream.changedAfter, hex(upstream.forkBlock)]));
    for (const node of both) {
      assert.equal(BigInt(await rpc(node.url, 'eth_call', [balanceOfCall(upstream.holder), 'latest'])), atFork, node.name);
      assert.equal(BigInt(await rpc(node.url, 'eth_getBalance', [upstream.changedAfter, 'latest'])), ethAtFork, node.name);
      assert.equal(await rpc(node.url, 'eth_getCode', [BASE_USDC, 'latest']), await rpc(upstream.anvil.url, 'eth_getCode', [BASE_USDC, hex(upstream.forkBlock)]), node.name);
    }
  });

  it('serves history before the fork block: blocks, transactions, receipts, logs and state at old numbers', async () => {
    const at = hex(upstream.historyBlock);
    const before = hex(upstream.historyBlock - 1n);
    const expected = {
      block: await rpc(upstream.anvil.url, 'eth_getBlockByNumber', [at, true]),
      tx: await rpc(upstream.anvil.url, 'eth_getTransactionByHash', [upstream.historyTx]),
      receipt: await rpc(upstream.anvil.url, 'eth_getTransactionReceipt', [upstream.historyTx]),
      holderBefore: await rpc(upstream.anvil.url, 'eth_call', [balanceOfCall(upstream.holder), before]),
      holderAt: await rpc(upstream.anvil.url, 'eth_call', [balanceOfCall(upstream.holder), at]),
    };
    for (const node of both) {
      const block = await rpc(node.url, 'eth_getBlockByNumber', [at, true]);
      assert.equal(block.hash, expected.block.hash, node.name);
      assert.deepEqual(block.transactions.map((tx: any) => tx.hash), expected.block.transactions.map((tx: any) => tx.hash), node.name);
      assert.equal((await rpc(node.url, 'eth_getBlockByHash', [expected.block.hash, false])).number, at, node.name);
      const tx = await rpc(node.url, 'eth_getTransactionByHash', [upstream.historyTx]);
      assert.equal(tx.blockNumber, expected.tx.blockNumber, node.name);
      assert.equal(tx.input, expected.tx.input, node.name);
      const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [upstream.historyTx]);
      assert.equal(receipt.status, '0x1', node.name);
      assert.deepEqual(receipt.logs.map((log: any) => log.data), expected.receipt.logs.map((log: any) => log.data), node.name);
      assert.equal(await rpc(node.url, 'eth_call', [balanceOfCall(upstream.holder), before]), expected.holderBefore, node.name);
      assert.equal(await rpc(node.url, 'eth_call', [balanceOfCall(upstream.holder), at]), expected.holderAt, node.name);
      assert.equal(await rpc(node.url, 'eth_getBalance', [upstream.changedAfter, before]), '0x0', node.name);
    }
    // A trace of a transaction before the fork block: the same call frame on both.
    const traces = [];
    for (const node of both) traces.push(await rpc(node.url, 'debug_traceTransaction', [upstream.historyTx, { tracer: 'callTracer' }]));
    assert.equal(traces[0].to, BASE_USDC);
    assert.deepEqual([traces[0].from, traces[0].to, traces[0].input, traces[0].gasUsed], [traces[1].from, traces[1].to, traces[1].input, traces[1].gasUsed]);
    // A transaction the upstream has after the fork block is not the fork's: the mock answers null;
    // Anvil asks the upstream and answers it, from a block above its own fork block (a difference, docs/forking.md).
    const afterFork = await rpc(upstream.anvil.url, 'eth_getBlockByNumber', [hex(upstream.forkBlock + 1n), false]);
    assert.equal(await rpc(mock.url, 'eth_getTransactionByHash', [afterFork.transactions[0]]), null);
    assert.equal((await rpc(anvil.url, 'eth_getTransactionByHash', [afterFork.transactions[0]])).blockNumber, hex(upstream.forkBlock + 1n));
  });

  it("runs a transfer on the fork with the forked code's gas, leaves the upstream untouched, and splits eth_getLogs across the fork block", async () => {
    const upstreamBefore = await rpc(upstream.anvil.url, 'eth_call', [balanceOfCall(upstream.holder), 'latest']);
    const gas: bigint[] = [];
    for (const node of both) {
      const hash = await rpc(node.url, 'eth_sendTransaction', [{ from: upstream.wallets[2].address, to: BASE_USDC, gas: '0x30000', data: USDC.encodeFunctionData('transfer', [upstream.holder, 1_000n]) }]);
      await node.mine();
      const receipt = await receiptOf(node.url, hash);
      assert.equal(receipt.status, '0x1', node.name);
      gas.push(BigInt(receipt.gasUsed));
      const logs = await rpc(node.url, 'eth_getLogs', [{ address: BASE_USDC, fromBlock: hex(upstream.historyBlock), toBlock: 'latest' }]);
      assert.deepEqual(logs.map((log: any) => log.blockNumber), [hex(upstream.historyBlock), receipt.blockNumber], node.name);
    }
    assert.equal(gas[0], gas[1], 'the same gas on the mock and on Anvil');
    assert.equal(await rpc(upstream.anvil.url, 'eth_call', [balanceOfCall(upstream.holder), 'latest']), upstreamBefore, 'the upstream is untouched');
  });

  it('captures and cancels EIP-3009 authorizations on the forked token', async () => {
    const [payer, payee] = [upstream.wallets[3], upstream.wallets[4]];
    const domain = { name: 'USD Coin', version: '2', chainId: BASE_CHAIN_ID, verifyingContract: BASE_USDC };
    const captureNonce = hexlify(randomBytes(32));
    const cancelNonce = hexlify(randomBytes(32));
    const authorization = { from: payer.address, to: payee.address, value: 2_500_000n, validAfter: 0n, validBefore: 2n ** 40n, nonce: captureNonce };
    const signed = Signature.from(await payer.signTypedData(domain, {
      TransferWithAuthorization: [
        { name: 'from', type: 'address' }, { name: 'to', type: 'address' }, { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' }, { name: 'validBefore', type: 'uint256' }, { name: 'nonce', type: 'bytes32' },
      ],
    }, authorization));
    const cancel = Signature.from(await payer.signTypedData(domain, {
      CancelAuthorization: [{ name: 'authorizer', type: 'address' }, { name: 'nonce', type: 'bytes32' }],
    }, { authorizer: payer.address, nonce: cancelNonce }));
    const results: unknown[] = [];
    for (const node of both) {
      const payeeBefore = BigInt(await rpc(node.url, 'eth_call', [balanceOfCall(payee.address), 'latest']));
      const capture = await rpc(node.url, 'eth_sendTransaction', [{ from: payee.address, to: BASE_USDC, gas: '0x40000', data: USDC.encodeFunctionData('transferWithAuthorization', [authorization.from, authorization.to, authorization.value, authorization.validAfter, authorization.validBefore, authorization.nonce, signed.v, signed.r, signed.s]) }]);
      const cancelled = await rpc(node.url, 'eth_sendTransaction', [{ from: payee.address, to: BASE_USDC, gas: '0x40000', data: USDC.encodeFunctionData('cancelAuthorization', [payer.address, cancelNonce, cancel.v, cancel.r, cancel.s]) }]);
      await node.mine();
      const receipts = [await receiptOf(node.url, capture), await receiptOf(node.url, cancelled)];
      assert.deepEqual(receipts.map((r) => r.status), ['0x1', '0x1'], node.name);
      const state = async (nonce: string) => USDC.decodeFunctionResult('authorizationState', await rpc(node.url, 'eth_call', [{ to: BASE_USDC, data: USDC.encodeFunctionData('authorizationState', [payer.address, nonce]) }, 'latest']))[0];
      assert.equal(await state(captureNonce), true, node.name);
      assert.equal(await state(cancelNonce), true, node.name);
      assert.equal(BigInt(await rpc(node.url, 'eth_call', [balanceOfCall(payee.address), 'latest'])) - payeeBefore, authorization.value, node.name);
      results.push(receipts.map((r) => [r.gasUsed, r.logs.length]));
    }
    assert.deepEqual(results[0], results[1], 'the same gas and events on the mock and on Anvil');
  });

  it('anvil_reset forks again at another block', async () => {
    const target = upstream.historyBlock - 1n;
    const expected = await rpc(upstream.anvil.url, 'eth_call', [balanceOfCall(upstream.holder), hex(target)]);
    const upstreamBlock = await rpc(upstream.anvil.url, 'eth_getBlockByNumber', [hex(target), false]);
    for (const node of both) {
      await rpc(node.url, 'anvil_reset', [{ forking: { jsonRpcUrl: upstream.anvil.url, blockNumber: Number(target) } }]);
      assert.equal(BigInt(await rpc(node.url, 'eth_blockNumber')), target, node.name);
      assert.equal((await rpc(node.url, 'eth_getBlockByNumber', ['latest', false])).hash, upstreamBlock.hash, node.name);
      assert.equal(await rpc(node.url, 'eth_call', [balanceOfCall(upstream.holder), 'latest']), expected, node.name);
      await node.mine();
    }
    // Our blocks follow on top of the new fork block.
    const next = await rpc(mock.url, 'eth_getBlockByNumber', [hex(target + 1n), false]);
    assert.equal(next.parentHash, upstreamBlock.hash);
  });
});
