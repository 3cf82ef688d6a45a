// Flashblock cadence (auto mode, 200 ms) and submit-to-pending latency, on an in-process mock
// node (the flashblock events are read directly): how far each flashblock lands from its
// 200 ms slot, and how long a sent transaction takes to show in the pending block. The transfers
// are signed before the node starts: the client shares the node's event loop here, and its own
// signing (ethers, cold at first) would hold the node's timer, which a real client's would not.
import { startMockNode } from '../../../mock-node/index';
import { percentile, post, rpcBody } from '../rpcClient';
import type { Row } from '../table';
import { devKeys, signTransaction } from '../traffic';
import { size, type BenchConfig } from './config';
import { cpuWaitText, mainThreadCpuWaitMs } from './cpuWait';

export async function cadenceRows(config: BenchConfig): Promise<Row[]> {
  const [sender, receiver] = devKeys(2);
  const samples = size(config, 40, 5);
  const signed = Array.from({ length: samples }, (_, i) => signTransaction(sender, { to: receiver.address, value: 1n, nonce: i, gasLimit: 21_000n }));
  const node = await startMockNode({ port: 0, quiet: true });
  try {
    const chain = node.core.services.chain;
    const stamps: number[] = [];
    const waits: number[] = [];
    const seen = new Map<string, number>();
    chain.on('flashblock', (_pending, added) => {
      const now = performance.now();
      stamps.push(now);
      waits.push(mainThreadCpuWaitMs());
      for (const item of added) seen.set(item.tx.hash, now);
    });
    const latencies: number[] = [];
    for (let i = 0; i < samples; i++) {
      const sentAt = performance.now();
      const reply = await post(node.url, rpcBody('eth_sendRawTransaction', [signed[i]]));
      if (reply.error) throw new Error(reply.error.message);
      while (!seen.has(reply.result)) await new Promise((resolve) => setTimeout(resolve, 2));
      latencies.push(seen.get(reply.result)! - sentAt);
      await new Promise((resolve) => setTimeout(resolve, 37 + (i % 5) * 29));
    }
    const intervals = stamps.slice(1).map((t, i) => t - stamps[i]);
    const jitter = intervals.map((d) => Math.abs(d - 200)).sort((a, b) => a - b);
    latencies.sort((a, b) => a - b);
    return [
      {
        section: 'flashblocks',
        what: `|interval − 200 ms| p99 over ${intervals.length} intervals`,
        unit: 'ms',
        mock: { value: percentile(jitter, 99), cpu: `p50 ${percentile(jitter, 50).toFixed(1)} ms, max ${(jitter[jitter.length - 1] ?? NaN).toFixed(1)} ms${cpuWaitText(waits)}` },
        better: 'lower',
        target: { text: '≤ 5 ms', holds: (row) => row.mock.value <= 5 },
      },
      {
        section: 'flashblocks',
        what: `send → in the pending block, p50 of ${samples}`,
        unit: 'ms',
        mock: { value: percentile(latencies, 50), cpu: `p99 ${percentile(latencies, 99).toFixed(1)} ms` },
        better: 'lower',
        target: { text: '≤ one flashblock (200 ms)', holds: (row) => row.mock.value <= 200 },
      },
    ];
  } finally {
    await node.stop();
  }
}
