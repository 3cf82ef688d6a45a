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
import { describeSighting, inFlight as isInFlight, isIncluded, type Heads, type Sighting } from './evidence';
import type { AuthorizationMessage } from './message';

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
  signedWith?: 'endpoint' | 'local key' | 'imported' | 'pasted';
  orderId?: string;
  storedAt?: number;
  voided?: boolean;
  capture?: TxOutcome;
  cancel?: TxOutcome;
  /** The transaction that consumed the nonce when none of ours did, once found in the token's logs (a cache). */
  consumerHash?: string;
}

/** A transaction recorded for an authorization: our capture or cancel, or the one that consumed its nonce. */
export type TransactionRole = 'capture' | 'cancel' | 'consumer';

export const TRANSACTION_ROLE_LABELS: Record<TransactionRole, string> = {
  capture: 'The capture',
  cancel: 'The cancellation',
  consumer: 'The transaction that consumed the nonce',
};

/** The transactions recorded for an authorization, capture first. */
export function transactionsOf(record: Pick<AuthorizationRecord, 'capture' | 'cancel' | 'consumerHash'>): { role: TransactionRole; hash: string }[] {
  const recorded: { role: TransactionRole; hash: string | undefined }[] = [
    { role: 'capture', hash: record.capture?.hash },
    { role: 'cancel', hash: record.cancel?.hash },
    { role: 'consumer', hash: record.consumerHash },
  ];
  return recorded.filter((t): t is { role: TransactionRole; hash: string } => t.hash !== undefined);
}

export function authorizationKey(payer: string, nonce: string): string {
  return `${payer.toLowerCase()}:${nonce.toLowerCase()}`;
}

// ---------------------------------------------------------------------------------------------
// Lifecycle

/**
 * The seed's seven states, plus "Consumed elsewhere": the nonce is consumed but no transaction of
 * this authorization's capture paid the merchant (a second signature for the same nonce, or a
 * consuming transaction that cannot be found). The seed counts it under Used; here it is not paid.
 */
export const LIFECYCLE_STATES = ['Drafted', 'Signed', 'Stored', 'Used', 'Canceled', 'Consumed elsewhere', 'Voided offchain', 'Expired'] as const;
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
  /** `authorizationState(payer, nonce)` at pending: true once captured or canceled. */
  consumed: boolean | undefined;
  /** Unix seconds: the chain's clock when known (the token compares block timestamps), else the local clock. */
  now: number;
  heads?: Heads;
  /** Our own capture and cancel transactions (by their stored hashes) as the chain shows them now. */
  capture?: Sighting;
  cancel?: Sighting;
  /** When the nonce is consumed and none of ours did it: the transaction that did, found by the token's logs. */
  consumer?: { found: true; sighting: Sighting } | { found: false; searched: string };
}

export interface DerivedState {
  state: LifecycleState;
  window: WindowStatus;
  onchain: 'unused' | 'consumed' | 'unknown';
  /** A short explanation for the view. */
  note: string;
  /** The transaction that paid (included, with the signed transfer in its logs). */
  paid?: Sighting;
  /** A capture or cancel sent and not sealed yet: a second one is refused. */
  inFlight?: Sighting;
  /** The transaction that consumed the nonce without paying this authorization. */
  consumedBy?: Sighting;
}

/**
 * The seed's state table, read backwards from what the chain shows. Paid (Used) needs the capture's
 * own evidence, included in a sealed block: AuthorizationUsed(payer, nonce) with Transfer(payer,
 * merchant, value) in the same transaction. A nonce consumed any other way is "Consumed elsewhere"
 * (not paid), naming the transaction, or saying it was not found. Then the local void flag, the
 * clock and how far the merchant got locally; a transaction still in flight is shown on the state.
 */
