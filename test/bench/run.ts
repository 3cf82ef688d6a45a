// `npm run bench`: measures the mock node and prints figures (never asserts them).
//  1. requests/s and p50/p99 latency per method against the CLI node in its own process, and the
//     same load against Anvil where @foundry-rs/anvil is installed, as ratios;
//  2. flashblock cadence jitter; 3. submit-to-pending latency;
//  4. eth_getLogs over 2,000 blocks of a chain with many logs; 5. memory after a long run.
// Every load goes to 127.0.0.1 only and is bounded in count and time.
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { Interface, Wallet } from 'ethers';
import { startMockNode } from '../../mock-node/index';
import { STABLE_TOKEN_ABI } from '../../mock-node/tokenKit/index';
import { findAnvil } from '../helpers/anvil';

const ROOT = join(__dirname, '..', '..');
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 3) * 1000;
const CONCURRENCY = 16;
const MAX_REQUESTS = 200_000;

interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Sends one JSON body repeatedly with CONCURRENCY workers over keep-alive connections. */
async function load(url: string, body: string): Promise<LoadResult> {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const deadline = performance.now() + DURATION_MS;
  const one = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = request(
        { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => {
            latencies.push(performance.now() - started);
            if (res.statusCode !== 200 || text.includes('"error"')) errors++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const began = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline && sent < MAX_REQUESTS) {
        sent++;
        await one();
      }
    }),
  );
  const elapsed = (performance.now() - began) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

function rpcBody(method: string, params: unknown[]): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
}

async function call(url: string, method: string, params: unknown[] = []): Promise<any> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: rpcBody(method, params) });
  const json = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (json.error) throw new Error(`${method}: ${json.error.message}`);
  return json.result;
}

function startProcess(command: string, args: string[], readyUrl: string): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 20_000;
    const probe = () => {
      call(readyUrl, 'eth_chainId').then(
        () => resolve(child),
        () => (Date.now() > deadline ? reject(new Error(`${command} did not start`)) : setTimeout(probe, 100)),
      );
    };
    probe();
  });
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

async function throughput(): Promise<void> {
  console.log(`\n1. Throughput: ${CONCURRENCY} concurrent keep-alive clients, ${DURATION_MS / 1000} s per method, from a separate process`);
  const port = 18545;
  const url = `http://127.0.0.1:${port}/`;
  const node = await startProcess(process.execPath, [join(ROOT, 'dist', 'mock-node.js'), '--port', String(port), '--quiet', '--api-key', 'bench'], url);
  const dedicated = `http://127.0.0.1:${port}/dedicated/bench`;
  // Anvil where installed (see test/helpers/anvil.ts: ANVIL_BIN, node_modules, the tools cache).
  const anvilBin = findAnvil();
  const anvilPort = 18546;
  const anvilUrl = `http://127.0.0.1:${anvilPort}/`;
  const anvil = anvilBin ? await startProcess(anvilBin, ['--port', String(anvilPort), '--silent', '--block-time', '2'], anvilUrl).catch(() => undefined) : undefined;
  try {
    const sender = (await call(url, 'eth_accounts'))[0];
    await call(url, 'eth_sendTransaction', [{ from: sender, to: sender, value: '0x1' }]);
    if (anvil) await call(anvilUrl, 'eth_sendTransaction', [{ from: sender, to: sender, value: '0x1' }]);
    await new Promise((r) => setTimeout(r, 2500));
    // Warm both servers up (JIT, connection pools) before measuring.
    await load(url, rpcBody('eth_chainId', []));
    if (anvil) await load(anvilUrl, rpcBody('eth_chainId', []));
    const cases: [string, string, unknown[]][] = [
      ['eth_blockNumber', 'eth_blockNumber', []],
      ['eth_getBlockByNumber latest', 'eth_getBlockByNumber', ['latest', false]],
      ['eth_getBlockByNumber pending', 'eth_getBlockByNumber', ['pending', false]],
      ['eth_getTransactionCount pending', 'eth_getTransactionCount', [sender, 'pending']],
      ['eth_getStorageAt pending', 'eth_getStorageAt', [sender, '0x0', 'pending']],
      ['eth_getLogs latest', 'eth_getLogs', [{ fromBlock: 'latest', toBlock: 'latest' }]],
      ['eth_getBlockReceipts latest', 'eth_getBlockReceipts', ['latest']],
    ];
    console.log('   method                              mock rps   p50 ms  p99 ms | anvil rps  p50 ms  p99 ms | mock/anvil');
    for (const [label, method, params] of cases) {
      const body = rpcBody(method, params);
      const mock = await load(method === 'eth_getBlockReceipts' ? dedicated : url, body);
      const other = anvil ? await load(anvilUrl, body) : undefined;
      const ratio = other ? fmt(mock.rps / other.rps, 2) + 'x' : 'n/a';
      console.log(
        `   ${label.padEnd(34)} ${fmt(mock.rps).padStart(8)} ${fmt(mock.p50, 2).padStart(8)} ${fmt(mock.p99, 2).padStart(7)} | ${other ? fmt(other.rps).padStart(9) : '        -'} ${other ? fmt(other.p50, 2).padStart(7) : '      -'} ${other ? fmt(other.p99, 2).padStart(7) : '      -'} | ${ratio}${mock.errors ? `  (${mock.errors} errors)` : ''}`,
      );
    }
    if (!anvil) console.log('   (Anvil not installed: no comparison)');
  } finally {
    node.kill('SIGTERM');
    anvil?.kill('SIGTERM');
  }
}

