// Intake (2,000 pre-signed ETH transfers, then 1,000 token transfers, from 10 senders as 10
// concurrent streams; the median of 5 fresh nodes of each kind, run in turn, with their range),
// resident memory once those 3,000 are sealed, then reads under a pipelined load, on the mock node
// (auto mode) and on Anvil (2 s block time) side by side.
import { fmt, type Figure, type Row } from '../table';
import { cpuTimeMs, rssMiB, startAnvilNode, startMockCli, withCpu, type BenchNode } from '../processes';
import { call, median, pipelinedLoad, rpcBody } from '../rpcClient';
import { deployBenchToken } from '../benchToken';
import { devKeys, ethTransfers, nonces, SENDERS, sendStreams, tokenTransfers, waitSealed, warmLoadGenerator } from '../traffic';
import { MOCK_TOKEN, NOT_INSTALLED, profileArgs, size, type BenchConfig } from './config';

const ethTransfersPerSender = (config: BenchConfig) => size(config, 200, 20);
const tokenTransfersPerSender = (config: BenchConfig) => size(config, 100, 10);

/**
 * The intake rows are the median of this many fresh nodes of each kind, run alternately. On the
 * bench's two cores one run of either node can differ from the next by a third (which core the
 * node's main thread lands on, and what the load generator does beside it): five runs, with their
 * range beside the median, show that spread instead of hiding it.
 */
const intakeRuns = (config: BenchConfig) => size(config, 5, 1);

interface IntakeFigures {
  /** Accepted transactions per second (wall), and node CPU per accepted transaction (µs). */
  eth: number;
  token: number;
  ethCpu: number;
  tokenCpu: number;
}

interface NodeFigures {
  intake: IntakeFigures[];
  rss: Figure;
  reads: Map<string, { rps: Figure; cpu: Figure }>;
}

const READS: [label: string, method: string, params: (sender: string) => unknown[]][] = [
  ['eth_blockNumber', 'eth_blockNumber', () => []],
  ['eth_getBlockByNumber latest', 'eth_getBlockByNumber', () => ['latest', false]],
  ['eth_getBlockByNumber pending', 'eth_getBlockByNumber', () => ['pending', false]],
  ['eth_getTransactionCount pending', 'eth_getTransactionCount', (sender) => [sender, 'pending']],
  ['eth_getStorageAt pending', 'eth_getStorageAt', (sender) => [sender, '0x0', 'pending']],
  ['eth_getLogs latest', 'eth_getLogs', () => [{ fromBlock: 'latest', toBlock: 'latest' }]],
  ['eth_getBlockReceipts latest', 'eth_getBlockReceipts', () => ['latest']],
];

async function intake(node: BenchNode, streams: string[][]): Promise<{ rate: number; cpu: number }> {
  const count = streams.reduce((n, s) => n + s.length, 0);
  const { cpuMs, value } = await withCpu(node.pid, () => sendStreams(node.url, streams));
  return { rate: count / (value.wallMs / 1000), cpu: (cpuMs * 1000) / count };
}

/** A fresh node's intake: the ETH transfers, sealed, then the token transfers, sealed. */
async function measureIntake(config: BenchConfig, node: BenchNode, token: string): Promise<IntakeFigures> {
  const keys = devKeys(SENDERS);
  const ethPerSender = ethTransfersPerSender(config);
  const tokenPerSender = tokenTransfersPerSender(config);
  const start = await nonces(node.url, keys);
  const eth = await intake(node, await ethTransfers(node.url, keys, ethPerSender));
  await waitSealed(node.url, keys, start.map((n) => n + ethPerSender));
  const tokens = await intake(node, await tokenTransfers(node.url, keys, token, tokenPerSender));
  await waitSealed(node.url, keys, start.map((n) => n + ethPerSender + tokenPerSender));
  return { eth: eth.rate, token: tokens.rate, ethCpu: eth.cpu, tokenCpu: tokens.cpu };
}

