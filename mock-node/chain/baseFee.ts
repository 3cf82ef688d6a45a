// EIP-1559 base fee update rule, with configurable elasticity and change denominator.
export interface BaseFeeParams {
  elasticity: bigint;
  denominator: bigint;
  minBaseFee: bigint;
}

export function nextBaseFee(parent: { baseFeePerGas: bigint; gasUsed: bigint; gasLimit: bigint }, params: BaseFeeParams): bigint {
  const target = parent.gasLimit / params.elasticity;
  let next = parent.baseFeePerGas;
  if (target === 0n) return parent.baseFeePerGas;
  if (parent.gasUsed > target) {
    const delta = (parent.baseFeePerGas * (parent.gasUsed - target)) / target / params.denominator;
    next = parent.baseFeePerGas + (delta > 1n ? delta : 1n);
  } else if (parent.gasUsed < target) {
    const delta = (parent.baseFeePerGas * (target - parent.gasUsed)) / target / params.denominator;
    next = parent.baseFeePerGas - delta;
  }
  return next < params.minBaseFee ? params.minBaseFee : next;
}
