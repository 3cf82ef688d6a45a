// Start-up: wall time from spawning the process to its first eth_chainId answer, median of 7: the
// CLI bundle on Node, the single executable (when `npm run build:sea` has built it) and Anvil.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK_CLI, timeToFirstAnswer } from '../processes';
import { freePort, median } from '../rpcClient';
import type { Row } from '../table';
import { NOT_INSTALLED, size, type BenchConfig } from './config';

async function medianStart(runs: number, command: string, args: (port: number) => string[]): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const port = await freePort();
    times.push(await timeToFirstAnswer(command, args(port), port));
  }
  return median(times);
}

const SEA = join(__dirname, '..', '..', '..', 'dist', process.platform === 'win32' ? 'chain-mock-node.exe' : 'chain-mock-node');

export async function startup(config: BenchConfig): Promise<Row[]> {
  const runs = size(config, 7, 2);
  const mock = await medianStart(runs, process.execPath, (port) => [MOCK_CLI, '--port', String(port), '--quiet']);
  const binary = config.anvil;
  const anvil = binary ? await medianStart(runs, binary, (port) => ['--port', String(port), '--silent']) : NaN;
  const sea = existsSync(SEA) ? await medianStart(runs, SEA, (port) => ['--port', String(port), '--quiet']) : undefined;
  const seaRow: Row[] = sea === undefined ? [] : [{
    section: 'start-up',
    what: `the single executable (dist/chain-mock-node), process start to first eth_chainId answer (median of ${runs})`,
    unit: 'ms',
    mock: { value: sea },
    anvil: binary ? { value: anvil } : NOT_INSTALLED,
    better: 'lower',
    target: { text: '≤ Anvil', holds: (row) => (row.anvil && Number.isFinite(row.anvil.value) ? row.mock.value <= row.anvil.value : undefined) },
  }];
  return [
    ...seaRow,
    {
      section: 'start-up',
      what: `process start to first eth_chainId answer (median of ${runs})`,
      unit: 'ms',
      mock: { value: mock },
      anvil: binary ? { value: anvil } : NOT_INSTALLED,
      better: 'lower',
      target: { text: '≤ 100 ms', holds: (row) => row.mock.value <= 100 },
    },
  ];
}
