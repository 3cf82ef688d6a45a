// A block the chain keeps: sealed, or the pending block as of one flashblock. Immutable once published.
// The transaction, receipt and log records it holds are the ground floor's (encoding/records.ts).
import type { BlockHeader } from '../encoding/header';
import type { Hex } from '../encoding/hex';
import type { IncludedTransaction, LogRecord } from '../encoding/records';
import type { AccountRecord, StateLayer } from '../state/worldState';

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
  /** State changes made outside its transactions while it was built (systemChanges.ts); absent when none. */
  systemChanges?: readonly SystemStateChange[];
}

/** A state change made outside any transaction while a block was built: what it wrote, and where. */
export interface SystemStateChange {
  /** The index of the block's first transaction after it (the block's transaction count when it was made). */
  before: number;
  accounts: ReadonlyMap<Hex, AccountRecord>;
  storage: ReadonlyMap<Hex, ReadonlyMap<bigint, bigint>>;
}
