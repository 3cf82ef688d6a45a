// x402 payment headers for EIP-3009 authorizations, as pure functions: a signed
// TransferWithAuthorization written as the `PAYMENT-SIGNATURE` header of x402 v2 (base64 of a
// PaymentPayload for the `exact` scheme), a pasted header read back, and the checks x402's
// facilitator adds to the token's own (recipient and amount against the accepted requirements,
// the network, the 6 s margin before validBefore). No vscode import and no I/O.
import { getAddress } from 'ethers';
import { caip2Network, chainIdOfNetwork, readPaymentPayload, VALID_BEFORE_MARGIN_SECONDS, type PaymentPayloadRead } from '../../mock-node/x402/wire/index';

/** What a signed TransferWithAuthorization carries: the message, its signature and the domain it was signed in. */
export interface SignedTransfer {
  authorization: { from: string; to: string; value: string; validAfter: number; validBefore: number; nonce: string };
  signature: string;
  domain: { name: string; version: string; chainId: string; verifyingContract: string };
  /** Unix seconds when it was drafted: x402's client signs `validBefore = now + maxTimeoutSeconds`. */
  issuedAt?: number;
}

export class PaymentHeaderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentHeaderError';
  }
}

/**
 * The x402 v2 PaymentPayload for a signed authorization. `accepted` is derived from the
 * authorization itself (amount = value, payTo = to, asset = the token, the domain in `extra`,
 * maxTimeoutSeconds = validBefore minus when it was issued, or minus validAfter): a merchant
 * compares it with its own requirements, so it is accepted where those were the terms the
 * authorization was drafted for.
 */
export function paymentPayloadFor(signed: SignedTransfer, resourceUrl?: string): Record<string, unknown> {
  const a = signed.authorization;
  return {
    x402Version: 2,
    ...(resourceUrl ? { resource: { url: resourceUrl } } : {}),
    accepted: {
      scheme: 'exact',
      network: caip2Network(BigInt(signed.domain.chainId)),
      amount: a.value,
      asset: getAddress(signed.domain.verifyingContract),
      payTo: getAddress(a.to),
      maxTimeoutSeconds: Math.max(1, a.validBefore - Math.max(a.validAfter, signed.issuedAt ?? a.validAfter)),
      extra: { name: signed.domain.name, version: signed.domain.version },
    },
    payload: {
      signature: signed.signature,
      authorization: {
        from: getAddress(a.from),
        to: getAddress(a.to),
        value: a.value,
        validAfter: String(a.validAfter),
        validBefore: String(a.validBefore),
        nonce: a.nonce,
      },
    },
  };
}

/** The `PAYMENT-SIGNATURE` header value: base64 of the PaymentPayload's JSON. */
export function paymentHeaderFor(signed: SignedTransfer, resourceUrl?: string): string {
  return Buffer.from(JSON.stringify(paymentPayloadFor(signed, resourceUrl)), 'utf8').toString('base64');
}

export interface DecodedPaymentHeader {
  payload: PaymentPayloadRead & { method: 'eip3009'; authorization: NonNullable<PaymentPayloadRead['authorization']>; signature: string };
  /** The chain the payload's network names, when it names one this code knows. */
  chainId?: bigint;
}

/**
 * Reads a pasted header: the base64 value (standard or URL-safe alphabet), the whole line
 * (`PAYMENT-SIGNATURE: …`, or v1's `X-PAYMENT: …`), or the decoded JSON itself.
 */