async function cadenceAndLatency(): Promise<void> {
  console.log('\n2. Flashblock cadence (auto mode, 200 ms) and 3. submit-to-pending latency');
  const node = await startMockNode({ port: 0, quiet: true });
  try {
    const chain = node.core.services.chain;
    const stamps: number[] = [];
    const seen = new Map<string, number>();
    chain.on('flashblock', (_pending, added) => {
      const now = performance.now();
      stamps.push(now);
      for (const item of added) seen.set(item.tx.hash, now);
    });
    const wallet = new Wallet(node.accounts[1].privateKey);
    const latencies: number[] = [];
    const samples = 40;
    for (let i = 0; i < samples; i++) {
      const raw = await wallet.signTransaction({ to: node.accounts[2].address, value: 1n, nonce: i, gasLimit: 21000, chainId: 31337, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n });
      const sentAt = performance.now();
      const hash = await call(node.url, 'eth_sendRawTransaction', [raw]);
      while (!seen.has(hash)) await new Promise((r) => setTimeout(r, 2));
      latencies.push(seen.get(hash)! - sentAt);
      await new Promise((r) => setTimeout(r, 37 + (i % 5) * 29));
    }
    const intervals = stamps.slice(1).map((t, i) => t - stamps[i]);
    const jitter = intervals.map((d) => Math.abs(d - 200)).sort((a, b) => a - b);
    const mean = intervals.reduce((a, b) => a + b, 0) / intervals.length;
    console.log(`   ${intervals.length} intervals: mean ${fmt(mean, 1)} ms, |interval - 200| p50 ${fmt(percentile(jitter, 50), 1)} ms, p99 ${fmt(percentile(jitter, 99), 1)} ms, max ${fmt(jitter[jitter.length - 1], 1)} ms`);
    latencies.sort((a, b) => a - b);
    console.log(`   ${samples} transactions: send -> in pending p50 ${fmt(percentile(latencies, 50), 1)} ms, p99 ${fmt(percentile(latencies, 99), 1)} ms, max ${fmt(latencies[latencies.length - 1], 1)} ms (bound: one flashblock, 200 ms)`);
  } finally {
    await node.stop();
  }
}

