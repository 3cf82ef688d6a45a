// The token reads the explorer makes by eth_call, and the Transfer topic its log searches use,
// both from the token kit's ABI. No vscode import.
import { Interface } from 'ethers';
import { EVENT_TOPICS, STABLE_TOKEN_ABI } from '../../mock-node/tokenKit/index';

export const tokenReads = new Interface(STABLE_TOKEN_ABI.filter((fragment) => fragment.startsWith('function ')));

/** topic0 of `Transfer(address,address,uint256)`: the same for every ERC-20 token. */
export const TRANSFER_TOPIC = EVENT_TOPICS.Transfer;

export function encodeBalanceOf(address: string): string {
  return tokenReads.encodeFunctionData('balanceOf', [address]);
}

/** A uint256 return value; undefined when the answer is not one (no token at that address). */
export function decodeUint256(data: string): bigint | undefined {
  if (!/^0x[0-9a-fA-F]{64}$/.test(data)) return undefined;
  return BigInt(data);
}
