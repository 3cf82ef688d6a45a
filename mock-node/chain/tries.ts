// Ordered tries (transactions, receipts, withdrawals): key rlp(index), value the item's
// consensus encoding. Roots are computed by @ethereumjs/mpt. The pending block only ever
// appends, so its tries grow incrementally instead of being rebuilt every flashblock.
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { encodeRlp } from 'ethers';
import { bytesToHex, hexToBytes, rlpQuantity, type Hex } from './hex';

export class OrderedTrie {
  private readonly trie = new MerklePatriciaTrie();
  private count = 0;
  private tail: Promise<unknown> = Promise.resolve();

  get size(): number {
    return this.count;
  }

  /** Appends items in order; resolves to the new root. */
  append(items: readonly Hex[]): Promise<Hex> {
    const run = this.tail.then(async () => {
      for (const item of items) {
        await this.trie.put(hexToBytes(encodeRlp(rlpQuantity(this.count))), hexToBytes(item));
        this.count++;
      }
      return bytesToHex(this.trie.root());
    });
    this.tail = run.catch(() => undefined);
    return run;
  }
}

export async function orderedTrieRoot(items: readonly Hex[]): Promise<Hex> {
  return new OrderedTrie().append(items);
}
