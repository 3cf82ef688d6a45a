// The length of a FastLZ (level 1) compression of some bytes, without writing the compressed
// bytes: what the OP Stack's Fjord L1 fee estimates a transaction's size from. It follows the
// compressor the GasPriceOracle predeploy runs (solady's LibZip.flzCompress), so the node's
// receipts and the predeploy's getL1Fee agree byte for byte; a test checks them against each other.

const HASH_SIZE = 8192;
/** FastLZ level 1 looks back at most this far for a match. */
const MAX_DISTANCE = 0x1fff;

/**
 * The hash table, kept between calls: an entry counts only when its stamp is this call's
 * generation, so no call clears (or allocates) 32 KiB for a transaction of a hundred bytes.
 */
const table = new Uint32Array(HASH_SIZE);
const stamps = new Uint32Array(HASH_SIZE);
let generation = 0;

/** Bytes the compressor would write for `input`. */
export function fastLzCompressedLength(input: Uint8Array): number {
  const length = input.length;
  if (generation === 0xffffffff) {
    stamps.fill(0);
    generation = 0;
  }
  const current = ++generation;
  const lookUp = (h: number): number => (stamps[h] === current ? table[h] : 0);
  const store = (h: number, position: number): void => {
    table[h] = position;
    stamps[h] = current;
  };
  let size = 0;
  const u24 = (i: number): number => input[i] | (input[i + 1] << 8) | (input[i + 2] << 16);
  const hash = (value: number): number => (Math.imul(value, 2654435769) >>> 19) & 0x1fff;
  const literals = (run: number): void => {
    size += 0x21 * Math.floor(run / 0x20);
    const rest = run % 0x20;
    if (rest !== 0) size += rest + 1;
  };
  const match = (matched: number): void => {
    const l = matched - 1;
    size += 3 * Math.floor(l / 262);
    size += l % 262 >= 6 ? 3 : 2;
  };
  // Bytes equal from p and q on, up to `end` for q; the compressor counts one past the first difference.
  const common = (p: number, q: number, end: number): number => {
    let l = 0;
    for (let e = end - q; l < e; l++) {
      if (input[p + l] !== input[q + l]) e = 0;
    }
    return l;
  };
  let anchor = 0;
  const ipLimit = length < 13 ? 0 : length - 13;
  for (let ip = anchor + 2; ip < ipLimit; ) {
    let ref = 0;
    for (;;) {
      const sequence = u24(ip);
      const h = hash(sequence);
      ref = lookUp(h);
      store(h, ip);
      const distance = ip - ref;
      if (ip >= ipLimit) break;
      ip++;
      if (distance <= MAX_DISTANCE && sequence === u24(ref)) break;
    }
    if (ip >= ipLimit) break;
    ip--;
    if (ip > anchor) literals(ip - anchor);
    const matched = common(ref + 3, ip + 3, ipLimit + 9);
    match(matched);
    ip += matched;
    store(hash(u24(ip)), ip);
    ip++;
    store(hash(u24(ip)), ip);
    ip++;
    anchor = ip;
  }
  literals(length - anchor);
  return size;
}
