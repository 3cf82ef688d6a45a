// A JSON-RPC request on a forked chain. History at or below the fork block is the upstream's and
// is asked of it (blocks, transactions, receipts and logs; state at a block before the fork
// block; a range of logs that straddles the fork block is split and merged). Everything else runs
// here, and runs again each time it meets state the upstream has not given yet, once that is
// fetched (state/forkReads.ts). An upstream that fails answers an error naming it (redacted).
import type { Chain } from '../chain/chain';
import type { ForkBase } from '../chain/forkBase';
import { quantity, type Hex } from '../encoding/hex';
import { MissingState, retryFetching, TooManyFetchRounds } from '../state/forkReads';
import { UpstreamError } from '../upstream/upstreamClient';
import { ErrorCode, RpcError } from './errors';

/** Methods whose block parameter (at this index) names a block's contents: at or below the fork block, the upstream's. */
const BLOCK_CONTENT: Readonly<Record<string, number>> = {
  eth_getBlockByNumber: 0,
  eth_getBlockReceipts: 0,
  eth_getBlockTransactionCountByNumber: 0,
  eth_getUncleCountByBlockNumber: 0,
  eth_getTransactionByBlockNumberAndIndex: 0,
  debug_traceBlockByNumber: 0,
  // A proof is of the upstream's trie: our own root covers only what the fork touched.
  eth_getProof: 2,
};

/** Methods that read state at a block (this index): before the fork block, the upstream's; at it and after, ours. */
const STATE_AT: Readonly<Record<string, number>> = {
  eth_getBalance: 1,
  eth_getTransactionCount: 1,
  eth_getCode: 1,
  eth_getStorageAt: 2,
  eth_call: 1,
  eth_estimateGas: 1,
  eth_createAccessList: 1,
  debug_traceCall: 1,
};

/** Lookups by hash: what this node does not know may be the upstream's, at or below the fork block. */
const BY_HASH = new Set([
  'eth_getBlockByHash',
  'eth_getBlockTransactionCountByHash',
  'eth_getUncleCountByBlockHash',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
]);

export type LocalRun = (params: readonly unknown[]) => unknown;

export async function forkedRequest(chain: Chain, fork: ForkBase, method: string, params: readonly unknown[], local: LocalRun): Promise<unknown> {
  try {
    return await route(chain, fork, method, params, local);
  } catch (error) {
    throw asRpcError(error, fork);
  }
}

async function route(chain: Chain, fork: ForkBase, method: string, params: readonly unknown[], local: LocalRun): Promise<unknown> {
  const forkNumber = fork.header.number;
  const content = BLOCK_CONTENT[method];
  if (content !== undefined) {
    const number = blockNumberOf(chain, params[content]);
    if (number !== undefined && number <= forkNumber) return upstream(fork, method, withBlock(params, content, number));
  }
  const stateAt = STATE_AT[method];
  if (stateAt !== undefined) {
    const number = blockNumberOf(chain, params[stateAt]);
    if (number !== undefined && number < forkNumber) return upstream(fork, method, withBlock(params, stateAt, number));
    const hash = blockHashOf(params[stateAt]);
    if (hash !== undefined && !knownHash(chain, hash)) return upstream(fork, method, params);
  }
  if (method === 'eth_getLogs') return logs(chain, fork, params, local);
  if (method === 'debug_traceTransaction' && typeof params[0] === 'string' && !chain.findTransaction(params[0].toLowerCase())) return traceUpstream(fork, params);
  if (method === 'eth_feeHistory') return runHere(chain, method, () => local(feeHistoryFromFork(chain, fork, params)));
  const answer = await runHere(chain, method, () => local(params));
  if (answer === null && BY_HASH.has(method)) return upstreamUpToFork(fork, method, params);
  return answer;
}

/**
 * Runs a method here, again after each MissingState it throws once that is fetched (a read throws
 * at its first miss, before anything changes; an execution throws everything it missed at once).
 */
function runHere(chain: Chain, _method: string, run: () => unknown): Promise<unknown> {
  const fork = chain.fork!;
  return retryFetching((missing) => fork.state.fetch(missing), run);
}

/** The upstream's answer, as it gives it (its own error answers too). */
async function upstream(fork: ForkBase, method: string, params: readonly unknown[]): Promise<unknown> {
  return fork.client.call(method, [...params]);
}

/** The upstream's answer to a lookup by hash, when what it found is at or below the fork block (else null, as for an unknown hash). */
async function upstreamUpToFork(fork: ForkBase, method: string, params: readonly unknown[]): Promise<unknown> {
  const answer = await upstream(fork, method, params);
  if (answer === null || typeof answer !== 'object') return answer;
  const record = answer as { number?: unknown; blockNumber?: unknown };
  const number = typeof record.number === 'string' ? record.number : record.blockNumber;
  if (typeof number === 'string' && /^0x[0-9a-f]+$/i.test(number) && BigInt(number) > fork.header.number) return null;
  return answer;
}

/**
 * debug_traceTransaction of a transaction at or below the fork block: the upstream's own trace (it
 * ran on the upstream's state); its error passes through when it does not serve debug_*.
 */
async function traceUpstream(fork: ForkBase, params: readonly unknown[]): Promise<unknown> {
  const tx = await upstreamUpToFork(fork, 'eth_getTransactionByHash', [params[0]]);
  if (tx === null || typeof tx !== 'object') throw new RpcError(ErrorCode.InvalidInput, `transaction ${String(params[0]).toLowerCase()} not found`);
  return upstream(fork, 'debug_traceTransaction', params);
}

