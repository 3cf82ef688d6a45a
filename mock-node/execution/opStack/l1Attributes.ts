// The L1-attributes deposit that opens every block of an OP Stack chain (specs: deposits.md,
// isthmus/l1-attributes.md). The node simulates the L1 it would come from: an L1 block every 12
// seconds counted from the preset's anchor, whose hash and base fee follow from its number. The
// deposit calls the L1Block predeploy's setL1BlockValuesIsthmus() with the origin packed after the
// selector; the predeploy stores it, and the L1 fee of the block's transactions is read back from
// that storage (l1FeeParamsOf), so the fee always matches what the block's deposit set.
import { bytesHex, hexBytes, uintBytes } from '../../encoding/bytes';
import { depositTransactionHash, encodeDepositTransaction, l1InfoDepositSourceHash, L1_ATTRIBUTES_DEPOSITOR, DEPOSIT_TRANSACTION_TYPE, type DepositTransactionFields } from '../../encoding/depositTransaction';
import type { Hex } from '../../encoding/hex';
import { keccak256Bytes } from '../../encoding/keccak';
import type { TransactionRecord } from '../../encoding/records';
import { OP_STACK_PREDEPLOYS, type OpStackRules, type SimulatedL1 } from '../../presets/chainPresets';
import type { StateReader } from '../../state/worldState';
import type { L1FeeParams } from './l1Fee';

/** setL1BlockValuesIsthmus(): the selector, then the packed values (176 bytes in all). */
export const SET_L1_BLOCK_VALUES_ISTHMUS = '0x098999be';
const L1_BLOCK_SECONDS = 12n;

/** The L1 block an L2 block takes as its origin, and the L2 block's place in that epoch. */
export interface L1Origin {
  number: bigint;
  timestamp: bigint;
  baseFee: bigint;
  blobBaseFee: bigint;
  hash: Hex;
  /** L2 blocks before this one with the same origin. */
  sequenceNumber: bigint;
}

const U64_MASK = (1n << 64n) - 1n;
const U32_MASK = (1n << 32n) - 1n;

/** L1Block's storage (slots 0, 3 and 1, 7 of its layout): the origin and fee parameters the last deposit set. */
export function storedL1Origin(state: StateReader): { number: bigint; timestamp: bigint; sequenceNumber: bigint } {
  const slot0 = state.storage(OP_STACK_PREDEPLOYS.l1Block, 0n);
  const slot3 = state.storage(OP_STACK_PREDEPLOYS.l1Block, 3n);
  return { number: slot0 & U64_MASK, timestamp: (slot0 >> 64n) & U64_MASK, sequenceNumber: slot3 & U64_MASK };
}

/** The L1 fee parameters as L1Block holds them (basefee slot 1, blobBaseFee slot 7, the scalars packed in slot 3, the operator fee's in slot 8). */
export function l1FeeParamsOf(state: StateReader): L1FeeParams {
  const slot3 = state.storage(OP_STACK_PREDEPLOYS.l1Block, 3n);
  const slot8 = state.storage(OP_STACK_PREDEPLOYS.l1Block, 8n);
  return {
    operatorFeeConstant: slot8 & U64_MASK,
    operatorFeeScalar: (slot8 >> 64n) & U32_MASK,
    l1BaseFee: state.storage(OP_STACK_PREDEPLOYS.l1Block, 1n),
    l1BlobBaseFee: state.storage(OP_STACK_PREDEPLOYS.l1Block, 7n),
    blobBaseFeeScalar: (slot3 >> 64n) & U32_MASK,
    baseFeeScalar: (slot3 >> 96n) & U32_MASK,
  };
}

/** A simulated L1 block's hash: keccak256 of a fixed label, the chain's anchor and the number. */
function l1BlockHash(l1: SimulatedL1, number: bigint): Hex {
  const label = new TextEncoder().encode('chain-mock-node simulated L1 block');
  const input = new Uint8Array(label.length + 64);
  input.set(label, 0);
  input.set(word(l1.anchorNumber), label.length);
  input.set(word(number), label.length + 32);
  return bytesHex(keccak256Bytes(input));
}

/**
 * The origin of an L2 block stamped `timestamp`: the newest simulated L1 block at or before it,
 * never behind the parent's origin; the sequence number counts on within an epoch and restarts at 0.
 */
