// eth_getBlockByNumber, eth_getBlockByHash, eth_getBlockReceipts, the per-block counts and the
// transaction lookups by block and index. A block that does not exist (a number above the head,
// an unknown hash) is a `null` result for every one of them, as the execution-apis say
// (`oneOf: [notFound, …]`); only state reads answer `header not found`.
import { quantity } from '../../encoding/hex';
import type { BlockRecord } from '../../chain/types';
import { findBlock } from '../blockResolution';
import { parseBlockSelector, parseBoolean, parseHash, parseQuantity, type BlockSelector } from '../params';
import { blockResult, receiptsResult } from '../blockResults';
import { blockRef, transactionJson, type Json } from '../shapes';
import type { MethodTable, NodeServices } from './types';

function byHash(params: readonly unknown[]): BlockSelector {
  return { kind: 'hash', hash: parseHash(params[0], 0, 'block hash'), requireCanonical: false };
}

function transactionAt(node: NodeServices, block: BlockRecord | null, rawIndex: unknown): Json | null {
  const index = parseQuantity(rawIndex, 1, 'index');
  const item = block && index < BigInt(block.transactions.length) ? block.transactions[Number(index)] : undefined;
  return item ? transactionJson(item.tx, blockRef(block!, node.options.pendingIdentity), item.index, block!.header.baseFeePerGas) : null;
}

export const blockMethods: MethodTable = {
  eth_getBlockByNumber: (params, { node }) => {
    const selector = parseBlockSelector(params[0], 0);
    const full = parseBoolean(params[1], 1, 'fullTransactions');
    const block = findBlock(node.chain, selector);
    return block ? blockResult(block, full, node.options.pendingIdentity) : null;
  },
  eth_getBlockByHash: (params, { node }) => {
    const selector = byHash(params);
    const full = parseBoolean(params[1], 1, 'fullTransactions');
    const block = findBlock(node.chain, selector);
    return block ? blockResult(block, full, node.options.pendingIdentity) : null;
  },
  eth_getBlockReceipts: (params, { node }) => {
    const block = findBlock(node.chain, parseBlockSelector(params[0], 0));
    if (!block) return null;
    return receiptsResult(block, node.options.pendingIdentity);
  },
  eth_getBlockTransactionCountByNumber: (params, { node }) => {
    const block = findBlock(node.chain, parseBlockSelector(params[0], 0));
    return block ? quantity(block.transactions.length) : null;
  },
  eth_getBlockTransactionCountByHash: (params, { node }) => {
    const block = findBlock(node.chain, byHash(params));
    return block ? quantity(block.transactions.length) : null;
  },
  eth_getTransactionByBlockNumberAndIndex: (params, { node }) => {
    return transactionAt(node, findBlock(node.chain, parseBlockSelector(params[0], 0)), params[1]);
  },
  eth_getTransactionByBlockHashAndIndex: (params, { node }) => {
    return transactionAt(node, findBlock(node.chain, byHash(params)), params[1]);
  },
  eth_getUncleCountByBlockNumber: (params, { node }) => {
    return findBlock(node.chain, parseBlockSelector(params[0], 0)) ? '0x0' : null;
  },
  eth_getUncleCountByBlockHash: (params, { node }) => {
    return findBlock(node.chain, byHash(params)) ? '0x0' : null;
  },
};