/** eth_getLogs: the range's part up to the fork block from the upstream, the rest here, in block order. */
async function logs(chain: Chain, fork: ForkBase, params: readonly unknown[], local: LocalRun): Promise<unknown> {
  const filter = params[0];
  const forkNumber = fork.header.number;
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) return runHere(chain, 'eth_getLogs', () => local(params));
  const f = filter as Record<string, unknown>;
  if (f.blockHash !== undefined) {
    const hash = typeof f.blockHash === 'string' ? f.blockHash.toLowerCase() : undefined;
    if (hash === undefined || knownHash(chain, hash)) return runHere(chain, 'eth_getLogs', () => local(params));
    const found = await upstream(fork, 'eth_getLogs', params);
    return Array.isArray(found) ? found.filter((log) => atOrBelow(log, forkNumber)) : found;
  }
  const from = blockNumberOf(chain, f.fromBlock ?? 'latest');
  const to = blockNumberOf(chain, f.toBlock ?? 'latest');
  // 'pending', or a range that starts after the fork block: ours alone.
  if (from === undefined || to === undefined || from > forkNumber || from > to) return runHere(chain, 'eth_getLogs', () => local(params));
  const upTo = to < forkNumber ? to : forkNumber;
  const before = await upstream(fork, 'eth_getLogs', [{ ...f, fromBlock: quantity(from), toBlock: quantity(upTo) }]);
  if (to <= forkNumber) return before;
  const after = await runHere(chain, 'eth_getLogs', () => local([{ ...f, fromBlock: quantity(forkNumber + 1n), toBlock: quantity(to) }]));
  return [...(Array.isArray(before) ? before : []), ...(Array.isArray(after) ? after : [])];
}

/**
 * eth_feeHistory: a range reaching below the fork block starts at it (fewer blocks, as the method
 * allows): the blocks before it are the upstream's, whose fee history this node does not keep.
 */
function feeHistoryFromFork(chain: Chain, fork: ForkBase, params: readonly unknown[]): readonly unknown[] {
  const newest = blockNumberOf(chain, params[1]) ?? (params[1] === 'pending' ? chain.head + 1n : undefined);
  const count = typeof params[0] === 'string' && /^0x[0-9a-fA-F]{1,8}$/.test(params[0]) ? BigInt(params[0]) : typeof params[0] === 'number' && Number.isSafeInteger(params[0]) ? BigInt(params[0]) : undefined;
  if (newest === undefined || count === undefined || newest < fork.header.number || newest - count + 1n >= fork.header.number) return params;
  const copy = [...params];
  copy[0] = quantity(newest - fork.header.number + 1n);
  return copy;
}

function atOrBelow(log: unknown, forkNumber: bigint): boolean {
  const number = (log as { blockNumber?: unknown } | null)?.blockNumber;
  return typeof number !== 'string' || !/^0x[0-9a-f]+$/i.test(number) || BigInt(number) <= forkNumber;
}

/** The number a block parameter names (a tag resolved here); undefined for 'pending', a hash or something unreadable (answered here). */
function blockNumberOf(chain: Chain, value: unknown): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object' && !Array.isArray(value)) return blockNumberOf(chain, (value as Record<string, unknown>).blockNumber);
  if (typeof value !== 'string') return undefined;
  switch (value) {
    case 'latest':
      return chain.head;
    case 'safe':
      return chain.safeNumber();
    case 'finalized':
      return chain.finalizedNumber();
    case 'earliest':
      return 0n;
    case 'pending':
      return undefined;
  }
  if (/^0x[0-9a-fA-F]{1,16}$/.test(value)) return BigInt(value);
  return undefined;
}

function blockHashOf(value: unknown): Hex | undefined {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value)) return value.toLowerCase();
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const hash = (value as Record<string, unknown>).blockHash;
    if (typeof hash === 'string' && /^0x[0-9a-fA-F]{64}$/.test(hash)) return hash.toLowerCase();
  }
  return undefined;
}

function knownHash(chain: Chain, hash: Hex): boolean {
  try {
    return chain.blockByHash(hash) !== undefined || chain.pending.hash === hash;
  } catch {
    return true; // a pruned block of ours: the local answer says so
  }
}

/** The params with the block parameter at `index` replaced by a number (a tag means our chain's block, not the upstream's). */
function withBlock(params: readonly unknown[], index: number, number: bigint): unknown[] {
  const copy = [...params];
  copy[index] = quantity(number);
  return copy;
}

function asRpcError(error: unknown, fork: ForkBase): unknown {
  if (error instanceof UpstreamError) {
    // The upstream's own answer (a revert at an old block, a bad parameter) passes through as it is.
    if (error.rpcError) return new RpcError(error.rpcError.code, error.rpcError.message, error.rpcError.data);
    return new RpcError(ErrorCode.ResourceUnavailable, error.message);
  }
  if (error instanceof TooManyFetchRounds) return new RpcError(ErrorCode.ResourceUnavailable, `${error.message} (${fork.client.settings.shownUrl})`);
  if (error instanceof MissingState) return new RpcError(ErrorCode.Internal, `${error.message} (${fork.client.settings.shownUrl})`);
  return error;
}
