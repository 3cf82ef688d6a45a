// Where the token keeps its state: FiatToken v2.2's storage layout, slot for slot, so that
// eth_getStorageAt on the token answers exactly as it would on USDC. Everything here reads and
// writes 256-bit words through a ContractStorage; nothing is cached outside storage.
import { getBytes, keccak256, toBeHex, toUtf8Bytes, toUtf8String } from 'ethers';
import type { ContractStorage, Hex } from '../nativeContract';
import { BLACKLIST_FLAG, MAX_BALANCE, TOKEN_SLOTS } from '../../tokenKit/index';
import { allowanceSlot, authorizationStateSlot, balanceSlot, minterAllowedSlot, minterSlot, permitNonceSlot } from './slots';

export const MAX_UINT256 = (1n << 256n) - 1n;
const ADDRESS_MASK = (1n << 160n) - 1n;
/** Byte 20 of a packed slot (the bool after an address). */
const PACKED_BOOL = 1n << 160n;

function word(value: bigint): Hex {
  return toBeHex(value, 32);
}

export function addressToWord(address: Hex): bigint {
  return BigInt(address);
}

export function wordToAddress(value: bigint): Hex {
  return '0x' + (value & ADDRESS_MASK).toString(16).padStart(40, '0');
}

/**
 * Writes a string as Solidity stores `string` state variables: under 32 bytes, the data
 * left-aligned in the slot with length*2 in the lowest byte; otherwise length*2+1 in the slot and
 * the data in consecutive slots from keccak256(pad32(slot)).
 */
export function writeString(storage: ContractStorage, slot: bigint, value: string): void {
  const bytes = toUtf8Bytes(value);
  if (bytes.length < 32) {
    const padded = new Uint8Array(32);
    padded.set(bytes);
    padded[31] = bytes.length * 2;
    storage.set(slot, BigInt('0x' + Buffer.from(padded).toString('hex')));
    return;
  }
  storage.set(slot, BigInt(bytes.length * 2 + 1));
  const base = BigInt(keccak256(word(slot)));
  for (let i = 0; i * 32 < bytes.length; i++) {
    const chunk = new Uint8Array(32);
    chunk.set(bytes.subarray(i * 32, i * 32 + 32));
    storage.set(base + BigInt(i), BigInt('0x' + Buffer.from(chunk).toString('hex')));
  }
}

/** Reads a string stored by `writeString` (Solidity's encoding). */
export function readString(storage: ContractStorage, slot: bigint): string {
  const head = storage.get(slot);
  if ((head & 1n) === 0n) {
    const length = Number((head & 0xffn) / 2n);
    return toUtf8String(getBytes(toBeHex(head, 32)).subarray(0, length));
  }
  const length = Number((head - 1n) / 2n);
  const base = BigInt(keccak256(word(slot)));
  const bytes = new Uint8Array(Math.ceil(length / 32) * 32);
  for (let i = 0; i * 32 < length; i++) bytes.set(getBytes(toBeHex(storage.get(base + BigInt(i)), 32)), i * 32);
  return toUtf8String(bytes.subarray(0, length));
}

/** Typed access to the token's variables over its raw storage. Addresses are lowercase hex. */
export class TokenState {
  constructor(readonly storage: ContractStorage) {}

  owner(): Hex {
    return wordToAddress(this.storage.get(TOKEN_SLOTS.owner));
  }

  pauser(): Hex {
    return wordToAddress(this.storage.get(TOKEN_SLOTS.pauserAndPaused));
  }

  paused(): boolean {
    return (this.storage.get(TOKEN_SLOTS.pauserAndPaused) & PACKED_BOOL) !== 0n;
  }

  setPaused(paused: boolean): void {
    const current = this.storage.get(TOKEN_SLOTS.pauserAndPaused);
    this.storage.set(TOKEN_SLOTS.pauserAndPaused, paused ? current | PACKED_BOOL : current & ~PACKED_BOOL);
  }

  blacklister(): Hex {
    return wordToAddress(this.storage.get(TOKEN_SLOTS.blacklister));
  }

  masterMinter(): Hex {
    return wordToAddress(this.storage.get(TOKEN_SLOTS.masterMinterAndInitialized));
  }

  name(): string {
    return readString(this.storage, TOKEN_SLOTS.name);
  }

  symbol(): string {
    return readString(this.storage, TOKEN_SLOTS.symbol);
  }

  currency(): string {
    return readString(this.storage, TOKEN_SLOTS.currency);
  }

  decimals(): bigint {
    return this.storage.get(TOKEN_SLOTS.decimals) & 0xffn;
  }

