// Captures (receiveWithAuthorization) on the mock node only (Anvil has no EIP-3009 token):
// 1. what one capture costs a flashblock: K captures queued in manual mode, then one
//    mock_flashblock, against an empty flashblock; 2. 1,000 captures queued at once in auto
//    mode: how many blocks until the last one is sealed, against the least the gas limit allows.
import { startMockCli, withCpu, type BenchNode } from '../processes';
import { call } from '../rpcClient';
import type { Row } from '../table';
import { captures, devKeys, sendAllAtOnce } from '../traffic';
import { MOCK_TOKEN, profileArgs, size, type BenchConfig } from './config';

const GAS_LIMIT = 30_000_000n;
const burstSize = (config: BenchConfig) => size(config, 1000, 100);

async function pendingTimestamp(node: BenchNode): Promise<bigint> {
  const block = await call(node.url, 'eth_getBlockByNumber', ['pending', false]);
  return BigInt(block.timestamp);
}

/** Median time of `mock_flashblock` with `k` captures queued, minus that of an empty one, per capture. */
async function captureCost(config: BenchConfig): Promise<{ perCaptureMs: number; cpuPerCaptureMs: number }> {
  const node = await startMockCli({ manual: true, nodeArgs: profileArgs(config, 'captures') });
  try {
    const keys = devKeys(10);
    const merchant = keys[9];
    const k = size(config, 200, 20);
    const rounds = size(config, 5, 1);
    let full = 0;
    let fullCpu = 0;
    let empty = 0;
    let emptyCpu = 0;
    for (let round = 0; round < rounds; round++) {
      const raws = await captures(node.url, MOCK_TOKEN, keys.slice(0, 9), merchant, k, await pendingTimestamp(node));
      await sendAllAtOnce(node.url, raws);
      const cut = await withCpu(node.pid, () => call(node.url, 'mock_flashblock', []));
      const idle = await withCpu(node.pid, () => call(node.url, 'mock_flashblock', []));
      full += cut.wallMs;
      fullCpu += cut.cpuMs;
      empty += idle.wallMs;
      emptyCpu += idle.cpuMs;
      const pending = await call(node.url, 'eth_getBlockByNumber', ['pending', false]);
      const last = await call(node.url, 'eth_getTransactionReceipt', [pending.transactions.at(-1)]);
      if (pending.transactions.length !== k || last?.status !== '0x1') throw new Error(`captures: ${pending.transactions.length} of ${k} executed, last status ${last?.status}`);
      await call(node.url, 'evm_mine', []);
    }
    return { perCaptureMs: (full - empty) / rounds / k, cpuPerCaptureMs: (fullCpu - emptyCpu) / rounds / k };
  } finally {
    await node.stop();
  }
}

/** 1,000 captures sent at once (batches) to an auto-mode node: blocks from submission to the last seal. */
async function burst(config: BenchConfig): Promise<{ blocks: number; gasBound: number; gasPerCapture: bigint; wallMs: number }> {
  const node = await startMockCli();
  try {
    const keys = devKeys(10);
    const merchant = keys[9];
    const count = burstSize(config);
    const raws = await captures(node.url, MOCK_TOKEN, keys.slice(0, 9), merchant, count, await pendingTimestamp(node));
    const firstBlock = Number(BigInt((await call(node.url, 'eth_getBlockByNumber', ['pending', false])).number));
    const started = performance.now();
    const hashes = await sendAllAtOnce(node.url, raws);
    const last = hashes[hashes.length - 1];
    let receipt: any = null;
    for (;;) {
      receipt = await call(node.url, 'eth_getTransactionReceipt', [last]);
      if (receipt && receipt.blockHash !== '0x' + '00'.repeat(32) && (await call(node.url, 'eth_getBlockByHash', [receipt.blockHash, false]))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const wallMs = performance.now() - started;
    const first = await call(node.url, 'eth_getTransactionReceipt', [hashes[0]]);
    if (first.status !== '0x1' || receipt.status !== '0x1') throw new Error('a capture reverted');
    const gasPerCapture = BigInt(first.gasUsed);
    const lastBlock = Number(BigInt(receipt.blockNumber));
    const gasBound = Number((BigInt(count) * gasPerCapture + GAS_LIMIT - 1n) / GAS_LIMIT);
    return { blocks: lastBlock - firstBlock + 1, gasBound, gasPerCapture, wallMs };
  } finally {
    await node.stop();
  }
}

export async function captureRows(config: BenchConfig): Promise<Row[]> {
  const cost = await captureCost(config);
  const queued = await burst(config);
  const count = burstSize(config);
  return [
    {
      section: 'captures',
      what: 'one receiveWithAuthorization executed in a flashblock (200 queued, minus an empty flashblock)',
      unit: 'ms',
      mock: { value: cost.perCaptureMs, cpu: `${cost.cpuPerCaptureMs.toFixed(2)} ms CPU` },
      better: 'lower',
      target: { text: '≤ 0.5 ms', holds: (row) => row.mock.value <= 0.5 },
    },
    {
      section: 'captures',
      what: `${count.toLocaleString('en-US')} captures queued at once: blocks until the last is sealed`,
      unit: 'blocks',
      mock: { value: queued.blocks, cpu: `${(queued.wallMs / 1000).toFixed(1)} s; gas alone needs ${queued.gasBound} at ${queued.gasPerCapture} gas each, 30M per block` },
      better: 'lower',
      // Issue 13 asked for 2 blocks, before a capture's gas matched USDC's (85,803): since then
      // 1,000 captures need more gas than two 30M blocks hold, so the target is the larger of
      // the two, and it says so.
      target: {
        text: queued.gasBound > 2 ? `≤ ${queued.gasBound} blocks (2, or what gas alone needs)` : '≤ 2 blocks',
        holds: (row) => row.mock.value <= Math.max(2, queued.gasBound),
      },
    },
  ];
}
