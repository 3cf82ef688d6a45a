// Reads the body of `POST /verify` and `POST /settle` (`{ x402Version, paymentPayload,
// paymentRequirements }`) into one shape for both protocol versions, or says precisely what is
// wrong with it. v2 names the chosen requirements `accepted` inside the payload and the price
// `amount`; v1 puts `scheme`/`network` on the payload and names the price `maxAmountRequired`.
// No I/O.
import { Reason, X402_VERSIONS, type X402Version } from './protocol';
import type { AuthorizationMessage } from '../../tokenKit/index';

const UINT256_MAX = (1n << 256n) - 1n;

export interface ExactRequirements {
  scheme: string;
  network: string;
  /** Atomic units the payer must pay exactly (v2 `amount`, v1 `maxAmountRequired`). */
  amount: bigint;
  /** Lowercase token address. */
  asset: string;
  /** Lowercase recipient address. */
  payTo: string;
  /** EIP-712 domain of the token, from `extra`. */
  name?: string;
  version?: string;
}

/** The token kit's authorization message, as read from a payload: addresses and nonce lowercase. */
export type TransferAuthorization = AuthorizationMessage;

/** A verify or settle request, read: the payload and the requirements it is checked against. */
export type PaymentRequest = Omit<PaymentPayloadRead, 'accepted'> & { requirements: ExactRequirements };

/** Why a request cannot be taken: `malformed` answers HTTP 400; otherwise it is a payment the facilitator refuses. */
export interface RequestProblem {
  malformed: boolean;
  reason: string;
  message: string;
  payer?: string;
  /** The network the requirements named, when readable (settle answers carry it). */
  network?: string;
}

export type ReadResult = { ok: true; request: PaymentRequest } | { ok: false; problem: RequestProblem };

class Malformed extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
  }
}

type Json = Record<string, unknown>;

function object(value: unknown, path: string, reason: string): Json {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Malformed(reason, `${path} must be an object`);
  return value as Json;
}

function text(o: Json, key: string, path: string, reason: string): string {
  const value = o[key];
  if (typeof value !== 'string' || value === '') throw new Malformed(reason, `${path}.${key} must be a non-empty string`);
  return value;
}

function address(o: Json, key: string, path: string, reason: string): string {
  const value = text(o, key, path, reason);
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) throw new Malformed(reason, `${path}.${key} must be a 20-byte hex address, got ${JSON.stringify(value)}`);
  return value.toLowerCase();
}

/** A uint256 written as a decimal string (as x402 sends amounts and times), or a safe integer number. */
function uint(o: Json, key: string, path: string, reason: string): bigint {
  const value = o[key];
  let result: bigint | undefined;
  if (typeof value === 'string' && /^(0|[1-9][0-9]{0,77})$/.test(value)) result = BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) result = BigInt(value);
  if (result === undefined || result > UINT256_MAX) {
    throw new Malformed(reason, `${path}.${key} must be a whole number of at most 256 bits written in decimal, got ${JSON.stringify(value)}`);
  }
  return result;
}

function readRequirements(raw: unknown, version: X402Version, path: string, reason: string): ExactRequirements {
  const o = object(raw, path, reason);
  const extra = o.extra === undefined || o.extra === null ? {} : object(o.extra, `${path}.extra`, reason);
  const name = typeof extra.name === 'string' && extra.name !== '' ? extra.name : undefined;
  const domainVersion = typeof extra.version === 'string' && extra.version !== '' ? extra.version : undefined;
  return {
    scheme: text(o, 'scheme', path, reason),
    network: text(o, 'network', path, reason),
    amount: uint(o, version === 2 ? 'amount' : 'maxAmountRequired', path, reason),
    asset: address(o, 'asset', path, reason),
    payTo: address(o, 'payTo', path, reason),
    ...(name !== undefined ? { name } : {}),
    ...(domainVersion !== undefined ? { version: domainVersion } : {}),
  };
}

function readAuthorization(raw: unknown): TransferAuthorization {
  const path = 'paymentPayload.payload.authorization';
  const reason = Reason.invalidPayload;
  const o = object(raw, path, reason);
  const nonce = text(o, 'nonce', path, reason);
  if (!/^0x[0-9a-fA-F]{64}$/.test(nonce)) throw new Malformed(reason, `${path}.nonce must be 32 bytes of hex, got ${JSON.stringify(nonce)}`);
  return {
    from: address(o, 'from', path, reason),
    to: address(o, 'to', path, reason),
    value: uint(o, 'value', path, reason),
    validAfter: uint(o, 'validAfter', path, reason),
    validBefore: uint(o, 'validBefore', path, reason),
    nonce: nonce.toLowerCase(),
  };
}

/** The payer's address if the payload names one, for answers about a request that cannot be read. */
function payerOf(payload: unknown): string | undefined {
  const inner = payload && typeof payload === 'object' ? ((payload as Json).payload as Json | undefined) : undefined;
  const authorization = inner && typeof inner === 'object' ? (inner.authorization as Json | undefined) : undefined;
  const from = authorization && typeof authorization === 'object' ? authorization.from : undefined;
  return typeof from === 'string' && /^0x[0-9a-fA-F]{40}$/.test(from) ? from : undefined;
}

