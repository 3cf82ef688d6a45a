// Who signed a digest: ECDSA public-key recovery over secp256k1, the costliest step of taking a
// transaction in (its sender) and of a capture (the authorization's signer). Three backends give
// the same answers, tried in this order on the first recovery (so start-up pays for none):
// - native: libsecp256k1 as a Node-API addon (secp256k1Addon.ts), about 5x faster than
// - wasm: libsecp256k1 compiled to WebAssembly (tiny-secp256k1), where no prebuilt addon loads;
// - js: @noble/curves, several times slower again, where the WebAssembly module cannot load.
import type { Hex } from '../encoding/hex';
import { flatHex } from '../encoding/flatHex';
import { keccak256Bytes } from '../encoding/keccak';
import { loadSecp256k1Addon } from './secp256k1Addon';

/** 65-byte uncompressed public key (0x04 ‖ x ‖ y), or null when no key matches. */
type RecoverPublicKey = (digest: Uint8Array, rs: Uint8Array, recovery: 0 | 1) => Uint8Array | null;

export type RecoveryBackend = 'native' | 'wasm' | 'js';
export const RECOVERY_BACKENDS: readonly RecoveryBackend[] = ['native', 'wasm', 'js'];

function nativeBackend(): RecoverPublicKey {
  const addon = loadSecp256k1Addon();
  if (!addon) throw new Error('no native secp256k1 addon here');
  return (digest, rs, recovery) => {
    const key = new Uint8Array(65);
    return addon.ecdsaRecover(key, rs, recovery, digest) === 0 ? key : null;
  };
}

function wasmBackend(): RecoverPublicKey {
  const ecc = require('tiny-secp256k1') as typeof import('tiny-secp256k1');
  return (digest, rs, recovery) => ecc.recover(digest, rs, recovery, false);
}

function jsBackend(): RecoverPublicKey {
  const { secp256k1 } = require('@noble/curves/secp256k1.js') as typeof import('@noble/curves/secp256k1.js');
  return (digest, rs, recovery) => secp256k1.Signature.fromBytes(rs, 'compact').addRecoveryBit(recovery).recoverPublicKey(digest).toBytes(false);
}

const loaded = new Map<RecoveryBackend, RecoverPublicKey>();
let preferred: RecoveryBackend | undefined;

function backend(kind: RecoveryBackend): RecoverPublicKey {
  let recover = loaded.get(kind);
  if (!recover) {
    recover = kind === 'native' ? nativeBackend() : kind === 'wasm' ? wasmBackend() : jsBackend();
    loaded.set(kind, recover);
  }
  return recover;
}

/** The backend recoveries use: the first of native, WebAssembly, JavaScript that loads here. */
export function recoveryBackend(): RecoveryBackend {
  if (!preferred) {
    for (const kind of RECOVERY_BACKENDS) {
      try {
        backend(kind);
        preferred = kind;
        break;
      } catch {
        // The next one.
      }
    }
  }
  return preferred ?? 'js';
}

/**
 * The address whose key made signature (r, s, yParity) over a 32-byte digest, lowercase; throws
 * when the signature matches no key (r or s zero or not below the curve order, r off the curve).
 */
export function recoverSigner(digest: Uint8Array, r: Uint8Array, s: Uint8Array, yParity: number, kind: RecoveryBackend = recoveryBackend()): Hex {
  if (r.length !== 32 || s.length !== 32) throw new Error('invalid signature');
  const rs = new Uint8Array(64);
  rs.set(r, 0);
  rs.set(s, 32);
  return recoverSignerRs(digest, rs, yParity, kind);
}

/** recoverSigner with r and s as one 64-byte compact signature (r ‖ s, each a 32-byte word). */
export function recoverSignerRs(digest: Uint8Array, rs: Uint8Array, yParity: number, kind: RecoveryBackend = recoveryBackend()): Hex {
  const key = recoverPublicKey(digest, rs, yParity, kind);
  const hash = keccak256Bytes(key.subarray(1));
  return flatHex(hash, 12, 32);
}

/**
 * The 65-byte uncompressed public key (0x04 ‖ x ‖ y) whose key made signature rs (r ‖ s) with
 * recovery bit yParity over a 32-byte digest; throws when it matches no key.
 */
export function recoverPublicKey(digest: Uint8Array, rs: Uint8Array, yParity: number, kind: RecoveryBackend = recoveryBackend()): Uint8Array {
  if (digest.length !== 32 || rs.length !== 64 || (yParity !== 0 && yParity !== 1)) throw new Error('invalid signature');
  let key: Uint8Array | null;
  try {
    key = backend(kind)(digest, rs, yParity);
  } catch {
    key = null;
  }
  if (!key || key.length !== 65) throw new Error('invalid signature');
  return key;
}
