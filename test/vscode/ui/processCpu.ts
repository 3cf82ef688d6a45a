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
 * until a 1 s slice uses under `below` (3 %) of a core, or `maxMs` (15 s) in all. A steady cost
 * above that is still measured after the wait; only a transient one is waited out.
 */
export async function settled(pid: number, options: { below?: number; maxMs?: number } = {}): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 3000));
  for (const deadline = Date.now() + (options.maxMs ?? 15_000) - 3000; Date.now() < deadline;) {
    if (await measureCpu(pid, 1000) < (options.below ?? 0.03)) return;
  }
}

/** CPU seconds of `pid`'s reaped children (cutime + cstime): the commands it ran and waited for. */
export function childrenCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

/** User + system CPU seconds of each thread of `pid`, keyed by thread id, with the thread's name. */
function threadSeconds(pid: number): Map<string, { name: string; seconds: number }> {
  const threads = new Map<string, { name: string; seconds: number }>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      threads.set(tid, { name, seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND });
    } catch {
      // the thread ended
    }
  }
  return threads;
}

export interface CpuBreakdown {
  /** Share of one core used by the process itself (all its threads). */
  total: number;
  /** Per thread name (threads of one name summed: "libuv-worker" ×4), busiest first. */
  threads: { name: string; share: number }[];
  /** Share of one core used by the children it started and reaped meanwhile. */
  children: number;
}

/** Like measureCpu, split by thread name, plus the reaped children's CPU. */
export async function measureCpuBreakdown(pid: number, ms: number): Promise<CpuBreakdown> {
  const before = threadSeconds(pid);
  const childrenBefore = childrenCpuSeconds(pid);
  const totalBefore = cpuSeconds(pid);
  const started = process.hrtime.bigint();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const after = threadSeconds(pid);
  const byName = new Map<string, number>();
  for (const [tid, thread] of after) {
    const used = thread.seconds - (before.get(tid)?.seconds ?? 0);
    if (used > 0) byName.set(thread.name, (byName.get(thread.name) ?? 0) + used);
  }
  return {
    total: (cpuSeconds(pid) - totalBefore) / elapsed,
    threads: [...byName].sort((a, b) => b[1] - a[1]).map(([name, seconds]) => ({ name, share: seconds / elapsed })),
    children: (childrenCpuSeconds(pid) - childrenBefore) / elapsed,
  };
}

/** "1.2% (node 0.9%, libuv-worker 0.3%; children 0.4%)". */
export function formatBreakdown(b: CpuBreakdown): string {
  const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
  const threads = b.threads.filter((t) => t.share >= 0.0005).map((t) => `${t.name} ${pct(t.share)}`).join(', ');
  return `${pct(b.total)} (threads: ${threads || 'none'}; children it ran: ${pct(b.children)})`;
}
