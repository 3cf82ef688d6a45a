// Chain identity, head and fee suggestions.
import { quantity } from '../../encoding/hex';
import { invalidParams } from '../errors';
import { parseBlockSelector, parseQuantity } from '../params';
import { findBlock } from '../blockResolution';
import type { MethodTable } from './types';

export const CLIENT_VERSION = 'chain-mock-node/0.1.0';
/** The tip the node suggests (Base-like: a small fraction of a gwei). */
export const SUGGESTED_PRIORITY_FEE = 1_000_000n;

export const chainInfoMethods: MethodTable = {
  eth_chainId: (_params, { node }) => quantity(node.options.chainId),
  net_version: (_params, { node }) => node.options.chainId.toString(),
  net_listening: () => true,
  net_peerCount: () => '0x0',
  web3_clientVersion: () => CLIENT_VERSION,
  eth_syncing: () => false,
  eth_mining: (_params, { node }) => node.chain.miningMode.kind !== 'none',
  eth_blockNumber: (_params, { node }) => quantity(node.chain.head),
  eth_accounts: (_params, { node }) => node.accounts.addresses(),
  eth_gasPrice: (_params, { node }) => quantity(node.chain.baseFeeForNextBlock() + SUGGESTED_PRIORITY_FEE),
  eth_maxPriorityFeePerGas: () => quantity(SUGGESTED_PRIORITY_FEE),
  eth_blobBaseFee: () => '0x1',
  eth_feeHistory: (params, { node }) => {
    if (typeof params[0] === 'number' && !Number.isSafeInteger(params[0])) throw invalidParams('invalid argument 0: blockCount must be a whole number');
    const count = typeof params[0] === 'number' ? BigInt(params[0]) : parseQuantity(params[0], 0, 'blockCount');
    if (count < 1n || count > 1024n) throw invalidParams('invalid argument 0: blockCount must be from 1 to 1024');
    const newest = findBlock(node.chain, parseBlockSelector(params[1], 1));
    if (!newest) throw invalidParams('invalid argument 1: block not found');
    const percentiles = params[2] === undefined || params[2] === null ? undefined : params[2];
    if (percentiles !== undefined && (!Array.isArray(percentiles) || percentiles.some((p) => typeof p !== 'number' || p < 0 || p > 100))) {
      throw invalidParams('invalid argument 2: reward percentiles must be numbers from 0 to 100');
    }
    const newestNumber = newest.header.number;
    const oldest = newestNumber + 1n - count > 0n ? newestNumber + 1n - count : 0n;
    const baseFees: string[] = [];
    const ratios: number[] = [];
    const rewards: string[][] = [];
    for (let n = oldest; n <= newestNumber; n++) {
      const block = n === node.chain.pending.header.number ? node.chain.pending : node.chain.blockByNumber(n)!;
      baseFees.push(quantity(block.header.baseFeePerGas));
      ratios.push(Number(block.header.gasUsed) / Number(block.header.gasLimit));
      if (percentiles) {
        // A deposit (OP Stack) buys no gas: it has no tip to count.
        const tips = block.transactions
          .filter((item) => item.tx.deposit === undefined)
          .map((item) => item.receipt.effectiveGasPrice - block.header.baseFeePerGas)
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        rewards.push((percentiles as number[]).map((p) => quantity(tips.length ? tips[Math.min(tips.length - 1, Math.floor((p / 100) * tips.length))] : 0n)));
      }
    }
    baseFees.push(quantity(newestNumber === node.chain.head ? node.chain.baseFeeForNextBlock() : (node.chain.blockByNumber(newestNumber + 1n) ?? node.chain.pending).header.baseFeePerGas));
    const result: Record<string, unknown> = {
      oldestBlock: quantity(oldest),
      baseFeePerGas: baseFees,
      gasUsedRatio: ratios,
      baseFeePerBlobGas: baseFees.map(() => '0x1'),
      blobGasUsedRatio: ratios.map(() => 0),
    };
    if (percentiles) result.reward = rewards;
    return result;
  },
};
