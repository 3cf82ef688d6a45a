// Hex and Latin-1 between strings and bytes through the codec methods Node's Buffer itself
// calls (Buffer.prototype.hexWrite, latin1Slice), on any Uint8Array. Buffer.from(text, 'hex')
// and buffer.toString('latin1', …) run their JavaScript first (argument checks, a switch over
// encodings, the pool): on the intake path that JavaScript was inlined into each hot function
// V8 optimizes, a good part of what a fresh node compiles for its first transactions. Where a
// Node has no such methods, Buffer's public API does the same.
type HexWrite = (this: Uint8Array, text: string, offset: number, length: number) => number;
type Latin1Slice = (this: Uint8Array, start: number, end: number) => string;

const proto = Buffer.prototype as unknown as { hexWrite?: HexWrite; latin1Slice?: Latin1Slice };
const nativeHexWrite = typeof proto.hexWrite === 'function' ? proto.hexWrite : undefined;
const nativeLatin1Slice = typeof proto.latin1Slice === 'function' ? proto.latin1Slice : undefined;

/**
 * Writes the bytes of `hex` (digits only, no 0x) into `target` from 0, at most target.length of
 * them; answers how many it wrote (it stops at the first pair that is not two hex digits).
 */
export function writeHex(target: Uint8Array, hex: string): number {
  if (nativeHexWrite !== undefined) return nativeHexWrite.call(target, hex, 0, target.length);
  const bytes = Buffer.from(hex, 'hex');
  const count = Math.min(bytes.length, target.length);
  target.set(bytes.subarray(0, count), 0);
  return count;
}

/** Bytes [start, end) of `bytes` as a Latin-1 string (one character a byte). */
export function latin1Text(bytes: Uint8Array, start: number, end: number): string {
  if (nativeLatin1Slice !== undefined) return nativeLatin1Slice.call(bytes, start, end);
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
}
