// The EVM's state-dependent gas: EIP-2929 cold/warm storage and account access (with the
// EIP-2930 access list and EIP-3651 coinbase warm from the start), EIP-2200/EIP-3529 SSTORE
// costs and refunds, and EIP-150's all-but-one-64th rule, as Anvil's default hardfork (Osaka
// rules) charges them. Native contracts meter their storage and account accesses with these.
import type { ContractStorage, Hex } from './nativeContract';
import type { WarmSet } from './warmSet';
import type { ExecutionTracer } from './trace/recorder';

export const EVM_GAS = {
  coldSload: 2_100n,
  coldAccountAccess: 2_600n,
  warmAccess: 100n,
  sstoreSet: 20_000n,
  /** SSTORE of a non-zero original to a new value: 5,000 minus the cold surcharge (EIP-2929). */
  sstoreReset: 2_900n,
  /** EIP-3529: clearing a slot refunds this much. */
  sstoreClearRefund: 4_800n,
  /** EIP-2200: an SSTORE fails unless more gas than this is left. */
  sstoreSentry: 2_300n,
} as const;

/** Precompiles 0x01…0x11 and P256VERIFY (0x100, EIP-7951): warm from the start of every transaction. */
const PRECOMPILES = [...Array.from({ length: 0x11 }, (_, i) => i + 1), 0x100].map((n) => `0x${n.toString(16).padStart(40, '0')}`);
const PRECOMPILE_SET: ReadonlySet<Hex> = new Set(PRECOMPILES);

export function isPrecompile(address: Hex): boolean {
  return PRECOMPILE_SET.has(address.toLowerCase());
}

export function initialWarmSet(origin: Hex, to: Hex, coinbase: Hex, accessList: readonly { address: Hex; storageKeys: readonly Hex[] }[]): WarmSet {
  const accounts = new Set<Hex>([origin, to, coinbase, ...PRECOMPILES].map((a) => a.toLowerCase()));
  const slots = new Map<Hex, Set<bigint>>();
  for (const entry of accessList) {
    const address = entry.address.toLowerCase();
    accounts.add(address);
    let set = slots.get(address);
    if (!set) slots.set(address, (set = new Set()));
    for (const key of entry.storageKeys) set.add(BigInt(key));
  }
  return { accounts, slots };
}

/**
 * The token's storage, metered as the EVM meters SLOAD and SSTORE, plus account accesses. Warm
 * slots and accounts live in the WarmSet, so they carry over from the proxy into the
 * implementation as they do on the EVM.
 */
export class GasMeter implements ContractStorage {
  /** Gas that depends on state, so far. */
  dynamic = 0n;
  /** EIP-3529 refund counter. */
  refund = 0n;
  /** Cost of the last SSTORE, for the 2,300-gas sentry. */
  lastSstoreCost: bigint | undefined;
  private readonly original = new Map<bigint, bigint>();
  private readonly warmSlots: Set<bigint>;

  constructor(
    private readonly inner: ContractStorage,
    private readonly warm: WarmSet,
    private readonly address: Hex,
    /** Told of every slot and account touched, when the message is traced. */
    private readonly tracer?: ExecutionTracer,
  ) {
    let slots = warm.slots.get(address);
    if (!slots) warm.slots.set(address, (slots = new Set()));
    this.warmSlots = slots;
  }

  /** EIP-2929: 2,100 the first time a slot is touched, 0 after (the warm read is charged by the caller). */
  private coldSurcharge(slot: bigint): bigint {
    if (this.warmSlots.has(slot)) return 0n;
    this.warmSlots.add(slot);
    return EVM_GAS.coldSload;
  }

  private originalValue(slot: bigint, current: bigint): bigint {
    const known = this.original.get(slot);
    if (known !== undefined) return known;
    this.original.set(slot, current);
    return current;
  }

  get(slot: bigint): bigint {
    this.tracer?.slot(this.address, slot);
    const value = this.inner.get(slot);
    this.originalValue(slot, value);
    const surcharge = this.coldSurcharge(slot);
    this.dynamic += surcharge > 0n ? surcharge : EVM_GAS.warmAccess;
    return value;
  }

  set(slot: bigint, value: bigint): void {
    this.tracer?.slot(this.address, slot);
    const current = this.inner.get(slot);
    const original = this.originalValue(slot, current);
    let cost = this.coldSurcharge(slot);
    if (value === current || original !== current) cost += EVM_GAS.warmAccess;
    else cost += original === 0n ? EVM_GAS.sstoreSet : EVM_GAS.sstoreReset;
    this.refund += sstoreRefund(original, current, value);
    this.dynamic += cost;
    this.lastSstoreCost = cost;
    this.inner.set(slot, value);
  }

  /** Gas that depends on the call's data rather than on state (a comparison a short-circuit skips or not). */
  charge(gas: bigint): void {
    this.dynamic += gas;
  }

  /** An opcode that touches an account (DELEGATECALL, EXTCODESIZE): 2,600 cold, 100 warm. */
  touchAccount(address: Hex): void {
    const key = address.toLowerCase();
    this.tracer?.account(key);
    if (this.warm.accounts.has(key)) {
      this.dynamic += EVM_GAS.warmAccess;
    } else {
      this.warm.accounts.add(key);
      this.dynamic += EVM_GAS.coldAccountAccess;
    }
  }
}

/** EIP-3529's refund (or refund taken back) of one SSTORE, by the slot's original, current and new value. */
function sstoreRefund(original: bigint, current: bigint, value: bigint): bigint {
  if (value === current) return 0n;
  let refund = 0n;
  if (original === current) {
    if (original !== 0n && value === 0n) refund += EVM_GAS.sstoreClearRefund;
    return refund;
  }
  if (original !== 0n) {
    if (current === 0n) refund -= EVM_GAS.sstoreClearRefund;
    else if (value === 0n) refund += EVM_GAS.sstoreClearRefund;
  }
  if (original === value) refund += original === 0n ? EVM_GAS.sstoreSet - EVM_GAS.warmAccess : EVM_GAS.sstoreReset - EVM_GAS.warmAccess;
  return refund;
}

/** The smallest gas A for which a call that forwards all but 1/64 of A passes on at least `needed`. */
export function allButOne64thInverse(needed: bigint): bigint {
  let available = (needed * 64n) / 63n;
  while (available - available / 64n < needed) available += 1n;
  while (available > 0n && available - 1n - (available - 1n) / 64n >= needed) available -= 1n;
  return available;
}

