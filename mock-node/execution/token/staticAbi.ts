// The ABI of the token's hot functions without the ABI coder: calls whose arguments are all
// static words (transfer, approve, balanceOf, the authorizations with v, r, s ...) are read word
// by word, and single-word results written directly. Same outcome as ethers' decodeFunctionData /
// encodeFunctionResult for every input (a unit test compares them): the same calldata is refused
// (bad hex, too short, an address with bits above 160), addresses and bytes32 come back lowercase
// (the handlers lowercase what ethers checksums). Anything else goes to calldata.ts.
import type { Hex } from '../nativeContract';

export type StaticType = 'address' | 'uint256' | 'uint8' | 'bytes32' | 'bool';

const DECODABLE = new Set<string>(['address', 'uint256', 'uint8', 'bytes32']);
const ENCODABLE = new Set<string>(['address', 'uint256', 'uint8', 'bytes32', 'bool']);

/** The parameters' types when every one is a static word this module reads (or writes), else undefined. */
export function staticTypes(params: readonly { readonly type: string }[], direction: 'decode' | 'encode'): StaticType[] | undefined {
  return staticWordTypes(params.map((param) => param.type), direction);
}

/** The same over the types themselves. */
export function staticWordTypes(types: readonly string[], direction: 'decode' | 'encode'): StaticType[] | undefined {
  const known = direction === 'decode' ? DECODABLE : ENCODABLE;
  return types.every((type) => known.has(type)) ? (types.slice() as StaticType[]) : undefined;
}

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;
const ZERO_HIGH_BYTES = '0'.repeat(24);

/** The arguments of calldata (selector included) of static words; undefined when the ABI coder would refuse it. */
export function decodeStaticArgs(types: readonly StaticType[], data: Hex): unknown[] | undefined {
  if (data.length < 10 + 64 * types.length || !HEX_BYTES.test(data)) return undefined;
  const values: unknown[] = new Array(types.length);
  for (let i = 0; i < types.length; i++) {
    const word = data.slice(10 + 64 * i, 74 + 64 * i).toLowerCase();
    switch (types[i]) {
      case 'address':
        if (!word.startsWith(ZERO_HIGH_BYTES)) return undefined;
        values[i] = '0x' + word.slice(24);
        break;
      case 'uint256':
        values[i] = BigInt('0x' + word);
        break;
      case 'uint8':
        values[i] = BigInt('0x' + word.slice(62));
        break;
      case 'bytes32':
        values[i] = '0x' + word;
        break;
      default:
        return undefined;
    }
  }
  return values;
}

const MAX_UINT256 = (1n << 256n) - 1n;
const ADDRESS = /^0x[0-9a-f]{40}$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/** Results of static words as return data; undefined when a value is not what the type takes (ethers then decides). */
export function encodeStaticResult(types: readonly StaticType[], values: readonly unknown[]): Hex | undefined {
  if (values.length !== types.length) return undefined;
  let out = '0x';
  for (let i = 0; i < types.length; i++) {
    const value = values[i];
    switch (types[i]) {
      case 'bool':
        if (typeof value !== 'boolean') return undefined;
        out += value ? '0'.repeat(63) + '1' : '0'.repeat(64);
        break;
      case 'uint256':
      case 'uint8': {
        const limit = types[i] === 'uint8' ? 255n : MAX_UINT256;
        if (typeof value !== 'bigint' || value < 0n || value > limit) return undefined;
        out += value.toString(16).padStart(64, '0');
        break;
      }
      case 'address':
        if (typeof value !== 'string' || !ADDRESS.test(value)) return undefined;
        out += ZERO_HIGH_BYTES + value.slice(2).toLowerCase();
        break;
      case 'bytes32':
        if (typeof value !== 'string' || !BYTES32.test(value)) return undefined;
        out += value.slice(2).toLowerCase();
        break;
      default:
        return undefined;
    }
  }
  return out;
}
