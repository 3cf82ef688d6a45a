// A viem test suite as Anvil users write it (test/bench/viemSuite.ts: 200 cases of snapshot, deal
// or deployment, three automined token transfers waited for by receipt, readContract, getLogs,
// revert), run against the mock node's CLI and against Anvil with USDC at the same address, the
// two in turn on fresh nodes; the row is the suite's wall time, the median of the rounds.
import { bytesToHex, type Hex } from 'viem';
import { createdAddress } from '../../../mock-node/execution/createdAddress';
import { installUsdc } from '../../helpers/usdcOnAnvil';
import { fmt, type Row } from '../table';
import { startAnvilNode, startMockCli, withCpu, type BenchNode } from '../processes';
import { call, median } from '../rpcClient';
import { devKeys } from '../traffic';
import { viemSuite, type CaseResult, type SuiteNode } from '../viemSuite';
import { MOCK_TOKEN, NOT_INSTALLED, profileArgs, size, type BenchConfig } from './config';

const cases = (config: BenchConfig) => size(config, 200, 10);
const rounds = (config: BenchConfig) => size(config, 3, 1);
/** Dev accounts the suite uses: one sender, the rest recipients and deal holders. */
const ACCOUNTS = 5;

export interface SuiteRun {
  wallMs: number;
  cpuMs: number;
  results: CaseResult[];
  /** Receipt requests beyond one a transaction: viem polled (every 50 ms) for a receipt the node had not written when it answered the hash. */
  receiptPolls: number;
}

/** The mock node's genesis token storage (Anvil is given the same). */
export async function mockTokenStorage(url: string): Promise<Record<string, string>> {
  const dump = await call(url, 'mock_dumpState');
  return dump.blocks[0].state.storage[MOCK_TOKEN.toLowerCase()] as Record<string, string>;
}

/** Anvil (automine, its default) with FiatTokenV2_2 behind its proxy at the mock's token address. */
export async function startAnvilWithUsdc(binary: string, storage: Record<string, string>): Promise<BenchNode> {
  const node = await startAnvilNode(binary, { automine: true });
  try {
    const token = MOCK_TOKEN.toLowerCase();
    await installUsdc(node.url, { token, implementation: createdAddress(token, 1), signatureChecker: createdAddress(token, 2) }, storage);
  } catch (error) {
    await node.stop();
    throw error;
  }
  return node;
}

/** The suite's `count` cases on `node`, timed from the first case's start to the last's end. */
export async function runSuite(node: BenchNode, count: number): Promise<SuiteRun> {
  const target: SuiteNode = { url: node.url, token: MOCK_TOKEN.toLowerCase() as Hex, keys: devKeys(ACCOUNTS).map((k) => bytesToHex(k.privateKey)) };
  const suite = viemSuite(target);
  await suite.setup();
  const start = suite.counts();
  const results: CaseResult[] = [];
  const { cpuMs, wallMs } = await withCpu(node.pid, async () => {
    for (let i = 0; i < count; i++) {
      try {
        results.push(await suite.runCase(i));
      } catch (error) {
        throw new Error(`the suite on ${node.kind === 'mock' ? 'the mock node' : 'Anvil'}, case ${i}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
      }
    }
  });
  const end = suite.counts();
  return { wallMs, cpuMs, results, receiptPolls: end.receiptRequests - start.receiptRequests - (end.sent - start.sent) };
}

export async function suiteRows(config: BenchConfig): Promise<Row[]> {
  const count = cases(config);
  const mockRuns: SuiteRun[] = [];
  const anvilRuns: SuiteRun[] = [];
  let storage: Record<string, string> | undefined;
  // A run that fails (a case's check, or a receipt that never comes: Anvil 1.7.1 now and then
  // answers an automined transaction's hash and never mines it) is left out of the figures and
  // named in the row's note; a node with no complete run has no figure.
  const failures: string[] = [];
  for (let round = 0; round < rounds(config); round++) {
    // The order alternates from round to round, so a change in the machine's load meets both.
    const order = round % 2 === 0 ? ['mock', 'anvil'] : ['anvil', 'mock'];
    for (const kind of order) {
      if (kind === 'mock') {
        const node = await startMockCli({ nodeArgs: profileArgs(config, `suite-${round}`) });
        try {
          storage ??= await mockTokenStorage(node.url);
          mockRuns.push(await runSuite(node, count));
        } catch (error) {
          failures.push((error as Error).message);
        } finally {
          await node.stop();
        }
      } else if (config.anvil) {
        if (!storage) {
          const probe = await startMockCli();
          storage = await mockTokenStorage(probe.url).finally(() => probe.stop());
        }
        const node = await startAnvilWithUsdc(config.anvil, storage);
        try {
          anvilRuns.push(await runSuite(node, count));
        } catch (error) {
          failures.push((error as Error).message);
        } finally {
          await node.stop();
        }
      }
    }
  }
  const figure = (runs: SuiteRun[]) => {
    if (runs.length === 0) return { value: NaN, cpu: 'no complete run' };
    const walls = runs.map((r) => r.wallMs);
    const range = runs.length > 1 ? `, median of ${runs.length} fresh nodes (${fmt(Math.min(...walls))}–${fmt(Math.max(...walls))} ms)` : '';
    const polls = runs.map((r) => r.receiptPolls);
    return { value: median(walls), cpu: `${fmt(median(runs.map((r) => r.cpuMs)))} ms node CPU, ${polls.join('/')} receipt polls${range}` };
  };
  return [
    {
      section: 'suite',
      what: `a viem test suite of ${count} cases (snapshot, deal or deployment, 3 automined token transfers each waited for by receipt, readContract, getLogs, revert), wall time`,
      unit: 'ms',
      mock: figure(mockRuns),
      anvil: config.anvil ? figure(anvilRuns) : NOT_INSTALLED,
      better: 'lower',
      target: { text: '≤ Anvil', holds: (row) => (row.anvil && Number.isFinite(row.anvil.value) ? row.mock.value <= row.anvil.value : undefined) },
      note:
        'Anvil: FiatTokenV2_2 behind its proxy at the same address; viem polls every 50 ms for a receipt not there when it first asks, the receipt polls of each run beside the CPU' +
        (failures.length ? `; left out, ${failures.length} failed run(s): ${failures.join('; ')}` : ''),
    },
  ];
}
