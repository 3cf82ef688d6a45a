// CPU time of a process from /proc (Linux), to measure the extension host while it polls.
import * as fs from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** User + system CPU seconds used so far by `pid`. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Pids in process group `pgid` whose command line contains `needle`. */
export function findProcesses(pgid: number, needle: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(needle)) found.push(Number(entry));
    } catch {
      // the process went away
    }
  }
  return found;
}

/** Share of one core used by `pid` over `ms` milliseconds. */
export async function measureCpu(pid: number, ms: number): Promise<number> {
  const before = cpuSeconds(pid);
  const started = process.hrtime.bigint();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return (cpuSeconds(pid) - before) / elapsed;
}

/**
 * Waits until a one-off burst of work (a switch's reads and re-render) is over: 3 s at least, then
 * until a 1 s slice uses under 3 % of a core, or 15 s in all. A steady cost above that is still
 * measured after the wait; only a transient one is waited out.
 */
export async function settled(pid: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 3000));
  for (const deadline = Date.now() + 12_000; Date.now() < deadline;) {
    if (await measureCpu(pid, 1000) < 0.03) return;
  }
}
