// The token's functions as the node dispatches them, read from the human-readable ABI of the token
// kit without an ABI library: name, canonical signature, selector (keccak256 of the signature, with
// the node's keccak), argument and result types, and whether the function takes ETH. A unit test
// checks every entry against ethers' Interface of the same ABI.
import { STABLE_TOKEN_ABI } from '../../tokenKit/index';
import { keccak256Bytes } from '../../encoding/keccak';
import { isAbiType, type AbiType } from './calldata';

/** One function of the token's ABI. */
export interface TokenFunction {
  /** Canonical signature, e.g. `transfer(address,uint256)` (what paths and handlers are keyed by). */
  readonly signature: string;
  /** 0x + the first 4 bytes of keccak256(signature), lowercase. */
  readonly selector: string;
  readonly inputs: readonly AbiType[];
  readonly outputs: readonly AbiType[];
  readonly payable: boolean;
}

const FRAGMENT = /^function (\w+)\(([^()]*)\)((?:\s+(?:view|pure|payable|nonpayable))?)(?:\s+returns\s*\(([^()]*)\))?$/;

/** The types of a parameter list (`address to, uint256 value`): each parameter's first word. */
function parameterTypes(list: string, fragment: string): AbiType[] {
  if (list.trim() === '') return [];
  return list.split(',').map((parameter) => {
    const type = parameter.trim().split(/\s+/)[0];
    if (!isAbiType(type)) throw new Error(`the token's ABI has a parameter type the node does not decode: ${type} in ${fragment}`);
    return type;
  });
}

/** One `function …` fragment of the human-readable ABI. */
export function parseFunctionFragment(fragment: string): TokenFunction {
  const match = FRAGMENT.exec(fragment.trim());
  if (!match) throw new Error(`not a function fragment the node reads: ${fragment}`);
  const [, name, inputList, mutability, outputList] = match;
  const inputs = parameterTypes(inputList, fragment);
  const signature = `${name}(${inputs.join(',')})`;
  const hash = keccak256Bytes(Buffer.from(signature, 'utf8'));
  return {
    signature,
    selector: '0x' + Buffer.from(hash.subarray(0, 4)).toString('hex'),
    inputs,
    outputs: parameterTypes(outputList ?? '', fragment),
    payable: mutability.trim() === 'payable',
  };
}

let functions: readonly TokenFunction[] | undefined;
/** Every function of the token's ABI (the proxy's included), parsed on first use. */
export function tokenFunctions(): readonly TokenFunction[] {
  return (functions ??= STABLE_TOKEN_ABI.filter((fragment) => fragment.startsWith('function ')).map(parseFunctionFragment));
}