export function decodePaymentHeader(text: string): DecodedPaymentHeader {
  const value = text.trim().replace(/^(payment-signature|x-payment)\s*:\s*/i, '').trim();
  if (value === '') throw new PaymentHeaderError('the header is empty');
  let json: string;
  if (value.startsWith('{')) {
    json = value;
  } else {
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) throw new PaymentHeaderError('not base64: an x402 payment header is the base64 of a JSON PaymentPayload');
    json = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new PaymentHeaderError('the decoded header is not JSON');
  }
  const read = readPaymentPayload(raw);
  if (!read.ok) throw new PaymentHeaderError(`${read.problem.reason}: ${read.problem.message}`);
  const { payload } = read;
  if (payload.method !== 'eip3009' || !payload.authorization || !payload.signature) {
    throw new PaymentHeaderError('the payload is not an EIP-3009 authorization (Permit2 or ERC-7710): there is no TransferWithAuthorization to inspect');
  }
  const chainId = chainIdOfNetwork(payload.payloadNetwork);
  return { payload: payload as DecodedPaymentHeader['payload'], ...(chainId !== undefined ? { chainId } : {}) };
}

export type HeaderCheckStatus = 'pass' | 'fail' | 'warn';

export interface HeaderCheck {
  id: string;
  label: string;
  status: HeaderCheckStatus;
  detail: string;
}

export interface HeaderContext {
  /** The chain id of the endpoint it is checked against. */
  chainId: bigint;
  /** The endpoint's token (lowercase). */
  token: string;
  /** The chain's time, Unix seconds. */
  now: number;
}

/** The checks x402's facilitator makes beyond the token's own rules, against one endpoint. */
export function paymentHeaderChecks(decoded: DecodedPaymentHeader, context: HeaderContext): HeaderCheck[] {
  const { payload } = decoded;
  const a = payload.authorization;
  const checks: HeaderCheck[] = [];
  const add = (id: string, label: string, ok: boolean, pass: string, fail: string, failStatus: HeaderCheckStatus = 'fail') =>
    checks.push({ id: `x402.${id}`, label, status: ok ? 'pass' : failStatus, detail: ok ? pass : fail });
  add('scheme', 'x402 scheme', payload.payloadScheme === 'exact', `exact (x402 v${payload.version})`, `${payload.payloadScheme}: this facilitator settles exact only (unsupported_scheme)`);
  add('network', 'x402 network', decoded.chainId === context.chainId,
    `${payload.payloadNetwork} is chain ${context.chainId}`,
    decoded.chainId === undefined
      ? `${payload.payloadNetwork} names no chain this extension knows (invalid_network)`
      : `${payload.payloadNetwork} is chain ${decoded.chainId}, the endpoint is chain ${context.chainId} (invalid_network)`);
  const accepted = payload.accepted;
  if (accepted) {
    add('asset', 'x402 asset', accepted.asset === context.token, `the endpoint's token ${context.token}`, `${accepted.asset} is not the endpoint's token ${context.token}`);
    add('payTo', 'x402 payTo', accepted.payTo === a.to, `authorization.to is payTo ${getAddress(a.to)}`, `authorization.to ${a.to} is not payTo ${accepted.payTo} (invalid_exact_evm_recipient_mismatch)`);
    add('amount', 'x402 amount', accepted.amount === a.value, `value ${a.value} is the amount asked`, `value ${a.value} is not the amount ${accepted.amount} (invalid_exact_evm_payload_authorization_value_mismatch)`);
    add('domain', 'x402 EIP-712 domain in extra', !!accepted.name && !!accepted.version, `name ${JSON.stringify(accepted.name)}, version ${JSON.stringify(accepted.version)}`,
      'accepted.extra lacks the token\'s name or version (invalid_exact_evm_missing_eip712_domain)');
  } else {
    checks.push({ id: 'x402.accepted', label: 'x402 requirements', status: 'warn', detail: 'a v1 payload does not carry the requirements: payTo and amount are checked by the merchant\'s facilitator' });
  }
  const margin = Number(VALID_BEFORE_MARGIN_SECONDS);
  add('validBefore', 'x402 time margin', a.validBefore >= BigInt(context.now + margin),
    `validBefore is ${Number(a.validBefore) - context.now} s after the chain's time (the facilitator wants at least ${margin})`,
    `validBefore ${a.validBefore} is less than ${margin} s after the chain's time ${context.now} (invalid_exact_evm_payload_authorization_valid_before)`);
  return checks;
}
