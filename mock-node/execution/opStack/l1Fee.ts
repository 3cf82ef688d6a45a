// The OP Stack's L1 data fee since Fjord (op-geth's rollup cost; the GasPriceOracle predeploy's
// getL1Fee): a transaction's signed bytes are sized by FastLZ, the size is turned into an
// estimate of its compressed size on L1 by a linear fit, and priced at the L1 base fee and blob
// base fee with the chain's scalars. Pure arithmetic; the parameters come from the L1Block
// predeploy's storage (l1Attributes.ts), as the block's L1-attributes deposit set them.
import type { L1FeeReceiptFields } from '../../encoding/records';
import { fastLzCompressedLength } from '../../encoding/fastLz';

export interface L1FeeParams {
  l1BaseFee: bigint;
  l1BlobBaseFee: bigint;
  baseFeeScalar: bigint;
  blobBaseFeeScalar: bigint;
  /** Isthmus's operator fee parameters. */
  operatorFeeScalar: bigint;
  operatorFeeConstant: bigint;
}

/** Fjord's fit of the compressed size: intercept, FastLZ coefficient (both × 10⁶) and the floor (bytes). */
const COST_INTERCEPT = -42_585_600n;
const COST_FASTLZ_COEF = 836_500n;
const MIN_TRANSACTION_SIZE = 100n;
const SCALE = 1_000_000n;
/** Gas per non-zero calldata byte (EIP-2028): what l1GasUsed counts the estimated size at. */
const NON_ZERO_BYTE_GAS = 16n;

/** Estimated compressed size of a transaction whose FastLZ size is `fastLzSize`, × 10⁶. */
export function estimatedSizeScaled(fastLzSize: bigint): bigint {
  const estimate = COST_INTERCEPT + COST_FASTLZ_COEF * fastLzSize;
  const floor = MIN_TRANSACTION_SIZE * SCALE;
  return estimate < floor ? floor : estimate;
}

/** The L1 fee and L1 gas of a transaction of FastLZ size `fastLzSize`. */
export function l1CostOfSize(fastLzSize: bigint, params: L1FeeParams): { l1Fee: bigint; l1GasUsed: bigint } {
  const size = estimatedSizeScaled(fastLzSize);
  const feeScaled = params.baseFeeScalar * params.l1BaseFee * NON_ZERO_BYTE_GAS + params.blobBaseFeeScalar * params.l1BlobBaseFee;
  return { l1Fee: (size * feeScaled) / (SCALE * SCALE), l1GasUsed: (size * NON_ZERO_BYTE_GAS) / SCALE };
}

/** A signed transaction's L1 fee (its EIP-2718 bytes), with the fields its receipt carries. */
export function transactionL1Fee(encoded: Uint8Array, params: L1FeeParams): L1FeeReceiptFields {
  const { l1Fee, l1GasUsed } = l1CostOfSize(BigInt(fastLzCompressedLength(encoded)), params);
  return {
    l1Fee,
    l1GasPrice: params.l1BaseFee,
    l1GasUsed,
    l1BaseFeeScalar: params.baseFeeScalar,
    l1BlobBaseFee: params.l1BlobBaseFee,
    l1BlobBaseFeeScalar: params.blobBaseFeeScalar,
    operatorFeeScalar: params.operatorFeeScalar,
    operatorFeeConstant: params.operatorFeeConstant,
  };
}

/** Isthmus's operator fee for `gas` gas: gas × operatorFeeScalar / 10⁶ + operatorFeeConstant. */
export function operatorFee(gas: bigint, params: Pick<L1FeeParams, 'operatorFeeScalar' | 'operatorFeeConstant'>): bigint {
  return (gas * params.operatorFeeScalar) / SCALE + params.operatorFeeConstant;
}

/**
 * What GasPriceOracle.getL1Fee(bytes) answers for an unsigned transaction: the FastLZ size of the
 * bytes plus 68 for the signature it lacks.
 */
export function unsignedTransactionL1Fee(unsigned: Uint8Array, params: L1FeeParams): bigint {
  return l1CostOfSize(BigInt(fastLzCompressedLength(unsigned) + 68), params).l1Fee;
}
