// The checks of x402's `exact` scheme on EVM with the EIP-3009 transfer method
// (specs/schemes/exact/scheme_exact_evm.md), in the reference facilitator's order: scheme, EIP-712
// domain, network, signature (recovers `from`), recipient (`to == payTo`), time window
// (`validBefore >= now + 6`, `validAfter <= now`), exact amount, asset is a contract, then a
// simulation of `transferWithAuthorization` at `pending`; when the simulation fails, reads of
// `authorizationState`, `name`, `version` and `balanceOf` say why. The chain is reached through
// the small TokenChain interface, so this module does no I/O of its own.
import { Interface, verifyTypedData } from 'ethers';
import { splitSignature, STABLE_TOKEN_ABI, TYPED_DATA_TYPES } from '../tokenKit';
import { Reason, VALID_BEFORE_MARGIN_SECONDS, type VerifyResponse } from './wire/protocol';
import type { PaymentRequest, TransferAuthorization } from './wire/requests';

let tokenInterface: Interface | undefined;
/** The token's ABI, parsed on the first verify or settle (not at start-up). */
const token = () => (tokenInterface ??= new Interface(STABLE_TOKEN_ABI));
const TRANSFER_VRS = 'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)';
const TRANSFER_BYTES = 'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)';

/** What a call answered: its return data, or the revert reason. */
export type CallOutcome = { ok: true; data: string } | { ok: false; reason: string };

/** The chain as the facilitator sees it (the node, through its own JSON-RPC). */
export interface TokenChain {
  readonly chainId: bigint;
  /** The chain's clock, Unix seconds (wall time plus any evm_increaseTime). */
  now(): bigint;
  /** eth_call at `pending` from the facilitator's account. */
  call(to: string, data: string): Promise<CallOutcome>;
  /** eth_getCode at `pending`. */
  code(address: string): Promise<string>;
}

/** The calldata of `transferWithAuthorization` for a signed authorization (v,r,s form for a 65-byte signature). */
export function transferWithAuthorizationData(authorization: TransferAuthorization, signature: string): string {
  const args = [authorization.from, authorization.to, authorization.value, authorization.validAfter, authorization.validBefore, authorization.nonce];
  const parts = splitSignature(signature);
  if (!parts) return token().encodeFunctionData(TRANSFER_BYTES, [...args, signature]);
  // The v byte goes to the token as signed: the token itself refuses 0/1 (it wants 27/28), as USDC does.
  return token().encodeFunctionData(TRANSFER_VRS, [...args, parts.v, parts.r, parts.s]);
}

function recoversFrom(request: PaymentRequest, chainId: bigint): boolean {
  const { authorization, signature, requirements } = request;
  if (!authorization || !signature) return false;
  try {
    const signer = verifyTypedData(
      { name: requirements.name, version: requirements.version, chainId, verifyingContract: requirements.asset },
      TYPED_DATA_TYPES.TransferWithAuthorization as unknown as Record<string, { name: string; type: string }[]>,
      { ...authorization },
      signature,
    );
    return signer.toLowerCase() === authorization.from;
  } catch {
    return false;
  }
}

/** A view function of the token, decoded; undefined when the call fails. */
export async function readToken(chain: TokenChain, asset: string, fn: string, args: unknown[]): Promise<unknown> {
  const outcome = await chain.call(asset, token().encodeFunctionData(fn, args));
  if (!outcome.ok) return undefined;
  try {
    return token().decodeFunctionResult(fn, outcome.data)[0];
  } catch {
    return undefined;
  }
}

