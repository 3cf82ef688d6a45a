// An x402 payment written for Base, against --chain base with no override: the resource server
// side takes the asset from x402's own network table (@x402/evm's ExactEvmScheme.parsePrice on
// eip155:8453), the client signs with x402Client + ExactEvmScheme (no spend controls: USDC on Base
// is one of x402's default assets), and the node's facilitator verifies and settles it. The
// settlement is an OP Stack transaction: its receipt carries the L1 fee the facilitator paid.
import assert from 'node:assert/strict';
import { x402Client } from '@x402/core/client';
import { HTTPFacilitatorClient } from '@x402/core/server';
import type { PaymentRequirements } from '@x402/core/types';
import { ExactEvmScheme as ExactEvmClient } from '@x402/evm/exact/client';
import { ExactEvmScheme as ExactEvmServer } from '@x402/evm/exact/server';
import { privateKeyToAccount } from 'viem/accounts';
import type { RunningMockNode } from '../../../mock-node/index';
import { rpc, startTestNode } from '../../helpers/rpc';
import { balanceOf } from '../x402/helpers';

describe('x402 exact scheme on eip155:8453 against --chain base, without overrides', function () {
  this.timeout(60_000);
  let node: RunningMockNode;
  before(async () => {
    node = await startTestNode({ chain: 'base', auto: true, flashblockMs: 100, blockTimeMs: 1000 });
  });
  after(() => node.stop());

  it('x402\'s default Base USDC is the node\'s token; the payment verifies, settles, and the settlement paid its L1 fee', async () => {
    const asset = await new ExactEvmServer().parsePrice('$0.25', 'eip155:8453');
    assert.equal(asset.asset.toLowerCase(), node.tokenAddress, 'x402\'s table and the preset agree on the address');
    const requirements: PaymentRequirements = {
      scheme: 'exact',
      network: 'eip155:8453',
      amount: asset.amount,
      asset: asset.asset,
      payTo: node.accounts[2].address,
      maxTimeoutSeconds: 60,
      extra: asset.extra ?? {},
    };
    assert.deepEqual([requirements.extra.name, requirements.extra.version], ['USD Coin', '2']);
    const client = new x402Client().register('eip155:*', new ExactEvmClient(privateKeyToAccount(node.accounts[1].privateKey as `0x${string}`)));
    const payload = await client.createPaymentPayload({ x402Version: 2, resource: { url: 'http://merchant.test/report' }, accepts: [requirements] });
    const facilitator = new HTTPFacilitatorClient({ url: node.x402!.url });
    const before = await balanceOf(node, node.accounts[2].address);
    const verified = await facilitator.verify(payload, requirements);
    assert.equal(verified.isValid, true, JSON.stringify(verified));
    const settled = await facilitator.settle(payload, requirements);
    assert.equal(settled.success, true, JSON.stringify(settled));
    assert.equal(settled.network, 'eip155:8453');
    assert.equal((await balanceOf(node, node.accounts[2].address)) - before, BigInt(asset.amount));
    const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [settled.transaction]);
    assert.ok(receipt, 'the settlement is pre-confirmed');
    assert.ok(BigInt(receipt.l1Fee) > 0n, 'the settlement paid an L1 fee');
    assert.notEqual(receipt.transactionIndex, '0x0', 'index 0 is the block\'s deposit');
  });
});
