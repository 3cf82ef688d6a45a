// An x402 merchant: an Express app whose `GET /report` costs 0.25 of the token, protected by
// x402's own Express middleware (@x402/express) with x402's HTTP facilitator client pointing at
// the mock node's facilitator. Nothing here knows it talks to a mock: point `facilitatorUrl` at a
// hosted facilitator and the same code takes real payments.
import { HTTPFacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import express from 'express';

/** What the merchant charges in: one `kind` of the facilitator's `GET /supported` (the mock node puts its token in `extra`). */
export interface PaymentAsset {
  /** CAIP-2, e.g. `eip155:31337`. */
  network: `${string}:${string}`;
  asset: string;
  /** The token's EIP-712 domain name and version (read from the token). */
  name: string;
  version: string;
}

export interface MerchantOptions {
  /** e.g. `http://127.0.0.1:8545/x402`. */
  facilitatorUrl: string;
  /** The merchant's address, where payments go. */
  payTo: string;
  /** Price of one report in atomic units (6 decimals: 250000 = 0.25). */
  price: string;
  asset: PaymentAsset;
}

/** Reads the first EVM `exact` kind the facilitator supports, with the asset it settles. */
export async function discoverAsset(facilitatorUrl: string): Promise<PaymentAsset> {
  const supported = await new HTTPFacilitatorClient({ url: facilitatorUrl }).getSupported();
  const kind = supported.kinds.find((k) => k.x402Version === 2 && k.scheme === 'exact' && k.network.startsWith('eip155:'));
  const extra = kind?.extra as { asset?: string; name?: string; version?: string } | undefined;
  if (!kind || !extra?.asset || !extra.name || !extra.version) {
    throw new Error(`${facilitatorUrl}/supported names no exact EVM kind with an asset; give the asset explicitly`);
  }
  return { network: kind.network as PaymentAsset['network'], asset: extra.asset, name: extra.name, version: extra.version };
}

export function createMerchantApp(options: MerchantOptions): express.Express {
  const facilitator = new HTTPFacilitatorClient({ url: options.facilitatorUrl });
  const resourceServer = new x402ResourceServer(facilitator).register(options.asset.network, new ExactEvmScheme());
  const app = express();
  app.use(
    paymentMiddleware(
      {
        'GET /report': {
          accepts: {
            scheme: 'exact',
            network: options.asset.network,
            payTo: options.payTo,
            price: { amount: options.price, asset: options.asset.asset, extra: { name: options.asset.name, version: options.asset.version } },
            maxTimeoutSeconds: 60,
          },
          description: 'Today\'s report',
          mimeType: 'application/json',
        },
      },
      resourceServer,
    ),
  );
  app.get('/report', (_req, res) => {
    res.json({ report: 'paid content', servedAt: new Date().toISOString() });
  });
  app.get('/', (_req, res) => {
    res.json({ free: 'GET /report costs ' + options.price + ' atomic units of ' + options.asset.asset });
  });
  return app;
}
