// Blooms of 64 sealed blocks at a time (the OR of their logsBloom), so that eth_getLogs skips 64
// blocks with one probe when none of them can hold a match: a filter that matches nothing costs
// one probe per 64 blocks instead of one per block. A group's bloom is made on first use and
// kept with the group's last block: a reorg, a revert or a loaded state replaces a suffix of the
// chain, and any group it touches then has a different last block, so a kept bloom is never stale.
import { BLOOM_BYTES } from './bloom';
import { bytesToHex, type Hex } from './hex';
import type { BlockRecord } from './types';

export const BLOOM_GROUP = 64;

const groupBlooms = new WeakMap<BlockRecord, Hex>();

/** The OR of the logsBloom of blocks start … start + 63, all sealed (`blockAt` reads them). */
export function groupBloom(blockAt: (n: number) => BlockRecord, start: number): Hex {
  const last = blockAt(start + BLOOM_GROUP - 1);
  let bloom = groupBlooms.get(last);
  if (bloom === undefined) {
    const bits = new Uint8Array(BLOOM_BYTES);
    for (let n = start; n < start + BLOOM_GROUP; n++) {
      const block = blockAt(n);
      if (block.logs.length === 0) continue;
      const blockBits = Buffer.from(block.header.logsBloom.slice(2), 'hex');
      for (let i = 0; i < BLOOM_BYTES; i++) bits[i] |= blockBits[i];
    }
    bloom = bytesToHex(bits);
    groupBlooms.set(last, bloom);
  }
  return bloom;
}
