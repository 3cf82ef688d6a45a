// A transaction's receipt as its block keeps it: the execution's receipt with the block's
// running gas total and the logs' bloom. Written as one object literal of a fixed shape (the
// keys in the order `{ ...applied, cumulativeGasUsed, logsBloom }` gave them): V8 gave every such
// spread copy a hidden class of its own (1,388 classes for 1,428 receipts in a heap snapshot),
// which cost memory per receipt and left every site that reads receipts megamorphic.
import { bloomOfLogs } from '../encoding/bloom';
import type { ReceiptRecord } from './types';

/** What execution answers: the receipt without the block's fields. */
export type AppliedReceipt = Omit<ReceiptRecord, 'cumulativeGasUsed' | 'logsBloom'>;

export function blockReceipt(applied: AppliedReceipt, cumulativeGasUsed: bigint): ReceiptRecord {
  if (applied.deposit !== undefined || applied.l1Fee !== undefined) return opStackReceipt(applied, cumulativeGasUsed);
  const logsBloom = bloomOfLogs(applied.logs);
  if (!('revertData' in applied) && !('revertReason' in applied)) {
    return {
      status: applied.status,
      gasUsed: applied.gasUsed,
      effectiveGasPrice: applied.effectiveGasPrice,
      logs: applied.logs,
      contractAddress: applied.contractAddress,
      cumulativeGasUsed,
      logsBloom,
    };
  }
  // A failed execution: its revert fields are there (each may hold undefined), between the two groups as before.
  const receipt: ReceiptRecord = {
    status: applied.status,
    gasUsed: applied.gasUsed,
    effectiveGasPrice: applied.effectiveGasPrice,
    logs: applied.logs,
    contractAddress: applied.contractAddress,
    revertData: applied.revertData,
    revertReason: applied.revertReason,
    cumulativeGasUsed,
    logsBloom,
  };
  if (!('revertData' in applied)) delete receipt.revertData;
  if (!('revertReason' in applied)) delete receipt.revertReason;
  return receipt;
}

/** An OP Stack receipt (--chain base): a deposit's fields or the L1 fee kept after the usual ones. */
function opStackReceipt(applied: AppliedReceipt, cumulativeGasUsed: bigint): ReceiptRecord {
  const { deposit, l1Fee, ...usual } = applied;
  const receipt = blockReceipt(usual, cumulativeGasUsed);
  if (deposit !== undefined) receipt.deposit = deposit;
  if (l1Fee !== undefined) receipt.l1Fee = l1Fee;
  return receipt;
}
