// The token's signature rules (FiatToken v2.2's ECRecover.recover): 65 bytes r ‖ s ‖ v, v 27 or
// 28 (0 and 1 are refused), s at most secp256k1n / 2. The node reverts with `reason`; the
// extension shows `detail` before anyone submits.

/** secp256k1n / 2: the largest `s` the token accepts. */
export const SECP256K1_HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

export interface SignatureProblem {
  /** The token's revert reason for this signature. */
  readonly reason: string;
  /** What is wrong, in words. */
  readonly detail: string;
}

/** r, s and v of a 65-byte signature, or undefined when it is not 65 bytes of 0x hex. */
export function splitSignature(signature: string): { r: string; s: string; v: number } | undefined {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return undefined;
  return { r: `0x${signature.slice(2, 66)}`, s: `0x${signature.slice(66, 130)}`, v: parseInt(signature.slice(130, 132), 16) };
}

/**
 * The first of the token's signature rules `signature` breaks, in the token's order (length,
 * then s, then v); undefined when it keeps them all. Whether it recovers to the right signer is
 * a separate question (`ECRecover: invalid signature` when it recovers to nobody).
 */
export function signatureProblem(signature: string): SignatureProblem | undefined {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(signature)) {
    return { reason: 'ECRecover: invalid signature length', detail: 'not 0x-prefixed hex bytes' };
  }
  const parts = splitSignature(signature);
  if (!parts) {
    return { reason: 'ECRecover: invalid signature length', detail: `${(signature.length - 2) / 2} bytes, the token wants 65` };
  }
  if (BigInt(parts.s) > SECP256K1_HALF_N) {
    return { reason: "ECRecover: invalid signature 's' value", detail: 's is in the upper half of the curve order' };
  }
  if (parts.v !== 27 && parts.v !== 28) {
    return { reason: "ECRecover: invalid signature 'v' value", detail: `v is ${parts.v}, the token accepts 27 or 28` };
  }
  return undefined;
}

/** A 65-byte signature with v 0 or 1 (as some wallets sign) re-encoded with 27 or 28; anything else unchanged. */
export function normalizeV(signature: string): string {
  const parts = splitSignature(signature);
  if (!parts || (parts.v !== 0 && parts.v !== 1)) return signature;
  return `${signature.slice(0, 130)}${(parts.v + 27).toString(16)}`;
}
