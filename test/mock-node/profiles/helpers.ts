// Shared by the profile, WebSocket, reorg and state tests: token transfers that emit logs.
import { Interface } from 'ethers';
import { EVENT_TOPICS, STABLE_TOKEN_ABI } from '../../../mock-node/tokenKit/index';
import type { RunningMockNode } from '../../../mock-node/index';
import { rpc } from '../../helpers/rpc';

const token = new Interface(STABLE_TOKEN_ABI as unknown as string[]);
export const TRANSFER_TOPIC = EVENT_TOPICS.Transfer.toLowerCase();

/** Calldata of transfer(dev account `to`, amount). */
export function transferData(node: RunningMockNode, to: number, amount: bigint): string {
  return token.encodeFunctionData('transfer', [node.accounts[to].address, amount]);
}

/** Sends a token transfer (one Transfer log) from dev account `from` to dev account `to`; returns the tx hash. */
export function sendTokenTransfer(node: RunningMockNode, from: number, to: number, amount: bigint): Promise<string> {
  const data = token.encodeFunctionData('transfer', [node.accounts[to].address, amount]);
  return rpc(node.url, 'eth_sendTransaction', [{ from: node.accounts[from].address, to: node.tokenAddress, data }]);
}

/** `count` transfers cut into one flashblock, then sealed into one block (manual mode). */
export async function blockWithTransfers(node: RunningMockNode, count: number, from = 0, to = 1): Promise<string[]> {
  const hashes: string[] = [];
  for (let i = 0; i < count; i++) hashes.push(await sendTokenTransfer(node, from, to, BigInt(i + 1)));
  await rpc(node.url, 'evm_mine');
  return hashes;
}

export function hex(n: number | bigint): string {
  return '0x' + n.toString(16);
}
