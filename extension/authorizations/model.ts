// The EIP-3009 authorization lifecycle as pure functions: the record the merchant keeps, the
// seven states of the seed's table derived from what is observed (the onchain
// `authorizationState(payer, nonce)` flag, the clock against the window, the local void flag),
// which commands each state allows, amounts in token units, input validation and the typed data
// to sign. No vscode import and no I/O: unit-tested with plain mocha.
import { getAddress, isAddress, isHexString, ZeroAddress } from 'ethers';
import {
  buildTypedData, formatTokenUnits, parseTokenUnits, TOKEN_DECIMALS, type TokenDomain, type TypedDataPayload,
} from '../../mock-node/tokenKit/index';

export { normalizeV } from '../../mock-node/tokenKit/index';

/** How the merchant will capture: the route decides which typed-data type the payer must sign. */
export type CaptureRoute = 'receiveWithAuthorization' | 'transferWithAuthorization';
export type AuthorizationPrimaryType = 'ReceiveWithAuthorization' | 'TransferWithAuthorization';

export const CAPTURE_ROUTES: readonly CaptureRoute[] = ['receiveWithAuthorization', 'transferWithAuthorization'];
export const AUTHORIZATION_PRIMARY_TYPES: readonly AuthorizationPrimaryType[] = ['ReceiveWithAuthorization', 'TransferWithAuthorization'];

/** EIP-3009 and USDC verify each capture function against its own type. */
export function primaryTypeFor(route: CaptureRoute): AuthorizationPrimaryType {
  return route === 'receiveWithAuthorization' ? 'ReceiveWithAuthorization' : 'TransferWithAuthorization';
}

export function routeFor(primaryType: AuthorizationPrimaryType): CaptureRoute {
  return primaryType === 'ReceiveWithAuthorization' ? 'receiveWithAuthorization' : 'transferWithAuthorization';
}

/** The seed's "Transfer authorization" table: what the payer signs. */
export interface AuthorizationMessage {
  from: string;
  to: string;
  /** Base units (6 decimals), as a decimal string. */
  value: string;
  /** Unix seconds. */
  validAfter: number;
  /** Unix seconds. */
  validBefore: number;
  /** bytes32 hex. */
  nonce: string;
}

export interface DomainFields {
  name: string;
  version: string;
  /** Decimal string. */
  chainId: string;
  verifyingContract: string;
}

/** A transaction the merchant sent for this authorization and what its receipt said. */
export interface TxOutcome {
  hash: string;
  /** `pending` until a receipt is seen; only `success` counts as paid / canceled. */
  status: 'success' | 'reverted' | 'pending';
  blockNumber?: number;
  reason?: string;
}

/**
 * What the extension keeps for one authorization, outside SecretStorage (so no signature and no
 * key in here). Keyed by payer plus nonce, the token's replay key.
 */
export interface AuthorizationRecord {
  key: string;
  endpointId: string;
  endpointName: string;
  token: string;
  route: CaptureRoute;
  authorization: AuthorizationMessage;
  createdAt: number;
  /** Set when signed (or imported): the type the signature covers. */
  primaryType?: AuthorizationPrimaryType;
  /** Set when signed: the domain the signature covers, as read from the token and the chain. */
  domain?: DomainFields;
  /** Whether SecretStorage holds the signature. */
  signed?: boolean;
  signedWith?: 'endpoint' | 'local key' | 'imported';
  orderId?: string;
  storedAt?: number;
  voided?: boolean;
  capture?: TxOutcome;
  cancel?: TxOutcome;
}

export function authorizationKey(payer: string, nonce: string): string {
  return `${payer.toLowerCase()}:${nonce.toLowerCase()}`;
}

// ---------------------------------------------------------------------------------------------
// Lifecycle

export const LIFECYCLE_STATES = ['Drafted', 'Signed', 'Stored', 'Used', 'Canceled', 'Voided offchain', 'Expired'] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

export type WindowStatus = 'not yet valid' | 'open' | 'expired';

/**
 * Where `now` stands against the window, with the token's strict comparisons: capture needs
 * `now > validAfter` and `now < validBefore`.
 */
export function windowStatus(authorization: Pick<AuthorizationMessage, 'validAfter' | 'validBefore'>, now: number): WindowStatus {
  if (now >= authorization.validBefore) return 'expired';
  if (now <= authorization.validAfter) return 'not yet valid';
  return 'open';
}

/** What was observed about one authorization; `consumed` is undefined when the chain could not be read. */
export interface Observation {
  /** `authorizationState(payer, nonce)`: true once captured or canceled. */
  consumed: boolean | undefined;
  /** Which event consumed the nonce, when known from the token's logs. */
  consumedBy?: 'capture' | 'cancel';
  /** Unix seconds: the chain's clock when known (the token compares block timestamps), else the local clock. */
  now: number;
}

