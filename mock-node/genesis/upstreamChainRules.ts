// The one place where the upstream's chain id decides a forked chain's rules. Today: where the
// chain's USDC lives (the chain preset's token), so that a fork of Base or Base Sepolia runs the
// real USDC as the token unless --token-address says otherwise. The preset's OP Stack block rules
// are not applied to a fork's own blocks yet (docs/forking.md says so).
import type { Hex } from '../encoding/hex';
import { presetForChainId } from '../presets/chainPresets';

export interface UpstreamChainRules {
  /** Circle's USDC on that chain: the fork's token when --token-address is not given. */
  usdc?: Hex;
}

export function rulesForUpstreamChain(chainId: bigint): UpstreamChainRules {
  const preset = presetForChainId(chainId);
  return preset === undefined ? {} : { usdc: preset.token.address.toLowerCase() };
}
