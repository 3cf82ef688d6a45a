// The records every layer shares: decoded transactions, their receipts and logs, and a transaction
// with its receipt as a block includes it. All of them are immutable once published.
import type { DepositReceiptFields } from './depositTransaction';
import type { Hex } from './hex';

export type AccessList = { address: Hex; storageKeys: Hex[] }[];

export interface TransactionRecord {
  hash: Hex;
  /** 0 legacy, 1 EIP-2930, 2 EIP-1559, 0x7e an OP Stack deposit (then `deposit` is set, and v, r, s are 0). */
  type: number;
  chainId: bigint | null;
  nonce: bigint;
  from: Hex;
  to: Hex | null;
  value: bigint;
  input: Hex;
  gasLimit: bigint;
  /** Legacy and EIP-2930 only. */
  gasPrice: bigint | null;
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
  accessList: AccessList | null;
  v: bigint;
  r: Hex;
  s: Hex;
  yParity: number;
  /** Consensus encoding (what the transactions trie stores; the raw bytes that were sent). */
  encoded: Hex;
  /** A deposit's own fields (type 0x7e only; encoding/depositTransaction.ts); `input`, `value`, `gasLimit` hold the rest. */
  deposit?: DepositInfo;
}

/** The fields only a deposit transaction has. */
export interface DepositInfo {
  sourceHash: Hex;
  mint: bigint;
  isSystemTx: boolean;
}

export interface LogRecord {
  address: Hex;
  topics: Hex[];
  data: Hex;
  /** Position of the log within its block. */
  logIndex: number;
  transactionIndex: number;
  transactionHash: Hex;
}

export interface ReceiptRecord {
  /** 1 success, 0 failure. */
  status: 0 | 1;
  gasUsed: bigint;
  cumulativeGasUsed: bigint;
  effectiveGasPrice: bigint;
  logs: LogRecord[];
  logsBloom: Hex;
  contractAddress: Hex | null;
  /** Revert reason when the token reverted with Error(string). */
  revertReason?: string;
  /** Raw revert data (for debugging clients). */
  revertData?: Hex;
  /** A deposit's receipt fields (type 0x7e only). */
  deposit?: DepositReceiptFields;
  /** On an OP Stack chain (--chain base), every other transaction's L1 data fee, which its sender paid. */
  l1Fee?: L1FeeReceiptFields;
}

/** The L1 fee fields of an OP Stack receipt (Ecotone, Fjord, Isthmus), as op-geth names them. */
export interface L1FeeReceiptFields {
  /** Wei the sender paid for the transaction's share of L1 data. */
  l1Fee: bigint;
  /** The L1 base fee (wei) the fee was computed with. */
  l1GasPrice: bigint;
  /** The L1 gas the transaction's data is estimated to take (Fjord: estimated size × 16 / 10⁶). */
  l1GasUsed: bigint;
  l1BaseFeeScalar: bigint;
  l1BlobBaseFee: bigint;
  l1BlobBaseFeeScalar: bigint;
  /** Isthmus: the operator fee's parameters (the fee is gasUsed × scalar / 10⁶ + constant). */
  operatorFeeScalar: bigint;
  operatorFeeConstant: bigint;
}

export interface IncludedTransaction {
  tx: TransactionRecord;
  receipt: ReceiptRecord;
  index: number;
}
