// Checks of single JSON-RPC values for the language server: the node's own rules
// (mock-node/catalog/paramRules.ts, which follow geth) worded for a person editing a file, with the fix
// they most likely meant. Each returns a problem sentence or undefined. Pure.
import { getAddress } from 'ethers';
import { BLOCK_TAGS, blockStringFault, quantityFault, scalarFault, type QuantityFault } from '../../../mock-node/catalog/index';
import { formatTokenUnits, TOKEN_DECIMALS } from '../../../mock-node/tokenKit/index';
import { closest } from './methods';

export const MAX_UINT256 = (1n << 256n) - 1n;

function quantityWording(fault: QuantityFault, value: string, what: string): string {
  switch (fault) {
    case 'not-string':
      return `${what} must be a hex string`;
    case 'no-prefix':
      return /^\d+$/.test(value)
        ? `${what} "${value}" is decimal: JSON-RPC quantities are hex, here 0x${BigInt(value).toString(16)}`
        : `${what} must be a 0x-prefixed hex number, not "${value}"`;
    case 'no-digits':
      return `${what} "0x" has no digits (zero is 0x0)`;
    case 'not-hex':
      return `${what} "${value}" is not hex`;
    case 'leading-zeros':
      return `${what} "${value}" has leading zero digits: write 0x${BigInt(value).toString(16)} (nodes answer -32602)`;
    case 'over-256-bits':
      return `${what} "${value}" is more than 256 bits`;
  }
}

/** A hex quantity: `0x`, hex digits, no leading zeros, at most 256 bits. */
export function quantityProblem(value: string, what = 'quantity'): string | undefined {
  const fault = quantityFault(value);
  return fault ? quantityWording(fault, value, what) : undefined;
}

/** The quantity a user most likely meant: leading zeros dropped, a decimal turned into hex. */
export function quantityFix(value: string): string | undefined {
  if (/^0x0+[0-9a-f]+$/i.test(value) || /^\d+$/.test(value)) {
    const n = BigInt(/^\d+$/.test(value) ? value : value.toLowerCase());
    return n <= MAX_UINT256 ? `0x${n.toString(16)}` : undefined;
  }
  return undefined;
}

/** The block string a user most likely meant: a fixed quantity or the closest tag. */
export function blockStringFix(value: string): string | undefined {
  if (/^0x/i.test(value) || /^\d+$/.test(value)) return quantityFix(value);
  return closest(value, BLOCK_TAGS);
}

/** A block tag or hex block number (a string); undefined when fine. */
export function blockStringProblem(value: string): string | undefined {
  const fault = blockStringFault(value);
  if (!fault) return undefined;
  if (fault.rule === 'quantity') return quantityWording(fault.fault, value, 'block number');
  if (/^\d+$/.test(value)) return `block number "${value}" is decimal: write 0x${BigInt(value).toString(16)}`;
  const suggestion = closest(value, BLOCK_TAGS);
  const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
  return `unknown block tag "${value}": use ${BLOCK_TAGS.join(', ')} or a hex number.${hint}`;
}

export function addressProblem(value: string, what = 'address'): { message: string; severity: 'error' | 'warning' } | undefined {
  const fault = scalarFault('address', value);
  if (fault?.rule === 'address') {
    const digits = fault.digits !== undefined ? ` (${fault.digits} hex digits, an address has 40)` : '';
    return { message: `${what} must be a 20-byte hex address${digits}`, severity: 'error' };
  }
  const mixed = /[a-f]/.test(value.slice(2)) && /[A-F]/.test(value.slice(2));
  if (mixed) {
    const checksummed = getAddress(value.toLowerCase());
    if (checksummed !== value) return { message: `${what} has a mixed-case checksum that does not match (EIP-55: ${checksummed})`, severity: 'warning' };
  }
  return undefined;
}

export function hashProblem(value: string, what = 'hash'): string | undefined {
  const fault = scalarFault('hash', value);
  if (fault?.rule !== 'hash') return undefined;
  if (fault.digits !== undefined) return `${what} must be 32 bytes (64 hex digits), this has ${fault.digits}`;
  return `${what} must be 32 bytes of 0x-prefixed hex`;
}

export function dataProblem(value: string, what = 'data'): string | undefined {
  const fault = scalarFault('data', value);
  if (fault?.rule !== 'bytes') return undefined;
  return fault.odd ? `${what} has an odd number of hex digits` : `${what} must be 0x-prefixed hex bytes`;
}

export function signedTransactionProblem(value: string, what = 'transaction'): string | undefined {
  return dataProblem(value, what) ?? (scalarFault('signedTransaction', value) ? `${what} has no bytes: a signed transaction is RLP-encoded bytes` : undefined);
}

/** A message to sign: hex bytes (even length) or any other text (signed as UTF-8). */
export function messageProblem(value: string, what = 'message'): string | undefined {
  return scalarFault('message', value) ? `${what} looks like hex bytes but has an odd number of digits (text is signed as UTF-8)` : undefined;
}

export function slotProblem(value: string): string | undefined {
  const fault = scalarFault('slot', value);
  if (fault?.rule !== 'slot') return undefined;
  return fault.tooLong ? 'storage slot is more than 32 bytes' : 'storage slot must be a hex integer (0x…) of at most 32 bytes';
}

/** A decimal string, a JSON integer's source text, or a hex quantity, as an unsigned integer. */
export function parseUnsigned(text: string): bigint | undefined {
  if (/^\d+$/.test(text)) return BigInt(text);
  if (/^0x(0|[1-9a-f][0-9a-f]*)$/i.test(text)) return BigInt(text);
  return undefined;
}

/** Unix seconds that look like a timestamp (2001 to 2100). */
export function plausibleTimestamp(value: bigint): boolean {
  return value >= 1_000_000_000n && value <= 4_102_444_800n;
}

export function isoSeconds(seconds: bigint | number): string {
  return new Date(Number(seconds) * 1000).toISOString().replace('.000Z', 'Z').replace('T', ' ').replace('Z', ' UTC');
}

/** "12500000" base units → "12.5" with 6 decimals, thousands grouped ("1,000.5"). */
export function tokenUnits(value: bigint, decimals = TOKEN_DECIMALS): string {
  return formatTokenUnits(value, { decimals, group: true });
}

/** "in 14 min" / "3 h ago" relative to now (seconds). */
export function relative(seconds: bigint, nowSeconds: number): string {
  const delta = Number(seconds) - nowSeconds;
  const abs = Math.abs(delta);
  const amount = abs < 120 ? `${abs} s` : abs < 7200 ? `${Math.round(abs / 60)} min` : abs < 172_800 ? `${Math.round(abs / 3600)} h` : `${Math.round(abs / 86_400)} days`;
  return delta >= 0 ? `in ${amount}` : `${amount} ago`;
}
