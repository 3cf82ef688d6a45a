// The node's own hashing and signature recovery, handed to the EVM (Common's customCrypto) in place
// of @ethereumjs's JavaScript defaults: KECCAK256 (SHA3) runs in the node's WebAssembly keccak
// (encoding/keccak.ts), the ECRECOVER precompile in its libsecp256k1 backends (signatures.ts:
// native, else WebAssembly, else JavaScript; what a permit or an EIP-3009 authorization in USDC's
// real bytecode calls), and SHA256 in Node's crypto. The answers are the same; they come sooner.
import { keccak256Bytes } from '../../encoding/keccak';
import { recoverPublicKey } from '../signatures';

export interface EvmCrypto {
  keccak256(data: Uint8Array): Uint8Array;
  /** The 64-byte public key (x ‖ y) for ECRECOVER; v is 27 or 28 (the precompile checks it first). Throws when no key matches. */
  ecrecover(hash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array): Uint8Array;
  sha256(data: Uint8Array): Uint8Array;
}

export const NODE_EVM_CRYPTO: EvmCrypto = {
  keccak256: keccak256Bytes,
  ecrecover(hash, v, r, s) {
    if ((v !== 27n && v !== 28n) || r.length > 32 || s.length > 32) throw new Error('invalid signature');
    const rs = new Uint8Array(64);
    rs.set(r, 32 - r.length);
    rs.set(s, 64 - s.length);
    return recoverPublicKey(hash, rs, Number(v - 27n)).slice(1);
  },
  sha256(data) {
    // node:crypto required on the first SHA256: start-up does not load it (test/mock-node/unit/startupWork.test.ts).
    const { createHash } = require('node:crypto') as typeof import('node:crypto');
    const digest = createHash('sha256').update(data).digest();
    return new Uint8Array(digest.buffer, digest.byteOffset, digest.length);
  },
};
