// A paying client: x402's own fetch wrapper (@x402/fetch) with x402's exact EVM client scheme.
// On a 402 it signs a TransferWithAuthorization for the merchant's requirements and retries with
// the PAYMENT-SIGNATURE header; the merchant answers 200 with the PAYMENT-RESPONSE header.
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import type { LocalAccount } from 'viem/accounts';
import type { PaymentAsset } from './merchant';

export interface PaidResponse {
  status: number;
  body: unknown;
  /** The decoded PAYMENT-RESPONSE header (the facilitator's settle answer), when the merchant sent one. */
  settlement?: ReturnType<typeof decodePaymentResponseHeader>;
}

/**
 * Fetches `url`, paying from `payer` when asked. x402's client only pays in assets it knows
 * (USDC on public networks) unless told otherwise: `asset` allows the mock node's token, capped at
 * `maxAmount` atomic units per payment.
 */
export async function fetchPaid(url: string, payer: LocalAccount, asset: PaymentAsset, maxAmount: string): Promise<PaidResponse> {
  const client = new x402Client()
    .register(asset.network, new ExactEvmScheme(payer))
    .setSpendControls({ allowedAssets: [{ network: asset.network, asset: asset.asset, maxAmountPerPayment: maxAmount }] });
  const response = await wrapFetchWithPayment(fetch, client)(url);
  const header = response.headers.get('PAYMENT-RESPONSE');
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body, ...(header ? { settlement: decodePaymentResponseHeader(header) } : {}) };
}