/** Resident memory once the intake is sealed, then the reads under a pipelined load. */
async function measureReads(config: BenchConfig, node: BenchNode): Promise<Pick<NodeFigures, 'rss' | 'reads'>> {
  const keys = devKeys(SENDERS);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rss = { value: rssMiB(node.pid) };

  const reads = new Map<string, { rps: Figure; cpu: Figure }>();
  const load = { connections: 8, depth: 8, durationMs: size(config, 3000, 300), maxRequests: 500_000 };
  await pipelinedLoad(node.url, rpcBody('eth_chainId', []), { ...load, durationMs: size(config, 1000, 100) }); // warm-up
  for (const [label, method, params] of READS) {
    const body = rpcBody(method, params(keys[0].address));
    const target = method === 'eth_getBlockReceipts' ? node.dedicatedUrl : node.url;
    // The same read first, unmeasured, on both nodes: the measured window is the steady state,
    // not the JIT compiling this method's path (the quick windows are too short to hide it).
    await pipelinedLoad(target, body, { ...load, durationMs: size(config, 500, 100) });
    const cpuBefore = cpuTimeMs(node.pid);
    const result = await pipelinedLoad(target, body, load);
    const cpuMs = cpuTimeMs(node.pid) - cpuBefore;
    if (result.errors > 0) throw new Error(`${node.kind} ${label}: ${result.errors} errors`);
    reads.set(label, { rps: { value: result.rps, cpu: `p50 ${result.p50.toFixed(2)} ms` }, cpu: { value: (cpuMs * 1000) / result.requests } });
  }
  return { rss, reads };
}

/**
 * One fresh node (`start`; `token` gives the token its transfers go to): its intake, and with
 * `reads` its memory and reads too.
 */
async function freshRun(config: BenchConfig, start: () => Promise<BenchNode>, token: (node: BenchNode) => Promise<string>, reads: boolean): Promise<NodeFigures | IntakeFigures> {
  const node = await start();
  try {
    const figures = await measureIntake(config, node, await token(node));
    return reads ? { intake: [figures], ...(await measureReads(config, node)) } : figures;
  } finally {
    await node.stop();
  }
}

/** The bench's ERC-20 on a fresh Anvil, deployed from an account outside the 10 senders (their nonces start at 0, as on the mock node). */
async function deployAnvilToken(node: BenchNode): Promise<string> {
  const keys = devKeys(SENDERS);
  const [deployer] = devKeys(SENDERS + 1).slice(SENDERS);
  await call(node.url, 'anvil_setBalance', [deployer.address, '0x' + (10n ** 22n).toString(16)]);
  return deployBenchToken(node.url, deployer, keys.map((k) => k.address), 10n ** 12n);
}

/** The intake figures of several runs as the rows show them: the median of each. */
function intakeFigures(runs: readonly IntakeFigures[]): { eth: Figure; token: Figure; ethCpu: Figure; tokenCpu: Figure } {
  const m = (pick: (f: IntakeFigures) => number) => median(runs.map(pick));
  const range = (pick: (f: IntakeFigures) => number, unit: string) => {
    if (runs.length < 2) return '';
    const values = runs.map(pick);
    return `, median of ${runs.length} fresh nodes (${fmt(Math.min(...values))}–${fmt(Math.max(...values))} ${unit})`;
  };
  return {
    eth: { value: m((f) => f.eth), cpu: `${Math.round(m((f) => f.ethCpu))} µs CPU/tx${range((f) => f.eth, 'tx/s')}` },
    token: { value: m((f) => f.token), cpu: `${Math.round(m((f) => f.tokenCpu))} µs CPU/tx${range((f) => f.token, 'tx/s')}` },
    ethCpu: { value: m((f) => f.ethCpu), cpu: range((f) => f.ethCpu, 'µs').replace(/^, /, '') || undefined },
    tokenCpu: { value: m((f) => f.tokenCpu), cpu: range((f) => f.tokenCpu, 'µs').replace(/^, /, '') || undefined },
  };
}

