// x402 settlements made through a facilitator, found on the chain: the facilitator names the
// accounts it settles from (`GET <facilitator>/supported`, `signers`); every `AuthorizationUsed`
// of the token whose transaction was sent by one of them as `transferWithAuthorization` is a
// settlement, and its calldata holds the payer's authorization and signature. Read over JSON-RPC
// at `pending` too (the facilitator answers once its transaction is pre-confirmed). No vscode import.
import { getAddress, Signature } from 'ethers';
import { EVENT_TOPICS, SELECTORS } from '../../mock-node/tokenKit/index';
import { tokenInterface } from '../authorizations/chain';
import type { RpcClient } from '../rpc/client';

/** Blocks one scan covers back from the head: the public endpoint's eth_getLogs range (2,000, `pending` counting as head + 1). */
export const SCAN_BLOCKS = 1998;

export interface FacilitatorInfo {
  url: string;
  /** Lowercase addresses the facilitator settles from. */
  signers: string[];
  /** Lowercase token addresses its kinds name (`extra.asset`). */
  assets: string[];
}

export interface Settlement {
  authorization: { from: string; to: string; value: string; validAfter: number; validBefore: number; nonce: string };
  /** r ‖ s ‖ v (65 bytes) or the bytes the transaction carried. */
  signature: string;
  transaction: string;
  blockNumber: number;
  facilitator: string;
  token: string;
}

/** The facilitator's signers and assets, or undefined when `url` serves no x402 facilitator. */
export async function facilitatorInfo(url: string, fetchImpl: typeof fetch = fetch): Promise<FacilitatorInfo | undefined> {
  let body: { kinds?: { extra?: { asset?: unknown } }[]; signers?: Record<string, unknown> };
  try {
    const response = await fetchImpl(`${url}/supported`, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) return undefined;
    body = await response.json();
  } catch {
    return undefined;
  }
  const signers = Object.entries(body.signers ?? {})
    .filter(([family]) => family.startsWith('eip155:'))
    .flatMap(([, list]) => (Array.isArray(list) ? list : []))
    .filter((a): a is string => typeof a === 'string' && /^0x[0-9a-fA-F]{40}$/.test(a))
    .map((a) => a.toLowerCase());
  const assets = (body.kinds ?? [])
    .map((k) => k.extra?.asset)
    .filter((a): a is string => typeof a === 'string' && /^0x[0-9a-fA-F]{40}$/.test(a))
    .map((a) => a.toLowerCase());
  return signers.length ? { url, signers, assets: [...new Set(assets)] } : undefined;
}

interface RawLog {
  topics: string[];
  transactionHash: string;
  blockNumber: string;
}

interface RawTransaction {
  from: string;
  to: string | null;
  input: string;
}

const ADDRESS_TOPIC = (topic: string): string => `0x${topic.slice(26)}`.toLowerCase();

/** Reads a settlement out of a transferWithAuthorization transaction; undefined for any other transaction. */
export function settlementOf(tx: RawTransaction, token: string): Omit<Settlement, 'transaction' | 'blockNumber' | 'facilitator'> | undefined {
  if (!tx.to || tx.to.toLowerCase() !== token) return undefined;
  const selector = tx.input.slice(0, 10).toLowerCase();
  if (selector !== SELECTORS.transferWithAuthorization && selector !== SELECTORS.transferWithAuthorizationBytes) return undefined;
  const parsed = tokenInterface.parseTransaction({ data: tx.input });
  if (!parsed) return undefined;
  const [from, to, value, validAfter, validBefore, nonce] = parsed.args as unknown as [string, string, bigint, bigint, bigint, string];
  const signature = selector === SELECTORS.transferWithAuthorization
    ? Signature.from({ r: parsed.args[7] as string, s: parsed.args[8] as string, v: Number(parsed.args[6]) }).serialized
    : String(parsed.args[6]);
  return {
    authorization: { from: getAddress(from), to: getAddress(to), value: value.toString(), validAfter: Number(validAfter), validBefore: Number(validBefore), nonce: nonce.toLowerCase() },
    signature,
    token,
  };
}

/**
 * The facilitator's settlements of `token` in the last SCAN_BLOCKS blocks and the pending block.
 * `known(payer, nonce)` skips authorizations already imported without fetching their transaction.
 */
export async function findSettlements(
  client: RpcClient,
  facilitator: FacilitatorInfo,
  token: string,
  known: (payer: string, nonce: string) => boolean,
): Promise<Settlement[]> {
  const head = Number(BigInt(await client.call<string>('eth_blockNumber')));
  const logs = await client.call<RawLog[]>('eth_getLogs', [{
    address: token, topics: [EVENT_TOPICS.AuthorizationUsed], fromBlock: `0x${Math.max(0, head - SCAN_BLOCKS).toString(16)}`, toBlock: 'pending',
  }]);
  const found: Settlement[] = [];
  for (const log of logs) {
    if (known(ADDRESS_TOPIC(log.topics[1]), log.topics[2].toLowerCase())) continue;
    const tx = await client.call<RawTransaction | null>('eth_getTransactionByHash', [log.transactionHash]);
    if (!tx || !facilitator.signers.includes(tx.from.toLowerCase())) continue;
    const settlement = settlementOf(tx, token);
    if (settlement) found.push({ ...settlement, transaction: log.transactionHash, blockNumber: Number(BigInt(log.blockNumber)), facilitator: getAddress(tx.from) });
  }
  return found;
}
