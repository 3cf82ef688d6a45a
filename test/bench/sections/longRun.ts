// A long run on an in-process mock node (manual mode, so memory can be measured after a full
// GC): 100,000 token transfers, 50 per block, each with its receipt and Transfer log. Reports
// the memory retained per sealed transaction (the JS heap plus array buffers, where the sealed
// records live as bytes), a filter that matches nothing over the whole chain once it holds
// 10,000 logs and again at 100,000 (time should follow matches, not length), and a second run
// with --history-blocks that must stay flat: after every block it asks eth_getLogs over the kept
// blocks (as an explorer polling would), so the log index is part of what must not grow, and it
// prints the entries each history index holds at the end.
//
// The driver signs each block's 50 transfers just before sending them, with a lean signer (the
// fixed fields RLP-encoded once per sender, keccak and libsecp256k1 per transaction), so the run
// measures the node, not ethers building transactions; the node's own CPU per transaction is
// printed beside the figure (the process's CPU less the signing).
import { keccak_256 } from '@noble/hashes/sha3.js';
import { encodeRlp, toBeArray } from 'ethers';
import * as ecc from 'tiny-secp256k1';
import { startMockNode, type RunningMockNode } from '../../../mock-node/index';
import { logIndexOf } from '../../../mock-node/chain/logIndex';
import type { Row } from '../table';
import { CHAIN_ID, devKeys, tokenTransferData, type DevKey } from '../traffic';
import { size, type BenchConfig } from './config';

const PER_BLOCK = 50;
const NOBODY = '0x' + '00'.repeat(12) + 'ff'.repeat(20);
/** Blocks the pruned run keeps (--history-blocks); --quick keeps 4 (safe and finalized depths 1 and 2) so its 10 blocks prune too. */
const HISTORY_BLOCKS = 40;
const QUICK_HISTORY = { historyBlocks: 4, safeDepth: 1, finalizedDepth: 2 };
/**
 * The pruned run's memory is sampled every this many blocks. What it retains is a sawtooth, not
 * a line: the state trie keeps the node versions of recent commits until its collection runs
 * (about every hundred blocks here, some MiB apart), so samples a tenth of the run apart would
 * catch each half's sawtooth at a different height. Samples this dense find each half's top.
 */
const PRUNED_SAMPLE_BLOCKS = 2;
const TIP = 10n ** 9n;
/** Queries of the filter that matches nothing, measured (median), after unmeasured ones. */
const NOTHING_RUNS = 201;
const NOTHING_WARM_UP = 20;
const FEE_CAP = 100n * 10n ** 9n;

