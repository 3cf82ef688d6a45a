// The node's keccak-256 on bytes, for the hashing the node does most: trie nodes, transaction
// hashes, senders' addresses, headers. Almost every input is short (one to three 136-byte blocks),
// where a hasher object's set-up cost as much as the permutation: this is a one-shot sponge over
// one reused state, with the permutation written out over local variables (keccakF.ts). The
// state's bytes are XORed in place, which is the lanes' layout on a little-endian machine;
// elsewhere @noble/hashes' keccak_256 answers.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { keccakF1600 } from './keccakF';

/** Bytes absorbed per permutation: 1600 bits of state minus twice the 256-bit output. */
const RATE = 136;
const state = new Uint32Array(50);
const stateBytes = new Uint8Array(state.buffer);
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

export function keccak256Bytes(data: Uint8Array): Uint8Array {
  if (!LITTLE_ENDIAN) return keccak_256(data);
  absorb(data);
  return stateBytes.slice(0, 32);
}

/** keccak256Bytes(data) written into `out` at `at` (no array of its own). */
export function keccak256Into(data: Uint8Array, out: Uint8Array, at: number): void {
  if (!LITTLE_ENDIAN) {
    out.set(keccak_256(data), at);
    return;
  }
  absorb(data);
  for (let i = 0; i < 32; i++) out[at + i] = stateBytes[i];
}

/** The sponge over `data`: the digest is the state's first 32 bytes afterwards. */
function absorb(data: Uint8Array): void {
  state.fill(0);
  const length = data.length;
  let at = 0;
  for (; length - at >= RATE; at += RATE) {
    for (let i = 0; i < RATE; i++) stateBytes[i] ^= data[at + i];
    keccakF1600(state);
  }
  const rest = length - at;
  for (let i = 0; i < rest; i++) stateBytes[i] ^= data[at + i];
  // Keccak's padding (not SHA-3's): 0x01 after the data, 0x80 on the block's last byte.
  stateBytes[rest] ^= 0x01;
  stateBytes[RATE - 1] ^= 0x80;
  keccakF1600(state);
}
