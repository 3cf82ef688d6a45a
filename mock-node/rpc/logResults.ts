// A block's logs as eth_getLogs answers them: each log's object (logJson), made once from the
// block's logs. A query picks the objects its filter matches; its reply's text is written from
// them straight into the reply's buffer when the reply is sent (LogListText, below), so no text
// is held between queries, nor past the reply.
//
// The objects are kept for the sealed blocks read last, bounded by the number of logs held, so a
// client polling a range makes no block's objects twice. Found by the block record itself, as
// blockResults.ts: a sealed block's record never changes, and a block a reorg replaced or
// --history-blocks pruned is no longer the record the chain gives for its number, so its entry is
// never read again and ages out. The entries do not keep their blocks (a pruned block's record
// and state go when the chain lets them go): they are found through a WeakMap, and the order of
// use holds a WeakRef. The pending block, a new record at every flashblock, is rendered at each
// read and not kept.
import type { BlockRecord, LogRecord } from '../chain/types';
import type { PendingIdentity } from '../options';
import type { AsciiCursor, DeferredAsciiText } from './jsonText';
import { blockRef, logJson, logText, logTextLength, type LogJson } from './shapes';

export interface BlockLogs {
  readonly identity: PendingIdentity;
  /** Every log of the block, in order. */
  readonly logs: readonly LogJson[];
}

/** The bound of the kept entries, in logs (a log object with its topics and data: about 300 bytes). */
const MAX_HELD_LOGS = 32 * 1024;
/** What an entry costs beyond its logs, counted as this many logs. */
const ENTRY_LOGS = 2;

/** The entry of each kept block. */
const kept = new WeakMap<BlockRecord, BlockLogs>();
/** The kept entries, least recently read first, with their blocks (weakly). */
const order = new Map<BlockLogs, WeakRef<BlockRecord>>();
let heldLogs = 0;

/** Makes the log objects of `block` (its logs read once). */
export function renderBlockLogs(block: BlockRecord, identity: PendingIdentity, records: readonly LogRecord[] = block.logs): BlockLogs {
  const logs: LogJson[] = new Array(records.length);
  if (records.length > 0) {
    const ref = blockRef(block, identity);
    for (let i = 0; i < records.length; i++) logs[i] = logJson(records[i], ref);
  }
  return { identity, logs };
}

/** The log objects of `block`, from the kept ones when it was read lately. */
export function blockLogs(block: BlockRecord, identity: PendingIdentity, records?: readonly LogRecord[]): BlockLogs {
  const found = keptEntry(block, identity);
  if (found !== undefined) return found;
  return keep(block, renderBlockLogs(block, identity, records));
}

/**
 * The log objects of `block` when `wanted` accepts one of them; undefined when it accepts none,
 * and then nothing is made (a block its bloom could not rule out costs only reading its logs).
 */
export function blockLogsMatching(block: BlockRecord, identity: PendingIdentity, wanted: (log: LogRecord) => boolean): BlockLogs | undefined {
  const found = keptEntry(block, identity);
  if (found !== undefined) return found;
  const records = block.logs;
  if (!records.some(wanted)) return undefined;
  return keep(block, renderBlockLogs(block, identity, records));
}

/** The kept entry of `block` for `identity`, marked as read last. */
function keptEntry(block: BlockRecord, identity: PendingIdentity): BlockLogs | undefined {
  const found = kept.get(block);
  if (found === undefined || found.identity !== identity) return undefined;
  const ref = order.get(found)!;
  order.delete(found); // read last: moves to the end
  order.set(found, ref);
  return found;
}

/** Keeps a sealed block's log objects within the bound (the least recently read go first). */
function keep(block: BlockRecord, made: BlockLogs): BlockLogs {
  const found = kept.get(block);
  if (found !== undefined) forget(found);
  if (block.sealed && made.logs.length > 0 && made.logs.length <= MAX_HELD_LOGS / 4) {
    kept.set(block, made);
    order.set(made, new WeakRef(block));
    heldLogs += held(made);
    for (const entry of order.keys()) {
      if (heldLogs <= MAX_HELD_LOGS) break;
      forget(entry);
    }
  }
  return made;
}

function held(entry: BlockLogs): number {
  return entry.logs.length + ENTRY_LOGS;
}

function forget(entry: BlockLogs): void {
  const block = order.get(entry)?.deref();
  if (block !== undefined && kept.get(block) === entry) kept.delete(block);
  if (order.delete(entry)) heldLogs -= held(entry);
}

