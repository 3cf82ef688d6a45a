// A sealed block's transactions, receipts and logs as one run of bytes, so a sealed transaction
// costs its signed bytes and a small fixed record instead of a tree of objects and hex strings.
// The records are rendered back when a read asks (sealedBlock.ts caches the newest ones).
//
// Layout (big-endian u32 where a count or length is written):
//   u32 count, u32 logCount, u32 wordsAt, u8 refBytes, u32 offset[count] (where each transaction starts)
//   per transaction: hash[32] from[20] flags[1]
//     unless KEPT: uint gasUsed, uint cumulativeGasUsed, uint effectiveGasPrice (u8 length + bytes)
//                  [contractAddress 20] u32 encodedLength encoded
//                  u32 logCount, per log: ref address, u8 topicCount, ref topic…, data as
//                  u8 leadingZeros u32 restLength rest
//                  [u32 length revertData] [u32 length revertReason as UTF-8]
//   at wordsAt: the block's distinct log addresses and topics, each u8 leadingZeros u8 restLength
//   rest; a log names them by position (ref: refBytes = 2 or 4 bytes). A block's logs repeat
//   their addresses and topics (one event signature, the same token, the same parties), and
//   topics are mostly padded addresses: each is kept once, without its zeros.
// A transaction whose record the bytes would not give back exactly (flag KEPT) is held whole
// beside the body; only its hash and sender are in the bytes, for the hash index.
import { readsBackFromBytes, transactionFromBytes } from '../encoding/sealedTransaction';
import type { Hex } from '../encoding/hex';
import type { IncludedTransaction, LogRecord, ReceiptRecord, TransactionRecord } from './types';
import { bloomOfLogs, EMPTY_LOGS_BLOOM } from '../encoding/bloom';
import { flatHex } from '../encoding/flatHex';

const SUCCESS = 1;
const CONTRACT = 2;
const REVERT_DATA = 4;
const REVERT_REASON = 8;
const KEPT = 16;
/** The receipt has a revertReason key whose value is undefined (a failure without a reason string). */
const REVERT_REASON_KEY = 32;

const ADDRESS = /^0x[0-9a-f]{40}$/;
const WORD = /^0x[0-9a-f]{64}$/;
const DATA = /^0x(?:[0-9a-f]{2})*$/;
/** u32 count, u32 logCount, u32 wordsAt, u8 refBytes. */
const HEADER = 13;

/** Where the bodies live: chunks of bytes that many bodies share (a chunk goes when no body in it is kept). */
class ByteArena {
  private static readonly CHUNK = 256 * 1024;
  private chunk = Buffer.allocUnsafeSlow(0);
  private used = 0;

  take(size: number): Buffer {
    if (size > ByteArena.CHUNK / 4) return Buffer.allocUnsafeSlow(size);
    if (this.used + size > this.chunk.length) {
      this.chunk = Buffer.allocUnsafeSlow(ByteArena.CHUNK);
      this.used = 0;
    }
    const view = this.chunk.subarray(this.used, this.used + size);
    this.used += size;
    return view;
  }
}

const arena = new ByteArena();

function quantityBytes(value: bigint): number {
  if (value === 0n) return 0;
  return Math.ceil(value.toString(16).length / 2);
}

function dataBytes(hex: Hex): number {
  return (hex.length - 2) / 2;
}

/** The number of leading zero bytes of 0x-hex data, at most 255. */
function leadingZeros(hex: Hex): number {
  let zeros = 0;
  while (zeros < 255 && 2 + 2 * zeros + 1 < hex.length && hex.charCodeAt(2 + 2 * zeros) === 48 && hex.charCodeAt(3 + 2 * zeros) === 48) zeros++;
  return zeros;
}

/** A log's addresses and topics, each once, in first-seen order. */
class Words {
  readonly index = new Map<Hex, number>();
  size = 0;

