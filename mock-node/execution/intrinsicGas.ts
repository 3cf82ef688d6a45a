// Intrinsic gas of a transaction (yellow paper, EIP-2028, EIP-2930), before execution.
import { getBytes } from 'ethers';
import type { AccessList } from '../chain/types';
import type { Hex } from '../chain/hex';

export const TX_BASE_GAS = 21_000n;
const ZERO_BYTE_GAS = 4n;
const NONZERO_BYTE_GAS = 16n;
const ACCESS_LIST_ADDRESS_GAS = 2_400n;
const ACCESS_LIST_SLOT_GAS = 1_900n;

export function intrinsicGas(input: Hex, accessList: AccessList | null): bigint {
  let gas = TX_BASE_GAS;
  for (const byte of getBytes(input)) gas += byte === 0 ? ZERO_BYTE_GAS : NONZERO_BYTE_GAS;
  for (const entry of accessList ?? []) {
    gas += ACCESS_LIST_ADDRESS_GAS + ACCESS_LIST_SLOT_GAS * BigInt(entry.storageKeys.length);
  }
  return gas;
}
