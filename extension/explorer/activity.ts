// A log filter that follows the last N blocks: matches accumulate as blocks arrive, and a reorg's
// dropped logs stay in the list as `removed: true` replays (as a node's log subscription sends
// them). Over HTTP there is no subscription: each new head re-reads a window of recent blocks,
// and a log that was there and is gone has been removed. The merge is pure. No vscode import.
import type { LogFilterSetting } from './chainData';

/** Blocks re-read at every new head to see reorgs (deeper ones are not noticed). */
export const REORG_WINDOW = 64n;
/** Matches kept per filter (the oldest go first). */
export const MAX_ACTIVITY = 200;

const n = (v: unknown): bigint => (typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v) ? BigInt(v) : -1n);
const key = (log: Record<string, unknown>): string => `${String(log.blockHash)}:${String(log.logIndex)}`;

function newestFirst(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const byBlock = n(b.blockNumber) - n(a.blockNumber);
  if (byBlock !== 0n) return byBlock < 0n ? -1 : 1;
  if (a.removed !== b.removed) return a.removed ? -1 : 1; // a replay shows above what replaced it
  const byIndex = n(b.logIndex) - n(a.logIndex);
  return byIndex === 0n ? 0 : byIndex < 0n ? -1 : 1;
}

/**
 * Merges a fresh read of blocks [from, to] into the accumulated logs: logs of that range that are
 * no longer there become removed replays, new ones are added; logs older than `keepFrom` go.
 */
export function mergeActivity(
  accumulated: readonly Record<string, unknown>[], fresh: readonly Record<string, unknown>[], from: bigint, keepFrom: bigint,
): Record<string, unknown>[] {
  const freshKeys = new Set(fresh.map(key));
  const kept: Record<string, unknown>[] = [];
  const known = new Set<string>();
  for (const log of accumulated) {
    const block = n(log.blockNumber);
    if (block < keepFrom) continue;
    if (log.removed === true) {
      kept.push(log);
      continue;
    }
    known.add(key(log));
    if (block >= from && !freshKeys.has(key(log))) kept.push({ ...log, removed: true });
    else kept.push(log);
  }
  for (const log of fresh) if (!known.has(key(log))) kept.push(log);
  return kept.sort(newestFirst).slice(0, MAX_ACTIVITY);
}
