// Turns a block parameter into one immutable block: the sealed block, or the pending snapshot.
import type { Chain } from '../chain/chain';
import type { BlockRecord } from '../chain/types';
import { invalidInput } from './errors';
import type { BlockSelector, BlockTag } from './params';

export function blockNumberForTag(chain: Chain, tag: BlockTag): bigint {
  switch (tag) {
    case 'latest':
      return chain.head;
    case 'pending':
      return chain.head + 1n;
    case 'safe':
      return chain.safeNumber();
    case 'finalized':
      return chain.finalizedNumber();
    case 'earliest':
      return 0n;
  }
}

/** The block a selector names, or null when there is none (a number above the head, an unknown hash). */
export function findBlock(chain: Chain, selector: BlockSelector): BlockRecord | null {
  switch (selector.kind) {
    case 'tag':
      return selector.tag === 'pending' ? chain.pending : (chain.blockByNumber(blockNumberForTag(chain, selector.tag)) ?? null);
    case 'number':
      return chain.blockByNumber(selector.number) ?? null;
    case 'hash':
      if (chain.pending.hash === selector.hash && !selector.requireCanonical) return chain.pending;
      return chain.blockByHash(selector.hash) ?? null;
  }
}

/**
 * The block whose state a read sees; geth's errors when there is none. The head block (by tag,
 * number or hash) reads its current state: with the state setters' changes since it sealed, as
 * on Anvil (chain.stateView).
 */
export function stateBlock(chain: Chain, selector: BlockSelector): BlockRecord {
  const block = findBlock(chain, selector);
  if (block) return chain.stateView(block);
  if (selector.kind === 'hash') throw invalidInput(`header for hash not found`);
  throw invalidInput('header not found');
}
