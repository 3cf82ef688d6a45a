// The built-in EIP-3009 stable-value token (USDC-compatible) and everything clients share with it.
import type { NativeContract } from '../nativeContract';
import type { TokenOptions } from '../../options';
import { StableToken } from './contract';

export * from './abi';
export {
  BLACKLIST_FLAG,
  MAX_BALANCE,
  TokenState,
  allowanceSlot,
  authorizationStateSlot,
  balanceSlot,
  mappingSlot,
  permitNonceSlot,
  readString,
  writeString,
} from './storage';
export { StableToken, STABLE_TOKEN_CODE, STABLE_TOKEN_INTERFACE } from './contract';

/**
 * The token as a native contract, deployed at `options.address` at genesis. `owner` (lowercase
 * hex, dev account 0) is owner, pauser, blacklister, master minter and a minter.
 */
export function createStableToken(options: TokenOptions, owner: string): NativeContract & StableToken {
  return new StableToken(options, owner.toLowerCase());
}