/** Blocks kept and the logs they count (tests read these). */
export function keptBlockLogs(): { blocks: number; logs: number } {
  return { blocks: order.size, logs: heldLogs };
}

/**
 * The JSON text of a list of logs, `[log,log,…]`, counted when made and written when the reply
 * is sent, character by character into the reply's buffers: no log's text is made as a string
 * there (each would be a tree of parts for the buffer write to flatten first, and garbage),
 * except a log longer than the room a buffer has left, which is written across buffers from its
 * string. toString gives the same text as logText does, for the transports that need a string.
 */
export class LogListText implements DeferredAsciiText {
  readonly length: number;

  constructor(private readonly logs: readonly LogJson[]) {
    let length = 2 + Math.max(0, logs.length - 1); // brackets and commas
    for (let i = 0; i < logs.length; i++) length += logTextLength(logs[i]);
    this.length = length;
  }

  cursor(): AsciiCursor {
    return new LogListCursor(this.logs);
  }

  toString(): string {
    const texts: string[] = new Array(this.logs.length);
    for (let i = 0; i < this.logs.length; i++) texts[i] = logText(this.logs[i]);
    return `[${texts.join(',')}]`;
  }
}

class LogListCursor implements AsciiCursor {
  /** The next log to write; -1 before the opening bracket, logs.length before the closing one. */
  private next = -1;
  /** What is left of a log too long for the room it met, with its comma. */
  private rest: string | undefined;
  done = false;

  constructor(private readonly logs: readonly LogJson[]) {}

  write(buffer: Buffer, at: number): number {
    const start = at;
    const end = buffer.length;
    while (!this.done && at < end) {
      if (this.rest !== undefined) {
        const count = Math.min(this.rest.length, end - at);
        at += buffer.write(this.rest, at, count, 'latin1');
        this.rest = count < this.rest.length ? this.rest.slice(count) : undefined;
        if (this.rest === undefined) this.next++;
        continue;
      }
      if (this.next === -1) {
        buffer[at++] = 0x5b; // [
        this.next = 0;
        continue;
      }
      if (this.next === this.logs.length) {
        buffer[at++] = 0x5d; // ]
        this.done = true;
        break;
      }
      const log = this.logs[this.next];
      const comma = this.next > 0 ? 1 : 0;
      if (comma + logTextLength(log) <= end - at) {
        if (comma === 1) buffer[at++] = 0x2c; // ,
        at = writeLog(buffer, at, log);
        this.next++;
      } else if (at > start) {
        break; // the next buffer takes it whole
      } else {
        this.rest = (comma === 1 ? ',' : '') + logText(log);
      }
    }
    return at;
  }
}

/** logText(log), written into `buffer` at `at`; answers where it ends. */
function writeLog(buffer: Buffer, at: number, log: LogJson): number {
  at = prefixed(buffer, at, '{"address":"', log.address);
  at = ascii(buffer, at, '","topics":[');
  const topics = log.topics;
  for (let t = 0; t < topics.length; t++) {
    if (t > 0) buffer[at++] = 0x2c; // ,
    buffer[at++] = 0x22; // "
    at = ascii(buffer, at, topics[t]);
    buffer[at++] = 0x22;
  }
  at = prefixed(buffer, at, '],"data":"', log.data);
  at = quotedOrNull(buffer, ascii(buffer, at, '","blockNumber":'), log.blockNumber);
  at = quotedOrNull(buffer, ascii(buffer, at, ',"blockHash":'), log.blockHash);
  at = prefixed(buffer, at, ',"blockTimestamp":"', log.blockTimestamp);
  at = prefixed(buffer, at, '","transactionHash":"', log.transactionHash);
  at = prefixed(buffer, at, '","transactionIndex":"', log.transactionIndex);
  at = prefixed(buffer, at, '","logIndex":"', log.logIndex);
  return ascii(buffer, at, log.removed ? '","removed":true}' : '","removed":false}');
}

/** `prefix` then `value`, both ASCII. */
function prefixed(buffer: Buffer, at: number, prefix: string, value: string): number {
  return ascii(buffer, ascii(buffer, at, prefix), value);
}

function quotedOrNull(buffer: Buffer, at: number, value: string | null): number {
  if (value === null) return ascii(buffer, at, 'null');
  buffer[at++] = 0x22; // "
  at = ascii(buffer, at, value);
  buffer[at++] = 0x22;
  return at;
}

/** The characters of `text` (ASCII) as bytes at `at`; answers where they end. */
function ascii(buffer: Buffer, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) buffer[at + i] = text.charCodeAt(i);
  return at + text.length;
}