export interface DerivedState {
  state: LifecycleState;
  window: WindowStatus;
  onchain: 'unused' | 'consumed' | 'unknown';
  /** A short explanation for the view. */
  note: string;
}

/**
 * The seed's state table, read backwards from observations. The onchain flag wins (the token
 * records used and canceled as one consumed state; our own receipts or the token's logs tell
 * which); then the local void flag; then the clock; then how far the merchant got locally.
 */
export function deriveState(record: AuthorizationRecord, observation: Observation): DerivedState {
  const window = windowStatus(record.authorization, observation.now);
  const onchain = observation.consumed === undefined ? 'unknown' : observation.consumed ? 'consumed' : 'unused';
  if (observation.consumed === true) {
    const canceled = record.cancel?.status === 'success' || (record.capture?.status !== 'success' && observation.consumedBy === 'cancel');
    if (canceled) return { state: 'Canceled', window, onchain, note: 'nonce consumed by cancelAuthorization' };
    const ours = record.capture?.status === 'success' || observation.consumedBy === 'capture';
    return { state: 'Used', window, onchain, note: ours ? 'captured: nonce consumed by the capture' : 'nonce consumed onchain (captured or canceled elsewhere)' };
  }
  if (observation.consumed === undefined) {
    // The chain cannot be read: our own successful receipts still say what happened.
    if (record.capture?.status === 'success') return { state: 'Used', window, onchain, note: `captured (from our receipt ${record.capture.hash}; onchain state unknown)` };
    if (record.cancel?.status === 'success') return { state: 'Canceled', window, onchain, note: `canceled (from our receipt ${record.cancel.hash}; onchain state unknown)` };
  }
  if (record.voided) {
    return {
      state: 'Voided offchain', window, onchain,
      note: window === 'expired' ? 'voided by the merchant; the window has closed' : 'voided by the merchant; the nonce stays unused onchain until it expires or is canceled',
    };
  }
  if (window === 'expired') return { state: 'Expired', window, onchain, note: 'validBefore reached: it can no longer be captured' };
  const unknown = onchain === 'unknown' ? ' (onchain state unknown)' : '';
  if (!record.signed) return { state: 'Drafted', window, onchain, note: `not signed yet; nothing sent onchain${unknown}` };
  if (!record.orderId) return { state: 'Signed', window, onchain, note: `signed, not stored against an order${unknown}` };
  const failed = record.capture?.status === 'reverted' ? `; last capture reverted${record.capture.reason ? `: ${record.capture.reason}` : ''}` : '';
  // A capture or cancel that succeeded on a chain that now says unused: the chain was reset or replaced (a restarted mock node).
  const reset = observation.consumed === false && (record.capture?.status === 'success' || record.cancel?.status === 'success')
    ? `; the chain says the nonce is unused although ${record.capture?.status === 'success' ? `capture ${record.capture.hash}` : `cancel ${record.cancel!.hash}`} succeeded: a different or reset chain`
    : '';
  const early = window === 'not yet valid' ? '; not valid yet' : '';
  return { state: 'Stored', window, onchain, note: `stored for order ${record.orderId}${early}${failed}${reset}${unknown}` };
}

export type AuthorizationAction = 'sign' | 'store' | 'inspect' | 'capture' | 'cancel' | 'void' | 'export' | 'delete';

/** Which commands each state allows (a command on another state is refused with a clear message). */
export function allowedActions(state: LifecycleState): AuthorizationAction[] {
  switch (state) {
    case 'Drafted': return ['sign', 'inspect', 'delete'];
    case 'Signed': return ['store', 'inspect', 'cancel', 'void', 'export', 'delete'];
    case 'Stored': return ['inspect', 'capture', 'cancel', 'void', 'export'];
    case 'Voided offchain': return ['inspect', 'cancel', 'export', 'delete'];
    case 'Used':
    case 'Canceled':
    case 'Expired':
      return ['inspect', 'export', 'delete'];
  }
}

const WHY_NOT: Record<AuthorizationAction, string> = {
  sign: 'only a drafted authorization can be signed (a signed one keeps its nonce; draft a new one)',
  store: 'only a signed authorization that is not stored yet can be stored',
  inspect: '',
  capture: 'only a stored authorization can be captured',
  cancel: 'only an unused authorization that has not expired can be canceled',
  void: 'only a signed or stored authorization can be voided',
  export: 'only a signed authorization can be exported',
  delete: 'a stored authorization is a payment credential for an open order: capture, cancel, void it or let it expire first',
};

/** undefined when allowed, else why not. */
export function refusal(action: AuthorizationAction, state: LifecycleState): string | undefined {
  return allowedActions(state).includes(action) ? undefined : `${WHY_NOT[action]} (it is ${state})`;
}

// ---------------------------------------------------------------------------------------------
// Amounts and input