  add(word: Hex): void {
    if (this.index.has(word)) return;
    this.index.set(word, this.index.size);
    this.size += 2 + dataBytes(word) - leadingZeros(word);
  }
}

/** True when the receipt and logs would be given back exactly from the bytes. */
function compactable(item: IncludedTransaction, index: number, firstLog: number): boolean {
  const { tx, receipt } = item;
  if (item.index !== index || !WORD.test(tx.hash) || !ADDRESS.test(tx.from) || !DATA.test(tx.encoded)) return false;
  // An OP Stack receipt's own fields (a deposit's, an L1 fee) are not in the compact bytes: such a record is kept whole.
  if (receipt.deposit !== undefined || receipt.l1Fee !== undefined) return false;
  if (receipt.status !== 0 && receipt.status !== 1) return false;
  if (receipt.gasUsed < 0n || receipt.cumulativeGasUsed < 0n || receipt.effectiveGasPrice < 0n) return false;
  if (quantityBytes(receipt.gasUsed) > 255 || quantityBytes(receipt.cumulativeGasUsed) > 255 || quantityBytes(receipt.effectiveGasPrice) > 255) return false;
  if (receipt.contractAddress !== null && !ADDRESS.test(receipt.contractAddress)) return false;
  if (receipt.revertData !== undefined && !DATA.test(receipt.revertData)) return false;
  if (receipt.revertData === undefined && 'revertReason' in receipt) return false;
  for (let i = 0; i < receipt.logs.length; i++) {
    const log = receipt.logs[i];
    if (log.logIndex !== firstLog + i || log.transactionIndex !== index || log.transactionHash !== tx.hash) return false;
    if (!ADDRESS.test(log.address) || log.topics.length > 255 || !DATA.test(log.data)) return false;
    for (const topic of log.topics) if (!WORD.test(topic)) return false;
  }
  return readsBackFromBytes(tx);
}

function recordSize(item: IncludedTransaction, refBytes: number): number {
  const { tx, receipt } = item;
  let size = 32 + 20 + 1;
  size += 3 + quantityBytes(receipt.gasUsed) + quantityBytes(receipt.cumulativeGasUsed) + quantityBytes(receipt.effectiveGasPrice);
  if (receipt.contractAddress !== null) size += 20;
  size += 4 + dataBytes(tx.encoded) + 4;
  for (const log of receipt.logs) size += refBytes + 1 + refBytes * log.topics.length + 5 + dataBytes(log.data) - leadingZeros(log.data);
  if (receipt.revertData !== undefined) size += 4 + dataBytes(receipt.revertData);
  if (receipt.revertReason !== undefined) size += 4 + Buffer.byteLength(receipt.revertReason, 'utf8');
  return size;
}

class Writer {
  at: number;
  constructor(
    readonly out: Buffer,
    at = 0,
  ) {
    this.at = at;
  }

  u8(value: number): void {
    this.out[this.at++] = value;
  }

  u32(value: number): void {
    this.out.writeUInt32BE(value, this.at);
    this.at += 4;
  }

  hex(hex: Hex): void {
    this.at += this.out.write(hex.slice(2), this.at, 'hex');
  }

  sized(hex: Hex): void {
    this.u32(dataBytes(hex));
    this.hex(hex);
  }

  /** Data without its leading zero bytes: u8 zeros, then `restLength` (u8 or u32) and the rest. */
  stripped(hex: Hex, wide: boolean): void {
    const zeros = leadingZeros(hex);
    this.u8(zeros);
    const rest = dataBytes(hex) - zeros;
    if (wide) this.u32(rest);
    else this.u8(rest);
    this.at += this.out.write(hex.slice(2 + 2 * zeros), this.at, 'hex');
  }

  ref(value: number, bytes: number): void {
    if (bytes === 2) this.out.writeUInt16BE(value, this.at);
    else this.out.writeUInt32BE(value, this.at);
    this.at += bytes;
  }

