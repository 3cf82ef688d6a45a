// Where FiatToken v2.2 keeps its variables: the slot of each state variable and of each mapping
// entry (keccak256(pad32(key) ++ pad32(slot))), so that eth_getStorageAt reads on the built-in
// token and on USDC are the same reads.
import { concat, toBeHex, zeroPadValue } from 'ethers/utils';
import { keccak256 } from 'ethers/crypto';

/** Storage slots of FiatToken v2.2, where the built-in token keeps the same variables. */
export const TOKEN_SLOTS = {
  owner: 0n,
  /** pauser in the low 20 bytes, `paused` in byte 20. */
  pauserAndPaused: 1n,
  blacklister: 2n,
  deprecatedBlacklisted: 3n,
  name: 4n,
  symbol: 5n,
  decimals: 6n,
  currency: 7n,
  /** masterMinter in the low 20 bytes, `initialized` in byte 20. */
  masterMinterAndInitialized: 8n,
  /** mapping(address => uint256); bit 255 is the blocklist flag. */
  balanceAndBlacklistStates: 9n,
  /** mapping(owner => mapping(spender => uint256)). */
  allowed: 10n,
  totalSupply: 11n,
  /** mapping(address => bool). */
  minters: 12n,
  /** mapping(address => uint256). */
  minterAllowed: 13n,
  rescuer: 14n,
  deprecatedCachedDomainSeparator: 15n,
  /** mapping(authorizer => mapping(bytes32 nonce => bool)). */
  authorizationStates: 16n,
  /** mapping(address => uint256). */
  permitNonces: 17n,
  initializedVersion: 18n,
} as const;

/** Bit 255 of a balance slot: the v2.2 blocklist flag. */
export const BLACKLIST_FLAG = 1n << 255n;
/** The largest balance a v2.2 balance slot can hold (2^255 - 1); a balance is the slot's low 255 bits. */
export const MAX_BALANCE = BLACKLIST_FLAG - 1n;

/** A slot number or a key as a 32-byte word. */
function word(value: bigint | string): string {
  return typeof value === 'bigint' ? toBeHex(value, 32) : zeroPadValue(value, 32);
}

/** Slot of `mapping[key]` for a mapping declared at `slot`: keccak256(pad32(key) ++ pad32(slot)). */
export function mappingSlot(key: bigint | string, slot: bigint): bigint {
  return BigInt(keccak256(concat([word(key), word(slot)])));
}

/** Slot of `balanceAndBlacklistStates[account]` (slot 9): balance in bits 0-254, blocklist flag in bit 255. */
export function balanceSlot(account: string): bigint {
  return mappingSlot(account, TOKEN_SLOTS.balanceAndBlacklistStates);
}

/** Slot of `allowed[owner][spender]` (slot 10). */
export function allowanceSlot(owner: string, spender: string): bigint {
  return mappingSlot(spender, mappingSlot(owner, TOKEN_SLOTS.allowed));
}

/** Slot of `_authorizationStates[authorizer][nonce]` (slot 16). */
export function authorizationStateSlot(authorizer: string, nonce: string): bigint {
  return mappingSlot(nonce, mappingSlot(authorizer, TOKEN_SLOTS.authorizationStates));
}

/** Slot of `_permitNonces[owner]` (slot 17). */
export function permitNonceSlot(owner: string): bigint {
  return mappingSlot(owner, TOKEN_SLOTS.permitNonces);
}

/** Slot of `minters[account]` (slot 12). */
export function minterSlot(account: string): bigint {
  return mappingSlot(account, TOKEN_SLOTS.minters);
}

/** Slot of `minterAllowed[account]` (slot 13). */
export function minterAllowedSlot(account: string): bigint {
  return mappingSlot(account, TOKEN_SLOTS.minterAllowed);
}

/** A slot as eth_getStorageAt's position parameter: 0x-prefixed, minimal hex (`0xb`, `0x4f3a…`). */
export function slotHex(slot: bigint): string {
  return `0x${slot.toString(16)}`;
}

/**
 * The slots FiatTokenProxy (an AdminUpgradeabilityProxy) keeps outside the token's layout:
 * keccak256("org.zeppelinos.proxy.implementation") and keccak256("org.zeppelinos.proxy.admin").
 * Every call to USDC reads both before it delegates to the implementation.
 */
export const PROXY_SLOTS = {
  implementation: 0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3n,
  admin: 0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390bn,
} as const;
