// mock_reorg(depth, options?): replaces the newest `depth` sealed blocks with new ones.
//   options.order     "reverse" (default): each new block holds its block's transactions in
//                     reverse order; "same": the same order (hashes still change: new timestamps)
//   options.leaveOut  transaction hashes to leave out of the new blocks and return to the queue
//                     (they land in the pending block), or a number n: the newest n transactions
// Answers { depth, removed: [old hashes], added: [new hashes], returned: [tx hashes] }.
import type { Hex } from '../../encoding/hex';
import type { TransactionRecord } from '../../chain/types';
import { invalidParams } from '../errors';
import { parseHash, parseInteger } from '../params';
import type { MethodTable } from './types';

export interface ReorgPlanOptions {
  order: 'reverse' | 'same';
  leaveOut: Set<Hex> | number;
}

export function parseReorgOptions(raw: unknown): ReorgPlanOptions {
  const result: ReorgPlanOptions = { order: 'reverse', leaveOut: 0 };
  if (raw === undefined || raw === null) return result;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalidParams('invalid argument 1: reorg options must be an object');
  const o = raw as Record<string, unknown>;
  for (const key of Object.keys(o)) if (key !== 'order' && key !== 'leaveOut') throw invalidParams(`invalid argument 1: unknown reorg option ${key}`);
  if (o.order !== undefined) {
    if (o.order !== 'reverse' && o.order !== 'same') throw invalidParams('invalid argument 1: order must be "reverse" or "same"');
    result.order = o.order;
  }
  if (o.leaveOut !== undefined) {
    if (typeof o.leaveOut === 'number') {
      if (!Number.isSafeInteger(o.leaveOut) || o.leaveOut < 0) throw invalidParams('invalid argument 1: leaveOut must be a count or a list of hashes');
      result.leaveOut = o.leaveOut;
    } else if (Array.isArray(o.leaveOut)) {
      result.leaveOut = new Set(o.leaveOut.map((hash) => parseHash(hash, 1, 'leaveOut hash')));
    } else {
      throw invalidParams('invalid argument 1: leaveOut must be a count or a list of hashes');
    }
  }
  return result;
}

/** Which transactions go into each new block and which return to the queue. */
export function planReorg(blocks: TransactionRecord[][], options: ReorgPlanOptions): { blocks: TransactionRecord[][]; returned: TransactionRecord[] } {
  let leaveOut: Set<Hex>;
  if (typeof options.leaveOut === 'number') {
    const all = blocks.flat();
    leaveOut = new Set(all.slice(Math.max(0, all.length - options.leaveOut)).map((tx) => tx.hash));
  } else {
    leaveOut = options.leaveOut;
  }
  const returned: TransactionRecord[] = [];
  const planned = blocks.map((txs) => {
    const kept = txs.filter((tx) => {
      if (!leaveOut.has(tx.hash)) return true;
      returned.push(tx);
      return false;
    });
    return options.order === 'reverse' ? kept.reverse() : kept;
  });
  return { blocks: planned, returned };
}

export const reorgControlMethods: MethodTable = {
  mock_reorg: async (params, { node }) => {
    const depth = parseInteger(params[0], 0, 'depth');
    if (depth < 1n || depth > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidParams('invalid argument 0: depth must be a whole number of at least 1');
    const value = Number(depth);
    const options = parseReorgOptions(params[1]);
    // The depth is checked against what exists (above the safe block) before anything walks the
    // blocks: a depth past it is refused by chain.reorg() with the deepest reorg allowed, and the
    // walk below never goes further than the blocks a reorg may replace.
    const head = node.chain.head;
    const deepest = head - node.chain.safeNumber();
    if (options.leaveOut instanceof Set && BigInt(value) <= deepest) {
      const known = new Set<Hex>();
      for (let n = head - BigInt(value) + 1n; n <= head; n++) for (const item of node.chain.blockByNumber(n)?.transactions ?? []) known.add(item.tx.hash);
      for (const hash of options.leaveOut) if (!known.has(hash)) throw invalidParams(`invalid argument 1: transaction ${hash} is not in the ${value} newest blocks`);
    }
    const result = await node.chain.reorg(value, (blocks) => planReorg(blocks, options));
    return {
      depth: value,
      removed: result.removed.map((block) => block.hash),
      added: result.added.map((block) => block.hash),
      returned: result.returned.map((tx) => tx.hash),
    };
  },
};
