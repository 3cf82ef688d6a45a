// What a forked chain starts from: the upstream's fork block (its header and hash, kept as they
// are) and the upstream's state at that block, fetched lazily (upstream/upstreamState.ts).
import type { BlockHeader } from '../encoding/header';
import type { Hex } from '../encoding/hex';
import type { UpstreamClient } from '../upstream/upstreamClient';
import type { UpstreamState } from '../upstream/upstreamState';

export interface ForkBase {
  client: UpstreamClient;
  state: UpstreamState;
  /** The upstream's block N, as it has it. */
  header: BlockHeader;
  hash: Hex;
  size: number;
}
