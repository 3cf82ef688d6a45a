// The example merchant (examples/x402-merchant) against the node: x402's Express middleware with
// the node's facilitator, paid by x402's fetch wrapper. The node runs in manual mode with a pump
// that cuts flashblocks but never seals, so "the Transfer is in the pending block" is checked
// without racing the block timer.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { privateKeyToAccount } from 'viem/accounts';
import { fetchPaid } from '../../../examples/x402-merchant/client';
import { createMerchantApp, discoverAsset, type PaymentAsset } from '../../../examples/x402-merchant/merchant';
import type { RunningMockNode } from '../../../mock-node/index';
import { EVENT_TOPICS } from '../../../mock-node/tokenKit';
import { rpc, startTestNode } from '../../helpers/rpc';
import { balanceOf, signPayment } from './helpers';

function decodeHeader(value: string | null): any {
  assert.ok(value, 'the header is present');
  return JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
}

/** Cuts a flashblock every few ms (never seals): pending state moves like auto mode, the block stays pending. */
function flashblockPump(node: RunningMockNode): () => Promise<void> {
  let running = true;
  const loop = (async () => {
    while (running) {
      await node.request('mock_flashblock');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

describe('x402 example merchant: x402\'s Express middleware and fetch wrapper against the node', function () {
  this.timeout(30_000);
  let node: RunningMockNode;
  let server: Server;
  let stopPump: () => Promise<void>;
  let asset: PaymentAsset;
  let url: string;

  beforeEach(async () => {
    node = await startTestNode();
    stopPump = flashblockPump(node);
    asset = await discoverAsset(node.x402!.url);
    const app = createMerchantApp({ facilitatorUrl: node.x402!.url, payTo: node.accounts[2].address, price: '250000', asset });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/report`;
  });
  afterEach(async () => {
    server.close();
    await stopPump();
    await node.stop();
  });

  it('unpaid: 402 with PAYMENT-REQUIRED naming the token (discovered from GET /supported), the price and payTo', async () => {
    assert.deepEqual(asset, { network: 'eip155:31337', asset: '0x3600000000000000000000000000000000000000', name: 'USD Coin', version: '2' });
    const response = await fetch(url);
    assert.equal(response.status, 402);
    const required = decodeHeader(response.headers.get('PAYMENT-REQUIRED'));
    assert.equal(required.x402Version, 2);
    assert.deepEqual(
      required.accepts.map((a: Record<string, unknown>) => [a.scheme, a.network, a.amount, a.asset, a.payTo]),
      [['exact', 'eip155:31337', '250000', '0x3600000000000000000000000000000000000000', node.accounts[2].address]],
    );
  });

  it('paid: 200 with the PAYMENT-RESPONSE header, and the Transfer is in the pending block', async () => {
    const before = await balanceOf(node, node.accounts[2].address);
    const latestBefore = await rpc(node.url, 'eth_blockNumber');
    const paid = await fetchPaid(url, privateKeyToAccount(node.accounts[1].privateKey as `0x${string}`), asset, '1000000');
    assert.equal(paid.status, 200);
    assert.equal((paid.body as { report: string }).report, 'paid content');
    assert.ok(paid.settlement, 'PAYMENT-RESPONSE header sent');
    assert.deepEqual(
      { ...paid.settlement, transaction: undefined },
      { success: true, payer: node.accounts[1].address, transaction: undefined, network: 'eip155:31337' },
    );
    const transfers = await rpc(node.url, 'eth_getLogs', [{ fromBlock: 'pending', toBlock: 'pending', address: node.tokenAddress, topics: [EVENT_TOPICS.Transfer] }]);
    const transfer = transfers.find((log: { transactionHash: string }) => log.transactionHash === paid.settlement!.transaction);
    assert.ok(transfer, 'the settlement\'s Transfer is in the pending block');
    assert.equal(BigInt(transfer.data), 250_000n);
    assert.equal(await rpc(node.url, 'eth_blockNumber'), latestBefore, 'still pending: nothing sealed');
    assert.equal(await balanceOf(node, node.accounts[2].address), before + 250_000n);
  });

  it('replay: the same PAYMENT-SIGNATURE sent again gets 402 and moves nothing', async () => {
    const required = decodeHeader((await fetch(url)).headers.get('PAYMENT-REQUIRED'));
    const payload = await signPayment(node.accounts[1].privateKey, required.accepts[0]);
    const header = Buffer.from(JSON.stringify({ ...payload, resource: required.resource })).toString('base64');
    const first = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(first.status, 200);
    const after = await balanceOf(node, node.accounts[2].address);
    const second = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(second.status, 402);
    const refusal = decodeHeader(second.headers.get('PAYMENT-REQUIRED'));
    assert.match(refusal.error, /invalid_exact_evm_nonce_already_used/);
    assert.equal(await balanceOf(node, node.accounts[2].address), after);
  });
});
