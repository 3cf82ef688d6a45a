// The explorer's data: what JSON-RPC reads return and what the readers (endpointReader.ts,
// chainLookups.ts, activity.ts) make of them. The bottom layer: it imports nothing of the explorer;
// readers build these shapes and the tree nodes (nodeSpec.ts and the *Nodes.ts modules) show them.
// No vscode import.

/** An OP Stack transaction's fees, in wei: gasUsed × effectiveGasPrice, the L1 data fee, their sum (opStackDisplay.ts). */
export interface FeeBreakdown {
  l2Fee: bigint;
  l1Fee: bigint;
  total: bigint;
}

export type Loaded<T> = { ok: true; value: T } | { ok: false; error: string; needsDedicated?: boolean };

export interface Overview {
  chainId: string;
  clientVersion: string;
  head: string;
  safe?: string | null;
  finalized?: string | null;
}

export type BlockJson = Record<string, unknown> & {
  number: string | null;
  hash: string | null;
  transactions: (TransactionJson | string)[];
};

export type TransactionJson = Record<string, unknown> & {
  hash: string;
  from?: string;
  to?: string | null;
  value?: string;
  nonce?: string;
};

export type ReceiptJson = Record<string, unknown> & {
  transactionHash: string;
  status?: string;
  gasUsed?: string;
  logs?: unknown[];
};

export interface LogFilterSetting {
  name: string;
  address?: string | string[];
  topics?: (string | string[] | null)[];
}

export interface FilterLogs {
  filter: LogFilterSetting;
  logs: Record<string, unknown>[];
}

export interface AccountData {
  address: string;
  nonceLatest: string;
  noncePending: string;
  balance: string;
  tokenBalance?: string;
}

export interface SlotSetting {
  address: string;
  slot: string;
  label?: string;
}

export interface SlotData extends SlotSetting {
  value: string;
}

export interface TokenData {
  address: string;
  name?: string;
  symbol?: string;
  version?: string;
  decimals?: number;
  totalSupply?: string;
  paused?: boolean;
}

export interface TransactionFound {
  tx: TransactionJson;
  /** null: no receipt yet (pending); undefined: the endpoint would not give one. */
  receipt: ReceiptJson | null | undefined;
  /** A failed transaction's revert reason, from replaying it with eth_call at its block's parent. */
  revertReason?: string;
}

export interface AddressData {
  address: string;
  /** The block the reads were made at. */
  head: string;
  balanceLatest: string;
  balancePending: string;
  nonceLatest: string;
  noncePending: string;
  code: string;
  tokenBalance?: string;
  transfers: Loaded<TransferHistory>;
}

export interface TransferHistory {
  fromBlock: string;
  toBlock: string;
  /** Newest first. */
  logs: Record<string, unknown>[];
  /** eth_getLogs calls it took (more than two when the endpoint refused a range). */
  requests: number;
}

/** Status and gas of a receipt, for a transaction's row. */
export interface ReceiptSummary {
  status?: string;
  gasUsed?: string;
  /** The contract a deployment (a transaction without `to`) created. */
  contractAddress?: string;
  /** Why a failed transaction reverted (replayed with eth_call; see ChainLookups.revertReason). */
  revertReason?: string;
  /** On an OP Stack chain: the L2 fee, the L1 data fee and their total (opStackDisplay.ts). */
  fees?: FeeBreakdown;
}

export interface ActivityFilter {
  filter: LogFilterSetting;
  /** Newest first; removed replays keep the place of the log they replay. */
  logs: Record<string, unknown>[];
}

/** A block with full transactions and, where the endpoint gave them, their receipts' status. */
export interface BlockDetail {
  block: BlockJson;
  receipts: ReadonlyMap<string, ReceiptSummary>;
}

/** One Go to result. */
export type Found =
  | { kind: 'transaction'; key: string; found: TransactionFound }
  | { kind: 'block'; key: string; detail: BlockDetail }
  | { kind: 'address'; key: string; data: AddressData };

