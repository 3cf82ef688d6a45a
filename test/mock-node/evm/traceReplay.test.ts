// A trace replays a transaction on the state it met. State setters change the state outside any
// transaction, so the block keeps them where they were made (chain/systemChanges.ts) and the
// replay applies them there: a contract installed with anvil_setCode (or a slot set) just before
// a transaction is traced as it ran, as Anvil traces it; a setter between two transactions of one
// block is applied between them; a state file keeps them. A hostile trace (REVERT or LOG of 2^256
// bytes) answers out of gas instead of failing the node.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningMockNode } from '../../../mock-node/index';
import { anvilOrSkip, startAnvil, type RunningAnvil } from '../../helpers/anvil';
import { rpc, startTestNode } from '../../helpers/rpc';

const SENDER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const TARGET = '0x00000000000000000000000000000000007ace01';
// Reverts with slot 0's value as its data: PUSH1 0 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 REVERT
const REVERTS_WITH_SLOT = '0x60005460005260206000fd';
// Logs slot 0's value (LOG0 of 32 bytes) and stops: PUSH1 0 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 LOG0 STOP
const LOGS_SLOT = '0x60005460005260206000a000';

interface CallTrace {
  gasUsed: string;
  output?: string;
  error?: string;
  logs?: { data: string }[];
}

interface Receipt {
  status: string;
  gasUsed: string;
  blockNumber: string;
}

async function receiptOf(url: string, hash: string): Promise<Receipt> {
  for (let i = 0; i < 100; i++) {
    const receipt = await rpc<Receipt | null>(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no receipt for ${hash}`);
}

/** Waits until the pending block holds `hash` (pre-confirmed in a flashblock). */
async function preconfirmed(url: string, hash: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const pending = await rpc<{ transactions: string[] }>(url, 'eth_getBlockByNumber', ['pending', false]);
    if (pending.transactions.includes(hash)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${hash} never reached the pending block`);
}

function traceOf(url: string, hash: string): Promise<CallTrace> {
  return rpc<CallTrace>(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
}

const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** anvil_setCode and anvil_setStorageAt, then a transaction (automine): its receipt and its trace. */
async function setThenSend(url: string): Promise<{ receipt: Receipt; trace: CallTrace }> {
  await rpc(url, 'anvil_setCode', [TARGET, REVERTS_WITH_SLOT]);
  await rpc(url, 'anvil_setStorageAt', [TARGET, '0x0', word(7)]);
  const hash = await rpc<string>(url, 'eth_sendTransaction', [{ from: SENDER, to: TARGET, gas: '0x30d40' }]);
  const receipt = await receiptOf(url, hash);
  return { receipt, trace: await traceOf(url, hash) };
}

describe('traces replay the state setters where they were made', function () {
  this.timeout(60_000);
  let node: RunningMockNode;

  before(async () => {
    node = await startTestNode();
    await rpc(node.url, 'evm_setAutomine', [true]);
  });

  after(() => node.stop());

  it('a contract installed and a slot set just before a transaction: traced as it ran, as on Anvil', async function () {
    const mock = await setThenSend(node.url);
    assert.equal(mock.receipt.status, '0x0');
    assert.deepEqual({ gasUsed: mock.trace.gasUsed, error: mock.trace.error, output: mock.trace.output }, { gasUsed: mock.receipt.gasUsed, error: 'execution reverted', output: word(7) });
    const binary = anvilOrSkip(this);
    const anvil: RunningAnvil = await startAnvil(binary);
    try {
      const other = await setThenSend(anvil.url);
      assert.equal(other.receipt.status, '0x0');
      assert.equal(other.trace.gasUsed, other.receipt.gasUsed);
      assert.equal(other.trace.output, word(7));
      assert.equal(mock.trace.gasUsed, other.trace.gasUsed, 'the same gas on both nodes');
    } finally {
      await anvil.stop();
    }
  });

  it('a setter between two transactions of one block is applied between them in the replay, and a state file keeps it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trace-replay-'));
    const file = join(dir, 'chain.json');
    // Flashblocks every 50 ms and no seal of its own for a minute: each transaction is pre-confirmed
    // in the pending block before the next setter, and evm_mine seals the three changes together.
    const options = { auto: true, blockTimeMs: 60_000, flashblockMs: 50, stateFile: file };
    const manual = await startTestNode(options);
    try {
      await rpc(manual.url, 'anvil_setCode', [TARGET, LOGS_SLOT]);
      await rpc(manual.url, 'anvil_setStorageAt', [TARGET, '0x0', word(1)]);
      const first = await rpc<string>(manual.url, 'eth_sendTransaction', [{ from: SENDER, to: TARGET, gas: '0x30d40' }]);
      await preconfirmed(manual.url, first);
      await rpc(manual.url, 'anvil_setStorageAt', [TARGET, '0x0', word(2)]);
      const second = await rpc<string>(manual.url, 'eth_sendTransaction', [{ from: SENDER, to: TARGET, gas: '0x30d40' }]);
      await preconfirmed(manual.url, second);
      await rpc(manual.url, 'evm_mine', []);
      const [a, b] = [await receiptOf(manual.url, first), await receiptOf(manual.url, second)];
      assert.equal(a.blockNumber, b.blockNumber, 'one block');
      const traced = async (url: string) => [await traceOf(url, first), await traceOf(url, second)].map((trace) => ({ gasUsed: trace.gasUsed, logged: trace.logs?.map((log) => log.data) }));
      const expected = [
        { gasUsed: a.gasUsed, logged: [word(1)] },
        { gasUsed: b.gasUsed, logged: [word(2)] },
      ];
      assert.deepEqual(await traced(manual.url), expected);
      await manual.stop();
      const reloaded = await startTestNode(options);
      try {
        assert.deepEqual(await traced(reloaded.url), expected, 'after a reload from the state file');
      } finally {
        await reloaded.stop();
      }
    } finally {
      await manual.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a REVERT or LOG of 2^256 bytes is traced as out of gas, and the node goes on', async () => {
    const huge = 'ff'.repeat(32);
    // PUSH32 2^256-1 PUSH1 0 REVERT, and PUSH32 2^256-1 PUSH1 0 LOG0
    for (const code of [`0x7f${huge}6000fd`, `0x7f${huge}6000a0`]) {
      await rpc(node.url, 'anvil_setCode', [TARGET, code]);
      const call = { from: SENDER, to: TARGET, gas: '0x30d40' };
      const traced = await rpc<CallTrace>(node.url, 'debug_traceCall', [call, 'latest', { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
      assert.deepEqual({ error: traced.error, gasUsed: traced.gasUsed, logs: traced.logs }, { error: 'out of gas', gasUsed: '0x30d40', logs: undefined });
      const hash = await rpc<string>(node.url, 'eth_sendTransaction', [call]);
      const receipt = await receiptOf(node.url, hash);
      assert.equal((await traceOf(node.url, hash)).gasUsed, receipt.gasUsed);
    }
    assert.match(await rpc<string>(node.url, 'eth_blockNumber'), /^0x[0-9a-f]+$/);
  });
});
