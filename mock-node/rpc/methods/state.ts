// Account and storage reads at any block: eth_getBalance, eth_getCode, eth_getStorageAt,
// eth_getTransactionCount. `pending` reads the state after the newest flashblock. The seed's two
// reads (storage, transaction count) require the block parameter; balance and code default to latest.
import { quantity, word } from '../../encoding/hex';
import { stateBlock } from '../blockResolution';
import { parseAddress, parseBlockSelector, parseSlot, type BlockSelector } from '../params';
import type { MethodTable } from './types';

const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' };

function blockParam(params: readonly unknown[], index: number): BlockSelector {
  return params[index] === undefined || params[index] === null ? LATEST : parseBlockSelector(params[index], index);
}

export const stateMethods: MethodTable = {
  eth_getBalance: (params, { node }) => {
    const address = parseAddress(params[0], 0);
    return quantity(stateBlock(node.chain, blockParam(params, 1)).state.account(address).balance);
  },
  eth_getCode: (params, { node }) => {
    const address = parseAddress(params[0], 0);
    return stateBlock(node.chain, blockParam(params, 1)).state.account(address).code;
  },
  eth_getStorageAt: (params, { node }) => {
    const address = parseAddress(params[0], 0);
    const slot = parseSlot(params[1], 1);
    return word(stateBlock(node.chain, parseBlockSelector(params[2], 2)).state.storage(address, slot));
  },
  eth_getTransactionCount: (params, { node }) => {
    const address = parseAddress(params[0], 0);
    const selector = parseBlockSelector(params[1], 1);
    // The seed: "the nonce to use for the account's next transaction". With the default `pool`
    // count, transactions accepted and still queued for the next flashblock count too (as geth
    // and Anvil); `preconfirmed` counts the flashblocks only (as Base).
    if (selector.kind === 'tag' && selector.tag === 'pending' && node.options.pendingNonce === 'pool') return quantity(node.chain.nextNonce(address));
    return quantity(stateBlock(node.chain, selector).state.account(address).nonce);
  },
};