  uint(value: bigint): void {
    const length = quantityBytes(value);
    this.u8(length);
    if (length === 0) return;
    const digits = value.toString(16);
    this.hex('0x' + (digits.length % 2 ? '0' + digits : digits));
  }
}

export interface CompactBody {
  bytes: Buffer;
  /** Transactions held whole (their record would not come back exactly from bytes), by index. */
  kept: Map<number, IncludedTransaction> | undefined;
}

/** Packs a block's executed transactions (with receipts and logs) into bytes. */
export function packBody(transactions: readonly IncludedTransaction[]): CompactBody {
  const count = transactions.length;
  let kept: Map<number, IncludedTransaction> | undefined;
  const compact: boolean[] = [];
  const words = new Words();
  let firstLog = 0;
  for (let i = 0; i < count; i++) {
    const item = transactions[i];
    const ok = compactable(item, i, firstLog);
    compact.push(ok);
    firstLog += item.receipt.logs.length;
    if (!ok) {
      (kept ??= new Map()).set(i, item);
      continue;
    }
    for (const log of item.receipt.logs) {
      words.add(log.address);
      for (const topic of log.topics) words.add(topic);
    }
  }
  const refBytes = words.index.size <= 0xffff ? 2 : 4;
  let size = HEADER + 4 * count;
  for (let i = 0; i < count; i++) size += compact[i] ? recordSize(transactions[i], refBytes) : 32 + 20 + 1;
  const wordsAt = size;
  size += words.size;
  const bytes = arena.take(size);
  const w = new Writer(bytes);
  w.u32(count);
  w.u32(firstLog);
  w.u32(wordsAt);
  w.u8(refBytes);
  let at = HEADER + 4 * count;
  const offsets = new Writer(bytes, HEADER);
  for (let i = 0; i < count; i++) {
    offsets.u32(at);
    w.at = at;
    const { tx, receipt } = transactions[i];
    w.hex(tx.hash);
    w.hex(tx.from);
    if (!compact[i]) {
      w.u8(KEPT);
      at = w.at;
      continue;
    }
    let flags = receipt.status === 1 ? SUCCESS : 0;
    if (receipt.contractAddress !== null) flags |= CONTRACT;
    if (receipt.revertData !== undefined) flags |= REVERT_DATA;
    if (receipt.revertReason !== undefined) flags |= REVERT_REASON;
    else if ('revertReason' in receipt) flags |= REVERT_REASON_KEY;
    w.u8(flags);
    w.uint(receipt.gasUsed);
    w.uint(receipt.cumulativeGasUsed);
    w.uint(receipt.effectiveGasPrice);
    if (receipt.contractAddress !== null) w.hex(receipt.contractAddress);
    w.sized(tx.encoded);
    w.u32(receipt.logs.length);
    for (const log of receipt.logs) {
      w.ref(words.index.get(log.address)!, refBytes);
      w.u8(log.topics.length);
      for (const topic of log.topics) w.ref(words.index.get(topic)!, refBytes);
      w.stripped(log.data, true);
    }
    if (receipt.revertData !== undefined) w.sized(receipt.revertData);
    if (receipt.revertReason !== undefined) {
      const reason = Buffer.from(receipt.revertReason, 'utf8');
      w.u32(reason.length);
      reason.copy(bytes, w.at);
      w.at += reason.length;
    }
    at = w.at;
  }
  if (at !== wordsAt) throw new Error(`sealed body: wrote ${at} bytes of records, sized ${wordsAt}`);
  w.at = wordsAt;
  for (const word of words.index.keys()) w.stripped(word, false);
  if (w.at !== size) throw new Error(`sealed body: wrote ${w.at} bytes, sized ${size}`);
  return { bytes, kept };
}

// ---- reading ------------------------------------------------------------------------------

export function bodyCount(bytes: Buffer): number {
  return bytes.readUInt32BE(0);
}

/** The number of logs in the block. */
export function bodyLogCount(bytes: Buffer): number {
  return bytes.readUInt32BE(4);
}

