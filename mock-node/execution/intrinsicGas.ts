// Intrinsic gas of a transaction, before execution (yellow paper, EIP-2028 calldata, EIP-2930
// access lists, a creation's 32,000 and EIP-3860's initcode words), and the EIP-7623 calldata
// floor of Prague and later: the rules of Anvil 1.7.1's default hardfork (Osaka, reported as BPO1).
import { getBytes } from 'ethers';
import type { AccessList } from '../encoding/records';
import type { Hex } from '../encoding/hex';

export const TX_BASE_GAS = 21_000n;
const ZERO_BYTE_GAS = 4n;
const NONZERO_BYTE_GAS = 16n;
const ACCESS_LIST_ADDRESS_GAS = 2_400n;
const ACCESS_LIST_SLOT_GAS = 1_900n;
/** EIP-7623: a zero byte is one token, a non-zero byte four; each token costs at least 10 gas. */
const FLOOR_GAS_PER_TOKEN = 10n;
const NONZERO_BYTE_TOKENS = 4n;

const HEX_DIGITS = /^0x[0-9a-fA-F]*$/;
/** The last input counted: a transaction's calldata is counted at intake and again when it runs. */
let lastInput: Hex | undefined;
let lastTokens = { zero: 0n, nonZero: 0n };

/** Zero and non-zero bytes of calldata, counted on the hex text itself (no bytes, no BigInt per byte). */
function calldataTokens(input: Hex): { zero: bigint; nonZero: bigint } {
  if (input === lastInput) return lastTokens;
  // Anything but whole bytes of hex: getBytes says what is wrong, as it always did.
  if (input.length % 2 !== 0 || !HEX_DIGITS.test(input)) getBytes(input);
  let zero = 0;
  for (let i = 2; i < input.length; i += 2) if (input.charCodeAt(i) === 48 && input.charCodeAt(i + 1) === 48) zero++;
  const tokens = { zero: BigInt(zero), nonZero: BigInt((input.length - 2) / 2 - zero) };
  lastInput = input;
  lastTokens = tokens;
  return tokens;
}

/** The gas a transaction pays before it runs: base, calldata and access list. */
export function intrinsicGas(input: Hex, accessList: AccessList | null): bigint {
  const { zero, nonZero } = calldataTokens(input);
  let gas = TX_BASE_GAS + zero * ZERO_BYTE_GAS + nonZero * NONZERO_BYTE_GAS;
  for (const entry of accessList ?? []) {
    gas += ACCESS_LIST_ADDRESS_GAS + ACCESS_LIST_SLOT_GAS * BigInt(entry.storageKeys.length);
  }
  return gas;
}

/** EIP-7623's floor: a transaction uses at least 21,000 + 10 gas per calldata token, whatever it executes. */
export function calldataFloorGas(input: Hex): bigint {
  const { zero, nonZero } = calldataTokens(input);
  return TX_BASE_GAS + FLOOR_GAS_PER_TOKEN * (zero + NONZERO_BYTE_TOKENS * nonZero);
}

const CREATE_GAS = 32_000n;
/** EIP-3860: 2 gas per 32-byte word of initcode. */
const INITCODE_WORD_GAS = 2n;
/** EIP-3860: initcode is at most 49,152 bytes (twice EIP-170's code size limit). */
export const MAX_INITCODE_SIZE = 49_152;

/** Intrinsic gas of a transaction to `to`, or of a creation (`to` null, the input is initcode). */
export function transactionIntrinsicGas(to: Hex | null, input: Hex, accessList: AccessList | null | undefined): bigint {
  let gas = intrinsicGas(input, accessList ?? null);
  if (to === null) gas += CREATE_GAS + INITCODE_WORD_GAS * BigInt(Math.ceil((input.length - 2) / 2 / 32));
  return gas;
}
