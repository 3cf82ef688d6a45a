// eth_getBlockByNumber, eth_getBlockByHash, eth_getBlockReceipts and the per-block counts.
import { quantity } from '../../chain/hex';
import { findBlock } from '../blockResolution';
import { parseBlockSelector, parseBoolean, parseHash } from '../params';
import { blockJson, receiptJson } from '../shapes';
import type { MethodTable } from './types';

export const blockMethods: MethodTable = {
  eth_getBlockByNumber: (params, { node }) => {
    const selector = parseBlockSelector(params[0], 0);
    const full = parseBoolean(params[1], 1, 'fullTransactions');
    const block = findBlock(node.chain, selector);
    return block ? blockJson(block, full, node.options.pendingIdentity) : null;
  },
  eth_getBlockByHash: (params, { node }) => {
    const hash = parseHash(params[0], 0, 'block hash');
    const full = parseBoolean(params[1], 1, 'fullTransactions');
    const block = findBlock(node.chain, { kind: 'hash', hash, requireCanonical: false });
    return block ? blockJson(block, full, node.options.pendingIdentity) : null;
  },
  eth_getBlockReceipts: (params, { node }) => {
    const block = findBlock(node.chain, parseBlockSelector(params[0], 0));
    if (!block) return null;
    return block.transactions.map((item) => receiptJson(block, item, node.options.pendingIdentity));
  },
  eth_getBlockTransactionCountByNumber: (params, { node }) => {
    const block = findBlock(node.chain, parseBlockSelector(params[0], 0));
    return block ? quantity(block.transactions.length) : null;
  },
  eth_getBlockTransactionCountByHash: (params, { node }) => {
    const block = findBlock(node.chain, { kind: 'hash', hash: parseHash(params[0], 0, 'block hash'), requireCanonical: false });
    return block ? quantity(block.transactions.length) : null;
  },
  // No uncles on this chain: the param is still checked, as every node does.
  eth_getUncleCountByBlockNumber: (params) => (parseBlockSelector(params[0], 0), '0x0'),
  eth_getUncleCountByBlockHash: (params) => (parseHash(params[0], 0, 'block hash'), '0x0'),
};
