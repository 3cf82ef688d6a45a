// The address a CREATE from `from` with `nonce` makes: keccak(rlp([from, nonce]))[12:], on bytes
// with the node's keccak (ethers' getCreateAddress checksums its input and output, each a keccak
// of its own, and warms a second keccak implementation at start).
import { bytesHex, hexBytes, uintBytes } from '../encoding/bytes';
import type { Hex } from '../encoding/hex';
import { keccak256Bytes } from '../encoding/keccak';
import { encodeBytes, encodeList } from '../encoding/trieRoot';

/** Lowercase hex address created by `from` (hex, any case) at `nonce`. */
export function createdAddress(from: Hex, nonce: number | bigint): Hex {
  const hash = keccak256Bytes(encodeList([encodeBytes(hexBytes(from.toLowerCase())), encodeBytes(uintBytes(nonce))]));
  return bytesHex(hash.subarray(12));
}
