// The block being built: flashblocks append executed transactions to it, and each flashblock
// publishes an immutable snapshot (a BlockRecord with sealed = false) that every `pending` read
// answers from. Sealing turns the last snapshot into the sealed block.
import { EMPTY_LOGS_BLOOM, LogsBloom } from '../encoding/bloom';
import { depositReceiptTail } from '../encoding/depositTransaction';
import { bytesHex, hexBytes, uintBytes, wordBytes } from '../encoding/bytes';
import { bodyTransactionBytes, EMPTY_REQUESTS_HASH, EMPTY_UNCLES_HASH, headerHashAndSize, ZERO_NONCE, type BlockHeader } from '../encoding/header';
import type { Hex } from '../encoding/hex';
import { keccak256Bytes } from '../encoding/keccak';
import { encodeBytes, encodeList } from '../encoding/trieRoot';
import { OrderedTrieBuilder } from '../encoding/tries';
import type { BlockRecord, IncludedTransaction, LogRecord, ReceiptRecord, SystemStateChange } from './types';
import { systemStateChange } from './systemChanges';
import { EMPTY_TRIE_ROOT } from '../state/stateTrie';
import type { StateDraft, StateLayer } from '../state/worldState';
import type { BlockEnvironment } from '../execution/nativeContract';

export interface BlockParams {
  number: bigint;
  parent: BlockRecord;
  gasLimit: bigint;
  baseFeePerGas: bigint;
  coinbase: Hex;
  extraData: Hex;
}

export class BlockInProgress {
  state: StateLayer;
  timestamp: bigint;
  /** Fixed once the first transaction executes in this block: later flashblocks keep it. */
  timestampFixed = false;
  flashblockIndex = -1;
  gasUsed = 0n;
  readonly included: IncludedTransaction[] = [];
  readonly byHash = new Map<Hex, IncludedTransaction>();
  readonly logs: LogRecord[] = [];
  /** Changes made outside the transactions, in order; a new array per change, so a snapshot's stays as it was. */
  private systemChanges: readonly SystemStateChange[] = [];
  private readonly bloom = new LogsBloom();
  /** The transactions and receipts tries: they hold the included items and encode each when its leaf is built. */
  private readonly txTrie = new OrderedTrieBuilder<IncludedTransaction>((item) => hexBytes(item.tx.encoded));
  private readonly receiptTrie = new OrderedTrieBuilder<IncludedTransaction>((item) => encodeReceiptBytes(item.tx.type, item.receipt));
  private transactionsRoot: Hex = EMPTY_TRIE_ROOT;
  private receiptsRoot: Hex = EMPTY_TRIE_ROOT;
  /** RLP bytes of the included transactions in the block body, kept as they are appended. */
  private transactionBytes = 0;
  /** Derived from the parent alone: hashed once per block, not once per flashblock. */
  private readonly mixHash: Hex;
  private readonly parentBeaconBlockRoot: Hex;
  /**
   * The last snapshot's header, hash, size and lists, with what they were made from: a flashblock
   * that adds nothing (an idle node cuts five a second), and the seal after the last flashblock,
   * reuse them instead of building and hashing the same header again.
   */
  private view: { timestamp: bigint; state: StateLayer; count: number; header: BlockHeader; hash: Hex; size: number; transactions: IncludedTransaction[]; logs: LogRecord[] } | undefined;

  constructor(
    readonly params: BlockParams,
    timestamp: bigint,
  ) {
    this.state = params.parent.state;
    this.timestamp = timestamp;
    this.mixHash = mixHashOf(params.parent.hash, params.number);
    this.parentBeaconBlockRoot = parentBeaconBlockRootOf(params.parent.hash);
  }

  get number(): bigint {
    return this.params.number;
  }

  /** What a transaction executing in this block sees. */
  environment(chainId: bigint, blockHash?: (number: bigint) => Hex | undefined, upstreamBlockHash?: (number: bigint) => Promise<Hex | undefined>): BlockEnvironment {
    const { gasLimit } = this.params;
    return {
      number: this.number,
      timestamp: this.timestamp,
      chainId,
      coinbase: this.params.coinbase,
      baseFeePerGas: this.params.baseFeePerGas,
      gasLimit,
      prevRandao: this.mixHash,
      blockHash,
      upstreamBlockHash,
    };
  }

