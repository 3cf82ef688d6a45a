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

// The same costs as numbers, for the meter's running sums.
const COLD_SLOAD = Number(EVM_GAS.coldSload);
const COLD_ACCOUNT_ACCESS = Number(EVM_GAS.coldAccountAccess);
const WARM_ACCESS = Number(EVM_GAS.warmAccess);
const SSTORE_SET = Number(EVM_GAS.sstoreSet);
const SSTORE_RESET = Number(EVM_GAS.sstoreReset);
const SSTORE_CLEAR_REFUND = Number(EVM_GAS.sstoreClearRefund);

/** Precompiles 0x01…0x11 and P256VERIFY (0x100, EIP-7951): warm from the start of every transaction. */
const PRECOMPILES = [...Array.from({ length: 0x11 }, (_, i) => i + 1), 0x100].map((n) => `0x${n.toString(16).padStart(40, '0')}`);
const PRECOMPILE_SET: ReadonlySet<Hex> = new Set(PRECOMPILES);

/** Every precompile's address starts with these 36 zeros (no letters: case does not matter). */
const PRECOMPILE_PREFIX = `0x${'0'.repeat(36)}`;

/** Asked of every value transfer's recipient (execute.ts): most answer at the prefix, without a lowercased copy. */
export function isPrecompile(address: Hex): boolean {
  return address.startsWith(PRECOMPILE_PREFIX) && PRECOMPILE_SET.has(address.toLowerCase());
}

/** What a transaction warms before it runs: the precompiles (always warm, not listed), its sender, its recipient, the coinbase and its access list. */
export function initialWarmSet(origin: Hex, to: Hex, coinbase: Hex, accessList: readonly { address: Hex; storageKeys: readonly Hex[] }[]): WarmSet {
  const accounts = new Set<Hex>([origin.toLowerCase(), to.toLowerCase(), coinbase.toLowerCase()]);
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
  // Counted as numbers (a call's gas stays far below 2^53): a BigInt sum allocates at every access.
  private dynamicGas = 0;
  private refundGas = 0;
  private lastSstore = -1;
  /** Gas that depends on state, so far. */
  get dynamic(): bigint {
    return BigInt(this.dynamicGas);
  }
  /** EIP-3529 refund counter. */
  get refund(): bigint {
    return BigInt(this.refundGas);
  }
  /** Cost of the last SSTORE, for the 2,300-gas sentry. */
  get lastSstoreCost(): bigint | undefined {
    return this.lastSstore < 0 ? undefined : BigInt(this.lastSstore);
  }
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
  private coldSurcharge(slot: bigint): number {
    if (this.warmSlots.has(slot)) return 0;
    this.warmSlots.add(slot);
    return COLD_SLOAD;
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
    this.dynamicGas += surcharge > 0 ? surcharge : WARM_ACCESS;
    return value;
  }

  set(slot: bigint, value: bigint): void {
    this.tracer?.slot(this.address, slot);
    const current = this.inner.get(slot);
    const original = this.originalValue(slot, current);
    let cost = this.coldSurcharge(slot);
    if (value === current || original !== current) cost += WARM_ACCESS;
    else cost += original === 0n ? SSTORE_SET : SSTORE_RESET;
    this.refundGas += sstoreRefund(original, current, value);
    this.dynamicGas += cost;
    this.lastSstore = cost;
    this.inner.set(slot, value);
  }

  /** Gas that depends on the call's data rather than on state (a comparison a short-circuit skips or not). */
  charge(gas: bigint): void {
    this.dynamicGas += Number(gas);
  }

  /** An opcode that touches an account (DELEGATECALL, EXTCODESIZE): 2,600 cold, 100 warm. */
  touchAccount(address: Hex): void {
    const key = address.toLowerCase();
    this.tracer?.account(key);
    if (this.warm.accounts.has(key) || PRECOMPILE_SET.has(key)) {
      this.dynamicGas += WARM_ACCESS;
    } else {
      this.warm.accounts.add(key);
      this.dynamicGas += COLD_ACCOUNT_ACCESS;
    }
  }
}

/** EIP-3529's refund (or refund taken back) of one SSTORE, by the slot's original, current and new value. */
function sstoreRefund(original: bigint, current: bigint, value: bigint): number {
  if (value === current) return 0;
  let refund = 0;
  if (original === current) {
    if (original !== 0n && value === 0n) refund += SSTORE_CLEAR_REFUND;
    return refund;
  }
  if (original !== 0n) {
    if (current === 0n) refund -= SSTORE_CLEAR_REFUND;
    else if (value === 0n) refund += SSTORE_CLEAR_REFUND;
  }
  if (original === value) refund += original === 0n ? SSTORE_SET - WARM_ACCESS : SSTORE_RESET - WARM_ACCESS;
  return refund;
}

/** The smallest gas A for which a call that forwards all but 1/64 of A passes on at least `needed`. */
export function allButOne64thInverse(needed: bigint): bigint {
  let available = (needed * 64n) / 63n;
  while (available - available / 64n < needed) available += 1n;
  while (available > 0n && available - 1n - (available - 1n) / 64n >= needed) available -= 1n;
  return available;
}

