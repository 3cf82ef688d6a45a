// The differential gas test: every scenario of gasScenarios.ts (each external function of the
// token on each state path that changes EVM cost) runs on the mock node and on Circle's
// FiatTokenV2_2 behind FiatTokenProxy on Anvil, from the same state, with amounts and accounts
// drawn fresh each run (the seed is printed; GAS_SEED=<n> replays one). gasUsed, the receipt's
// cumulative gas, the block's gasUsed and eth_estimateGas must be equal.
import assert from 'node:assert/strict';
import { anvilOrSkip } from '../../helpers/anvil';
import { rpc } from '../../helpers/rpc';
import { buildScenarios, seededRandom, type Scenario } from './gasScenarios';
import { startUsdcPair, txJson, type UsdcPair } from './usdcPair';

const seed = Number(process.env.GAS_SEED ?? Date.now() % 1_000_000_007);

describe(`gas equals USDC's (FiatTokenV2_2 behind its proxy on Anvil), seed ${seed}`, function () {
  this.timeout(120_000);
  let pair: UsdcPair;
  // Built before the suite runs (mocha needs the list to declare the cases); the wallets and the
  // token address are the same on every node, so placeholders are replaced once the pair is up.
  let scenarios: Scenario[] = [];

  before(async function () {
    anvilOrSkip(this);
    pair = await startUsdcPair();
    scenarios = buildScenarios(pair.context(seededRandom(seed)));
  });

  after(async () => {
    await pair?.stop();
  });

  it('runs at least 40 cases, every one charged exactly as USDC charges it', async () => {
    assert.ok(scenarios.length >= 40, `${scenarios.length} cases`);
    const differences: string[] = [];
    for (const scenario of scenarios) {
      const { mock, usdc } = await pair.run(scenario);
      assert.equal(usdc.status, scenario.ok ? '0x1' : '0x0', `${scenario.name}: USDC's status`);
      for (const key of ['status', 'gasUsed', 'cumulativeGasUsed', 'blockGasUsed', 'estimate'] as const) {
        if (mock[key] !== usdc[key]) differences.push(`${scenario.name}: ${key} ${mock[key]} on the mock, ${usdc[key]} on USDC`);
      }
    }
    assert.deepEqual(differences, []);
  });

  it('charges a block of several transactions alike: each gasUsed, the cumulative gas and the block', async () => {
    // Three calls of one sender (so both nodes order them alike), from the sender with the most.
    const simple = scenarios.filter((s) => s.setup.length === 0 && s.ok && s.call.to.toLowerCase() === pair.token.address);
    const count = (from: string) => simple.filter((s) => s.call.from === from).length;
    const sender = simple.map((s) => s.call.from).sort((x, y) => count(y) - count(x))[0];
    const batch = simple.filter((s) => s.call.from === sender).slice(0, 3);
    assert.equal(batch.length, 3, 'three transactions from one sender');
    const charged = async (url: string, mine: () => Promise<void>) => {
      const snapshot = await rpc(url, 'evm_snapshot');
      try {
        const hashes: string[] = [];
        for (const s of batch) hashes.push(await rpc(url, 'eth_sendTransaction', [txJson(s.call)]));
        await mine();
        const receipts = await Promise.all(hashes.map((h) => rpc(url, 'eth_getTransactionReceipt', [h])));
        const block = await rpc(url, 'eth_getBlockByNumber', [receipts[0].blockNumber, false]);
        return { used: receipts.map((r) => BigInt(r.gasUsed)), cumulative: receipts.map((r) => BigInt(r.cumulativeGasUsed)), block: BigInt(block.gasUsed), count: block.transactions.length };
      } finally {
        await rpc(url, 'evm_revert', [snapshot]);
      }
    };
    const mock = await charged(pair.node.url, async () => { await rpc(pair.node.url, 'evm_mine'); });
    await rpc(pair.anvil.url, 'evm_setAutomine', [false]);
    try {
      const usdc = await charged(pair.anvil.url, async () => { await rpc(pair.anvil.url, 'evm_mine'); });
      assert.equal(usdc.count, batch.length);
      assert.deepEqual(mock, usdc);
    } finally {
      await rpc(pair.anvil.url, 'evm_setAutomine', [true]);
    }
  });

  it('a limit one below the estimate runs out of gas inside the proxy and is charged alike', async () => {
    const scenario = scenarios.find((s) => s.name === 'transfer to an existing holder')!;
    const { gas: _gas, ...call } = txJson(scenario.call);
    const estimate = BigInt(await rpc(pair.node.url, 'eth_estimateGas', [call]));
    const tight = { ...scenario, ok: false, call: { ...scenario.call, gas: estimate - 1n } };
    const { mock, usdc } = await pair.run(tight);
    assert.equal(usdc.status, '0x0');
    assert.deepEqual({ status: mock.status, gasUsed: mock.gasUsed }, { status: usdc.status, gasUsed: usdc.gasUsed });
  });

  it('does not run a transaction under the EIP-7623 calldata floor; one at the floor is charged the floor', async () => {
    const a = pair.node.accounts[1].address;
    // 200 non-zero bytes: intrinsic 21,000 + 3,200 = 24,200; floor 21,000 + 10 × 800 = 29,000.
    const spec = { from: a, to: pair.node.accounts[2].address, data: `0x${'ab'.repeat(200)}`, gas: 28_999n };
    await assert.rejects(rpc(pair.node.url, 'eth_sendTransaction', [txJson(spec)]), /insufficient gas for floor data gas cost: gas 28999, minimum needed 29000/);
    // Anvil takes it into its pool but never mines it.
    const hash = await rpc(pair.anvil.url, 'eth_sendTransaction', [txJson(spec)]);
    await rpc(pair.anvil.url, 'evm_mine');
    assert.equal(await rpc(pair.anvil.url, 'eth_getTransactionReceipt', [hash]), null);
    await rpc(pair.anvil.url, 'anvil_dropTransaction', [hash]);
    const { mock, usdc } = await pair.run({ name: 'floor', setup: [], ok: true, call: { ...spec, gas: 29_000n } });
    assert.deepEqual(mock, usdc);
    assert.equal(mock.gasUsed, 29_000n);
  });
});
