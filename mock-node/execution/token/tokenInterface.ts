// The token's ABI as an ethers Interface, for clients and tests that encode calls to the token
// (the node itself reads calldata with calldata.ts and functionTable.ts, without ethers).
import { Interface } from 'ethers';
import { STABLE_TOKEN_ABI } from '../../tokenKit/index';

let tokenInterface: Interface | undefined;
/** The token's ABI as an ethers Interface, parsed on first use. */
export function stableTokenInterface(): Interface {
  return (tokenInterface ??= new Interface(STABLE_TOKEN_ABI as unknown as string[]));
}
