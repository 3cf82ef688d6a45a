// Parsing of JSON-RPC params for the node: quantities, data, addresses, hashes, block tags and
// EIP-1898 block objects. The rules are catalog/paramRules.ts (shared with the language server); this
// module words their faults as geth does: -32602 with a message that names the argument.
import { invalidParams } from './errors';
import type { Hex } from '../encoding/hex';
import type { AccessList } from '../chain/types';
import { BLOCK_TAGS, isBlockTag, quantityFault, scalarFault, type BlockTag, type QuantityFault } from '../catalog/index';

export { BLOCK_TAGS, type BlockTag };

export type BlockSelector =
  | { kind: 'tag'; tag: BlockTag }
  | { kind: 'number'; number: bigint }
  | { kind: 'hash'; hash: Hex; requireCanonical: boolean };

function argName(index: number): string {
  return `invalid argument ${index}`;
}

const QUANTITY_WORDING: Record<Exclude<QuantityFault, 'not-string'>, string> = {
  'no-prefix': 'hex string without 0x prefix',
  'no-digits': 'hex string "0x"',
  'not-hex': 'invalid hex string',
  'leading-zeros': 'hex number with leading zero digits',
  'over-256-bits': 'hex number > 256 bits',
};

export function parseQuantity(value: unknown, index: number, name = 'quantity'): bigint {
  const fault = quantityFault(value);
  if (fault === 'not-string') throw invalidParams(`${argName(index)}: ${name} must be a hex string`);
  if (fault) throw invalidParams(`${argName(index)}: ${QUANTITY_WORDING[fault]}`);
  return BigInt(value as string);
}

export function parseOptionalQuantity(value: unknown, index: number, name?: string): bigint | undefined {
  return value === undefined || value === null ? undefined : parseQuantity(value, index, name);
}

/** A JSON number (a non-negative safe integer) or a hex quantity. */
export function parseInteger(value: unknown, index: number, name: string): bigint {
  if (typeof value === 'number') {
    if (scalarFault('integer', value)) throw invalidParams(`${argName(index)}: ${name} must be a non-negative integer`);
    return BigInt(value);
  }
  return parseQuantity(value, index, name);
}

/** Token base units: a JSON integer, a decimal string or a hex quantity. */
export function parseAmount(value: unknown, index: number, name = 'amount'): bigint {
  if (typeof value === 'string' && !scalarFault('amount', value) && !/^0x/i.test(value)) return BigInt(value);
  return parseInteger(value, index, name);
}

export function parseData(value: unknown, index: number, name = 'data'): Hex {
  if (scalarFault('data', value)) throw invalidParams(`${argName(index)}: ${name} must be 0x-prefixed hex bytes`);
  return (value as string).toLowerCase();
}

/** Signed transaction bytes: hex bytes, at least one. */
export function parseSignedTransaction(value: unknown, index: number): Hex {
  if (scalarFault('signedTransaction', value)) throw invalidParams(`${argName(index)}: raw transaction must be 0x-prefixed hex bytes`);
  return (value as string).toLowerCase();
}

export function parseAddress(value: unknown, index: number, name = 'address'): Hex {
  if (scalarFault('address', value)) throw invalidParams(`${argName(index)}: ${name} must be a 20-byte hex address`);
  return (value as string).toLowerCase();
}

export function parseHash(value: unknown, index: number, name = 'hash'): Hex {
  if (scalarFault('hash', value)) throw invalidParams(`${argName(index)}: ${name} must be a 32-byte hex string`);
  return (value as string).toLowerCase();
}

export function parseBoolean(value: unknown, index: number, name = 'flag'): boolean {
  if (scalarFault('boolean', value)) throw invalidParams(`${argName(index)}: ${name} must be a boolean`);
  return value as boolean;
}

/** A storage slot: any hex integer up to 32 bytes (leading zeros allowed, as clients send them padded). */
export function parseSlot(value: unknown, index: number): bigint {
  if (scalarFault('slot', value)) throw invalidParams(`${argName(index)}: storage slot must be a hex integer of at most 32 bytes`);
  return BigInt(value as string);
}

/**
 * A block parameter: tag, hex number, a block hash (64 hex digits: the spec's
 * BlockNumberOrTagOrHash, as geth and Anvil read it), or an EIP-1898 object.
 */
export function parseBlockSelector(value: unknown, index: number): BlockSelector {
  if (typeof value === 'string') {
    if (isBlockTag(value)) return { kind: 'tag', tag: value };
    if (/^0x[0-9a-f]{64}$/i.test(value)) return { kind: 'hash', hash: value.toLowerCase(), requireCanonical: false };
    if (value.startsWith('0x') || value.startsWith('0X')) return { kind: 'number', number: parseQuantity(value, index, 'block number') };
    throw invalidParams(`${argName(index)}: block must be a hex number or one of ${BLOCK_TAGS.join(', ')}`);
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    if ('blockHash' in object && 'blockNumber' in object) {
      throw invalidParams(`${argName(index)}: cannot specify both blockHash and blockNumber`);
    }
    if ('blockHash' in object) {
      const requireCanonical = object.requireCanonical ?? false;
      if (typeof requireCanonical !== 'boolean') throw invalidParams(`${argName(index)}: requireCanonical must be a boolean`);
      return { kind: 'hash', hash: parseHash(object.blockHash, index, 'blockHash'), requireCanonical };
    }
    if ('blockNumber' in object) return parseBlockSelector(object.blockNumber, index);
  }
  throw invalidParams(`${argName(index)}: block must be a hex number, a tag or an EIP-1898 object`);
}

/** Positional params: `count` required, the rest optional; more than allowed is an error. */
export function expectParams(params: readonly unknown[], required: number, max = required): void {
  if (params.length < required) throw invalidParams(`missing value for required argument ${params.length}`);
  if (params.length > max) throw invalidParams(`too many arguments, want at most ${max}`);
}

/**
 * An EIP-2930 access list: a list of {address, storageKeys: [32-byte keys]}, each entry named in
 * errors; returned in the node's form (lowercase).
 */
export function parseAccessList(value: unknown, index: number, name = 'accessList'): AccessList {
  if (!Array.isArray(value)) throw invalidParams(`${argName(index)}: ${name} must be a list of {address, storageKeys}`);
  return value.map((entry, i) => {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw invalidParams(`${argName(index)}: ${name}[${i}] must be an object {address, storageKeys}`);
    const { address, storageKeys } = entry as Record<string, unknown>;
    if (!Array.isArray(storageKeys)) throw invalidParams(`${argName(index)}: ${name}[${i}].storageKeys must be a list of 32-byte hex keys`);
    return {
      address: parseAddress(address, index, `${name}[${i}].address`).toLowerCase(),
      storageKeys: storageKeys.map((key, k) => parseHash(key, index, `${name}[${i}].storageKeys[${k}]`).toLowerCase()),
    };
  });
}
