// 0x-prefixed hex of bytes as one flat string. `'0x' + buffer.toString('hex')` makes a two-part
// (cons) string for every value of 13 characters or more, and a transaction record kept from
// intake to its block's packing held five of them (hash, from, to, r, s): an extra object per
// value for the garbage collector to copy. Here the characters are written into a reused buffer
// and read back as one string.
import { latin1Text } from './bufferCodec';

const DIGITS = '0123456789abcdef';
/** Longest value written here (a token transfer's calldata is 68 bytes); longer ones are concatenated. */
const MAX_BYTES = 128;
/** Made on first use (nothing at import). */
let scratch: Uint8Array | undefined;

/**
 * '0x' + lowercase hex of bytes [start, end) of `bytes`, after `zeros` zero bytes (a value kept
 * without its leading zeros: sealedBody.ts).
 */
export function flatHex(bytes: Uint8Array, start = 0, end = bytes.length, zeros = 0): string {
  if (zeros + end - start > MAX_BYTES) return '0x' + '00'.repeat(zeros) + Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('hex');
  const length = 2 + 2 * (zeros + end - start);
  scratch ??= new Uint8Array(2 + 2 * MAX_BYTES);
  scratch[0] = 0x30; // '0'
  scratch[1] = 0x78; // 'x'
  if (zeros > 0) scratch.fill(0x30, 2, 2 + 2 * zeros);
  for (let i = start, at = 2 + 2 * zeros; i < end; i++, at += 2) {
    const byte = bytes[i];
    scratch[at] = DIGITS.charCodeAt(byte >> 4);
    scratch[at + 1] = DIGITS.charCodeAt(byte & 0x0f);
  }
  return latin1Text(scratch, 0, length);
}
