// The x402 facilitator's wire vocabulary: the two protocol versions the `exact` EVM scheme is
// spoken in, their network names, and the reason codes a facilitator answers with. No I/O.
//
// Reason codes: those of the `exact` EVM scheme are the strings x402's reference facilitator
// (@x402/evm, which keeps them identical to the Go SDK) answers; the general ones are from the
// core specification (specs/x402-specification-v2.md, section 9). Where the specification's list
// spells a scheme code differently (`invalid_exact_evm_payload_signature`,
// `invalid_exact_evm_payload_recipient_mismatch`, `insufficient_funds`), the reference
// implementation wins, because that is what x402 resource servers meet in practice.

export const X402_VERSIONS = [1, 2] as const;
export type X402Version = (typeof X402_VERSIONS)[number];

export const EXACT_SCHEME = 'exact';

export const Reason = {
  // Core specification
  invalidPayload: 'invalid_payload',
  invalidPaymentRequirements: 'invalid_payment_requirements',
  invalidNetwork: 'invalid_network',
  unsupportedScheme: 'unsupported_scheme',
  invalidX402Version: 'invalid_x402_version',
  unexpectedVerifyError: 'unexpected_verify_error',
  unexpectedSettleError: 'unexpected_settle_error',
  // The exact EVM scheme (reference facilitator)
  scheme: 'invalid_exact_evm_scheme',
  networkMismatch: 'invalid_exact_evm_network_mismatch',
  missingDomain: 'invalid_exact_evm_missing_eip712_domain',
  recipientMismatch: 'invalid_exact_evm_recipient_mismatch',
  signature: 'invalid_exact_evm_signature',
  validBefore: 'invalid_exact_evm_payload_authorization_valid_before',
  validAfter: 'invalid_exact_evm_payload_authorization_valid_after',
  /** v2: `authorization.value` differs from `paymentRequirements.amount`. */
  valueMismatch: 'invalid_exact_evm_payload_authorization_value_mismatch',
  /** v1: `authorization.value` differs from `paymentRequirements.maxAmountRequired`. */
  valueV1: 'invalid_exact_evm_authorization_value',
  assetNotContract: 'asset_not_deployed_contract',
  nameMismatch: 'invalid_exact_evm_token_name_mismatch',
  versionMismatch: 'invalid_exact_evm_token_version_mismatch',
  nonceUsed: 'invalid_exact_evm_nonce_already_used',
  insufficientBalance: 'invalid_exact_evm_insufficient_balance',
  simulationFailed: 'invalid_exact_evm_transaction_simulation_failed',
  transactionFailed: 'invalid_exact_evm_transaction_failed',
  transferEventMismatch: 'invalid_exact_evm_transfer_event_mismatch',
  unsupportedPayloadType: 'unsupported_payload_type',
  /** Broadcast, but not pre-confirmed in time: the answer carries the hash; not final. */
  settlementPending: 'settlement_pending',
} as const;
export type ReasonCode = (typeof Reason)[keyof typeof Reason];

/** Seconds a signed authorization must still be valid for when verified (the reference's block-time margin). */
export const VALID_BEFORE_MARGIN_SECONDS = 6n;

/** How long settle waits for the transaction to be pre-confirmed (Base's eth_sendRawTransactionSync maximum). */
export const SETTLE_PRECONFIRMATION_TIMEOUT_MS = 6000;

/**
 * x402 v1 names EVM networks by name instead of CAIP-2. A node whose chain id has a v1 name also
 * speaks v1; other chain ids (31337 by default) have no v1 name and are served over v2 only.
 */
const V1_NETWORK_NAMES: Readonly<Record<string, string>> = {
  '1': 'ethereum',
  '11155111': 'sepolia',
  '8453': 'base',
  '84532': 'base-sepolia',
  '43114': 'avalanche',
  '43113': 'avalanche-fuji',
  '137': 'polygon',
  '80002': 'polygon-amoy',
  '42220': 'celo',
  '1329': 'sei',
  '1328': 'sei-testnet',
  '4689': 'iotex',
};

export function v1NetworkName(chainId: bigint): string | undefined {
  return V1_NETWORK_NAMES[chainId.toString()];
}

/** The CAIP-2 identifier x402 v2 uses for an EVM chain. */
export function caip2Network(chainId: bigint): string {
  return `eip155:${chainId}`;
}

/** The chain id an x402 network names (`eip155:<id>`, or a v1 name), or undefined. */
export function chainIdOfNetwork(network: string): bigint | undefined {
  const caip2 = /^eip155:([1-9][0-9]{0,18})$/.exec(network);
  if (caip2) return BigInt(caip2[1]);
  const named = Object.entries(V1_NETWORK_NAMES).find(([, name]) => name === network);
  return named ? BigInt(named[0]) : undefined;
}

/** One entry of `GET /supported`. */
export interface SupportedKind {
  x402Version: X402Version;
  scheme: string;
  network: string;
  extra?: Record<string, unknown>;
}

export interface SupportedResponse {
  kinds: SupportedKind[];
  extensions: string[];
  /** CAIP family pattern -> addresses the facilitator settles from. */
  signers: Record<string, string[]>;
}

export interface VerifyResponse {
  isValid: boolean;
  invalidReason?: string;
  /** The underlying detail (e.g. the token's revert reason), as the reference facilitator adds it. */
  invalidMessage?: string;
  payer?: string;
}

export interface SettleResponse {
  success: boolean;
  errorReason?: string;
  errorMessage?: string;
  payer?: string;
  /** The transaction hash; empty when nothing was sent. */
  transaction: string;
  network: string;
}

/** What a facilitator route answers: an HTTP status and a JSON body. */
export interface FacilitatorReply<T> {
  status: number;
  body: T;
}
