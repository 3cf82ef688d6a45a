// The token's calldata and return data without an ABI library, for every type its ABI uses.
// Arguments of static words only go through staticAbi.ts (the hot functions); the others (a
// `bytes` signature, the initializers' strings and address[]) are read here with the rules of
// ethers' decodeFunctionData, which the node followed so far (a unit test compares the two on
// random and malformed calldata):
// - what ethers refuses (a word or a length beyond the data, an offset past 2^53) is refused;
// - what ethers reads but defers as an error until the value is used (an address with bits above
//   160, a length past 2^53, a string that is not UTF-8) is an UnreadableArgument, thrown when a
//   handler uses that argument; a handler that never uses it runs as before.
import type { Hex } from '../nativeContract';
import { decodeStaticArgs, encodeStaticResult, staticWordTypes, type StaticType } from './staticAbi';

export type AbiType = StaticType | 'bytes' | 'string' | 'address[]';

const ABI_TYPES: ReadonlySet<string> = new Set<AbiType>(['address', 'uint256', 'uint8', 'bytes32', 'bool', 'bytes', 'string', 'address[]']);

export function isAbiType(type: string): type is AbiType {
  return ABI_TYPES.has(type);
}

/** An argument the calldata holds but that has no value of its type (ethers' deferred decoding error). */
export class UnreadableArgument extends Error {
  constructor(
    readonly index: number,
    why: string,
  ) {
    super(`argument ${index} cannot be read: ${why}`);
  }
}

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;
const WORD = 32;
const MAX_INDEX = BigInt(Number.MAX_SAFE_INTEGER);
const ZERO_HIGH_BYTES = '0'.repeat(24);
const REFUSED = Symbol('refused');
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** How one function's calldata is read and its results written, chosen once per function. */
export interface FunctionCodec {
  /** The arguments of calldata (selector included); undefined when the ABI coder refuses it. */
  decode(data: Hex): unknown[] | undefined;
  /** Return data of the handler's values; throws when a value is not of its type (as the ABI coder does). */
  encode(values: readonly unknown[]): Hex;
}

export function functionCodec(inputs: readonly AbiType[], outputs: readonly AbiType[]): FunctionCodec {
  const inputWords = staticWordTypes(inputs, 'decode');
  const outputWords = staticWordTypes(outputs, 'encode');
  return {
    decode: inputWords ? (data) => decodeStaticArgs(inputWords, data) : (data) => decodeWithDynamic(inputs, data),
    encode: outputs.length === 0 ? () => '0x' : outputWords ? (values) => encodeWords(outputWords, values) : (values) => encodeWithDynamic(outputs, values),
  };
}

/** The arguments of calldata of these types (selector included); undefined when the ABI coder refuses it. */
export function decodeArguments(types: readonly AbiType[], data: Hex): unknown[] | undefined {
  return functionCodec(types, []).decode(data);
}

/** Return data of `values`; throws when a value is not of its type. */
export function encodeResults(types: readonly AbiType[], values: readonly unknown[]): Hex {
  if (values.length !== types.length) throw new Error(`${values.length} values for ${types.length} results`);
  return functionCodec([], types).encode(values);
}

function encodeWords(types: readonly StaticType[], values: readonly unknown[]): Hex {
  const encoded = encodeStaticResult(types, values);
  if (encoded === undefined) throw new Error(`a result is not of its type (${types.join(',')})`);
  return encoded;
}

function decodeWithDynamic(types: readonly AbiType[], data: Hex): unknown[] | undefined {
  if (data.length < 10 || !HEX_BYTES.test(data)) return undefined;
  const body = Buffer.from(data.slice(10), 'hex');
  const values: unknown[] = new Array(types.length);
  let unreadable = false;
  for (let i = 0; i < types.length; i++) {
    const at = i * WORD;
    if (at + WORD > body.length) return undefined;
    const word = body.toString('hex', at, at + WORD);
    const type = types[i];
    let value: unknown;
    if (type === 'bytes' || type === 'string' || type === 'address[]') {
      const offset = BigInt('0x' + word);
      if (offset > MAX_INDEX) return undefined;
      value = readDynamic(type, body.subarray(Math.min(Number(offset), body.length)), i);
      if (value === REFUSED) return undefined;
    } else {
      value = readStaticWord(type, word, i);
    }
    if (value instanceof UnreadableArgument) unreadable = true;
    values[i] = value;
  }
  return unreadable ? throwingOnUse(values) : values;
}

