// Small hex helpers shared by every part of the node. Quantities are minimal 0x-hex (no leading
// zeros, 0 is "0x0"); data is even-length lowercase 0x-hex.
import { getBytes, hexlify, toBeHex, zeroPadValue } from 'ethers';

export type Hex = string;

export const ZERO_HASH: Hex = '0x' + '00'.repeat(32);
export const ZERO_ADDRESS: Hex = '0x' + '00'.repeat(20);

/** A JSON-RPC quantity: 0x-prefixed minimal hex. */
export function quantity(value: bigint | number): Hex {
  return '0x' + value.toString(16);
}

/** A 32-byte word as 0x-hex. */
export function word(value: bigint): Hex {
  return toBeHex(value, 32);
}

/** Left-pads data to 32 bytes. */
export function pad32(data: Hex): Hex {
  return zeroPadValue(data, 32);
}

export function bytesToHex(bytes: Uint8Array): Hex {
  return hexlify(bytes);
}

export function hexToBytes(hex: Hex): Uint8Array {
  return getBytes(hex);
}

/** Minimal big-endian bytes of an unsigned integer, as RLP wants it (0 is the empty string). */
export function rlpQuantity(value: bigint | number): Hex {
  const v = BigInt(value);
  if (v === 0n) return '0x';
  const hex = v.toString(16);
  return '0x' + (hex.length % 2 ? '0' + hex : hex);
}

export function addressKey(address: string): Hex {
  return address.toLowerCase();
}
