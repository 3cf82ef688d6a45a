// `npm run bench`: measures the mock node beside Anvil (when installed) and prints one table
// with every figure, the ratio and the target. It never asserts a figure.
//   npm run bench                      full sizes (several minutes)
//   npm run bench -- --quick           small sizes: the smoke test `npm test` runs
//   npm run bench -- --json FILE       also writes every row as JSON
//   npm run bench -- --profile DIR     the mock node of the intake, capture and suite rows runs under
//                                      `node --cpu-prof`, writing its profiles into DIR
//   npm run bench -- --only a,b        only these sections (intake, startup, logs, captures,
//                                      poller, cadence, longrun, faulted, fork, suite)
// Environment: BENCH_LONG_TX (transactions of the long run), ANVIL_BIN (see test/helpers/anvil.ts).
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { anvilBinary, procAvailable } from './processes';
import { fmt, renderTable, verdicts, type Row } from './table';
import type { BenchConfig } from './sections/config';
import { intakeAndReads } from './sections/intakeAndReads';
import { startup } from './sections/startup';
import { logs } from './sections/logs';
import { captureRows } from './sections/captures';
import { pollerRows } from './sections/poller';
import { cadenceRows } from './sections/cadence';
import { longRunRows } from './sections/longRun';
import { faultedLoadRows } from './sections/faultedLoad';
import { forkRows } from './sections/fork';
import { suiteRows } from './sections/suite';

const SECTIONS: Record<string, (config: BenchConfig) => Promise<Row[]>> = {
  intake: intakeAndReads,
  startup,
  logs,
  captures: captureRows,
  poller: pollerRows,
  cadence: cadenceRows,
  longrun: longRunRows,
  faulted: faultedLoadRows,
  fork: forkRows,
  suite: suiteRows,
};

async function anvilVersion(binary: string | undefined): Promise<string> {
  if (!binary) return 'not installed (.ci/run installs it; or ANVIL_BIN)';
  const { execFileSync } = await import('node:child_process');
  return execFileSync(binary, ['--version'], { encoding: 'utf8' }).split('\n')[0];
}

function machine(): string {
  const list = cpus();
  return `${process.platform} ${process.arch}, ${list.length} × ${list[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

function loadText(): string {
  return loadavg().map((n) => n.toFixed(1)).join(' / ');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { quick: { type: 'boolean' }, json: { type: 'string' }, profile: { type: 'string' }, only: { type: 'string' } },
    strict: true,
  });
  if (!procAvailable()) throw new Error('the bench reads /proc for CPU time and memory: run it on Linux');
  const anvil = anvilBinary();
  const config: BenchConfig = { quick: !!values.quick, anvil, profileDir: values.profile };
  const names = values.only ? values.only.split(',') : Object.keys(SECTIONS);
  for (const name of names) if (!SECTIONS[name]) throw new Error(`unknown section ${name}; sections: ${Object.keys(SECTIONS).join(', ')}`);
  const command = `npm run bench${process.argv.length > 2 ? ' -- ' + process.argv.slice(2).join(' ') : ''}`;
  console.log(`command: ${command}`);
  console.log(`machine: ${machine()}`);
  console.log(`anvil:   ${await anvilVersion(anvil)}`);
  const loadAtStart = loadText();
  console.log(`load:    ${loadAtStart} (1/5/15-minute load average at the start: other work on the machine inflates every figure)`);
  const rows: Row[] = [];
  for (const name of names) {
    // A full collection of this process's heap between sections (the bench runs with --expose-gc):
    // the in-process nodes (poller, cadence, long run) share this heap, and the garbage of earlier
    // sections must not be collected inside their window, a pause that would not be their work.
    global.gc?.();
    const started = performance.now();
    const produced = await SECTIONS[name](config);
    rows.push(...produced);
    console.log(`  ${name}: ${produced.length} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    for (const row of produced) console.log(`    ${row.what}: ${fmt(row.mock.value, row.unit)}${row.anvil ? `, Anvil ${fmt(row.anvil.value, row.unit)}` : ''}`);
  }
  const loadAtEnd = loadText();
  console.log(`load:    ${loadAtEnd} at the end`);
  console.log('');
  console.log(renderTable(rows));
  // What the table was measured with, beside it (docs/performance.md pastes table and these lines together).
  const held = verdicts(rows).filter((v) => v.holds !== null);
  console.log('');
  console.log(`targets held: ${held.filter((v) => v.holds).length} of ${held.length}`);
  console.log(`command: ${command}`);
  console.log(`machine: ${machine()}`);
  console.log(`load:    ${loadAtStart} at the start, ${loadAtEnd} at the end (1/5/15-minute load average)`);
  if (values.json) writeFileSync(values.json, JSON.stringify({ command, machine: machine(), anvil: !!anvil, rows: verdicts(rows) }, null, 2));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
