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

interface Header {
  list: boolean;
  /** Where the payload starts and ends. */
  start: number;
  end: number;
}

function header(data: Uint8Array, at: number): Header {
  if (at >= data.length) throw new RlpError('rlp: unexpected end');
  const b = data[at];
  if (b < 0x80) return { list: false, start: at, end: at + 1 };
  let list = false;
  let short = b - 0x80;
  if (b >= 0xc0) {
    list = true;
    short = b - 0xc0;
  }
  if (short < 56) {
    const end = at + 1 + short;
    if (end > data.length) throw new RlpError('rlp: item past the end');
    // A single byte under 0x80 must be itself, not a one-byte string.
    if (!list && short === 1 && data[at + 1] < 0x80) throw new RlpError('rlp: non-canonical single byte');
    return { list, start: at + 1, end };
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
  return { list, start, end };
}

function decodeAt(data: Uint8Array, at: number): { value: RlpValue; end: number } {
  const h = header(data, at);
  if (!h.list) return { value: data.subarray(h.start, h.end), end: h.end };
  const list: RlpList = { items: [], starts: [], ends: [] };
  let position = h.start;
  while (position < h.end) {
    const item = decodeAt(data, position);
    if (item.end > h.end) throw new RlpError('rlp: item past its list');
    list.items.push(item.value);
    list.starts.push(position);
    list.ends.push(item.end);
    position = item.end;
  }
  return { value: list, end: h.end };
}

/** Decodes one RLP item that spans all of `data`. */
export function decodeRlpBytes(data: Uint8Array): RlpValue {
  const { value, end } = decodeAt(data, 0);
  if (end !== data.length) throw new RlpError('rlp: trailing bytes');
  return value;
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