function offsetOf(bytes: Buffer, index: number): number {
  return bytes.readUInt32BE(HEADER + 4 * index);
}

/** The block's log addresses and topics as 0x-hex, in the order logs refer to them. */
function wordsOf(bytes: Buffer): Hex[] {
  const r = new Reader(bytes, bytes.readUInt32BE(8));
  const out: Hex[] = [];
  while (r.at < bytes.length) out.push(r.stripped(false));
  return out;
}

/** The hash of transaction `index` as 0x-hex. */
export function bodyHash(bytes: Buffer, index: number): Hex {
  const at = offsetOf(bytes, index);
  return '0x' + bytes.toString('hex', at, at + 32);
}

/** True when transaction `index`'s hash is `hash` (lowercase 0x-hex), compared without making a string. */
export function bodyHashIs(bytes: Buffer, index: number, hash: Hex): boolean {
  const at = offsetOf(bytes, index);
  return bytes.toString('hex', at, at + 32) === hash.slice(2);
}

/** The number of logs transaction `index` emitted (read without rendering them). */
function logCountAt(bytes: Buffer, index: number, kept: Map<number, IncludedTransaction> | undefined): number {
  const held = kept?.get(index);
  if (held) return held.receipt.logs.length;
  const r = new Reader(bytes, offsetOf(bytes, index) + 52);
  skipToLogCount(r, r.u8());
  return r.u32();
}

class Reader {
  constructor(
    readonly bytes: Buffer,
    public at: number,
  ) {}

  u8(): number {
    return this.bytes[this.at++];
  }

  u32(): number {
    const value = this.bytes.readUInt32BE(this.at);
    this.at += 4;
    return value;
  }

  hex(length: number): Hex {
    const value = flatHex(this.bytes, this.at, this.at + length);
    this.at += length;
    return value;
  }

  sized(): Hex {
    return this.hex(this.u32());
  }

  stripped(wide: boolean): Hex {
    const zeros = this.u8();
    const rest = wide ? this.u32() : this.u8();
    const value = flatHex(this.bytes, this.at, this.at + rest, zeros);
    this.at += rest;
    return value;
  }

  ref(bytes: number): number {
    const value = bytes === 2 ? this.bytes.readUInt16BE(this.at) : this.bytes.readUInt32BE(this.at);
    this.at += bytes;
    return value;
  }

  uint(): bigint {
    const length = this.u8();
    if (length === 0) return 0n;
    return BigInt(this.hex(length));
  }

  skip(length: number): void {
    this.at += length;
  }

  skipUint(): void {
    this.skip(this.u8());
  }
}

/** From just after a transaction's flags to its log count: its receipt fields and signed bytes skipped. */
function skipToLogCount(r: Reader, flags: number): void {
  r.skipUint();
  r.skipUint();
  r.skipUint();
  if (flags & CONTRACT) r.skip(20);
  r.skip(r.u32());
}

/** A transaction's logs (the reader at its log count), appended to `into`; the first at block position `firstLog`. */
function readLogs(r: Reader, words: Hex[], index: number, hash: Hex, firstLog: number, into: LogRecord[]): void {
  const refBytes = r.bytes[12];
  const logCount = r.u32();
  for (let i = 0; i < logCount; i++) {
    const address = words[r.ref(refBytes)];
    const topicCount = r.u8();
    const topics: Hex[] = new Array(topicCount); // exactly as long: pushing into [] reserves 17 places
    for (let t = 0; t < topicCount; t++) topics[t] = words[r.ref(refBytes)];
    into.push({ address, topics, data: r.stripped(true), logIndex: firstLog + i, transactionIndex: index, transactionHash: hash });
  }
}

/** A receipt read back from bytes; its logsBloom is computed from its logs when first read. */
class SealedReceipt implements ReceiptRecord {
  // Declared only: a receipt without them has no such keys, as the builder's receipts.
  declare revertReason?: string;
  declare revertData?: Hex;
  private bloom: Hex | undefined;