export async function intakeAndReads(config: BenchConfig): Promise<Row[]> {
  await warmLoadGenerator(size(config, 4, 1));
  const binary = config.anvil;
  const runs = intakeRuns(config);
  // Fresh nodes, the mock node and Anvil in turn, so a change in the machine's load meets both; the
  // last node of each kind stays for the memory and read rows.
  const mockIntakes: IntakeFigures[] = [];
  const anvilIntakes: IntakeFigures[] = [];
  let mockLast: NodeFigures | undefined;
  let anvilLast: NodeFigures | undefined;
  const mockStart = () => startMockCli({ nodeArgs: profileArgs(config, 'intake') });
  for (let run = 0; run < runs; run++) {
    const last = run === runs - 1;
    const mockRun = await freshRun(config, mockStart, async () => MOCK_TOKEN, last);
    if ('intake' in mockRun) {
      mockLast = mockRun;
      mockIntakes.push(...mockRun.intake);
    } else mockIntakes.push(mockRun);
    if (!binary) continue;
    const anvilRun = await freshRun(config, () => startAnvilNode(binary), deployAnvilToken, last);
    if ('intake' in anvilRun) {
      anvilLast = anvilRun;
      anvilIntakes.push(...anvilRun.intake);
    } else anvilIntakes.push(anvilRun);
  }
  const mock = { ...intakeFigures(mockIntakes), rss: mockLast!.rss, reads: mockLast!.reads };
  const anvil = anvilLast ? { ...intakeFigures(anvilIntakes), rss: anvilLast.rss, reads: anvilLast.reads } : undefined;
  const eth = ethTransfersPerSender(config) * SENDERS;
  const tokens = tokenTransfersPerSender(config) * SENDERS;
  const higher = (need: number) => (row: Row) => (row.anvil && Number.isFinite(row.anvil.value) ? row.mock.value >= need * row.anvil.value : undefined);
  const atMostAnvil = (row: Row) => (row.anvil && Number.isFinite(row.anvil.value) ? row.mock.value <= row.anvil.value : undefined);
  const rows: Row[] = [
    {
      section: 'intake',
      what: `eth_sendRawTransaction accepted, ${eth.toLocaleString('en-US')} pre-signed ETH transfers from ${SENDERS} senders`,
      unit: 'tx/s',
      mock: mock.eth,
      anvil: anvil?.eth ?? NOT_INSTALLED,
      better: 'higher',
      target: { text: '≥ 1.0× Anvil', holds: higher(1) },
    },
    {
      section: 'intake',
      what: `the same with ${tokens.toLocaleString('en-US')} token transfers`,
      unit: 'tx/s',
      mock: mock.token,
      anvil: anvil?.token ?? NOT_INSTALLED,
      better: 'higher',
      target: { text: '≥ 1.0× Anvil', holds: higher(1) },
      note: 'Anvil: an ERC-20 in its EVM',
    },
    {
      section: 'intake',
      what: 'node CPU per accepted ETH transfer (/proc)',
      unit: 'µs',
      mock: mock.ethCpu,
      anvil: anvil?.ethCpu ?? NOT_INSTALLED,
      better: 'lower',
      target: { text: '≤ 1.0× Anvil', holds: atMostAnvil },
    },
    {
      section: 'intake',
      what: 'node CPU per accepted token transfer (/proc)',
      unit: 'µs',
      mock: mock.tokenCpu,
      anvil: anvil?.tokenCpu ?? NOT_INSTALLED,
      better: 'lower',
      target: { text: '≤ 1.0× Anvil', holds: atMostAnvil },
    },
    {
      section: 'memory',
      what: `RSS after those ${(eth + tokens).toLocaleString('en-US')} transactions`,
      unit: 'MiB',
      mock: mock.rss,
      anvil: anvil?.rss ?? NOT_INSTALLED,
      better: 'lower',
      target: { text: '≤ 2× Anvil', holds: (row) => (row.anvil && Number.isFinite(row.anvil.value) ? row.mock.value <= 2 * row.anvil.value : undefined) },
    },
  ];
  for (const [label] of READS) {
    rows.push({
      section: 'reads',
      what: `${label}, pipelined load`,
      unit: 'req/s',
      mock: mock.reads.get(label)!.rps,
      anvil: anvil?.reads.get(label)!.rps ?? NOT_INSTALLED,
      better: 'higher',
      target: { text: '≥ 1.0× Anvil', holds: higher(1) },
    });
    rows.push({
      section: 'reads',
      what: `${label}, server CPU per request (/proc)`,
      unit: 'µs',
      mock: mock.reads.get(label)!.cpu,
      anvil: anvil?.reads.get(label)!.cpu ?? NOT_INSTALLED,
      better: 'lower',
      target: { text: '≤ Anvil', holds: atMostAnvil },
    });
  }
  return rows;
}