export function l1OriginFor(timestamp: bigint, parent: { number: bigint; sequenceNumber: bigint }, l1: SimulatedL1): L1Origin {
  const elapsed = timestamp - l1.anchorTimestamp;
  let number = l1.anchorNumber + (elapsed >= 0n ? elapsed / L1_BLOCK_SECONDS : -((-elapsed + L1_BLOCK_SECONDS - 1n) / L1_BLOCK_SECONDS));
  if (number < 1n) number = 1n;
  if (number < parent.number) number = parent.number;
  const sequenceNumber = parent.number === number ? parent.sequenceNumber + 1n : 0n;
  const hash = l1BlockHash(l1, number);
  // The L1 base fee wanders within ±25 % of the preset's, by the hash of the block.
  const wobble = BigInt(hexBytes(hash)[31] % 51) - 25n;
  return {
    number,
    timestamp: l1.anchorTimestamp + (number - l1.anchorNumber) * L1_BLOCK_SECONDS,
    baseFee: l1.baseFee + (l1.baseFee * wobble) / 100n,
    blobBaseFee: l1.blobBaseFee,
    hash,
    sequenceNumber,
  };
}

function word(value: bigint): Uint8Array {
  return fixed(value, 32);
}

function fixed(value: bigint, size: number): Uint8Array {
  const bytes = uintBytes(value);
  if (bytes.length > size) throw new RangeError(`${value} does not fit ${size} bytes`);
  const out = new Uint8Array(size);
  out.set(bytes, size - bytes.length);
  return out;
}

/**
 * setL1BlockValuesIsthmus's calldata: selector ‖ baseFeeScalar u32 ‖ blobBaseFeeScalar u32 ‖
 * sequenceNumber u64 ‖ timestamp u64 ‖ number u64 ‖ basefee u256 ‖ blobBaseFee u256 ‖ hash ‖
 * batcherHash ‖ operatorFeeScalar u32 ‖ operatorFeeConstant u64.
 */
export function isthmusCalldata(origin: L1Origin, l1: SimulatedL1): Hex {
  const parts = [
    hexBytes(SET_L1_BLOCK_VALUES_ISTHMUS),
    fixed(BigInt(l1.baseFeeScalar), 4),
    fixed(BigInt(l1.blobBaseFeeScalar), 4),
    fixed(origin.sequenceNumber, 8),
    fixed(origin.timestamp, 8),
    fixed(origin.number, 8),
    word(origin.baseFee),
    word(origin.blobBaseFee),
    hexBytes(origin.hash),
    hexBytes(l1.batcherHash),
    fixed(BigInt(l1.operatorFeeScalar), 4),
    fixed(l1.operatorFeeConstant, 8),
  ];
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return bytesHex(out);
}

const ZERO_WORD: Hex = `0x${'00'.repeat(32)}`;

/** The block's L1-attributes deposit as a transaction record (the depositor's nonce is its JSON `nonce`). */
export function l1AttributesDeposit(origin: L1Origin, rules: OpStackRules, depositorNonce: bigint): TransactionRecord {
  const fields: DepositTransactionFields = {
    sourceHash: l1InfoDepositSourceHash(origin.hash, origin.sequenceNumber),
    from: L1_ATTRIBUTES_DEPOSITOR,
    to: OP_STACK_PREDEPLOYS.l1Block,
    mint: 0n,
    value: 0n,
    gas: rules.l1InfoGas,
    isSystemTx: false,
    input: isthmusCalldata(origin, rules.l1),
  };
  return depositRecord(fields, depositorNonce);
}

/** A deposit's transaction record from its fields; `nonce` is the depositor's before it (its receipt's depositNonce). */
export function depositRecord(fields: DepositTransactionFields, nonce: bigint): TransactionRecord {
  return {
    hash: depositTransactionHash(fields),
    type: DEPOSIT_TRANSACTION_TYPE,
    chainId: null,
    nonce,
    from: fields.from,
    to: fields.to,
    value: fields.value,
    input: fields.input,
    gasLimit: fields.gas,
    gasPrice: 0n,
    maxFeePerGas: null,
    maxPriorityFeePerGas: null,
    accessList: null,
    v: 0n,
    r: ZERO_WORD,
    s: ZERO_WORD,
    yParity: 0,
    encoded: bytesHex(encodeDepositTransaction(fields)),
    deposit: { sourceHash: fields.sourceHash, mint: fields.mint, isSystemTx: fields.isSystemTx },
  };
}
