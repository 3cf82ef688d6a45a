// The state file's format: what `chain-mock-node --state FILE` writes and reads back. Shared by the
// writer and reader (persistence.ts) and the field-by-field check (savedStateShape.ts).
export const STATE_FORMAT = 'chain-mock-node-state';
/**
 * 1: the blocks start at genesis. 2 (written only when --history-blocks pruned the chain): the
 * blocks start at the oldest block kept, whose `state` is the full state after it. A node reads
 * both; a file of version 1 is still written whenever the chain starts at genesis.
 */
export const STATE_VERSION = 1;
export const PRUNED_STATE_VERSION = 2;
export const STATE_VERSIONS: readonly number[] = [STATE_VERSION, PRUNED_STATE_VERSION];

export type HexMap = Record<string, string>;

export interface StateChanges {
  /** address -> [nonce, balance, code] */
  accounts: Record<string, [string, string, string]>;
  /** address -> slot -> value (all hex) */
  storage: Record<string, HexMap>;
}

export interface SavedReceipt {
  status: 0 | 1;
  gasUsed: string;
  cumulativeGasUsed: string;
  effectiveGasPrice: string;
  logs: { address: string; topics: string[]; data: string }[];
  logsBloom: string;
  contractAddress: string | null;
  revertReason?: string;
  revertData?: string;
  /** An OP Stack deposit's receipt fields (--chain base): hex quantities. */
  deposit?: { depositNonce: string; depositReceiptVersion: string };
  /** An OP Stack receipt's L1 fee fields (--chain base): hex quantities, op-geth's names. */
  l1Fee?: Record<'l1Fee' | 'l1GasPrice' | 'l1GasUsed' | 'l1BaseFeeScalar' | 'l1BlobBaseFee' | 'l1BlobBaseFeeScalar' | 'operatorFeeScalar' | 'operatorFeeConstant', string>;
}

export interface SavedBlock {
  hash: string;
  size: number;
  flashblockIndex: number;
  header: Record<string, string>;
  /** [signed encoding, sender] per transaction. */
  transactions: [string, string][];
  receipts: SavedReceipt[];
  /** The first block in the file (genesis, or the oldest kept): the full state after it; later blocks: what the block changed. */
  state: StateChanges;
  /**
   * State changes made outside the block's transactions while it was built (state setters), each
   * before the transaction at index `before`: a replay of the block (debug_traceTransaction)
   * applies them there. Absent when none.
   */
  systemChanges?: { before: number; changes: StateChanges }[];
}

export interface SavedState {
  format: typeof STATE_FORMAT;
  version: number;
  savedAt: string;
  chainId: string;
  tokenAddress: string;
  blocks: SavedBlock[];
  /** Not yet sealed, in order: pre-confirmed transactions of the pending block, then the queue. */
  queue: [string, string][];
  /**
   * What state setters (anvil_setStorageAt, anvil_setBalance, mock_mint ...) changed over the
   * newest block since it sealed: the current state `latest` reads see. Absent when nothing did.
   */
  current?: StateChanges;
  clock: { offset: string; next: string | null };
}