function networkOf(body: Json): string | undefined {
  const requirements = body.paymentRequirements as Json | undefined;
  const network = requirements && typeof requirements === 'object' ? requirements.network : undefined;
  return typeof network === 'string' ? network : undefined;
}

/** A PaymentPayload, read (what the PAYMENT-SIGNATURE header carries, base64-decoded). */
export interface PaymentPayloadRead {
  version: X402Version;
  /** The scheme and network the payload says it was made for. */
  payloadScheme: string;
  payloadNetwork: string;
  /** v2: the requirements the client accepted (v1 payloads do not carry them). */
  accepted?: ExactRequirements;
  /** `eip3009`: a signed TransferWithAuthorization; `other`: another asset transfer method (Permit2, ERC-7710). */
  method: 'eip3009' | 'other';
  authorization?: TransferAuthorization;
  signature?: string;
  /** `authorization.from` as sent (checksummed when the client checksummed it). */
  payer?: string;
}

export type PayloadReadResult = { ok: true; payload: PaymentPayloadRead } | { ok: false; problem: RequestProblem };

function unsupportedVersion(version: unknown): RequestProblem {
  return { malformed: false, reason: Reason.invalidX402Version, message: `x402Version ${JSON.stringify(version)} is not supported (1 or 2)` };
}

function payloadFields(payload: Json): PaymentPayloadRead {
  const version = payload.x402Version as X402Version;
  let payloadScheme: string;
  let payloadNetwork: string;
  let accepted: ExactRequirements | undefined;
  if (version === 2) {
    accepted = readRequirements(payload.accepted, 2, 'paymentPayload.accepted', Reason.invalidPayload);
    payloadScheme = accepted.scheme;
    payloadNetwork = accepted.network;
  } else {
    payloadScheme = text(payload, 'scheme', 'paymentPayload', Reason.invalidPayload);
    payloadNetwork = text(payload, 'network', 'paymentPayload', Reason.invalidPayload);
  }
  const inner = object(payload.payload, 'paymentPayload.payload', Reason.invalidPayload);
  const base = { version, payloadScheme, payloadNetwork, ...(accepted ? { accepted } : {}) };
  if (inner.authorization === undefined) {
    if (inner.permit2Authorization !== undefined || inner.delegationManager !== undefined) return { ...base, method: 'other' };
    throw new Malformed(Reason.invalidPayload, 'paymentPayload.payload must hold an EIP-3009 authorization and its signature');
  }
  const authorization = readAuthorization(inner.authorization);
  const signature = text(inner, 'signature', 'paymentPayload.payload', Reason.invalidPayload);
  if (!/^0x([0-9a-fA-F]{2})+$/.test(signature)) throw new Malformed(Reason.invalidPayload, 'paymentPayload.payload.signature must be 0x-prefixed hex bytes');
  return { ...base, method: 'eip3009', authorization, signature, payer: payerOf(payload) ?? authorization.from };
}

/** Reads a PaymentPayload on its own (a decoded PAYMENT-SIGNATURE header). */
export function readPaymentPayload(raw: unknown): PayloadReadResult {
  const payer = payerOf(raw);
  try {
    const payload = object(raw, 'paymentPayload', Reason.invalidPayload);
    if (!X402_VERSIONS.includes(payload.x402Version as X402Version)) return { ok: false, problem: { ...unsupportedVersion(payload.x402Version), payer } };
    return { ok: true, payload: payloadFields(payload) };
  } catch (error) {
    if (!(error instanceof Malformed)) throw error;
    return { ok: false, problem: { malformed: true, reason: error.reason, message: error.message, payer } };
  }
}

/** Reads a verify or settle request body (already parsed JSON). */
export function readPaymentRequest(raw: unknown): ReadResult {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, problem: { malformed: true, reason: Reason.invalidPayload, message: 'the body must be a JSON object with x402Version, paymentPayload and paymentRequirements' } };
  }
  const body = raw as Json;
  const payer = payerOf(body.paymentPayload);
  const network = networkOf(body);
  try {
    const payload = object(body.paymentPayload, 'paymentPayload', Reason.invalidPayload);
    const version = payload.x402Version;
    if (!X402_VERSIONS.includes(version as X402Version)) return { ok: false, problem: { ...unsupportedVersion(version), payer, network } };
    if (body.x402Version !== undefined && body.x402Version !== version) {
      throw new Malformed(Reason.invalidX402Version, `x402Version ${JSON.stringify(body.x402Version)} of the request differs from the payload's ${String(version)}`);
    }
    const requirements = readRequirements(body.paymentRequirements, version as X402Version, 'paymentRequirements', Reason.invalidPaymentRequirements);
    const { accepted: _accepted, ...read } = payloadFields(payload);
    return { ok: true, request: { ...read, requirements } };
  } catch (error) {
    if (!(error instanceof Malformed)) throw error;
    return { ok: false, problem: { malformed: true, reason: error.reason, message: error.message, payer, network } };
  }
}
