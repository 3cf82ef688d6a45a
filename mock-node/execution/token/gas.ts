// Execution gas for the native token, modelled on what FiatToken v2.2 costs behind its proxy on
// a post-Berlin EVM: a fixed overhead per call (proxy SLOAD + DELEGATECALL + dispatch), the
// EIP-2929/EIP-2200 storage costs of the slots actually touched (cold/warm reads, set vs reset
// writes), ecrecover and hashing, and LOG costs. Refunds for cleared slots are not modelled.
// The result is deterministic for a given state, like the EVM's, and lands where USDC does
// (a transfer to an existing holder about 40k gas in total, transferWithAuthorization about 70k).
import type { ContractStorage } from '../nativeContract';

export const GAS = {
  /** Proxy: cold SLOAD of the implementation slot, cold DELEGATECALL, calldata copy, dispatch. */
  callOverhead: 5_200n,
  /** Extra work of a state-changing function (memory, ABI encoding, modifiers' jumps). */
  writeFunction: 1_000n,
  /** Extra work of a view. */
  viewFunction: 300n,
  /** ecrecover precompile plus the ABI encoding and hashing around it. */
  signatureCheck: 4_000n,
  /** Domain separator and struct hashing (keccak of the type data). */
  typedDataHash: 600n,
  coldSload: 2_100n,
  warmAccess: 100n,
  sstoreSet: 20_000n,
  sstoreReset: 2_900n,
  log: 375n,
  logTopic: 375n,
  logDataByte: 8n,
} as const;

/** Wraps a contract's storage and counts what each access would cost in the EVM. */
export class MeteredStorage implements ContractStorage {
  gas = 0n;
  private readonly warm = new Set<bigint>();
  private readonly original = new Map<bigint, bigint>();

  constructor(private readonly inner: ContractStorage) {}

  private touch(slot: bigint): bigint {
    const value = this.inner.get(slot);
    if (!this.warm.has(slot)) {
      this.warm.add(slot);
      this.original.set(slot, value);
      this.gas += GAS.coldSload;
    }
    return value;
  }

  get(slot: bigint): bigint {
    const wasWarm = this.warm.has(slot);
    const value = this.touch(slot);
    if (wasWarm) this.gas += GAS.warmAccess;
    return value;
  }

  set(slot: bigint, value: bigint): void {
    const current = this.touch(slot);
    const original = this.original.get(slot) ?? current;
    if (value === current || current !== original) this.gas += GAS.warmAccess;
    else this.gas += original === 0n ? GAS.sstoreSet : GAS.sstoreReset;
    this.inner.set(slot, value);
  }
}

export function logGas(topics: number, dataBytes: number): bigint {
  return GAS.log + GAS.logTopic * BigInt(topics) + GAS.logDataByte * BigInt(dataBytes);
}