  /**
   * Appends transactions executed in one flashblock, with the state after them. Synchronous, and
   * indexed loops over one kind of array (a flashblock's list of what it added): no promise or
   * iterator per flashblock, and no map its first optimized code has not seen.
   */
  append(executed: IncludedTransaction[], state: StateLayer): void {
    this.state = state;
    const count = executed.length;
    if (count === 0) return;
    for (let i = 0; i < count; i++) {
      const item = executed[i];
      this.included.push(item);
      this.byHash.set(item.tx.hash, item);
      this.gasUsed = item.receipt.cumulativeGasUsed;
      this.transactionBytes += bodyTransactionBytes(item.tx.encoded);
      const logs = item.receipt.logs;
      if (logs.length > 0) this.addLogs(logs, item.receipt.logsBloom);
    }
    // Both roots once per flashblock, from all the block's items (earlier subtrees reused).
    this.txTrie.append(executed);
    this.receiptTrie.append(executed);
    this.transactionsRoot = bytesHex(this.txTrie.root());
    this.receiptsRoot = bytesHex(this.receiptTrie.root());
  }

  /** A state change outside any transaction (a system change): the state after it, and what it wrote; no transaction appended. */
  setState(state: StateLayer, written: StateDraft): void {
    this.state = state;
    this.systemChanges = [...this.systemChanges, systemStateChange(this.included.length, written)];
  }

  private addLogs(logs: LogRecord[], logsBloom: Hex): void {
    for (let i = 0; i < logs.length; i++) this.logs.push(logs[i]);
    // The receipt's bloom already holds its logs' bits: merged, not hashed again.
    this.bloom.merge(hexBytes(logsBloom));
  }

  header(): BlockHeader {
    const parent = this.params.parent;
    return {
      parentHash: parent.hash,
      sha3Uncles: EMPTY_UNCLES_HASH,
      miner: this.params.coinbase,
      stateRoot: this.state.stateRoot,
      transactionsRoot: this.transactionsRoot,
      receiptsRoot: this.receiptsRoot,
      logsBloom: this.bloom.toHex(),
      difficulty: 0n,
      number: this.number,
      gasLimit: this.params.gasLimit,
      gasUsed: this.gasUsed,
      timestamp: this.timestamp,
      extraData: this.params.extraData,
      mixHash: this.mixHash,
      nonce: ZERO_NONCE,
      baseFeePerGas: this.params.baseFeePerGas,
      withdrawalsRoot: EMPTY_TRIE_ROOT,
      blobGasUsed: 0n,
      excessBlobGas: 0n,
      parentBeaconBlockRoot: this.parentBeaconBlockRoot,
      requestsHash: EMPTY_REQUESTS_HASH,
    };
  }

  /** An immutable view of the block as of now (nothing in it is ever changed afterwards, so unchanged parts are shared). */
  snapshot(sealed: boolean): BlockRecord {
    let view = this.view;
    if (view === undefined || view.timestamp !== this.timestamp || view.state !== this.state || view.count !== this.included.length) {
      const header = this.header();
      const { hash, size } = headerHashAndSize(header, this.transactionBytes);
      view = {
        timestamp: this.timestamp, state: this.state, count: this.included.length,
        header, hash, size, transactions: this.included.slice(), logs: this.logs.slice(),
      };
      this.view = view;
    }
    return {
      header: view.header,
      hash: view.hash,
      size: view.size,
      transactions: view.transactions,
      logs: view.logs,
      state: this.state,
      sealed,
      // Before its first flashblock is cut (the view a seal publishes at once), the block is at flashblock 0, empty.
      flashblockIndex: Math.max(this.flashblockIndex, 0),
      systemChanges: this.systemChanges.length > 0 ? this.systemChanges : undefined,
    };
  }
}

/** Consensus encoding of a receipt: [status, cumulativeGasUsed, logsBloom, logs], typed prefix for type > 0. */
export function encodeReceipt(type: number, receipt: ReceiptRecord): Hex {
  return bytesHex(encodeReceiptBytes(type, receipt));
}

/** The RLP item of the logs bloom of a receipt without logs (most of them), made once. */
const EMPTY_BLOOM_ITEM = encodeBytes(new Uint8Array(256));

