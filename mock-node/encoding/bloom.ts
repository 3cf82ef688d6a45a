// The 2048-bit logs bloom of the yellow paper: every log's address and topics set three bits each.
import { bytesHex, hexBytes } from './bytes';
import type { Hex } from './hex';
import { keccak256Into } from './keccak';

export const BLOOM_BYTES = 256;
/** The bloom of no logs (most receipts): one string, not 512 zero digits made per receipt. */
export const EMPTY_LOGS_BLOOM: Hex = '0x' + '00'.repeat(BLOOM_BYTES);

/** Values whose bloom bits are remembered (a token's address and Transfer topic, the senders…); past it, the memory starts over. */
const REMEMBERED_VALUES = 4096;
const bitsByValue = new Map<Hex, number>();
const hashScratch = new Uint8Array(32);

/**
 * The three bloom bits (0 to 2047 each) an address or topic sets, packed as b0 + b1·2¹¹ + b2·2²²:
 * keccak-256 of its bytes, read from the first six bytes of the hash. The same few values come
 * in log after log (one token's address and Transfer topic in every transfer), so the bits are
 * remembered by value instead of hashed again.
 */
function bloomBits(value: Hex): number {
  let packed = bitsByValue.get(value);
  if (packed === undefined) {
    keccak256Into(hexBytes(value), hashScratch, 0);
    packed = 0;
    for (let i = 0, scale = 1; i < 6; i += 2, scale *= 2048) packed += (((hashScratch[i] << 8) | hashScratch[i + 1]) & 2047) * scale;
    if (bitsByValue.size >= REMEMBERED_VALUES) bitsByValue.clear();
    bitsByValue.set(value, packed);
  }
  return packed;
}

export class LogsBloom {
  readonly bits = new Uint8Array(BLOOM_BYTES);

  add(value: Hex): void {
    let packed = bloomBits(value);
    for (let i = 0; i < 3; i++, packed = Math.floor(packed / 2048)) {
      const bit = packed % 2048;
      this.bits[BLOOM_BYTES - 1 - (bit >> 3)] |= 1 << (bit & 7);
    }
  }

  addLog(log: { address: Hex; topics: readonly Hex[] }): void {
    this.add(log.address);
    for (const topic of log.topics) this.add(topic);
  }

  merge(other: Uint8Array): void {
    for (let i = 0; i < BLOOM_BYTES; i++) this.bits[i] |= other[i];
  }

  toHex(): Hex {
    return bytesHex(this.bits);
  }
}

export function bloomOfLogs(logs: readonly { address: Hex; topics: readonly Hex[] }[]): Hex {
  if (logs.length === 0) return EMPTY_LOGS_BLOOM;
  const bloom = new LogsBloom();
  for (const log of logs) bloom.addLog(log);
  return bloom.toHex();
}

/** True when every bit of `value`'s bloom entry is set: the value may be in the bloom. */
export function bloomMayContain(bloomHex: Hex, value: Hex): boolean {
  return bloomEntry(value).every(([at, mask]) => (hexDigit(bloomHex, at) & mask) === mask);
}

/**
 * The three bits one address or topic sets in a bloom, each as [position of its hex digit in the
 * bloom's 0x-hex string, mask within that digit]: a bloom is tested in its hex form, unparsed.
 */
function bloomEntry(value: Hex): [number, number][] {
  let packed = bloomBits(value);
  const bits: [number, number][] = [];
  for (let i = 0; i < 3; i++, packed = Math.floor(packed / 2048)) {
    const bit = packed % 2048;
    const byte = BLOOM_BYTES - 1 - (bit >> 3);
    const mask = 1 << (bit & 7);
    bits.push(mask >= 16 ? [2 + 2 * byte, mask >> 4] : [3 + 2 * byte, mask]);
  }
  return bits;
}

function hexDigit(hex: string, at: number): number {
  const code = hex.charCodeAt(at);
  return code <= 57 ? code - 48 : (code | 32) - 87;
}

/**
 * What a log filter needs from a block's bloom: every part that constrains the filter (its
 * addresses, each topic position) must have one of its accepted values in the bloom. A block
 * whose bloom fails that holds no matching log and need not be scanned (a bloom may say "maybe",
 * never a false "no").
 */
export class BloomProbe {
  private readonly groups: [number, number][][][];

  /** One list of accepted values per constrained part. */
  constructor(groups: readonly (readonly Hex[])[]) {
    this.groups = groups.map((values) => values.map(bloomEntry));
  }

  mayMatch(bloomHex: Hex): boolean {
    return this.groups.every((group) => group.some((entry) => entry.every(([at, mask]) => (hexDigit(bloomHex, at) & mask) === mask)));
  }
}
