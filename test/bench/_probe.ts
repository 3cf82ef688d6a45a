import { bytesToHex, type Hex } from 'viem';
import { anvilBinary, startMockCli } from '/work/wt-bench/test/bench/processes';
import { mockTokenStorage, startAnvilWithUsdc } from '/work/wt-bench/test/bench/sections/suite';
import { viemSuite } from '/work/wt-bench/test/bench/viemSuite';
import { devKeys } from '/work/wt-bench/test/bench/traffic';
import { cpuTimeMs } from '/work/wt-bench/test/bench/processes';
import { MOCK_TOKEN } from '/work/wt-bench/test/bench/sections/config';
async function main() {
  const kind = process.argv[2];
  const n = Number(process.argv[3] ?? 200);
  const probe = await startMockCli();
  const storage = await mockTokenStorage(probe.url);
  const node = kind === 'anvil' ? (await probe.stop(), await startAnvilWithUsdc(anvilBinary()!, storage)) : probe;
  const suite = viemSuite({ url: node.url, token: MOCK_TOKEN.toLowerCase() as Hex, keys: devKeys(5).map((k) => bytesToHex(k.privateKey)) });
  await suite.setup();
  const times: number[] = [];
  const t0 = performance.now(); const c0 = cpuTimeMs(node.pid);
  for (let i = 0; i < n; i++) { const s = performance.now(); await suite.runCase(i); times.push(performance.now() - s); }
  console.log(kind, 'total', (performance.now() - t0).toFixed(0), 'cpu', cpuTimeMs(node.pid) - c0);
  const slow = times.map((t, i) => [i, t]).filter(([, t]) => t > 150);
  console.log('slow cases', slow.length, JSON.stringify(slow.slice(0, 10).map(([i, t]) => [i, Math.round(t)])));
  const sorted = [...times].sort((a, b) => a - b);
  console.log('p50', sorted[n >> 1].toFixed(1), 'p90', sorted[Math.floor(n * 0.9)].toFixed(1));
  await node.stop();
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
