// A lean RLP decoder for the intake path: it reads canonical RLP into views over the input (no
// copies, no hex strings) and keeps where each item lies, so a signed transaction's signing
// payload can be cut from its own bytes instead of being encoded again. Anything not canonical
// (a long form for a short payload, a single byte under 0x80 wrapped as a string, lengths past
// the end) is refused: callers fall back to a stricter decoder for the error message.
export type RlpValue = Uint8Array | RlpList;

export interface RlpList {
  items: RlpValue[];
  /** Where each item's encoding starts and ends in the input, header included. */
  starts: number[];
  ends: number[];
}

export class RlpError extends Error {}

// The last header read (readHeader): a list or not, and where its payload starts and ends. Module
// variables rather than an object per item (a transaction has a dozen); read them at once.
let headerList = false;
let headerStart = 0;
let headerEnd = 0;

function readHeader(data: Uint8Array, at: number): void {
  if (at >= data.length) throw new RlpError('rlp: unexpected end');
  const b = data[at];
  if (b < 0x80) {
    headerList = false;
    headerStart = at;
    headerEnd = at + 1;
    return;
  }
  let list = false;
  let short = b - 0x80;
  if (b >= 0xc0) {
    list = true;
    short = b - 0xc0;
  }
  if (short < 56) {
    const end = at + 1 + short;
    if (end > data.length) throw new RlpError('rlp: item past the end');
    // A single byte under 0x80 must be itself, not a one-byte string. The byte after the header is
    // read and compared for every item that has one, not only for one-byte strings: those first
    // come late (a nonce of 128 and up), and a comparison first made after the function was
    // optimized would throw its optimized code away.
    const next = short > 0 ? data[at + 1] : 0x80;
    const lowByte = next < 0x80;
    if (lowByte && short === 1 && !list) throw new RlpError('rlp: non-canonical single byte');
    headerList = list;
    headerStart = at + 1;
    headerEnd = end;
    return;
  }
  const lengthBytes = short - 55;
  if (at + 1 + lengthBytes > data.length) throw new RlpError('rlp: length past the end');
  if (data[at + 1] === 0) throw new RlpError('rlp: length with a leading zero');
  let length = 0;
  for (let i = 0; i < lengthBytes; i++) length = length * 256 + data[at + 1 + i];
  if (length < 56) throw new RlpError('rlp: long form for a short item');
  const start = at + 1 + lengthBytes;
  const end = start + length;
  if (end > data.length) throw new RlpError('rlp: item past the end');
  headerList = list;
  headerStart = start;
  headerEnd = end;
}

/** Where the item decodeAt read last ends. */
let decodedEnd = 0;

function decodeAt(data: Uint8Array, at: number): RlpValue {
  readHeader(data, at);
  const start = headerStart;
  const end = headerEnd;
  if (!headerList) {
    decodedEnd = end;
    return data.subarray(start, end);
  }
  const list: RlpList = { items: [], starts: [], ends: [] };
  let position = start;
  while (position < end) {
    const value = decodeAt(data, position);
    const itemEnd = decodedEnd;
    if (itemEnd > end) throw new RlpError('rlp: item past its list');
    list.items.push(value);
    list.starts.push(position);
    list.ends.push(itemEnd);
    position = itemEnd;
  }
  decodedEnd = end;
  return list;
}

/** Decodes one RLP item that spans all of `data`. */
export function decodeRlpBytes(data: Uint8Array): RlpValue {
  const value = decodeAt(data, 0);
  if (decodedEnd !== data.length) throw new RlpError('rlp: trailing bytes');
  return value;
}

/**
 * The items directly inside one list, as positions (scanList fills it; reused from one scan to
 * the next): item i's encoding starts at starts[i], its payload is [payloadStarts[i], ends[i]),
 * lists[i] is 1 for a list. Nothing is copied and no object is made per item.
 */
export class ListScan {
  count = 0;
  readonly starts: Int32Array;
  readonly payloadStarts: Int32Array;
  readonly ends: Int32Array;
  readonly lists: Uint8Array;

  constructor(readonly capacity: number) {
    this.starts = new Int32Array(capacity);
    this.payloadStarts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.lists = new Uint8Array(capacity);
  }
}

/**
 * Reads the list that spans all of `data` into `scan`, checking each direct item's header as
 * decodeRlpBytes does (the items inside a nested list are not read: decode that one when it is
 * needed). False when `data` is not a list or holds more items than the scan's capacity; an
 * RlpError for what decodeRlpBytes would refuse at this level.
 */
export function scanList(data: Uint8Array, scan: ListScan): boolean {
  readHeader(data, 0);
  if (!headerList) return false;
  const end = headerEnd;
  if (end !== data.length) throw new RlpError('rlp: trailing bytes');
  let count = 0;
  let position = headerStart;
  while (position < end) {
    if (count === scan.capacity) return false;
    readHeader(data, position);
    if (headerEnd > end) throw new RlpError('rlp: item past its list');
    scan.starts[count] = position;
    scan.payloadStarts[count] = headerStart;
    scan.ends[count] = headerEnd;
    scan.lists[count] = headerList ? 1 : 0;
    count++;
    position = headerEnd;
  }
  scan.count = count;
  return true;
}

export function isList(value: RlpValue): value is RlpList {
  return !(value instanceof Uint8Array);
}

/** The header of a list whose payload is `length` bytes. */
export function listHeader(length: number): Uint8Array {
  if (length < 56) return Uint8Array.of(0xc0 + length);
  const bytes: number[] = [];
  for (let v = length; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Uint8Array.from([0xf7 + bytes.length, ...bytes]);
}