/** After a failed simulation: the most specific reason the token's state gives. */
async function diagnose(chain: TokenChain, request: PaymentRequest): Promise<string> {
  const { requirements } = request;
  const authorization = request.authorization!;
  const [used, name, version, balance] = await Promise.all([
    readToken(chain, requirements.asset, 'authorizationState', [authorization.from, authorization.nonce]),
    readToken(chain, requirements.asset, 'name', []),
    readToken(chain, requirements.asset, 'version', []),
    readToken(chain, requirements.asset, 'balanceOf', [authorization.from]),
  ]);
  if (used === true) return Reason.nonceUsed;
  if (typeof name === 'string' && name !== requirements.name) return Reason.nameMismatch;
  if (typeof version === 'string' && version !== requirements.version) return Reason.versionMismatch;
  if (typeof balance === 'bigint' && balance < requirements.amount) return Reason.insufficientBalance;
  return Reason.simulationFailed;
}

/** Verifies an EIP-3009 payment whose requirements name this facilitator's scheme and network. */
export async function verifyExactEvm(chain: TokenChain, request: PaymentRequest): Promise<VerifyResponse> {
  const payer = request.payer;
  const invalid = (invalidReason: string, invalidMessage?: string): VerifyResponse => ({
    isValid: false,
    invalidReason,
    ...(invalidMessage !== undefined ? { invalidMessage } : {}),
    ...(payer !== undefined ? { payer } : {}),
  });
  if (request.method !== 'eip3009' || !request.authorization || !request.signature) {
    return invalid(Reason.unsupportedPayloadType, 'this facilitator settles EIP-3009 authorizations only (the token has transferWithAuthorization; no Permit2 or ERC-7710 here)');
  }
  const { requirements, authorization } = request;
  if (request.payloadScheme !== 'exact' || requirements.scheme !== 'exact') return invalid(Reason.scheme);
  if (!requirements.name || !requirements.version) {
    return invalid(Reason.missingDomain, 'paymentRequirements.extra must give the token\'s EIP-712 name and version');
  }
  if (request.payloadNetwork !== requirements.network) return invalid(Reason.networkMismatch);
  if (!recoversFrom(request, chain.chainId)) {
    return invalid(Reason.signature, `the signature does not recover authorization.from over TransferWithAuthorization in the domain ${requirements.name} / ${requirements.version} / ${chain.chainId} / ${requirements.asset}`);
  }
  if (authorization.to !== requirements.payTo) {
    return invalid(Reason.recipientMismatch, `authorization.to ${authorization.to} is not paymentRequirements.payTo ${requirements.payTo}`);
  }
  const now = chain.now();
  if (authorization.validBefore < now + VALID_BEFORE_MARGIN_SECONDS) {
    return invalid(Reason.validBefore, `validBefore ${authorization.validBefore} is less than ${VALID_BEFORE_MARGIN_SECONDS} s after the chain's time ${now}`);
  }
  if (authorization.validAfter > now) {
    return invalid(Reason.validAfter, `validAfter ${authorization.validAfter} is after the chain's time ${now}`);
  }
  if (authorization.value !== requirements.amount) {
    return invalid(request.version === 2 ? Reason.valueMismatch : Reason.valueV1, `authorization.value ${authorization.value} is not the required amount ${requirements.amount}`);
  }
  if ((await chain.code(requirements.asset)) === '0x') {
    return invalid(Reason.assetNotContract, `no contract at ${requirements.asset}`);
  }
  const outcome = await chain.call(requirements.asset, transferWithAuthorizationData(authorization, request.signature));
  if (!outcome.ok) return invalid(await diagnose(chain, request), outcome.reason);
  return { isValid: true, ...(payer !== undefined ? { payer } : {}) };
}

/** The reason code for a token revert met while settling (the reference's mapping of revert text). */
export function reasonForRevert(message: string): string {
  if (/authorization is expired/i.test(message)) return Reason.validBefore;
  if (/authorization is not yet valid/i.test(message)) return Reason.validAfter;
  if (/authorization is used or canceled/i.test(message)) return Reason.nonceUsed;
  if (/transfer amount exceeds balance/i.test(message)) return Reason.insufficientBalance;
  if (/invalid signature/i.test(message)) return Reason.signature;
  return Reason.transactionFailed;
}
