// Re-executes a block's transactions from its parent's state, each in order, so a tracer can
// watch one of them (debug_traceTransaction, debug_traceBlockBy*). The replay runs the same
// applyTransaction the builder ran, in the block's environment, with the state changes made
// outside its transactions (state setters) applied where the builder met them; it changes nothing.
import type { NativeContracts } from '../execution/execute';
import type { ExecutionTracer } from '../execution/trace/recorder';
import { StateDraft, type StateReader } from '../state/worldState';
import type { Chain } from './chain';
import { withSystemChange } from './systemChanges';
import type { BlockRecord, IncludedTransaction } from './types';

export interface ReplayedTransaction {
  included: IncludedTransaction;
  /** State before the transaction (after the block's earlier ones). */
  pre: StateReader;
  /** State after it. */
  post: StateReader;
  /** Gas the replay charged: the receipt's. */
  gasUsed: bigint;
}

/**
 * Replays `block`'s transactions up to and including index `last` (all by default); `tracerFor`
 * gives the tracer of each one, or undefined to run it untraced.
 */
export async function replayBlock(
  chain: Chain,
  contracts: NativeContracts,
  block: BlockRecord,
  tracerFor: (included: IncludedTransaction) => ExecutionTracer | undefined,
  last = block.transactions.length - 1,
): Promise<ReplayedTransaction[]> {
  const parent = chain.blockByHash(block.header.parentHash);
  if (!parent) return [];
  const env = chain.environment(block);
  const replayed: ReplayedTransaction[] = [];
  // Each transaction runs in a draft over the previous one's, so every `pre` and `post` stays as it was.
  let current: StateReader = parent.state;
  const changes = block.systemChanges ?? [];
  let nextChange = 0;
  let gasUsed = 0n;
  let logCount = 0;
  for (const included of block.transactions.slice(0, last + 1)) {
    // The changes made before this transaction (a setter between two transactions, or before the first).
    while (nextChange < changes.length && changes[nextChange].before <= included.index) current = withSystemChange(current, changes[nextChange++]);
    const draft = new StateDraft(current);
    const tracer = tracerFor(included);
    let result = chain.applyTransaction(draft, included.tx, env, contracts, block.header.gasLimit - gasUsed, logCount, included.index, tracer);
    if (result instanceof Promise) result = await result;
    replayed.push({ included, pre: current, post: draft, gasUsed: 'problem' in result ? 0n : result.receipt.gasUsed });
    current = draft;
    gasUsed += included.receipt.gasUsed;
    logCount += included.receipt.logs.length;
  }
  return replayed;
}
