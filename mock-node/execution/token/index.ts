// The built-in EIP-3009 stable-value token (USDC-compatible) as a native contract. What clients
// share with it (ABI, typed data, slots, signature rules, units) is the token kit, mock-node/tokenKit.
import type { NativeContract } from '../nativeContract';
import type { TokenOptions } from '../../options';
import { StableToken } from './contract';

export { TokenState, readString, writeString } from './storage';
export { StableToken, STABLE_TOKEN_CODE } from './contract';
export { stableTokenInterface } from './tokenInterface';

/**
 * The token as a native contract, deployed at `options.address` at genesis. `owner` (lowercase
 * hex, dev account 0) is owner, pauser, blacklister, master minter and a minter.
 */
export function createStableToken(options: TokenOptions, owner: string): NativeContract & StableToken {
  return new StableToken(options, owner.toLowerCase());
}
