// The bench's viem suite (test/bench/viemSuite.ts) checked for what it does, not for its time: a
// few cases on the mock node's CLI and on Anvil 1.7.1 with USDC at the same address. Every case
// checks its own reads (the deal or deployment, three automined transfers, balanceOf, getLogs);
// here both nodes must also read the same, and each revert must leave the balances as they were.
import assert from 'node:assert/strict';
import { bytesToHex, type Hex } from 'viem';
import { findAnvil } from '../helpers/anvil';
import { ensureCliBuilt } from '../helpers/cli';
import { anvilBinary, startMockCli, type BenchNode } from './processes';
import { MOCK_TOKEN } from './sections/config';
import { mockTokenStorage, startAnvilWithUsdc } from './sections/suite';
import { devKeys } from './traffic';
import { viemSuite, type CaseResult } from './viemSuite';

const CASES = 6;

async function runOn(node: BenchNode): Promise<{ results: CaseResult[]; before: bigint[]; after: bigint[] }> {
  const suite = viemSuite({ url: node.url, token: MOCK_TOKEN.toLowerCase() as Hex, keys: devKeys(5).map((k) => bytesToHex(k.privateKey)) });
  await suite.setup();
  const holders = Array.from({ length: CASES }, (_, i) => i);
  const before = await Promise.all(holders.map((i) => suite.balanceOf(i)));
  const results: CaseResult[] = [];
  for (let i = 0; i < CASES; i++) results.push(await suite.runCase(i));
  const after = await Promise.all(holders.map((i) => suite.balanceOf(i)));
  return { results, before, after };
}

describe('the bench suite: a viem test suite as Anvil users write it (correctness, not timing)', function () {
  this.timeout(120_000);

  it('each case reads its deal or deployment and its three transfers, reverts them, and reads the same on the mock node and Anvil', async () => {
    ensureCliBuilt();
    const mock = await startMockCli();
    let mockRun;
    let storage;
    try {
      storage = await mockTokenStorage(mock.url);
      mockRun = await runOn(mock);
    } finally {
      await mock.stop();
    }
    assert.deepEqual(mockRun.results.map((r) => r.kind), ['deal', 'deploy', 'deal', 'deploy', 'deal', 'deploy']);
    for (const result of mockRun.results) assert.equal(result.logs.length, 3);
    assert.deepEqual(mockRun.after, mockRun.before, 'evm_revert left a balance changed on the mock node');
    if (!findAnvil()) return; // the mock node's half still ran; CI installs Anvil
    const anvil = await startAnvilWithUsdc(anvilBinary()!, storage);
    let anvilRun;
    try {
      anvilRun = await runOn(anvil);
    } finally {
      await anvil.stop();
    }
    assert.deepEqual(anvilRun.after, anvilRun.before, 'evm_revert left a balance changed on Anvil');
    assert.deepEqual(mockRun.results, anvilRun.results);
  });
});
