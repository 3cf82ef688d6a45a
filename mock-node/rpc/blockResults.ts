// The results of the block reads (eth_getBlockBy*, with hashes or full transactions, and
// eth_getBlockReceipts), made once per block and kept with their JSON text for the few blocks
// read last: a client polling `latest` or `pending` gets the same object and the same bytes
// until the block it names changes. Keyed by the block record itself: a sealed block's record
// never changes, and the pending block is a new snapshot at every change, so a kept result is
// never stale. Bounded, so a client walking the whole chain keeps nothing extra.
import type { BlockRecord } from '../chain/types';
import type { PendingIdentity } from '../options';
import { withKnownText } from './jsonText';
import { blockJson, receiptJson, type Json } from './shapes';

interface Kept {
  identity: PendingIdentity;
  hashes?: Json;
  full?: Json;
  receipts?: Json[];
}

/** Blocks whose results are kept: the latest few and pending cover every poller. */
const KEPT_BLOCKS = 8;
const kept = new Map<BlockRecord, Kept>();

function entry(block: BlockRecord, identity: PendingIdentity): Kept {
  let found = kept.get(block);
  if (found === undefined || found.identity !== identity) {
    found = { identity };
    if (kept.size >= KEPT_BLOCKS) kept.delete(kept.keys().next().value!);
    kept.set(block, found);
  }
  return found;
}

/** eth_getBlockBy*'s result for `block`. */
export function blockResult(block: BlockRecord, fullTransactions: boolean, identity: PendingIdentity): Json {
  const found = entry(block, identity);
  if (fullTransactions) return (found.full ??= withKnownText(blockJson(block, true, identity)));
  return (found.hashes ??= withKnownText(blockJson(block, false, identity)));
}

/** eth_getBlockReceipts's result for `block`. */
export function receiptsResult(block: BlockRecord, identity: PendingIdentity): Json[] {
  const found = entry(block, identity);
  return (found.receipts ??= withKnownText(block.transactions.map((item) => receiptJson(block, item, identity))));
}
