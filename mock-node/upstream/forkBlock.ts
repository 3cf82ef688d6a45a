// Where a fork starts: the upstream's chain id and its block N (given, or its latest less
// FORK_BEHIND_LATEST), with the header and hash as the upstream has them.
import { EMPTY_REQUESTS_HASH, EMPTY_UNCLES_HASH, ZERO_NONCE, type BlockHeader } from '../encoding/header';
import type { Hex } from '../encoding/hex';
import { quantity } from '../encoding/hex';
import { UpstreamError, upstreamQuantity, type UpstreamClient } from './upstreamClient';

/**
 * Without --fork-block-number the fork starts this many blocks behind the upstream's latest: a
 * provider's nodes behind one load balancer lag each other by a block or two (a read at the very
 * latest may reach one that has not got it: "header not found"), and an L2's newest blocks are
 * the ones its sequencer may still replace. Five blocks is ten seconds on Base and a minute on
 * Ethereum: fresh state, on a block every node behind the URL has.
 */
export const FORK_BEHIND_LATEST = 5n;

export interface ForkStartBlock {
  chainId: bigint;
  header: BlockHeader;
  hash: Hex;
  size: number;
}

const EMPTY_TRIE_ROOT: Hex = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
const ZERO_HASH: Hex = '0x' + '00'.repeat(32);

/**
 * Asks the upstream for its chain id (unless given: --fork-chain-id) and the fork block; an
 * UpstreamError when it cannot, or when the block is above its latest.
 */
export async function findForkBlock(client: UpstreamClient, blockNumber: bigint | undefined, givenChainId?: bigint): Promise<ForkStartBlock> {
  const shown = client.settings.shownUrl;
  const asked = await client.batch([{ method: 'eth_blockNumber', params: [] }, ...(givenChainId === undefined ? [{ method: 'eth_chainId', params: [] }] : [])]);
  const latest = upstreamQuantity(asked[0], shown, 'eth_blockNumber');
  const chainId = givenChainId ?? upstreamQuantity(asked[1], shown, 'eth_chainId');
  if (blockNumber !== undefined && blockNumber > latest) {
    throw new UpstreamError(`fork block ${blockNumber} is above the latest block of the fork's upstream ${shown} (${latest})`);
  }
  const number = blockNumber ?? (latest > FORK_BEHIND_LATEST ? latest - FORK_BEHIND_LATEST : 0n);
  const block = await client.call('eth_getBlockByNumber', [quantity(number), false]);
  if (!block || typeof block !== 'object') throw new UpstreamError(`the fork's upstream ${shown} has no block ${number}`);
  return { chainId, ...headerOf(block as Record<string, unknown>, shown) };
}

/** A block's header as the upstream answered it; fields a pre-Prague chain lacks take their empty values. */
function headerOf(block: Record<string, unknown>, shown: string): { header: BlockHeader; hash: Hex; size: number } {
  const text = (name: string, fallback?: Hex): Hex => {
    const value = block[name];
    if (typeof value === 'string' && /^0x[0-9a-fA-F]*$/.test(value)) return value.toLowerCase();
    if (fallback !== undefined) return fallback;
    throw new UpstreamError(`the fork's upstream ${shown} answered a block without ${name}`);
  };
  const number = (name: string, fallback?: bigint): bigint => {
    const value = block[name];
    if (value === undefined || value === null) {
      if (fallback !== undefined) return fallback;
      throw new UpstreamError(`the fork's upstream ${shown} answered a block without ${name}`);
    }
    return upstreamQuantity(value, shown, `the block's ${name}`);
  };
  const header: BlockHeader = {
    parentHash: text('parentHash'),
    sha3Uncles: text('sha3Uncles', EMPTY_UNCLES_HASH),
    miner: text('miner'),
    stateRoot: text('stateRoot'),
    transactionsRoot: text('transactionsRoot'),
    receiptsRoot: text('receiptsRoot'),
    logsBloom: text('logsBloom'),
    difficulty: number('difficulty', 0n),
    number: number('number'),
    gasLimit: number('gasLimit'),
    gasUsed: number('gasUsed'),
    timestamp: number('timestamp'),
    extraData: text('extraData', '0x'),
    mixHash: text('mixHash', ZERO_HASH),
    nonce: text('nonce', ZERO_NONCE),
    baseFeePerGas: number('baseFeePerGas', 0n),
    withdrawalsRoot: text('withdrawalsRoot', EMPTY_TRIE_ROOT),
    blobGasUsed: number('blobGasUsed', 0n),
    excessBlobGas: number('excessBlobGas', 0n),
    parentBeaconBlockRoot: text('parentBeaconBlockRoot', ZERO_HASH),
    requestsHash: text('requestsHash', EMPTY_REQUESTS_HASH),
  };
  const size = block.size === undefined ? 0 : Number(upstreamQuantity(block.size, shown, "the block's size"));
  return { header, hash: text('hash'), size };
}