  constructor(
    readonly status: 0 | 1,
    readonly gasUsed: bigint,
    readonly cumulativeGasUsed: bigint,
    readonly effectiveGasPrice: bigint,
    readonly logs: LogRecord[],
    readonly contractAddress: Hex | null,
  ) {}

  get logsBloom(): Hex {
    return (this.bloom ??= this.logs.length === 0 ? EMPTY_LOGS_BLOOM : bloomOfLogs(this.logs));
  }
}

/** Transaction `index` with its receipt and logs; `firstLog` is the block position of its first log. */
export function unpackTransaction(
  bytes: Buffer,
  kept: Map<number, IncludedTransaction> | undefined,
  index: number,
  firstLog: number,
  words: Hex[] = wordsOf(bytes),
): IncludedTransaction {
  const held = kept?.get(index);
  if (held) return held;
  const r = new Reader(bytes, offsetOf(bytes, index));
  const hash = r.hex(32);
  const from = r.hex(20);
  const flags = r.u8();
  const gasUsed = r.uint();
  const cumulativeGasUsed = r.uint();
  const effectiveGasPrice = r.uint();
  const contractAddress = flags & CONTRACT ? r.hex(20) : null;
  const encodedLength = r.u32();
  const tx: TransactionRecord | undefined = transactionFromBytes(bytes.subarray(r.at, r.at + encodedLength), hash, from);
  if (!tx) throw new Error(`sealed transaction ${hash} no longer reads from its bytes`);
  r.at += encodedLength;
  const logs: LogRecord[] = [];
  readLogs(r, words, index, hash, firstLog, logs);
  const receipt = new SealedReceipt(flags & SUCCESS ? 1 : 0, gasUsed, cumulativeGasUsed, effectiveGasPrice, logs, contractAddress);
  if (flags & REVERT_DATA) receipt.revertData = r.sized();
  if (flags & REVERT_REASON) {
    const length = r.u32();
    receipt.revertReason = bytes.toString('utf8', r.at, r.at + length);
    r.at += length;
  } else if (flags & REVERT_REASON_KEY) {
    receipt.revertReason = undefined;
  }
  return { tx, receipt, index };
}

/** Every transaction of a body, in order, with the block's logs. */
export function unpackBody(bytes: Buffer, kept: Map<number, IncludedTransaction> | undefined): { transactions: IncludedTransaction[]; logs: LogRecord[] } {
  const transactions: IncludedTransaction[] = [];
  const logs: LogRecord[] = [];
  const count = bodyCount(bytes);
  const words = wordsOf(bytes);
  for (let i = 0; i < count; i++) {
    const item = unpackTransaction(bytes, kept, i, logs.length, words);
    transactions.push(item);
    for (const log of item.receipt.logs) logs.push(log);
  }
  return { transactions, logs };
}

/**
 * The block's logs alone, in order: each transaction's hash and logs are read and its signed
 * bytes skipped, so eth_getLogs over many blocks does not decode every transaction again.
 */
export function unpackLogs(bytes: Buffer, kept: Map<number, IncludedTransaction> | undefined): LogRecord[] {
  const logs: LogRecord[] = [];
  const count = bodyCount(bytes);
  const words = wordsOf(bytes);
  for (let index = 0; index < count; index++) {
    const held = kept?.get(index);
    if (held) {
      for (const log of held.receipt.logs) logs.push(log);
      continue;
    }
    const r = new Reader(bytes, offsetOf(bytes, index));
    const hash = r.hex(32);
    r.skip(20);
    skipToLogCount(r, r.u8());
    readLogs(r, words, index, hash, logs.length, logs);
  }
  return logs;
}

/** The block position of transaction `index`'s first log (the logs of the transactions before it). */
export function firstLogOf(bytes: Buffer, kept: Map<number, IncludedTransaction> | undefined, index: number): number {
  let first = 0;
  for (let i = 0; i < index; i++) first += logCountAt(bytes, i, kept);
  return first;
}