  totalSupply(): bigint {
    return this.storage.get(TOKEN_SLOTS.totalSupply);
  }

  setTotalSupply(value: bigint): void {
    this.storage.set(TOKEN_SLOTS.totalSupply, value);
  }

  /** The balance: the low 255 bits of the balance slot. */
  balanceOf(account: Hex): bigint {
    return this.storage.get(balanceSlot(account)) & MAX_BALANCE;
  }

  isBlacklisted(account: Hex): boolean {
    return (this.storage.get(balanceSlot(account)) & BLACKLIST_FLAG) !== 0n;
  }

  /** Writes the balance, keeping the blocklist flag as it is. */
  setBalanceKeepingFlag(account: Hex, balance: bigint): void {
    const slot = balanceSlot(account);
    this.storage.set(slot, (this.storage.get(slot) & BLACKLIST_FLAG) | balance);
  }

  setBlacklisted(account: Hex, blocked: boolean): void {
    const slot = balanceSlot(account);
    const current = this.storage.get(slot);
    this.storage.set(slot, blocked ? current | BLACKLIST_FLAG : current & MAX_BALANCE);
  }

  allowance(owner: Hex, spender: Hex): bigint {
    return this.storage.get(allowanceSlot(owner, spender));
  }

  setAllowance(owner: Hex, spender: Hex, value: bigint): void {
    this.storage.set(allowanceSlot(owner, spender), value);
  }

  authorizationState(authorizer: Hex, nonce: Hex): boolean {
    return this.storage.get(authorizationStateSlot(authorizer, nonce)) !== 0n;
  }

  markAuthorization(authorizer: Hex, nonce: Hex): void {
    this.storage.set(authorizationStateSlot(authorizer, nonce), 1n);
  }

  permitNonce(owner: Hex): bigint {
    return this.storage.get(permitNonceSlot(owner));
  }

  setPermitNonce(owner: Hex, value: bigint): void {
    this.storage.set(permitNonceSlot(owner), value);
  }

  isMinter(account: Hex): boolean {
    return this.storage.get(minterSlot(account)) !== 0n;
  }

  minterAllowance(account: Hex): bigint {
    return this.storage.get(minterAllowedSlot(account));
  }

  setMinterAllowance(account: Hex, value: bigint): void {
    this.storage.set(minterAllowedSlot(account), value);
  }

  setMinter(account: Hex, minter: boolean): void {
    this.storage.set(minterSlot(account), minter ? 1n : 0n);
  }

  // Solidity writes an address variable by reading its slot and keeping the other 12 bytes, so
  // every address setter reads before it writes (the SSTORE is then warm, as on USDC).
  setOwner(owner: Hex): void {
    this.setPackedAddress(TOKEN_SLOTS.owner, owner);
  }

  /** Writes the pauser, keeping `paused` (byte 20 of the same slot). */
  setPauser(pauser: Hex): void {
    this.setPackedAddress(TOKEN_SLOTS.pauserAndPaused, pauser);
  }

  setBlacklister(blacklister: Hex): void {
    this.setPackedAddress(TOKEN_SLOTS.blacklister, blacklister);
  }

  /** Writes the master minter, keeping `initialized` (byte 20 of the same slot). */
  setMasterMinter(masterMinter: Hex): void {
    this.setPackedAddress(TOKEN_SLOTS.masterMinterAndInitialized, masterMinter);
  }

  /** v1's `initialized` flag, packed after the master minter. */
  initialized(): boolean {
    return (this.storage.get(TOKEN_SLOTS.masterMinterAndInitialized) & PACKED_BOOL) !== 0n;
  }

  /** v2's `_initializedVersion` (3 after initializeV2_2). */
  initializedVersion(): bigint {
    return this.storage.get(TOKEN_SLOTS.initializedVersion) & 0xffn;
  }

  rescuer(): Hex {
    return wordToAddress(this.storage.get(TOKEN_SLOTS.rescuer));
  }

  setRescuer(rescuer: Hex): void {
    this.setPackedAddress(TOKEN_SLOTS.rescuer, rescuer);
  }

  private setPackedAddress(slot: bigint, address: Hex): void {
    const current = this.storage.get(slot);
    this.storage.set(slot, (current & ~ADDRESS_MASK) | addressToWord(address));
  }
}

/** Packs an address with a bool in byte 20, as Solidity packs `address x; bool y;` into one slot. */
export function packAddressAndBool(address: Hex, flag: boolean): bigint {
  return addressToWord(address) | (flag ? PACKED_BOOL : 0n);
}
