// Parsing of JSON-RPC params: quantities, data, addresses, hashes, block tags and EIP-1898
// block objects. Every parser throws -32602 with a message that names the argument.
import { invalidParams } from './errors';
import type { Hex } from '../chain/hex';

export type BlockTag = 'latest' | 'pending' | 'safe' | 'finalized' | 'earliest';
export const BLOCK_TAGS: readonly BlockTag[] = ['latest', 'pending', 'safe', 'finalized', 'earliest'];

export type BlockSelector =
  | { kind: 'tag'; tag: BlockTag }
  | { kind: 'number'; number: bigint }
  | { kind: 'hash'; hash: Hex; requireCanonical: boolean };

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/i;
const DATA = /^0x([0-9a-f]{2})*$/i;

function argName(index: number): string {
  return `invalid argument ${index}`;
}

export function parseQuantity(value: unknown, index: number, name = 'quantity'): bigint {
  if (typeof value !== 'string') throw invalidParams(`${argName(index)}: ${name} must be a hex string`);
  if (!value.startsWith('0x') && !value.startsWith('0X')) throw invalidParams(`${argName(index)}: hex string without 0x prefix`);
  if (value.length === 2) throw invalidParams(`${argName(index)}: hex string "0x"`);
  if (!/^0x[0-9a-f]+$/i.test(value)) throw invalidParams(`${argName(index)}: invalid hex string`);
  if (!QUANTITY.test(value)) throw invalidParams(`${argName(index)}: hex number with leading zero digits`);
  if (value.length > 66) throw invalidParams(`${argName(index)}: hex number > 256 bits`);
  return BigInt(value);
}

export function parseOptionalQuantity(value: unknown, index: number, name?: string): bigint | undefined {
  return value === undefined || value === null ? undefined : parseQuantity(value, index, name);
}

export function parseData(value: unknown, index: number, name = 'data'): Hex {
  if (typeof value !== 'string' || !DATA.test(value)) throw invalidParams(`${argName(index)}: ${name} must be 0x-prefixed hex bytes`);
  return value.toLowerCase();
}

export function parseAddress(value: unknown, index: number, name = 'address'): Hex {
  if (typeof value !== 'string' || !/^0x[0-9a-f]{40}$/i.test(value)) {
    throw invalidParams(`${argName(index)}: ${name} must be a 20-byte hex address`);
  }
  return value.toLowerCase();
}

export function parseHash(value: unknown, index: number, name = 'hash'): Hex {
  if (typeof value !== 'string' || !/^0x[0-9a-f]{64}$/i.test(value)) {
    throw invalidParams(`${argName(index)}: ${name} must be a 32-byte hex string`);
  }
  return value.toLowerCase();
}

export function parseBoolean(value: unknown, index: number, name = 'flag'): boolean {
  if (typeof value !== 'boolean') throw invalidParams(`${argName(index)}: ${name} must be a boolean`);
  return value;
}

/** A storage slot: any hex integer up to 32 bytes (leading zeros allowed, as clients send them padded). */
export function parseSlot(value: unknown, index: number): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-f]{1,64}$/i.test(value)) {
    throw invalidParams(`${argName(index)}: storage slot must be a hex integer of at most 32 bytes`);
  }
  return BigInt(value);
}

/**
 * A block parameter: tag, hex number, a block hash (64 hex digits: the spec's
 * BlockNumberOrTagOrHash, as geth and Anvil read it), or an EIP-1898 object.
 */
export function parseBlockSelector(value: unknown, index: number): BlockSelector {
  if (typeof value === 'string') {
    if ((BLOCK_TAGS as readonly string[]).includes(value)) return { kind: 'tag', tag: value as BlockTag };
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
