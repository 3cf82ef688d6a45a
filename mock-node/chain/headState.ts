// The head block as state reads see it once a state setter (anvil_setStorageAt, anvil_setBalance,
// mock_mint ...) changed the current state without a new block, as Anvil does: the latest
// block's header, hash and transactions, with the state after those changes. Its header's
// stateRoot still names the state the block sealed with (so it no longer covers the changes);
// the state's own root (what eth_getProof proves against) does. When the next block seals, the
// changes are part of it (they were applied to the pending block too) and this view goes.
import type { StateLayer } from '../state/worldState';
import type { BlockRecord } from './types';

export class HeadStateView implements BlockRecord {
  readonly sealed = true;

  constructor(
    /** The sealed head block the changes were made over. */
    readonly block: BlockRecord,
    /** Its state with the changes made since it sealed. */
    readonly state: StateLayer,
  ) {}

  get header(): BlockRecord['header'] {
    return this.block.header;
  }

  get hash(): BlockRecord['hash'] {
    return this.block.hash;
  }

  get size(): number {
    return this.block.size;
  }

  get transactions(): BlockRecord['transactions'] {
    return this.block.transactions;
  }

  get logs(): BlockRecord['logs'] {
    return this.block.logs;
  }

  get flashblockIndex(): number {
    return this.block.flashblockIndex;
  }

  get systemChanges(): BlockRecord['systemChanges'] {
    return this.block.systemChanges;
  }
}
