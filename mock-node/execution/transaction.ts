// Decoding and static validation of signed transactions (legacy, EIP-2930, EIP-1559).
import { getBytes, keccak256, Transaction } from 'ethers';
import type { TransactionRecord } from '../chain/types';
import { ChainError } from '../chain/errors';
import { calldataFloorGas, intrinsicGas } from './intrinsicGas';
import { recoverSigner } from './signatures';

const SUPPORTED_TYPES = new Set([0, 1, 2]);

/** Decodes raw signed bytes (0x-prefixed hex, checked by the caller); throws a ChainError that says what is wrong. */
export function decodeRawTransaction(raw: string): TransactionRecord {
  let tx: Transaction;
  try {
    tx = Transaction.from(raw.toLowerCase());
  } catch (error) {
    throw undecodable(error);
  }
  if (!SUPPORTED_TYPES.has(tx.type ?? 0)) throw new ChainError({ kind: 'unsupported-transaction-type', type: tx.type });
  if (tx.type === 2 && tx.maxPriorityFeePerGas! > tx.maxFeePerGas!) {
    // Checked before anything re-serializes the transaction (ethers refuses such a one).
    throw new ChainError({ kind: 'tip-above-fee-cap', maxPriorityFeePerGas: tx.maxPriorityFeePerGas!, maxFeePerGas: tx.maxFeePerGas! });
  }
  try {
    const signature = tx.signature;
    if (!signature) throw new Error('missing signature');
    // The costliest step of intake: recovered once, with libsecp256k1 (see signatures.ts).
    const from = recoverSigner(getBytes(tx.unsignedHash), getBytes(signature.r), getBytes(signature.s), signature.yParity);
    return fromEthers(tx, raw.toLowerCase(), from);
  } catch (error) {
    throw undecodable(error);
  }
}

function undecodable(error: unknown): ChainError {
  return new ChainError({ kind: 'undecodable-transaction', reason: (error as Error).message.split(' (')[0] });
}

/** Our record of an ethers transaction; pass `from` when it is already known to skip a recovery. */
export function fromEthers(tx: Transaction, encoded: string, from = tx.from!): TransactionRecord {
  const signature = tx.signature!;
  const type = tx.type ?? 0;
  return {
    hash: keccak256(encoded),
    type,
    chainId: type === 0 && tx.chainId === 0n ? null : tx.chainId,
    nonce: BigInt(tx.nonce),
    from: from.toLowerCase(),
    to: tx.to ? tx.to.toLowerCase() : null,
    value: tx.value,
    input: tx.data.toLowerCase(),
    gasLimit: tx.gasLimit,
    gasPrice: type === 2 ? null : (tx.gasPrice ?? 0n),
    maxFeePerGas: type === 2 ? tx.maxFeePerGas : null,
    maxPriorityFeePerGas: type === 2 ? tx.maxPriorityFeePerGas : null,
    accessList:
      type === 0
        ? null
        : (tx.accessList ?? []).map((e) => ({ address: e.address.toLowerCase(), storageKeys: e.storageKeys.map((k) => k.toLowerCase()) })),
    v: type === 0 ? BigInt(signature.networkV ?? BigInt(signature.v)) : BigInt(signature.yParity),
    r: signature.r.toLowerCase(),
    s: signature.s.toLowerCase(),
    yParity: signature.yParity,
    encoded,
  };
}

/** The most a transaction may pay per gas. */
export function maxFeePerGas(tx: TransactionRecord): bigint {
  return tx.type === 2 ? tx.maxFeePerGas! : tx.gasPrice!;
}

/** The most a transaction may tip per gas (a legacy transaction's gas price is both cap and tip). */
export function priorityFeePerGas(tx: TransactionRecord): bigint {
  return tx.type === 2 ? tx.maxPriorityFeePerGas! : tx.gasPrice!;
}

/** The price per gas the transaction pays in a block with this base fee. */
export function effectiveGasPrice(tx: TransactionRecord, baseFee: bigint): bigint {
  if (tx.type !== 2) return tx.gasPrice!;
  const tip = tx.maxPriorityFeePerGas!;
  const capped = baseFee + tip;
  return capped < tx.maxFeePerGas! ? capped : tx.maxFeePerGas!;
}

/** Checks that do not depend on state: chain id, fee fields, intrinsic gas and the EIP-7623 calldata floor, block gas limit. */
export function validateStatic(tx: TransactionRecord, chainId: bigint, blockGasLimit: bigint): void {
  if (tx.chainId !== null && tx.chainId !== chainId) {
    throw new ChainError({ kind: 'invalid-chain-id', have: tx.chainId, want: chainId });
  }
  if (tx.to === null) {
    throw new ChainError({ kind: 'contract-creation' });
  }
  if (tx.type === 2 && tx.maxPriorityFeePerGas! > tx.maxFeePerGas!) {
    throw new ChainError({ kind: 'tip-above-fee-cap', from: tx.from, maxPriorityFeePerGas: tx.maxPriorityFeePerGas!, maxFeePerGas: tx.maxFeePerGas! });
  }
  const minimum = intrinsicGas(tx.input, tx.accessList);
  if (tx.gasLimit < minimum) throw new ChainError({ kind: 'intrinsic-gas-too-low', gas: tx.gasLimit, minimum });
  const floor = calldataFloorGas(tx.input);
  if (tx.gasLimit < floor) throw new ChainError({ kind: 'floor-data-gas-too-low', gas: tx.gasLimit, minimum: floor });
  if (tx.gasLimit > blockGasLimit) throw new ChainError({ kind: 'exceeds-block-gas-limit' });
}
