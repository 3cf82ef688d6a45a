// A fork of a local Anvil (the upstream) holding a token with many holders, on the mock node
// (--fork-url) and on `anvil --fork-url` of the same upstream at the same block: the first
// balanceOf of a fresh holder (its balance slot fetched from the upstream; the token's code was
// fetched by an earlier holder's read), and the hundredth balanceOf of the same holder (all kept),
// set beside the same read on a fresh chain of the mock node's own. The three nodes run at once and
// their reads take turns, so each figure meets the same moment of the machine's load. The same two
// reads of USDC (Circle's FiatTokenV2_2 behind its proxy, on the upstream too), without a target:
// what a fork of Base's USDC costs beside Anvil.
import { Interface, concat, keccak256, zeroPadValue } from 'ethers';
import { installUsdc } from '../../helpers/usdcOnAnvil';
import { deployBenchToken } from '../benchToken';
import { startAnvilNode, startMockCli, type BenchNode } from '../processes';
import { call, median } from '../rpcClient';
import type { Figure, Row } from '../table';
import { devKeys } from '../traffic';
import { size, type BenchConfig } from './config';

const TOKEN = new Interface(['function balanceOf(address) view returns (uint256)']);
const READS_PER_HOLDER = 100;

/** USDC on the upstream: Base's address for the proxy; the implementation and library anywhere. */
const USDC = { token: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', implementation: '0x0000000000000000000000000000000000b0c001', signatureChecker: '0x0000000000000000000000000000000000b0c002' };
/** FiatTokenProxy's slots (zeppelinos): its implementation and its admin (who may not call the token through it). */
const IMPLEMENTATION_SLOT = '0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3';
const ADMIN_SLOT = '0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390b';
/** FiatTokenV2_2's balanceAndBlacklistStates mapping. */
const BALANCES_POSITION = 9;

/** The proxy's storage for USDC with `balance` for each holder. */
function usdcStorage(list: readonly string[], balance: bigint): Record<string, string> {
  const storage: Record<string, string> = {
    [IMPLEMENTATION_SLOT]: USDC.implementation,
    [ADMIN_SLOT]: '0x0000000000000000000000000000000000ad0001',
  };
  for (const holder of list) storage[keccak256(concat([zeroPadValue(holder, 32), zeroPadValue('0x' + BALANCES_POSITION.toString(16).padStart(2, '0'), 32)]))] = String(balance);
  return storage;
}

interface ForkFigures {
  first: Figure;
  hundredth: Figure;
}

function holders(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `0x${(0xb0b0000 + i).toString(16).padStart(40, '0')}`);
}

async function timed(url: string, token: string, holder: string): Promise<number> {
  const started = performance.now();
  const answer = await call<string>(url, 'eth_call', [{ to: token, data: TOKEN.encodeFunctionData('balanceOf', [holder]) }, 'latest']);
  const ms = performance.now() - started;
  if (BigInt(answer) === 0n) throw new Error(`balanceOf(${holder}) answered 0: the fork did not see the upstream's token`);
  return ms;
}

/**
 * For each holder (a first read of its slot on a fork): the first read's time and the hundredth's,
 * on every target at once. The reads take turns (each target's read of a holder, then the next
 * read), so the fork, Anvil and the fresh chain meet the same moment of the machine's load.
 */
async function measure(targets: readonly { node: BenchNode; token: string }[], list: readonly string[]): Promise<ForkFigures[]> {
  // The token's code (and the first holder) fetched: not measured.
  for (const { node, token } of targets) await timed(node.url, token, list[0]);
  const firsts: number[][] = targets.map(() => []);
  const hundredths: number[][] = targets.map(() => []);
  for (const holder of list.slice(1)) {
    for (let i = 0; i < READS_PER_HOLDER; i++) {
      for (let t = 0; t < targets.length; t++) {
        const ms = await timed(targets[t].node.url, targets[t].token, holder);
        if (i === 0) firsts[t].push(ms);
        if (i === READS_PER_HOLDER - 1) hundredths[t].push(ms);
      }
    }
  }
  return targets.map((_, t) => ({ first: { value: median(firsts[t]) }, hundredth: { value: median(hundredths[t]) } }));
}

export async function forkRows(config: BenchConfig): Promise<Row[]> {
  const binary = config.anvil;
  if (!binary) return [];
  const count = size(config, 11, 3);
  const list = holders(count);
  const upstream = await startAnvilNode(binary, { manual: true });
  const started: BenchNode[] = [];
  try {
    const [deployer] = devKeys(1);
    const token = await deployBenchToken(upstream.url, deployer, list, 10n ** 12n);
    await installUsdc(upstream.url, USDC, usdcStorage(list, 10n ** 12n));
    await call(upstream.url, 'evm_mine', []);
    const forkBlock = String(BigInt(await call(upstream.url, 'eth_blockNumber')));
    const mockNode = await startMockCli({ manual: true, extraArgs: ['--fork-url', upstream.url, '--fork-block-number', forkBlock] });
    started.push(mockNode);
    const anvilNode = await startAnvilNode(binary, { manual: true, extraArgs: ['--fork-url', upstream.url, '--fork-block-number', forkBlock, '--no-storage-caching'] });
    started.push(anvilNode);
    // The same reads on a fresh chain of the mock node's own (the token deployed on it).
    const freshNode = await startMockCli({ manual: true });
    started.push(freshNode);
    const freshToken = await deployBenchToken(freshNode.url, deployer, list, 10n ** 12n);
    const [mock, anvil, fresh] = await measure([{ node: mockNode, token }, { node: anvilNode, token }, { node: freshNode, token: freshToken }], list);
    const sameAsFresh = fresh.hundredth.value;
    const [mockUsdc, anvilUsdc] = await measure([{ node: mockNode, token: USDC.token }, { node: anvilNode, token: USDC.token }], list);
    return [
      {
        section: 'fork',
        what: `the first balanceOf of a fresh holder on a fork (median of ${count - 1} holders; its slot fetched from a local upstream)`,
        unit: 'ms',
        mock: mock.first,
        anvil: anvil.first,
        better: 'lower',
        target: { text: '≤ Anvil', holds: (row) => (row.anvil && Number.isFinite(row.anvil.value) ? row.mock.value <= row.anvil.value : undefined) },
      },
      {
        section: 'fork',
        what: `the hundredth balanceOf of the same holder on a fork (median of ${count - 1} holders; a fresh chain: ${sameAsFresh.toFixed(2)} ms)`,
        unit: 'ms',
        mock: mock.hundredth,
        anvil: anvil.hundredth,
        better: 'lower',
        target: { text: '≤ 1.1 × a fresh chain', holds: (row) => row.mock.value <= 1.1 * sameAsFresh },
      },
      {
        section: 'fork',
        what: `USDC (FiatTokenV2_2 behind its proxy, 23 KiB of code): the first balanceOf of a fresh holder on a fork (median of ${count - 1} holders)`,
        unit: 'ms',
        mock: mockUsdc.first,
        anvil: anvilUsdc.first,
        better: 'lower',
      },
      {
        section: 'fork',
        what: `USDC: the hundredth balanceOf of the same holder on a fork (median of ${count - 1} holders)`,
        unit: 'ms',
        mock: mockUsdc.hundredth,
        anvil: anvilUsdc.hundredth,
        better: 'lower',
      },
    ];
  } finally {
    for (const node of started) await node.stop();
    await upstream.stop();
  }
}