/** One static word as its type's value (addresses and bytes32 lowercase). */
function readStaticWord(type: StaticType, word: string, index: number): unknown {
  switch (type) {
    case 'address':
      return word.startsWith(ZERO_HIGH_BYTES) ? '0x' + word.slice(24) : new UnreadableArgument(index, 'an address with bits above 160');
    case 'uint256':
      return BigInt('0x' + word);
    case 'uint8':
      return BigInt('0x' + word.slice(62));
    case 'bytes32':
      return '0x' + word;
    case 'bool':
      return BigInt('0x' + word) !== 0n;
  }
}

/** A dynamic value at its offset (`tail` runs from there to the end of the arguments). */
function readDynamic(type: 'bytes' | 'string' | 'address[]', tail: Buffer, index: number): unknown {
  if (tail.length < WORD) return REFUSED;
  const count = BigInt('0x' + tail.toString('hex', 0, WORD));
  if (count > MAX_INDEX) return new UnreadableArgument(index, 'a length past 2^53');
  const n = Number(count);
  if (type === 'address[]') {
    if (n * WORD > tail.length) return REFUSED;
    const addresses: unknown[] = new Array(n);
    for (let k = 0; k < n; k++) {
      const at = WORD + k * WORD;
      if (at + WORD > tail.length) return REFUSED;
      addresses[k] = readStaticWord('address', tail.toString('hex', at, at + WORD), index);
    }
    return addresses;
  }
  if (WORD + Math.ceil(n / WORD) * WORD > tail.length) return REFUSED;
  const bytes = tail.subarray(WORD, WORD + n);
  if (type === 'bytes') return '0x' + bytes.toString('hex');
  try {
    return utf8.decode(bytes);
  } catch {
    return new UnreadableArgument(index, 'a string that is not UTF-8');
  }
}

/** The arguments, each unreadable one thrown when a handler uses it. */
function throwingOnUse(values: unknown[]): unknown[] {
  return new Proxy(values, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (value instanceof UnreadableArgument) throw value;
      return value;
    },
  });
}

function encodeWithDynamic(types: readonly AbiType[], values: readonly unknown[]): Hex {
  if (values.length !== types.length) throw new Error(`the token returned ${values.length} values for ${types.length} results`);
  let head = '';
  let tail = '';
  const headSize = types.length * WORD;
  for (let i = 0; i < types.length; i++) {
    const type = types[i];
    if (type === 'string' || type === 'bytes') {
      head += wordOf(BigInt(headSize + tail.length / 2));
      tail += dynamicBytes(type, values[i]);
    } else if (type === 'address[]') {
      throw new Error('the token returns no address[]');
    } else {
      const word = encodeStaticResult([type], [values[i]]);
      if (word === undefined) throw new Error(`result ${i} is not a ${type}`);
      head += word.slice(2);
    }
  }
  return '0x' + head + tail;
}

function wordOf(value: bigint): string {
  return value.toString(16).padStart(64, '0');
}

/** A string or bytes value as its length word and its bytes padded to whole words (hex, no 0x). */
function dynamicBytes(type: 'string' | 'bytes', value: unknown): string {
  let bytes: Buffer;
  if (type === 'string') {
    if (typeof value !== 'string') throw new Error('a string result is not a string');
    bytes = utf8Bytes(value);
  } else {
    if (typeof value !== 'string' || !HEX_BYTES.test(value)) throw new Error('a bytes result is not 0x-hex bytes');
    bytes = Buffer.from(value.slice(2), 'hex');
  }
  const padded = Math.ceil(bytes.length / WORD) * WORD * 2;
  return wordOf(BigInt(bytes.length)) + bytes.toString('hex').padEnd(padded, '0');
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * A string's UTF-8 bytes as the ABI coder writes them: a high surrogate without its low half is
 * refused, a low surrogate alone is written as its own three bytes (not replaced).
 */
function utf8Bytes(value: string): Buffer {
  if (!SURROGATE.test(value)) return Buffer.from(value, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const low = value.charCodeAt(i + 1);
      if (!(low >= 0xdc00 && low <= 0xdfff)) throw new Error('a string result has a high surrogate without its low half');
      out.push(...Buffer.from(value.slice(i, i + 2), 'utf8'));
      i++;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      out.push(0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f));
    } else {
      out.push(...Buffer.from(value[i], 'utf8'));
    }
  }
  return Buffer.from(out);
}
