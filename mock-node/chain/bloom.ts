// The 2048-bit logs bloom of the yellow paper: every log's address and topics set three bits each.
import { keccak256, getBytes } from 'ethers';
import { bytesToHex, type Hex } from './hex';

export const BLOOM_BYTES = 256;

export class LogsBloom {
  readonly bits = new Uint8Array(BLOOM_BYTES);

  add(value: Hex): void {
    const hash = getBytes(keccak256(value));
    for (let i = 0; i < 6; i += 2) {
      const bit = ((hash[i] << 8) | hash[i + 1]) & 2047;
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
    return bytesToHex(this.bits);
  }
}

export function bloomOfLogs(logs: readonly { address: Hex; topics: readonly Hex[] }[]): Hex {
  const bloom = new LogsBloom();
  for (const log of logs) bloom.addLog(log);
  return bloom.toHex();
}

/** True when every bit of `value`'s bloom entry is set: the value may be in the bloom. */
export function bloomMayContain(bloomHex: Hex, value: Hex): boolean {
  const probe = new LogsBloom();
  probe.add(value);
  const bloom = getBytes(bloomHex);
  for (let i = 0; i < BLOOM_BYTES; i++) if ((bloom[i] & probe.bits[i]) !== probe.bits[i]) return false;
  return true;
}
