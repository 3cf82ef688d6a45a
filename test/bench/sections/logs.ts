// eth_getLogs over 2,000 blocks of 4 token transfers each (8,000 Transfer logs), built the same
// way on both nodes in manual mode (send 4, evm_mine), then queried over HTTP: a filter that
// matches nothing, and one that returns all 8,000 logs. Median of 10, with server CPU per query;
// the 8,000 logs also as the first such query alone (the mock node keeps the log objects of the
// blocks it read last, so the median of 10 reads mostly from those; the first reads nothing kept).
import { deployBenchToken } from '../benchToken';
import { startAnvilNode, startMockCli, withCpu, type BenchNode } from '../processes';
import { call, median, post, rpcBody } from '../rpcClient';
import type { Figure, Row } from '../table';
import { devKeys, nonces, signTransaction, tokenTransferData } from '../traffic';
import { MOCK_TOKEN, NOT_INSTALLED, size, type BenchConfig } from './config';

const PER_BLOCK = 4;
const chainBlocks = (config: BenchConfig) => size(config, 2000, 40);
/** A topic no log has: the `to` of a Transfer that never happened. */
const NOBODY = '0x' + '00'.repeat(12) + 'ff'.repeat(20);

interface LogFigures {
  none: Figure;
  all: Figure;
  /** The first query that returns the logs: nothing rendered before. */
  firstAll: Figure;
  count: number;
}

async function buildChain(node: BenchNode, token: string, blocks: number): Promise<void> {
  const keys = devKeys(PER_BLOCK);
  const next = await nonces(node.url, keys);
  for (let b = 0; b < blocks; b++) {
    await Promise.all(
      keys.map(async (key, i) => {
        const raw = signTransaction(key, { to: token, data: tokenTransferData(keys[(i + 1) % PER_BLOCK].address, 1n), nonce: next[i]++, gasLimit: 100_000n });
        const reply = await post(node.url, rpcBody('eth_sendRawTransaction', [raw]));
        if (reply.error) throw new Error(`eth_sendRawTransaction: ${reply.error.message}`);
      }),
    );
    await call(node.url, 'evm_mine', []);
  }
}

async function timeQuery(node: BenchNode, filter: object, runs: number): Promise<{ figure: Figure; first: Figure; count: number }> {
  const times: number[] = [];
  const cpus: number[] = [];
  let count = 0;
  for (let i = 0; i < runs; i++) {
    const { value, cpuMs, wallMs } = await withCpu(node.pid, () => call<unknown[]>(node.dedicatedUrl, 'eth_getLogs', [filter]));
    times.push(wallMs);
    cpus.push(cpuMs);
    count = value.length;
  }
  const cpuTotal = cpus.reduce((a, b) => a + b, 0);
  return {
    figure: { value: median(times), cpu: `${(cpuTotal / runs).toFixed(1)} ms CPU/query` },
    first: { value: times[0], cpu: `${cpus[0].toFixed(1)} ms CPU` },
    count,
  };
}

async function measure(config: BenchConfig, node: BenchNode, token: string): Promise<LogFigures> {
  const blocks = chainBlocks(config);
  await buildChain(node, token, blocks);
  const head = BigInt(await call(node.url, 'eth_blockNumber'));
  const fromBlock = '0x' + (head - BigInt(blocks) + 1n).toString(16);
  const runs = size(config, 10, 3);
  const none = await timeQuery(node, { fromBlock, toBlock: 'latest', topics: [null, null, NOBODY] }, runs);
  const all = await timeQuery(node, { fromBlock, toBlock: 'latest', address: token }, runs);
  if (none.count !== 0) throw new Error(`${node.kind}: the filter matching nothing returned ${none.count} logs`);
  return { none: none.figure, all: all.figure, firstAll: all.first, count: all.count };
}

export async function logs(config: BenchConfig): Promise<Row[]> {
  const blocks = chainBlocks(config);
  const mockNode = await startMockCli({ manual: true, extraArgs: ['--dedicated-max-log-results', '0'] });
  let mock: LogFigures;
  try {
    mock = await measure(config, mockNode, MOCK_TOKEN);
  } finally {
    await mockNode.stop();
  }
  let anvil: LogFigures | undefined;
  const binary = config.anvil;
  if (binary) {
    const node = await startAnvilNode(binary, { manual: true });
    try {
      const [deployer] = devKeys(PER_BLOCK + 1).slice(PER_BLOCK);
      const token = await deployBenchToken(node.url, deployer, devKeys(PER_BLOCK).map((k) => k.address), 10n ** 12n);
      anvil = await measure(config, node, token);
    } finally {
      await node.stop();
    }
  }
  const expected = blocks * PER_BLOCK;
  if (mock.count !== expected) throw new Error(`mock node: ${mock.count} logs, expected ${expected}`);
  const notSlower = (row: Row) => (row.anvil && Number.isFinite(row.anvil.value) ? row.mock.value <= row.anvil.value : undefined);
  return [
    {
      section: 'eth_getLogs',
      what: `a filter matching nothing over ${blocks.toLocaleString('en-US')} blocks`,
      unit: 'ms',
      mock: mock.none,
      anvil: anvil?.none ?? NOT_INSTALLED,
      better: 'lower',
      target: { text: '≤ 1 ms', holds: (row) => row.mock.value <= 1 },
    },
    {
      section: 'eth_getLogs',
      what: `${expected.toLocaleString('en-US')} logs over ${blocks.toLocaleString('en-US')} blocks`,
      unit: 'ms',
      mock: mock.all,
      anvil: anvil?.all ?? NOT_INSTALLED,
      better: 'lower',
      target: { text: '≤ Anvil', holds: notSlower },
    },
    {
      section: 'eth_getLogs',
      what: `${expected.toLocaleString('en-US')} logs over ${blocks.toLocaleString('en-US')} blocks, the first such query (no block's logs rendered before)`,
      unit: 'ms',
      mock: mock.firstAll,
      anvil: anvil?.firstAll ?? NOT_INSTALLED,
      better: 'lower',
      target: { text: '≤ Anvil', holds: notSlower },
    },
  ];
}
