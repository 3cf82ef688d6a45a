// JSON shapes of blocks, transactions, receipts and logs, as the Ethereum execution API
// (github.com/ethereum/execution-apis, src/schemas) returns them: every quantity, a signature's
// `r` and `s` included, is minimal hex (`uint`); transaction objects carry `blockTimestamp`
// (TransactionInfo); receipts have exactly ReceiptInfo's fields. A pending block's identity
// (number and hash) follows the pendingIdentity option.
import { quantity, ZERO_HASH, type Hex } from '../encoding/hex';
import type { BlockRecord, IncludedTransaction, LogRecord, TransactionRecord } from '../chain/types';
import type { PendingIdentity } from '../options';

export type Json = Record<string, unknown>;

/** How a block is referred to from its own shape or from a transaction, receipt or log in it. */
export interface BlockRef {
  number: Hex | null;
  hash: Hex | null;
  /** What a transaction object carries (Base answers null for a pre-confirmed transaction's blockHash). */
  transactionBlockHash: Hex | null;
  timestamp: Hex;
}

export function blockRef(block: BlockRecord, identity: PendingIdentity): BlockRef {
  const timestamp = quantity(block.header.timestamp);
  const number = quantity(block.header.number);
  if (block.sealed || identity === 'partial') return { number, hash: block.hash, transactionBlockHash: block.hash, timestamp };
  if (identity === 'zero') return { number, hash: ZERO_HASH, transactionBlockHash: null, timestamp };
  return { number: null, hash: null, transactionBlockHash: null, timestamp };
}

export function blockJson(block: BlockRecord, fullTransactions: boolean, identity: PendingIdentity): Json {
  const ref = blockRef(block, identity);
  const h = block.header;
  return {
    number: ref.number,
    hash: ref.hash,
    parentHash: h.parentHash,
    nonce: h.nonce,
    sha3Uncles: h.sha3Uncles,
    logsBloom: h.logsBloom,
    transactionsRoot: h.transactionsRoot,
    stateRoot: h.stateRoot,
    receiptsRoot: h.receiptsRoot,
    miner: h.miner,
    difficulty: quantity(h.difficulty),
    totalDifficulty: '0x0',
    mixHash: h.mixHash,
    extraData: h.extraData,
    size: quantity(block.size),
    gasLimit: quantity(h.gasLimit),
    gasUsed: quantity(h.gasUsed),
    timestamp: ref.timestamp,
    transactions: block.transactions.map((item) => (fullTransactions ? transactionJson(item.tx, ref, item.index) : item.tx.hash)),
    uncles: [],
    withdrawals: [],
    withdrawalsRoot: h.withdrawalsRoot,
    baseFeePerGas: quantity(h.baseFeePerGas),
    blobGasUsed: quantity(h.blobGasUsed),
    excessBlobGas: quantity(h.excessBlobGas),
    parentBeaconBlockRoot: h.parentBeaconBlockRoot,
    requestsHash: h.requestsHash,
  };
}

/** A transaction object; `ref` null for a transaction that is only queued (geth: block fields null). */
export function transactionJson(tx: TransactionRecord, ref: BlockRef | null, index: number | null, baseFee?: bigint): Json {
  const json: Json = {
    blockHash: ref ? ref.transactionBlockHash : null,
    blockNumber: ref ? ref.number : null,
    blockTimestamp: ref ? ref.timestamp : null,
    transactionIndex: ref && index !== null ? quantity(index) : null,
    hash: tx.hash,
    type: quantity(tx.type),
    from: tx.from,
    to: tx.to,
    nonce: quantity(tx.nonce),
    gas: quantity(tx.gasLimit),
    value: quantity(tx.value),
    input: tx.input,
  };
  if (tx.deposit !== undefined) return depositJson(tx, json);
  if (tx.chainId !== null) json.chainId = quantity(tx.chainId);
  if (tx.type === 2) {
    json.maxFeePerGas = quantity(tx.maxFeePerGas!);
    json.maxPriorityFeePerGas = quantity(tx.maxPriorityFeePerGas!);
    const tip = tx.maxPriorityFeePerGas!;
    json.gasPrice = quantity(baseFee === undefined ? tx.maxFeePerGas! : minBig(baseFee + tip, tx.maxFeePerGas!));
  } else {
    json.gasPrice = quantity(tx.gasPrice!);
  }
  if (tx.accessList) json.accessList = tx.accessList;
  json.v = quantity(tx.v);
  // The record keeps r and s as the 32-byte words of the signature; the API types them `uint`.
  json.r = quantity(BigInt(tx.r));
  json.s = quantity(BigInt(tx.s));
  if (tx.type !== 0) json.yParity = quantity(tx.yParity);
  return json;
}

/**
 * An OP Stack deposit (type 0x7e) as Base's node answers it: gasPrice 0, v, r, s 0, the deposit's
 * sourceHash and mint, isSystemTx only when true, and depositReceiptVersion; `nonce` is the
 * depositor's nonce (the receipt's depositNonce).
 */
function depositJson(tx: TransactionRecord, json: Json): Json {
  const deposit = tx.deposit!;
  json.gasPrice = '0x0';
  json.v = '0x0';
  json.r = '0x0';
  json.s = '0x0';
  json.sourceHash = deposit.sourceHash;
  json.mint = quantity(deposit.mint);
  if (deposit.isSystemTx) json.isSystemTx = true;
  json.depositReceiptVersion = '0x1';
  return json;
}

