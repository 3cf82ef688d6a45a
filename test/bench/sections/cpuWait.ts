// How long the bench process's main thread (the in-process node's event loop) has waited for a
// CPU while runnable, from Linux's schedstat. On a loaded machine a flashblock that lands late
// is often the operating system's doing, not the node's: the cadence rows print this beside
// their figure so the two can be told apart.
import { readFileSync } from 'node:fs';

/** Milliseconds the main thread has spent runnable but not running since it started (NaN where unknown). */
export function mainThreadCpuWaitMs(): number {
  try {
    const fields = readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8').split(' ');
    return Number(fields[1]) / 1e6;
  } catch {
    return NaN;
  }
}

/** The text for a row: the worst single interval's wait for a CPU, and the total over the intervals. */
export function cpuWaitText(waits: readonly number[]): string {
  if (waits.length < 2 || waits.some(Number.isNaN)) return '';
  const per = waits.slice(1).map((w, i) => w - waits[i]);
  return `; the node's thread waited for a CPU up to ${Math.max(...per).toFixed(1)} ms in one interval (${(waits[waits.length - 1] - waits[0]).toFixed(0)} ms in all)`;
}
