// The token with the node's timers running (flashblocks and blocks on their own): a capture sent
// with eth_sendRawTransactionSync comes back pre-confirmed with its events, and later seals.
import { strict as assert } from 'node:assert';
import { createWalletClient, encodeFunctionData, http, parseAbi, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { RunningMockNode } from '../../../mock-node/index';
import { EVENT_TOPICS, STABLE_TOKEN_ABI, TYPED_DATA_TYPES } from '../../../mock-node/tokenKit/index';
import { rpc, sleep, startTestNode } from '../../helpers/rpc';

const abi = parseAbi(STABLE_TOKEN_ABI);

describe('token with timers running @integration', function () {
  this.timeout(30_000);
  let node: RunningMockNode;
  before(async () => {
    node = await startTestNode({ auto: true, blockTimeMs: 400, flashblockMs: 100 });
  });
  after(async () => node?.stop());

  it('eth_sendRawTransactionSync returns the pre-confirmed capture; a failing one comes back with status 0x0', async () => {
    const payer = privateKeyToAccount(node.accounts[1].privateKey as Hex);
    const merchant = privateKeyToAccount(node.accounts[2].privateKey as Hex);
    const block = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
    const now = BigInt(block.timestamp);
    const domain = { name: 'USD Coin', version: '2', chainId: Number(node.chainId), verifyingContract: node.tokenAddress as Hex };
    const message = { from: payer.address, to: merchant.address, value: 1_000_000n, validAfter: now - 60n, validBefore: now + 900n, nonce: toHex(crypto.getRandomValues(new Uint8Array(32))) };
    const signature = await payer.signTypedData({ domain, types: TYPED_DATA_TYPES.ReceiveWithAuthorization as any, primaryType: 'ReceiveWithAuthorization', message });
    const data = encodeFunctionData({ abi, functionName: 'receiveWithAuthorization', args: [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, signature] });
    const wallet = createWalletClient({ transport: http(node.url), account: merchant });
    const fees = { maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1_000_000n, gas: 200_000n, type: 'eip1559' as const, chainId: Number(node.chainId) };
    const nonce = Number(await rpc(node.url, 'eth_getTransactionCount', [merchant.address, 'pending']));
    const raw = await wallet.signTransaction({ ...fees, to: node.tokenAddress as Hex, data, nonce, chain: null } as any);
    const receipt = await rpc(node.url, 'eth_sendRawTransactionSync', [raw]);
    assert.equal(receipt.status, '0x1');
    assert.deepEqual(receipt.logs.map((l: any) => l.topics[0]), [EVENT_TOPICS.AuthorizationUsed, EVENT_TOPICS.Transfer]);

    const again = await wallet.signTransaction({ ...fees, to: node.tokenAddress as Hex, data, nonce: nonce + 1, chain: null } as any);
    const failed = await rpc(node.url, 'eth_sendRawTransactionSync', [again]);
    assert.equal(failed.status, '0x0');
    assert.deepEqual(failed.logs, []);

    // The capture seals into a later block on its own.
    const stateCall = { to: node.tokenAddress, data: encodeFunctionData({ abi, functionName: 'authorizationState', args: [payer.address, message.nonce] }) };
    let sealed = false;
    for (let i = 0; i < 100 && !sealed; i++) {
      sealed = BigInt(await rpc(node.url, 'eth_call', [stateCall, 'latest'])) === 1n;
      if (!sealed) await sleep(50);
    }
    assert.equal(sealed, true, 'authorizationState at latest after the block sealed');
    const mined = await rpc(node.url, 'eth_getTransactionReceipt', [receipt.transactionHash]);
    assert.equal(mined.status, '0x1');
    assert.notEqual(BigInt(mined.blockHash), 0n);
  });
});
