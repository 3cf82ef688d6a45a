// The one place where the upstream's chain id decides a forked chain's rules. Today: where the
// chain's USDC lives, so that a fork of Base or Base Sepolia runs the real USDC as the token
// unless --token-address says otherwise. The Base preset (presetForChainId, OP Stack block
// building and L1 fees) is meant to be looked up here too.
import type { Hex } from '../encoding/hex';

export interface UpstreamChainRules {
  /** Circle's USDC on that chain: the fork's token when --token-address is not given. */
  usdc?: Hex;
}

const RULES: ReadonlyMap<bigint, UpstreamChainRules> = new Map([
  [8453n, { usdc: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' }],
  [84532n, { usdc: '0x036cbd53842c5426634e7929541ec2318f3dcf7e' }],
]);

export function rulesForUpstreamChain(chainId: bigint): UpstreamChainRules {
  return RULES.get(chainId) ?? {};
}
