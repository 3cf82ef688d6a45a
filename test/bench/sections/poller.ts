// Extension-host-like CPU with pending on and nothing changing: test/bench/pollerProbe.ts in its
// own process (mock node in-process in manual mode, the explorer's model and poller at 200 ms).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Row } from '../table';
import { size, type BenchConfig } from './config';

const PROBE = join(__dirname, '..', 'pollerProbe.ts');

export function runPollerProbe(seconds: number): Promise<{ cpuPercent: number; ticks: number; changedNodes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', PROBE, String(seconds)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`poller probe exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!));
      } catch (error) {
        reject(error);
      }
    });
  });
}

export async function pollerRows(config: BenchConfig): Promise<Row[]> {
  const seconds = size(config, 10, 2);
  const result = await runPollerProbe(seconds);
  return [
    {
      section: 'extension host',
      what: 'CPU with pending on and nothing changing (explorer model + poller at 200 ms, mock node in-process, manual mode)',
      unit: '% of a core',
      mock: { value: result.cpuPercent, cpu: `${result.ticks} ticks in ${seconds} s, ${result.changedNodes} tree refreshes` },
      better: 'lower',
      target: { text: '≤ 3%', holds: (row) => row.mock.value <= 3 },
    },
  ];
}
