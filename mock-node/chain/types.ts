// A block the chain keeps: sealed, or the pending block as of one flashblock. Immutable once published.
// The transaction, receipt and log records it holds are the ground floor's (encoding/records.ts).
import type { BlockHeader } from '../encoding/header';
import type { Hex } from '../encoding/hex';
import type { IncludedTransaction, LogRecord } from '../encoding/records';
import type { StateLayer } from '../state/worldState';

export type { AccessList, IncludedTransaction, LogRecord, ReceiptRecord, TransactionRecord } from '../encoding/records';

/** A sealed block, or the pending block as of one flashblock. */
export interface BlockRecord {
  header: BlockHeader;
  /** Hash of the header (for a pending block, of the partial header at this flashblock). */
  hash: Hex;
  size: number;
  transactions: readonly IncludedTransaction[];
  logs: readonly LogRecord[];
  /** State after the block (or after the flashblock). */
  state: StateLayer;
  sealed: boolean;
  /** Index of the newest flashblock in this block (pending only; sealed blocks keep the last). */
  flashblockIndex: number;
}
