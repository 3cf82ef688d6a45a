// Whether a block's logsBloom (2048 bits: each log's address and topics set three bits) may hold a
// log a filter matches. "No" is certain; "yes" may be a false positive. A bloom that is missing or
// not 256 bytes says "may": only a well-formed bloom lets a read be skipped. No vscode import.
import { getBytes, keccak256 } from 'ethers';

const BLOOM_HEX = /^0x[0-9a-fA-F]{512}$/;

/** The filter shape eth_getLogs takes: an address or several, topics by position (null: any). */
export interface BloomFilter {
  address?: string | string[];
  topics?: (string | string[] | null)[];
}

function contains(bloom: Uint8Array, value: string): boolean {
  if (!/^0x[0-9a-fA-F]*$/.test(value) || value.length % 2 !== 0) return true;
  const hash = getBytes(keccak256(value));
  for (let i = 0; i < 6; i += 2) {
    const bit = ((hash[i] << 8) | hash[i + 1]) & 2047;
    if ((bloom[255 - (bit >> 3)] & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}

/** Any of `values` may be in the bloom (an empty list of alternatives matches anything). */
function anyOf(bloom: Uint8Array, values: string | string[]): boolean {
  const list = Array.isArray(values) ? values : [values];
  return list.length === 0 || list.some((v) => contains(bloom, v));
}

export function bloomMayMatch(logsBloom: unknown, filter: BloomFilter): boolean {
  if (typeof logsBloom !== 'string' || !BLOOM_HEX.test(logsBloom)) return true;
  const bloom = getBytes(logsBloom);
  if (bloom.every((b) => b === 0)) return false; // no log at all
  if (filter.address !== undefined && !anyOf(bloom, filter.address)) return false;
  for (const topic of filter.topics ?? []) {
    if (topic !== null && !anyOf(bloom, topic)) return false;
  }
  return true;
}