/** encodeReceipt as bytes, built directly (what the receipts trie hashes). */
export function encodeReceiptBytes(type: number, receipt: ReceiptRecord): Uint8Array {
  if (receipt.deposit !== undefined) return depositReceiptBytes(type, receipt);
  if (receipt.logs.length === 0 && receipt.logsBloom === EMPTY_LOGS_BLOOM) return receiptWithoutLogs(type, receipt.status, receipt.cumulativeGasUsed);
  const logs = receipt.logs.map((log) =>
    encodeList([encodeBytes(hexBytes(log.address)), encodeList(log.topics.map((topic) => encodeBytes(hexBytes(topic)))), encodeBytes(hexBytes(log.data))]),
  );
  const body = encodeList([
    encodeBytes(uintBytes(receipt.status)),
    encodeBytes(uintBytes(receipt.cumulativeGasUsed)),
    receipt.logsBloom === EMPTY_LOGS_BLOOM ? EMPTY_BLOOM_ITEM : encodeBytes(hexBytes(receipt.logsBloom)),
    encodeList(logs),
  ]);
  if (type === 0) return body;
  const typed = new Uint8Array(body.length + 1);
  typed[0] = type;
  typed.set(body, 1);
  return typed;
}

/** A deposit's receipt: the four usual items, then its nonce and receipt version (encoding/depositTransaction.ts). */
function depositReceiptBytes(type: number, receipt: ReceiptRecord): Uint8Array {
  const logs = receipt.logs.map((log) =>
    encodeList([encodeBytes(hexBytes(log.address)), encodeList(log.topics.map((topic) => encodeBytes(hexBytes(topic)))), encodeBytes(hexBytes(log.data))]),
  );
  const body = encodeList([
    encodeBytes(uintBytes(receipt.status)),
    encodeBytes(uintBytes(receipt.cumulativeGasUsed)),
    encodeBytes(hexBytes(receipt.logsBloom)),
    encodeList(logs),
    ...depositReceiptTail(receipt.deposit!),
  ]);
  const typed = new Uint8Array(body.length + 1);
  typed[0] = type;
  typed.set(body, 1);
  return typed;
}

/**
 * A receipt without logs (an ETH transfer's, most receipts): written into one array, no list of
 * items. Its payload (status, gas, the 259-byte empty bloom item, the empty list) is always
 * between 256 and 65,535 bytes, so its list header is 0xf9 and two length bytes.
 */
function receiptWithoutLogs(type: number, status: number, cumulativeGasUsed: bigint): Uint8Array {
  const gas = gasBytes(cumulativeGasUsed);
  const gasIsOneByte = gas.length === 1 && gas[0] < 0x80;
  // rlp(status) is one byte (0x01, or 0x80 for 0); rlp(gas) is its byte, or 0x80 + length and the bytes.
  const payload = 1 + (gasIsOneByte ? 1 : 1 + gas.length) + EMPTY_BLOOM_ITEM.length + 1;
  let at = type === 0 ? 0 : 1;
  const out = new Uint8Array(at + 3 + payload);
  if (type !== 0) out[0] = type;
  out[at] = 0xf9;
  out[at + 1] = payload >> 8;
  out[at + 2] = payload & 0xff;
  at += 3;
  out[at++] = status === 1 ? 0x01 : 0x80;
  if (!gasIsOneByte) out[at++] = 0x80 + gas.length;
  out.set(gas, at);
  at += gas.length;
  // The empty bloom item: its header, then 256 zero bytes (the array is zeroed).
  out[at] = EMPTY_BLOOM_ITEM[0];
  out[at + 1] = EMPTY_BLOOM_ITEM[1];
  out[at + 2] = EMPTY_BLOOM_ITEM[2];
  at += EMPTY_BLOOM_ITEM.length;
  out[at] = 0xc0;
  return out;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** uintBytes of a gas amount, read as a number when it fits one (always, under the usual gas limits). */
function gasBytes(value: bigint): Uint8Array {
  if (value > MAX_SAFE) return uintBytes(value);
  let n = Number(value);
  let length = 0;
  for (let v = n; v > 0; v = Math.floor(v / 256)) length++;
  const out = new Uint8Array(length);
  for (let i = length - 1; i >= 0; i--) {
    out[i] = n % 256;
    n = Math.floor(n / 256);
  }
  return out;
}

/** The header's mixHash (PREVRANDAO): derived from the parent's hash and the number. */
function mixHashOf(parentHash: Hex, number: bigint): Hex {
  const input = new Uint8Array(64);
  input.set(hexBytes(parentHash), 0);
  input.set(wordBytes(number), 32);
  return bytesHex(keccak256Bytes(input));
}

/** EIP-4788's parent beacon block root, derived from the parent's hash. */
function parentBeaconBlockRootOf(parentHash: Hex): Hex {
  const input = new Uint8Array(33);
  input[0] = 1;
  input.set(hexBytes(parentHash), 1);
  return bytesHex(keccak256Bytes(input));
}
