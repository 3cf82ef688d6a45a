// Ordered tries (transactions, receipts, withdrawals): key rlp(index), value the item's
// consensus encoding. The roots come from trieRoot.ts, which builds a trie from all its items at
// once; the pending block keeps an OrderedTrieBuilder per trie, which reuses the subtrees its
// earlier flashblocks filled.
import { bytesToHex, hexToBytes, type Hex } from './hex';
import { OrderedTrieBuilder, orderedTrieRootBytes } from './trieRoot';

export { OrderedTrieBuilder };

export async function orderedTrieRoot(items: readonly Hex[]): Promise<Hex> {
  return bytesToHex(orderedTrieRootBytes(items.map(hexToBytes)));
}
