// The explorer's tree as plain data: built by pure functions from JSON-RPC results, compared by
// changeDetection.ts, rendered by treeProvider.ts. No vscode import.

import type {
  AccountData, ActivityFilter, BlockDetail, BlockJson, FilterLogs, Found, Loaded, Overview, ReceiptJson, ReceiptSummary, SlotData, TokenData,
} from './chainData';
import type { AbiBook } from './decoding';
import type { FollowMode } from './followMode';

export type NodeKind =
  | 'endpoint' | 'block' | 'field' | 'transactions' | 'transaction' | 'receipts' | 'receipt' | 'logs' | 'logFilter'
  | 'log' | 'accounts' | 'account' | 'storage' | 'slot' | 'token' | 'tagHead' | 'error' | 'message'
  | 'goTo' | 'recent' | 'recentBlock' | 'older' | 'found' | 'address' | 'link' | 'activity';

/**
 * Parts of an endpoint that load only when first expanded (and are polled only once loaded):
 * fixed sections, and `block:0x…` for one of the recent blocks.
 */
export type SectionKey = 'receipts' | 'logs' | 'accounts' | 'storage' | 'token' | 'recent' | 'activity' | `block:0x${string}`;

export interface NodeRequest {
  method: string;
  params: unknown[];
}

export interface NodeSpec {
  /** Stable across refreshes: VS Code keeps expansion and selection by it. */
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  kind: NodeKind;
  /** A codicon name. */
  icon?: string;
  collapsible: 'none' | 'collapsed' | 'expanded';
  /** What "Copy Value" puts on the clipboard. */
  copyValue?: string;
  /** What "Open as JSON" shows. */
  json?: { title: string; value: unknown };
  /** The request behind this node, for "Copy Request as curl". */
  request?: NodeRequest;
  /** What clicking the row runs (links: Go to a transaction, block or address). */
  command?: { id: string; title: string; arguments: unknown[] };
  endpointId: string;
  /** Set on the node whose children load on first expand. */
  section?: SectionKey;
  /** undefined: not loaded yet (a lazy section). */
  children?: NodeSpec[];
}

/** The data loaded for one endpoint, section by section. */
export interface EndpointData {
  overview?: Loaded<Overview>;
  block?: Loaded<BlockJson | null>;
  receipts?: Loaded<ReceiptJson[]>;
  logs?: Loaded<FilterLogs[]>;
  accounts?: Loaded<AccountData[]>;
  storage?: Loaded<SlotData[]>;
  token?: Loaded<TokenData>;
  /** Receipt status per transaction of the block at the tag (latest only; by eth_getTransactionReceipt). */
  blockReceipts?: ReadonlyMap<string, ReceiptSummary>;
  /** The last blocks, newest first (headers with transaction hashes). */
  recent?: Loaded<BlockJson[]>;
  /** Recent blocks expanded, by number (hex): the full block and its receipts' status. */
  recentBlocks?: ReadonlyMap<string, Loaded<BlockDetail>>;
  /** Go to results, newest first. */
  found?: readonly Found[];
  /** Log filters following the last blocks. */
  activity?: Loaded<ActivityFilter[]>;
}

/** What the explorer shows for one endpoint at one moment. */
export interface EndpointView extends EndpointData {
  id: string;
  name: string;
  /** Masked when the URL holds a key. */
  displayUrl: string;
  /** The URL to put into "copy as curl": masked too when it holds a key. */
  curlUrl: string;
  /** Sections the user has expanded. */
  open: ReadonlySet<SectionKey>;
  /** How many recent blocks a page shows. */
  recentPageSize?: number;
  /** The ABIs the user gave (calls and events of other contracts are decoded with them). */
  abis?: AbiBook;
  /** How an expanded endpoint is followed (subscription or polling); undefined while collapsed. */
  follow?: FollowMode;
}

/** The tag the block node shows, and how many pending refreshes were seen for its number. */
export interface TagView {
  tag: 'latest' | 'pending';
  pendingRefreshes: number;
}
