// Helpers for the x402 tests: payment requirements for the node's token, payloads signed by x402's
// own client scheme (@x402/evm), and token reads at `pending`.
import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { ExactEvmSchemeV1 } from '@x402/evm/v1';
import { Interface, getAddress } from 'ethers';
import { privateKeyToAccount } from 'viem/accounts';
import type { RunningMockNode } from '../../../mock-node/index';
import { STABLE_TOKEN_ABI } from '../../../mock-node/tokenKit';
import { rpc } from '../../helpers/rpc';

const token = new Interface(STABLE_TOKEN_ABI);

export interface RequirementOverrides {
  amount?: string;
  payTo?: string;
  maxTimeoutSeconds?: number;
  network?: string;
}

/** What an x402 resource server would ask for: the node's token on its chain, exact scheme (v2). */
export function requirementsFor(node: RunningMockNode, overrides: RequirementOverrides = {}): PaymentRequirements {
  return {
    scheme: 'exact',
    network: (overrides.network ?? `eip155:${node.chainId}`) as PaymentRequirements['network'],
    amount: overrides.amount ?? '250000',
    asset: getAddress(node.tokenAddress),
    payTo: overrides.payTo ?? node.accounts[2].address,
    maxTimeoutSeconds: overrides.maxTimeoutSeconds ?? 60,
    extra: { name: node.options.token.name, version: node.options.token.version },
  };
}

/** A v2 PaymentPayload as x402's client builds it (x402Client + ExactEvmScheme), signed with `privateKey`. */
export async function signPayment(privateKey: string, requirements: PaymentRequirements): Promise<PaymentPayload> {
  const client = new x402Client()
    .register('eip155:*', new ExactEvmScheme(privateKeyToAccount(privateKey as `0x${string}`)))
    // The node's token is not one of x402's default assets: allow it explicitly, as a paying client must.
    .setSpendControls({ allowedAssets: [{ network: requirements.network, asset: requirements.asset }] });
  return client.createPaymentPayload({ x402Version: 2, resource: { url: 'http://merchant.test/report' }, accepts: [requirements] });
}

/** A v1 payload and requirements (network by name) as x402's v1 client scheme builds them. */
export async function signPaymentV1(privateKey: string, node: RunningMockNode, network: string, payTo: string, amount: string) {
  const requirements = {
    scheme: 'exact',
    network,
    maxAmountRequired: amount,
    resource: 'http://merchant.test/report',
    description: 'a report',
    mimeType: 'application/json',
    outputSchema: {},
    payTo,
    maxTimeoutSeconds: 60,
    asset: getAddress(node.tokenAddress),
    extra: { name: node.options.token.name, version: node.options.token.version },
  };
  const client = new x402Client()
    .registerV1(network, new ExactEvmSchemeV1(privateKeyToAccount(privateKey as `0x${string}`)))
    .setSpendControls({ allowedAssets: [{ network: network as `${string}:${string}`, asset: requirements.asset }] });
  const payload = await client.createPaymentPayload({ x402Version: 1, accepts: [requirements] } as never);
  return { payload, requirements };
}

/** The token balance at `pending` (what a pre-confirmed settlement already moved). */
export async function balanceOf(node: RunningMockNode, address: string): Promise<bigint> {
  const data = token.encodeFunctionData('balanceOf', [address]);
  return BigInt(await rpc(node.url, 'eth_call', [{ to: node.tokenAddress, data }, 'pending']));
}

/** Nonce of an account at `pending`: how many transactions it has pre-confirmed. */
export async function pendingNonce(node: RunningMockNode, address: string): Promise<number> {
  return Number(await rpc(node.url, 'eth_getTransactionCount', [address, 'pending']));
}