export function receiptJson(block: BlockRecord, included: IncludedTransaction, identity: PendingIdentity): Json {
  const json = plainReceiptJson(block, included, identity);
  const receipt = included.receipt;
  if (receipt.deposit !== undefined) {
    json.depositNonce = quantity(receipt.deposit.depositNonce);
    json.depositReceiptVersion = quantity(receipt.deposit.depositReceiptVersion);
  }
  const l1 = receipt.l1Fee;
  if (l1 !== undefined) {
    // op-geth's names and order (Isthmus: no l1FeeScalar; the operator fee's parameters).
    json.l1GasPrice = quantity(l1.l1GasPrice);
    json.l1GasUsed = quantity(l1.l1GasUsed);
    json.l1Fee = quantity(l1.l1Fee);
    json.l1BaseFeeScalar = quantity(l1.l1BaseFeeScalar);
    json.l1BlobBaseFee = quantity(l1.l1BlobBaseFee);
    json.l1BlobBaseFeeScalar = quantity(l1.l1BlobBaseFeeScalar);
    json.operatorFeeScalar = quantity(l1.operatorFeeScalar);
    json.operatorFeeConstant = quantity(l1.operatorFeeConstant);
  }
  return json;
}

function plainReceiptJson(block: BlockRecord, included: IncludedTransaction, identity: PendingIdentity): Json {
  const ref = blockRef(block, identity);
  const { tx, receipt } = included;
  // No revertReason: ReceiptInfo allows no other field (additionalProperties: false), and geth
  // sends none; a client reads the reason by replaying the call (eth_call answers it).
  return {
    transactionHash: tx.hash,
    transactionIndex: quantity(included.index),
    blockHash: ref.hash,
    blockNumber: ref.number,
    from: tx.from,
    to: tx.to,
    cumulativeGasUsed: quantity(receipt.cumulativeGasUsed),
    gasUsed: quantity(receipt.gasUsed),
    effectiveGasPrice: quantity(receipt.effectiveGasPrice),
    contractAddress: receipt.contractAddress,
    logs: receipt.logs.map((log) => logJson(log, ref)),
    logsBloom: receipt.logsBloom,
    type: quantity(tx.type),
    status: quantity(receipt.status),
  };
}

/** A log object (the execution API's Log, with blockTimestamp as geth sends it). */
export type LogJson = {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex | null;
  blockHash: Hex | null;
  blockTimestamp: Hex;
  transactionHash: Hex;
  transactionIndex: Hex;
  logIndex: Hex;
  removed: boolean;
};

export function logJson(log: LogRecord, ref: BlockRef, removed = false): LogJson {
  return {
    address: log.address,
    topics: log.topics,
    data: log.data,
    blockNumber: ref.number,
    blockHash: ref.hash,
    blockTimestamp: ref.timestamp,
    transactionHash: log.transactionHash,
    transactionIndex: countQuantity(log.transactionIndex),
    logIndex: countQuantity(log.logIndex),
    removed,
  };
}

/** 0x-hex of the small counts a log carries (its transaction's and its own position), each made once. */
const SMALL_QUANTITIES: Hex[] = [];

function countQuantity(n: number): Hex {
  return n < 1024 ? (SMALL_QUANTITIES[n] ??= quantity(n)) : quantity(n);
}

/**
 * A log's JSON text, exactly JSON.stringify(log), written field by field. A log's fields are 0x-hex
 * (the chain makes them so, and a state file is checked for it), so no character needs escaping
 * and the text is ASCII.
 */
export function logText(log: LogJson): string {
  const topics = log.topics.length === 0 ? '[]' : `["${log.topics.join('","')}"]`;
  return `{"address":"${log.address}","topics":${topics},"data":"${log.data}","blockNumber":${quotedOrNull(log.blockNumber)},"blockHash":${quotedOrNull(log.blockHash)},"blockTimestamp":"${log.blockTimestamp}","transactionHash":"${log.transactionHash}","transactionIndex":"${log.transactionIndex}","logIndex":"${log.logIndex}","removed":${log.removed}}`;
}

function quotedOrNull(value: Hex | null): string {
  return value === null ? 'null' : `"${value}"`;
}

/** logText's characters that are not a field's value: its names, quotes, colons, commas and braces. */
const LOG_TEXT_FRAME =
  logText({ address: '0x', topics: [], data: '0x', blockNumber: null, blockHash: null, blockTimestamp: '0x', transactionHash: '0x', transactionIndex: '0x', logIndex: '0x', removed: false }).length -
  6 * 2 - // the six '0x' values
  '[]'.length -
  2 * 'null'.length -
  'false'.length;

/** logText(log).length, counted without writing the text. */
export function logTextLength(log: LogJson): number {
  const topics = log.topics;
  let topicChars = 2 + (topics.length > 0 ? topics.length * 3 - 1 : 0); // brackets, quotes, commas
  for (let i = 0; i < topics.length; i++) topicChars += topics[i].length;
  const n = log.blockNumber === null ? 4 : log.blockNumber.length + 2;
  const h = log.blockHash === null ? 4 : log.blockHash.length + 2;
  return (
    LOG_TEXT_FRAME +
    log.address.length +
    topicChars +
    log.data.length +
    n +
    h +
    log.blockTimestamp.length +
    log.transactionHash.length +
    log.transactionIndex.length +
    log.logIndex.length +
    (log.removed ? 4 : 5)
  );
}

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