async function largeChainLogs(): Promise<void> {
  const blocks = Number(process.env.BENCH_BLOCKS ?? 3000);
  const perBlock = 4;
  console.log(`\n4. eth_getLogs over 2,000 blocks: a chain of ${blocks} blocks with ${perBlock} token transfers each (${blocks * perBlock * 1} Transfer logs)`);
  const node = await startMockNode({ port: 0, auto: false, quiet: true, accounts: 4 });
  try {
    const token = new Interface(STABLE_TOKEN_ABI as never);
    const wallets = node.accounts.map((a) => new Wallet(a.privateKey));
    const nonces = wallets.map(() => 0);
    const started = performance.now();
    for (let b = 0; b < blocks; b++) {
      for (let t = 0; t < perBlock; t++) {
        const w = t % wallets.length;
        const data = token.encodeFunctionData('transfer', [wallets[(w + 1) % wallets.length].address, 1n]);
        const raw = await wallets[w].signTransaction({ to: node.tokenAddress, data, nonce: nonces[w]++, gasLimit: 100_000, chainId: 31337, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n });
        await node.request('eth_sendRawTransaction', [raw]);
      }
      await node.request('evm_mine');
    }
    const built = (performance.now() - started) / 1000;
    console.log(`   built in ${fmt(built, 1)} s (${fmt((blocks * perBlock) / built)} tx/s including signing)`);
    const head = BigInt(await call(node.url, 'eth_blockNumber'));
    const from = '0x' + (head > 1999n ? head - 1999n : 0n).toString(16);
    const timings: number[] = [];
    let count = 0;
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      const logs = await call(node.url, 'eth_getLogs', [{ fromBlock: from, toBlock: 'latest', address: node.tokenAddress }]);
      timings.push(performance.now() - t0);
      count = logs.length;
    }
    timings.sort((a, b) => a - b);
    console.log(`   ${count} logs over 2,000 blocks: p50 ${fmt(percentile(timings, 50), 1)} ms, max ${fmt(timings[timings.length - 1], 1)} ms`);
    const t0 = performance.now();
    await call(node.url, 'eth_getLogs', [{ fromBlock: from, toBlock: 'latest', topics: [null, null, '0x' + '00'.repeat(12) + 'ff'.repeat(20)] }]);
    console.log(`   a filter matching nothing over the same range: ${fmt(performance.now() - t0, 1)} ms`);
  } finally {
    await node.stop();
  }
}

async function memory(): Promise<void> {
  const seconds = Number(process.env.BENCH_LONG_SECONDS ?? 20);
  console.log(`\n5. Memory: auto mode for ${seconds} s with ~20 transactions/s`);
  const node = await startMockNode({ port: 0, quiet: true });
  if (global.gc) global.gc();
  const before = process.memoryUsage();
  try {
    const wallet = new Wallet(node.accounts[3].privateKey);
    const end = Date.now() + seconds * 1000;
    let nonce = 0;
    while (Date.now() < end) {
      const raw = await wallet.signTransaction({ to: node.accounts[4].address, value: 1n, nonce: nonce++, gasLimit: 21000, chainId: 31337, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n });
      await call(node.url, 'eth_sendRawTransaction', [raw]);
      await new Promise((r) => setTimeout(r, 50));
    }
    if (global.gc) global.gc();
    const after = process.memoryUsage();
    const head = await call(node.url, 'eth_blockNumber');
    console.log(`   ${nonce} transactions in ${Number(head)} blocks: heap ${fmt(before.heapUsed / 2 ** 20, 1)} -> ${fmt(after.heapUsed / 2 ** 20, 1)} MiB, rss ${fmt(before.rss / 2 ** 20, 1)} -> ${fmt(after.rss / 2 ** 20, 1)} MiB`);
  } finally {
    await node.stop();
  }
}

async function main(): Promise<void> {
  console.log(`chain-mock-node bench on ${process.platform} ${process.arch}, Node ${process.version}`);
  await memory(); // first, so earlier sections leave nothing on the heap
  await throughput();
  await cadenceAndLatency();
  await largeChainLogs();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