/** Heap plus array buffers after a full GC, in bytes. */
function retained(): number {
  global.gc?.();
  global.gc?.();
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

const quantity = (value: bigint | number): Uint8Array => (BigInt(value) === 0n ? new Uint8Array() : toBeArray(value));

/** Signs EIP-1559 token transfers of one sender fast: only the nonce changes between them. */
class TransferSigner {
  private readonly fields: (Uint8Array | string | never[])[];

  constructor(
    private readonly key: DevKey,
    token: string,
    to: string,
  ) {
    this.fields = [quantity(CHAIN_ID), new Uint8Array(), quantity(TIP), quantity(FEE_CAP), quantity(100_000n), token, new Uint8Array(), tokenTransferData(to, 1n), []];
  }

  sign(nonce: number): string {
    this.fields[1] = quantity(nonce);
    const unsigned = Buffer.from(encodeRlp(this.fields as never).slice(2), 'hex');
    const digest = keccak_256(Buffer.concat([Buffer.of(2), unsigned]));
    const { signature, recoveryId } = ecc.signRecoverable(digest, this.key.privateKey);
    const signed = encodeRlp([...this.fields, quantity(recoveryId), trim(signature.subarray(0, 32)), trim(signature.subarray(32, 64))] as never);
    return '0x02' + signed.slice(2);
  }
}

function trim(word: Uint8Array): Uint8Array {
  let i = 0;
  while (i < word.length && word[i] === 0) i++;
  return word.subarray(i);
}

/**
 * The filter that matches nothing over the whole chain: the median of many queries after a few
 * unmeasured ones. One query takes some microseconds, so a median of a handful taken right after
 * a block was mined mostly measured the JIT and the collector (five samples varied tenfold).
 */
async function nothingQuery(node: RunningMockNode, runs = NOTHING_RUNS): Promise<number> {
  const query = async (): Promise<number> => {
    const started = performance.now();
    const logs = (await node.request('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [null, null, NOBODY] }])) as unknown[];
    const ms = performance.now() - started;
    if (logs.length !== 0) throw new Error('the filter matching nothing matched');
    return ms;
  };
  for (let i = 0; i < NOTHING_WARM_UP; i++) await query();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await query());
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

interface RunResult {
  retainedPerTx: number;
  rssPerTx: number;
  txPerSecond: number;
  nodeCpuPerTx: number;
  /** Retained bytes at each checkpoint (every tenth of the run). */
  checkpoints: number[];
  nothingAtTenth: number;
  nothingAtEnd: number;
  /** The history indexes' entries at the end. */
  entries: string;
}

async function run(total: number, history: { historyBlocks: number; safeDepth?: number; finalizedDepth?: number }, queries: boolean): Promise<RunResult> {
  const node = await startMockNode({ port: 0, auto: false, quiet: true, accounts: PER_BLOCK, ...history, limits: { dedicated: { maxLogBlockRange: 0, maxLogResults: 0 } } });
  const chain = node.core.services.chain;
  const pruning = history.historyBlocks > 0;
  try {
    const keys = devKeys(PER_BLOCK);
    const signers = keys.map((key, i) => new TransferSigner(key, node.tokenAddress, keys[(i + 1) % PER_BLOCK].address));
    const before = retained();
    const rssBefore = process.memoryUsage().rss;
    const checkpoints: number[] = [];
    let nothingAtTenth = NaN;
    let signing = 0;
    let sent = 0;
    const cpuStart = cpuMicros();
    const started = performance.now();
    for (let nonce = 0; sent < total; nonce++) {
      const signStart = cpuMicros();
      const raws: string[] = [];
      for (let i = 0; i < PER_BLOCK && sent + raws.length < total; i++) raws.push(signers[i].sign(nonce));
      signing += cpuMicros() - signStart;
      for (const raw of raws) await node.request('eth_sendRawTransaction', [raw]);
      await node.request('evm_mine');
      if (pruning) await node.request('eth_getLogs', [{ fromBlock: '0x' + chain.oldestBlock.toString(16), toBlock: 'latest', topics: [null, null, NOBODY] }]);
      const tenth = Math.floor((sent * 10) / total);
      sent += raws.length;
      if (pruning ? nonce % PRUNED_SAMPLE_BLOCKS === PRUNED_SAMPLE_BLOCKS - 1 : Math.floor((sent * 10) / total) > tenth) {
        if (queries && Number.isNaN(nothingAtTenth)) nothingAtTenth = await nothingQuery(node);
        checkpoints.push(retained() - before);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const nodeCpu = cpuMicros() - cpuStart - signing;
    const nothingAtEnd = queries ? await nothingQuery(node) : NaN;
    const sizes = chain.historySizes();
    const logIndex = logIndexOf(chain).entries;
    return {
      entries: `${sizes.blocks} blocks, ${sizes.indexedTransactions} indexed transactions, ${sizes.rememberedPrunedTransactions} + ${sizes.rememberedPrunedBlocks} remembered pruned transaction and block hashes, log index ${logIndex.values} values / ${logIndex.blocks} block entries`,
      retainedPerTx: (retained() - before) / total,
      rssPerTx: (process.memoryUsage().rss - rssBefore) / total,
      txPerSecond: total / seconds,
      nodeCpuPerTx: nodeCpu / total,
      checkpoints,
      nothingAtTenth,
      nothingAtEnd,
    };
  } finally {
    await node.stop();
  }
}

export async function longRunRows(config: BenchConfig): Promise<Row[]> {
  const total = Number(process.env.BENCH_LONG_TX ?? size(config, 100_000, 500));
  // Long enough for pruning to run for most of it (it starts after HISTORY_BLOCKS × 50 transactions).
  // BENCH_PRUNED_TX sets it alone (the pruned run without the long kept one before it).
  const prunedTotal = Number(process.env.BENCH_PRUNED_TX ?? (config.quick ? total : Math.max(total / 4, 10_000)));
  const n = (v: number) => v.toLocaleString('en-US');
  const history = config.quick ? QUICK_HISTORY : { historyBlocks: HISTORY_BLOCKS };
  const kept = await run(total, { historyBlocks: 0 }, true);
  const pruned = await run(prunedTotal, history, false);
  // Flat: the highest figure of the run's second half against that of its first half (both see
  // the same periodic collections of the state trie's node store, sampled every few blocks).
  const half = Math.floor(pruned.checkpoints.length / 2);
  const firstPeak = Math.max(...pruned.checkpoints.slice(0, half));
  const secondPeak = Math.max(...pruned.checkpoints.slice(half));
  const growthPerTx = (secondPeak - firstPeak) / (prunedTotal / 2);
  return [
    {
      section: 'memory',
      what: `heap and array buffers retained per sealed transaction over a ${n(total)}-transaction run (receipt and log included)`,
      unit: 'KiB',
      mock: {
        value: kept.retainedPerTx / 1024,
        cpu: `RSS +${(kept.rssPerTx / 1024).toFixed(2)} KiB/tx; ${Math.round(kept.txPerSecond)} tx/s in-process, node CPU ${Math.round(kept.nodeCpuPerTx)} µs/tx (signing apart)`,
      },
      better: 'lower',
      target: { text: '≤ 1 KiB', holds: (row) => row.mock.value <= 1 },
    },
    {
      section: 'memory',
      what: `with --history-blocks ${history.historyBlocks} and eth_getLogs after each block: growth per transaction from the first half to the second of a ${n(prunedTotal)}-transaction run`,
      unit: 'B',
      mock: { value: growthPerTx, cpu: `peak ${(firstPeak / 2 ** 20).toFixed(1)} MiB in the first half, ${(secondPeak / 2 ** 20).toFixed(1)} MiB in the second; at the end ${pruned.entries}` },
      better: 'lower',
      target: { text: 'flat (≤ 32 B/tx)', holds: (row) => row.mock.value <= 32 },
    },
    {
      section: 'eth_getLogs',
      what: `a filter matching nothing over the whole chain: ${n(total / 10)} logs → ${n(total)} logs (median of ${NOTHING_RUNS})`,
      unit: 'ms',
      mock: { value: kept.nothingAtEnd, cpu: `${kept.nothingAtTenth.toFixed(3)} ms at ${n(total / 10)} logs, ×${(kept.nothingAtEnd / kept.nothingAtTenth).toFixed(1)}` },
      better: 'lower',
      target: { text: 'grows with matches, not length (≤ 2× for 10× the logs)', holds: () => kept.nothingAtEnd <= 2 * kept.nothingAtTenth },
    },
  ];
}