export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/** "12.5" → 12500000n (6 decimals). Rejects signs, exponents, more than 6 decimals and zero. */
export function parseTokenAmount(text: string, decimals = TOKEN_DECIMALS): bigint {
  let value: bigint;
  try {
    value = parseTokenUnits(text, decimals);
  } catch (error) {
    throw new InputError((error as Error).message);
  }
  if (value === 0n) throw new InputError('amount must be more than 0');
  return value;
}

/** 12500000n → "12.5" (trailing zeros dropped, at least one decimal digit kept off). */
export function formatTokenAmount(value: bigint, decimals = TOKEN_DECIMALS): string {
  return formatTokenUnits(value, { decimals });
}

export function parseAddress(text: string, what: string): string {
  const trimmed = text.trim();
  if (!isAddress(trimmed)) throw new InputError(`${what} "${text}" is not an address (0x and 40 hex digits, with a valid checksum if mixed case)`);
  const address = getAddress(trimmed);
  if (address === ZeroAddress) throw new InputError(`${what} cannot be the zero address`);
  return address;
}

export function isBytes32(value: string): boolean {
  return isHexString(value, 32);
}

export interface DraftInput {
  payer: string;
  merchant: string;
  /** Token units, e.g. "12.50". */
  amount: string;
  /** Unix seconds. */
  validAfter: number;
  validBefore: number;
  /** bytes32 hex: a fresh random value per attempt (the caller supplies it; see randomNonce()). */
  nonce: string;
  route: CaptureRoute;
  token: string;
}

/** The window the seed gives as its example: 60 s before now to 15 min after. */
export function defaultWindow(nowSeconds: number): { validAfter: number; validBefore: number } {
  return { validAfter: nowSeconds - 60, validBefore: nowSeconds + 15 * 60 };
}

/** Checks a draft's terms and returns the message to sign; throws InputError on bad input. */
export function draftAuthorization(input: DraftInput): AuthorizationMessage {
  const from = parseAddress(input.payer, 'payer');
  const to = parseAddress(input.merchant, 'merchant');
  parseAddress(input.token, 'token address');
  if (from === to) throw new InputError('payer and merchant must be different accounts');
  if (!CAPTURE_ROUTES.includes(input.route)) throw new InputError(`capture route must be ${CAPTURE_ROUTES.join(' or ')}`);
  const value = parseTokenAmount(input.amount);
  for (const [name, v] of [['validAfter', input.validAfter], ['validBefore', input.validBefore]] as const) {
    if (!Number.isSafeInteger(v) || v < 0) throw new InputError(`${name} must be a whole number of Unix seconds`);
  }
  if (input.validBefore <= input.validAfter + 1) {
    throw new InputError('validBefore must be at least 2 s after validAfter (the token needs validAfter < block time < validBefore)');
  }
  if (!isBytes32(input.nonce)) throw new InputError('nonce must be 32 bytes of hex');
  return { from, to, value: value.toString(), validAfter: input.validAfter, validBefore: input.validBefore, nonce: input.nonce.toLowerCase() };
}

export function tokenDomain(domain: DomainFields): TokenDomain {
  return { name: domain.name, version: domain.version, chainId: BigInt(domain.chainId), verifyingContract: domain.verifyingContract };
}

/** The eth_signTypedData_v4 payload for the authorization, with the given primary type. */
export function authorizationTypedData(primaryType: AuthorizationPrimaryType, domain: DomainFields, message: AuthorizationMessage): TypedDataPayload {
  return buildTypedData(primaryType, tokenDomain(domain), { ...message });
}

export function cancelTypedData(domain: DomainFields, authorizer: string, nonce: string): TypedDataPayload {
  return buildTypedData('CancelAuthorization', tokenDomain(domain), { authorizer, nonce });
}

/** The seed's "Stored authorization" table, as Export writes it (plus what a checker needs). */
export interface ExportedAuthorization {
  orderId: string | null;
  authorization: { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: string };
  signature: string;
  primaryType: AuthorizationPrimaryType;
  captureRoute: CaptureRoute;
  domain: DomainFields;
}

export function exportAuthorization(record: AuthorizationRecord, signature: string): ExportedAuthorization {
  if (!record.primaryType || !record.domain) throw new InputError('only a signed authorization can be exported');
  const a = record.authorization;
  return {
    orderId: record.orderId ?? null,
    authorization: { from: a.from, to: a.to, value: a.value, validAfter: String(a.validAfter), validBefore: String(a.validBefore), nonce: a.nonce },
    signature,
    primaryType: record.primaryType,
    captureRoute: record.route,
    domain: record.domain,
  };
}

/** A one-line summary for lists: "12.5 USDC 0xf39F…2266 → 0x7099…79C8". */
export function summary(record: AuthorizationRecord, symbol = 'USDC'): string {
  const a = record.authorization;
  return `${formatTokenAmount(BigInt(a.value))} ${symbol} ${shortAddress(a.from)} → ${shortAddress(a.to)}`;
}

export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}
