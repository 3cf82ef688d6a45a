// A block's logs as eth_getLogs answers them: each log's object, and the JSON text of all of them
// written once (LogTextWriter: the block's number, hash and timestamp made once per block, each
// log's fields written straight into the text). A query picks the logs its filter matches and
// joins their texts, so its reply is not made by walking thousands of objects again.
//
// Kept for the sealed blocks read last, bounded by the characters of text held, so a client
// polling a range reads no block twice. Found by the block record itself, as blockResults.ts: a
// sealed block's record never changes, and a block a reorg replaced or --history-blocks pruned is
// no longer the record the chain gives for its number, so its entry is never read again and ages
// out. The entries do not keep their blocks (a pruned block's record and state go when the chain
// lets them go): they are found through a WeakMap, and the order of use holds a WeakRef. The
// pending block, a new record at every flashblock, is rendered at each read and not kept.
import type { BlockRecord, LogRecord } from '../chain/types';
import type { PendingIdentity } from '../options';
import { blockRef, logJson, LogTextWriter, type LogJson } from './shapes';

export interface BlockLogs {
  readonly identity: PendingIdentity;
  /** Every log of the block, in order. */
  readonly logs: readonly LogJson[];
  /** The logs' texts joined with commas. */
  readonly text: string;
  /** Where log i's text starts in `text`; the entry past the last is text.length + 1. */
  readonly starts: Uint32Array;
}

/**
 * The bound of the kept entries, in characters of text (about as many bytes: the text is ASCII),
 * with each entry and each log object counted as the characters of memory they take.
 */
const MAX_HELD_CHARS = 8 * 1024 * 1024;
const ENTRY_CHARS = 256;
const LOG_CHARS = 128;

/** The entry of each kept block. */
const kept = new WeakMap<BlockRecord, BlockLogs>();
/** The kept entries, least recently read first, with their blocks (weakly). */
const order = new Map<BlockLogs, WeakRef<BlockRecord>>();
let heldChars = 0;

/** Renders every log of `block` (its logs read once). */
export function renderBlockLogs(block: BlockRecord, identity: PendingIdentity, records: readonly LogRecord[] = block.logs): BlockLogs {
  const logs: LogJson[] = new Array(records.length);
  const starts = new Uint32Array(records.length + 1);
  if (records.length === 0) return { identity, logs, text: '', starts };
  const ref = blockRef(block, identity);
  const writer = new LogTextWriter(ref);
  const texts: string[] = new Array(records.length);
  let at = 0;
  for (let i = 0; i < records.length; i++) {
    const log = records[i];
    logs[i] = logJson(log, ref);
    const text = writer.text(log);
    texts[i] = text;
    starts[i] = at;
    at += text.length + 1;
  }
  starts[records.length] = at;
  return { identity, logs, text: texts.join(','), starts };
}

/** The rendered logs of `block`, from the kept ones when it was read lately. */
export function blockLogs(block: BlockRecord, identity: PendingIdentity, records?: readonly LogRecord[]): BlockLogs {
  const found = keptEntry(block, identity);
  if (found !== undefined) return found;
  return keep(block, renderBlockLogs(block, identity, records));
}

/**
 * The rendered logs of `block` when `wanted` accepts one of them; undefined when it accepts none,
 * and then nothing is rendered (a block its bloom could not rule out costs only reading its logs).
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

/** Keeps a sealed block's rendered logs within the bound (the least recently read go first). */
function keep(block: BlockRecord, made: BlockLogs): BlockLogs {
  const found = kept.get(block);
  if (found !== undefined) forget(found);
  if (block.sealed && made.logs.length > 0 && made.text.length <= MAX_HELD_CHARS / 4) {
    kept.set(block, made);
    order.set(made, new WeakRef(block));
    heldChars += held(made);
    for (const entry of order.keys()) {
      if (heldChars <= MAX_HELD_CHARS) break;
      forget(entry);
    }
  }
  return made;
}

/** What an entry counts against the bound: its text, and its objects as about as many characters. */
function held(entry: BlockLogs): number {
  return entry.text.length + ENTRY_CHARS + LOG_CHARS * entry.logs.length;
}

function forget(entry: BlockLogs): void {
  const block = order.get(entry)?.deref();
  if (block !== undefined && kept.get(block) === entry) kept.delete(block);
  if (order.delete(entry)) heldChars -= held(entry);
}

/** Blocks kept and the characters they count (tests read these). */
export function keptBlockLogs(): { blocks: number; chars: number } {
  return { blocks: order.size, chars: heldChars };
}
