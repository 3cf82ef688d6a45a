// A long run on an in-process mock node (manual mode, so the heap can be measured after a full
// GC): 100,000 token transfers, 50 per block, each with its receipt and Transfer log. Reports
// the heap retained per sealed transaction, and a filter that matches nothing over the whole
// chain once it holds 10,000 logs and again at 100,000 (time should follow matches, not length).
import { startMockNode, type RunningMockNode } from '../../../mock-node/index';
import type { Row } from '../table';
import { devKeys, signTransaction, tokenTransferData } from '../traffic';
import { size, type BenchConfig } from './config';

const PER_BLOCK = 50;
const NOBODY = '0x' + '00'.repeat(12) + 'ff'.repeat(20);

function heapMiB(): number {
  global.gc?.();
  global.gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

async function nothingQuery(node: RunningMockNode, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const logs = (await node.request('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [null, null, NOBODY] }])) as unknown[];
    times.push(performance.now() - started);
    if (logs.length !== 0) throw new Error('the filter matching nothing matched');
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export async function longRunRows(config: BenchConfig): Promise<Row[]> {
  const total = Number(process.env.BENCH_LONG_TX ?? size(config, 100_000, 500));
  const checkpoint = total / 10;
  const node = await startMockNode({ port: 0, auto: false, quiet: true, accounts: PER_BLOCK, limits: { dedicated: { maxLogBlockRange: 0, maxLogResults: 0 } } });
  try {
    const keys = devKeys(PER_BLOCK);
    const token = node.tokenAddress;
    const heapBefore = heapMiB();
    const rssBefore = process.memoryUsage().rss / 2 ** 20;
    let sent = 0;
    let atCheckpoint = NaN;
    const started = performance.now();
    for (let nonce = 0; sent < total; nonce++) {
      for (let i = 0; i < PER_BLOCK && sent < total; i++, sent++) {
        const raw = signTransaction(keys[i], { to: token, data: tokenTransferData(keys[(i + 1) % PER_BLOCK].address, 1n), nonce, gasLimit: 100_000n });
        await node.request('eth_sendRawTransaction', [raw]);
      }
      await node.request('evm_mine');
      if (Number.isNaN(atCheckpoint) && sent >= checkpoint) atCheckpoint = await nothingQuery(node, 5);
    }
    const builtSeconds = (performance.now() - started) / 1000;
    const atEnd = await nothingQuery(node, 5);
    const retainedKiB = ((heapMiB() - heapBefore) * 1024) / total;
    const rssKiB = ((process.memoryUsage().rss / 2 ** 20 - rssBefore) * 1024) / total;
    const n = (v: number) => v.toLocaleString('en-US');
    return [
      {
        section: 'memory',
        what: `heap retained per sealed transaction over a ${n(total)}-transaction run (receipt and log included)`,
        unit: 'KiB',
        mock: { value: retainedKiB, cpu: `RSS +${rssKiB.toFixed(2)} KiB/tx; built at ${Math.round(total / builtSeconds)} tx/s in-process incl. signing` },
        better: 'lower',
        target: { text: '≤ 1 KiB', holds: (row) => row.mock.value <= 1 },
      },
      {
        section: 'eth_getLogs',
        what: `a filter matching nothing over the whole chain: ${n(checkpoint)} logs → ${n(total)} logs`,
        unit: 'ms',
        mock: { value: atEnd, cpu: `${atCheckpoint.toFixed(2)} ms at ${n(checkpoint)} logs, ×${(atEnd / atCheckpoint).toFixed(1)}` },
        better: 'lower',
        target: { text: 'grows with matches, not length (≤ 2× for 10× the logs)', holds: () => atEnd <= 2 * atCheckpoint },
      },
    ];
  } finally {
    await node.stop();
  }
}
