// One command, offline: `npm run example:x402` with the mock node running (`npm run mock-node`).
// Starts the merchant on 127.0.0.1:4021 with the node's facilitator, shows the 402 an unpaid
// request gets, pays with dev account 1 through x402's fetch wrapper, prints the paid answer and
// the settlement, and shows the Transfer in the node's pending block.
// Environment: NODE_URL (default http://127.0.0.1:8545/), MERCHANT_PORT (default 4021).
import type { AddressInfo } from 'node:net';
import { mnemonicToAccount } from 'viem/accounts';
import { fetchPaid } from './client';
import { createMerchantApp, discoverAsset } from './merchant';

const TEST_MNEMONIC = 'test test test test test test test test test test test junk';
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

async function rpc(url: string, method: string, params: unknown[]): Promise<any> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = await response.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function main(): Promise<void> {
  const nodeUrl = (process.env.NODE_URL ?? 'http://127.0.0.1:8545/').replace(/\/?$/, '/');
  const facilitatorUrl = `${nodeUrl}x402`;
  const asset = await discoverAsset(facilitatorUrl).catch((error: Error) => {
    throw new Error(`no x402 facilitator at ${facilitatorUrl} (${error.message}); start the mock node first: npm run mock-node`);
  });
  const payer = mnemonicToAccount(TEST_MNEMONIC, { addressIndex: 1 });
  const merchant = mnemonicToAccount(TEST_MNEMONIC, { addressIndex: 2 });
  const app = createMerchantApp({ facilitatorUrl, payTo: merchant.address, price: '250000', asset });
  const server = app.listen(Number(process.env.MERCHANT_PORT ?? 4021), '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/report`;
  try {
    console.log(`merchant   ${url} (0.25 of ${asset.name} on ${asset.network}, paid to ${merchant.address})`);
    console.log(`facilitator ${facilitatorUrl}\n`);
    const unpaid = await fetch(url);
    const required = JSON.parse(Buffer.from(unpaid.headers.get('PAYMENT-REQUIRED') ?? '', 'base64').toString('utf8'));
    console.log(`GET /report without paying: HTTP ${unpaid.status}; PAYMENT-REQUIRED asks for ${required.accepts[0].amount} of ${required.accepts[0].asset} to ${required.accepts[0].payTo}`);
    const paid = await fetchPaid(url, payer, asset, '1000000');
    console.log(`GET /report paying from ${payer.address}: HTTP ${paid.status}`, paid.body);
    console.log('PAYMENT-RESPONSE:', paid.settlement);
    if (paid.status !== 200 || !paid.settlement?.success) throw new Error('the payment did not go through');
    const receipt = await rpc(nodeUrl, 'eth_getTransactionReceipt', [paid.settlement.transaction]);
    const pendingTransfers = await rpc(nodeUrl, 'eth_getLogs', [{ fromBlock: 'pending', toBlock: 'pending', address: asset.asset, topics: [TRANSFER_TOPIC] }]);
    const inPending = pendingTransfers.some((log: { transactionHash: string }) => log.transactionHash === paid.settlement!.transaction);
    console.log(`\nsettlement ${paid.settlement.transaction}: status ${receipt.status}, block ${Number(receipt.blockNumber)}, ${inPending ? 'in the pending block (pre-confirmed)' : 'sealed'}`);
  } finally {
    server.close();
  }
}

main().catch((error: Error) => {
  console.error(`example:x402: ${error.message}`);
  process.exit(1);
});