export function deriveState(record: AuthorizationRecord, observation: Observation): DerivedState {
  const window = windowStatus(record.authorization, observation.now);
  const onchain = observation.consumed === undefined ? 'unknown' : observation.consumed ? 'consumed' : 'unused';
  const base = { window, onchain } as const;
  const heads = observation.heads;
  const consumer = observation.consumer?.found ? observation.consumer.sighting : undefined;
  const sealed = [observation.capture, observation.cancel, consumer].filter(isIncluded) as Sighting[];
  const paid = sealed.find((s) => s.effect?.kind === 'paid');
  if (paid) return { ...base, state: 'Used', note: `paid: ${describeSighting(paid, heads)}`, paid };
  const canceled = sealed.find((s) => s.effect?.kind === 'canceled');
  if (canceled) return { ...base, state: 'Canceled', note: `nonce consumed by cancelAuthorization ${describeSighting(canceled, heads)}` };
  const elsewhere = sealed.find((s) => s.effect?.kind === 'consumed elsewhere');
  if (elsewhere?.effect?.kind === 'consumed elsewhere') {
    const moved = elsewhere.effect.transfers.map((t) => `${formatTokenAmount(t.value)} to ${t.to}`).join(', ') || 'no transfer from the payer';
    return {
      ...base, state: 'Consumed elsewhere', consumedBy: elsewhere,
      note: `not paid: the nonce was consumed by ${describeSighting(elsewhere, heads)}, which moved ${moved}, not ${formatTokenAmount(BigInt(record.authorization.value))} to ${record.authorization.to}`,
    };
  }
  const inFlight = [observation.capture, observation.cancel, consumer].find(isInFlight);
  if (observation.consumed === true && !inFlight && observation.consumer && !observation.consumer.found) {
    return { ...base, state: 'Consumed elsewhere', note: `nonce consumed onchain; the consuming transaction was not found (${observation.consumer.searched}): not counted as paid` };
  }
  if (observation.consumed === undefined) {
    // The chain cannot be read: our own last receipts still say what happened.
    if (record.capture?.status === 'success') return { ...base, state: 'Used', note: `captured (from our receipt ${record.capture.hash}; the chain cannot be read now)` };
    if (record.cancel?.status === 'success') return { ...base, state: 'Canceled', note: `canceled (from our receipt ${record.cancel.hash}; the chain cannot be read now)` };
  }
  const flying = inFlight ? `; in flight: ${describeSighting(inFlight, heads)}` : '';
  const extra = inFlight ? { inFlight } : {};
  if (record.voided) {
    return {
      ...base, ...extra, state: 'Voided offchain',
      note: (window === 'expired' ? 'voided by the merchant; the window has closed' : 'voided by the merchant; the nonce stays unused onchain until it expires or is canceled') + flying,
    };
  }
  if (window === 'expired' && !inFlight) return { ...base, state: 'Expired', note: 'validBefore reached: it can no longer be captured' };
  const unknown = onchain === 'unknown' ? ' (onchain state unknown)' : '';
  if (!record.signed) return { ...base, state: 'Drafted', note: `not signed yet; nothing sent onchain${unknown}` };
  if (!record.orderId) return { ...base, ...extra, state: 'Signed', note: `signed, not stored against an order${flying}${unknown}` };
  const reverted = observation.capture?.stage === 'reverted' || (!observation.capture && record.capture?.status === 'reverted');
  const failed = reverted ? `; last capture reverted${record.capture?.reason ? `: ${record.capture.reason}` : ''}` : '';
  const dropped = [observation.capture, observation.cancel].find((s) => s?.stage === 'dropped');
  const lost = dropped ? `; ${describeSighting(dropped, heads)}` : '';
  const early = window === 'not yet valid' ? '; not valid yet' : '';
  return { ...base, ...extra, state: 'Stored', note: `stored for order ${record.orderId}${early}${flying}${failed}${lost}${unknown}` };
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
    case 'Consumed elsewhere':
    case 'Expired':
      return ['inspect', 'export', 'delete'];
  }
}

/** The actions of a derived state: while a capture or cancel is in flight, no second one. */
export function actionsFor(derived: DerivedState): AuthorizationAction[] {
  const actions = allowedActions(derived.state);
  return derived.inFlight ? actions.filter((a) => a !== 'capture' && a !== 'cancel' && a !== 'delete') : actions;
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

/** refusal() for a derived state: also refuses a second capture or cancel while one is in flight. */
export function refusalFor(action: AuthorizationAction, derived: DerivedState): string | undefined {
  const why = refusal(action, derived.state);
  if (why || !derived.inFlight || actionsFor(derived).includes(action)) return why;
  return `a transaction for this authorization is in flight (${describeSighting(derived.inFlight)}): wait until it is sealed or dropped; a second ${action} is refused`;
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
