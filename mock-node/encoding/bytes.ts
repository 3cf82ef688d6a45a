// Hex <-> bytes on the hot paths (intake, execution, roots) through Node's Buffer codec: no
// validation beyond what the callers already did (the node's hex is lowercase, even-length,
// 0x-prefixed), and no intermediate strings. ethers' getBytes/hexlify check every character
// with a regular expression and build a string byte by byte; a transaction's path met them
// dozens of times.
import { writeHex } from './bufferCodec';
import type { Hex } from './hex';

/**
 * Bytes of a 0x-prefixed even-length hex string (up to the first pair that is not two hex
 * digits), in a Buffer from Node's pool: a fresh Uint8Array of its own (an ArrayBuffer and its
 * memory each time, or one materialized for the C++ call when it is small) cost five times more.
 */
export function hexBytes(hex: Hex): Uint8Array {
  if (hex.length <= 2) return new Uint8Array(0);
  const out = Buffer.allocUnsafe((hex.length - 2) >> 1);
  const written = writeHex(out, hex.slice(2));
  return written === out.length ? out : out.subarray(0, written);
}

/** 0x-prefixed lowercase hex of bytes. */
export function bytesHex(bytes: Uint8Array): Hex {
  return '0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Minimal big-endian bytes of an unsigned integer (0 is the empty string), as RLP wants it. */
export function uintBytes(value: bigint | number): Uint8Array {
  if (value === 0 || value === 0n) return new Uint8Array(0);
  let hex = value.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  return Buffer.from(hex, 'hex');
}

/** A 32-byte big-endian word of an unsigned integer below 2^256. */
export function wordBytes(value: bigint): Uint8Array {
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
}

/**
 * The unsigned integer of canonical big-endian bytes (no leading zero, at most 32 bytes), as RLP
 * carries a transaction's fields; undefined when the bytes are not canonical. Up to 6 bytes (the
 * usual nonce, gas and chain id) it is read without a hex string.
 */
export function canonicalUint(b: Uint8Array): bigint | undefined {
  return canonicalUintAt(b, 0, b.length);
}

/** canonicalUint of bytes [start, end) of `b`, read in place. */
export function canonicalUintAt(b: Uint8Array, start: number, end: number): bigint | undefined {
  const length = end - start;
  if (length === 0) return 0n;
  if (b[start] === 0 || length > 32) return undefined;
  if (length <= 6) {
    let n = 0;
    for (let i = start; i < end; i++) n = n * 256 + b[i];
    return sharedBigInt(n);
  }
  return BigInt('0x' + Buffer.from(b.buffer, b.byteOffset + start, length).toString('hex'));
}

/**
 * The small values a transaction's fields repeat (chain id, gas limit, fee caps, nonces, values)
 * as one shared bigint each: every record kept its own otherwise, from intake until its block
 * was packed. A bounded set, emptied when full.
 */
const shared = new Map<number, bigint>();
const MAX_SHARED = 4096;

function sharedBigInt(n: number): bigint {
  let value = shared.get(n);
  if (value === undefined) {
    if (shared.size >= MAX_SHARED) shared.clear();
    value = BigInt(n);
    shared.set(n, value);
  }
  return value;
}
