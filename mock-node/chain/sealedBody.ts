// A sealed block's transactions, receipts and logs as one run of bytes, so a sealed transaction
// costs its signed bytes and a small fixed record instead of a tree of objects and hex strings.
// The records are rendered back when a read asks (sealedBlock.ts caches the newest ones).
//
// Layout (big-endian u32 where a count or length is written):
//   u32 count, u32 logCount, u32 offset[count] (where each transaction starts, from the body's start)
//   per transaction: hash[32] from[20] flags[1]
//     unless KEPT: uint gasUsed, uint cumulativeGasUsed, uint effectiveGasPrice (u8 length + bytes)
//                  [contractAddress 20] u32 encodedLength encoded
//                  u32 logCount, per log: address[20] u8 topicCount topic[32]… u32 dataLength data
//                  [u32 length revertData] [u32 length revertReason as UTF-8]
// A transaction whose record the bytes would not give back exactly (flag KEPT) is held whole
// beside the body; only its hash and sender are in the bytes, for the hash index.
import { transactionFromBytes, sameTransaction } from './sealedTransaction';
import type { Hex } from './hex';
import type { IncludedTransaction, LogRecord, ReceiptRecord, TransactionRecord } from './types';
import { bloomOfLogs } from './bloom';

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
const EMPTY_BLOOM: Hex = '0x' + '00'.repeat(256);

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

/** True when the receipt and logs would be given back exactly from the bytes. */
function compactable(item: IncludedTransaction, index: number, firstLog: number): boolean {
  const { tx, receipt } = item;
  if (item.index !== index || !WORD.test(tx.hash) || !ADDRESS.test(tx.from) || !DATA.test(tx.encoded)) return false;
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
  const decoded = transactionFromBytes(Buffer.from(tx.encoded.slice(2), 'hex'), tx.hash, tx.from);
  return decoded !== undefined && sameTransaction(decoded, tx);
}

function recordSize(item: IncludedTransaction): number {
  const { tx, receipt } = item;
  let size = 32 + 20 + 1;
  size += 3 + quantityBytes(receipt.gasUsed) + quantityBytes(receipt.cumulativeGasUsed) + quantityBytes(receipt.effectiveGasPrice);
  if (receipt.contractAddress !== null) size += 20;
  size += 4 + dataBytes(tx.encoded) + 4;
  for (const log of receipt.logs) size += 20 + 1 + 32 * log.topics.length + 4 + dataBytes(log.data);
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
  let size = 8 + 4 * count;
  let firstLog = 0;
  for (let i = 0; i < count; i++) {
    const item = transactions[i];
    const ok = compactable(item, i, firstLog);
    compact.push(ok);
    firstLog += item.receipt.logs.length;
    if (ok) size += recordSize(item);
    else {
      size += 32 + 20 + 1;
      (kept ??= new Map()).set(i, item);
    }
  }
  const bytes = arena.take(size);
  const w = new Writer(bytes);
  w.u32(count);
  w.u32(firstLog);
  let at = 8 + 4 * count;
  const offsets = new Writer(bytes, 8);
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
      w.hex(log.address);
      w.u8(log.topics.length);
      for (const topic of log.topics) w.hex(topic);
      w.sized(log.data);
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
  if (at !== size) throw new Error(`sealed body: wrote ${at} bytes, sized ${size}`);
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
  return bytes.readUInt32BE(8 + 4 * index);
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
  const flags = r.u8();
  r.skipUint();
  r.skipUint();
  r.skipUint();
  if (flags & CONTRACT) r.skip(20);
  r.skip(r.u32());
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
    const value = '0x' + this.bytes.toString('hex', this.at, this.at + length);
    this.at += length;
    return value;
  }

  sized(): Hex {
    return this.hex(this.u32());
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
    return (this.bloom ??= this.logs.length === 0 ? EMPTY_BLOOM : bloomOfLogs(this.logs));
  }
}

/** Transaction `index` with its receipt and logs; `firstLog` is the block position of its first log. */
export function unpackTransaction(bytes: Buffer, kept: Map<number, IncludedTransaction> | undefined, index: number, firstLog: number): IncludedTransaction {
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
  const logCount = r.u32();
  const logs: LogRecord[] = [];
  for (let i = 0; i < logCount; i++) {
    const address = r.hex(20);
    const topicCount = r.u8();
    const topics: Hex[] = [];
    for (let t = 0; t < topicCount; t++) topics.push(r.hex(32));
    logs.push({ address, topics, data: r.sized(), logIndex: firstLog + i, transactionIndex: index, transactionHash: hash });
  }
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
  for (let i = 0; i < count; i++) {
    const item = unpackTransaction(bytes, kept, i, logs.length);
    transactions.push(item);
    for (const log of item.receipt.logs) logs.push(log);
  }
  return { transactions, logs };
}

/** The block position of transaction `index`'s first log (the logs of the transactions before it). */
export function firstLogOf(bytes: Buffer, kept: Map<number, IncludedTransaction> | undefined, index: number): number {
  let first = 0;
  for (let i = 0; i < index; i++) first += logCountAt(bytes, i, kept);
  return first;
}
