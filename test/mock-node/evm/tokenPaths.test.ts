// The token's two paths are one contract: every scenario of the gas test (each token function on
// each state path: gasScenarios.ts) runs through the native implementation and through Circle's
// bytecode (FiatTokenProxy → FiatTokenV2_2 → SignatureChecker) in the node's EVM, on the same
// state: gas, storage writes, logs, return data and revert data must be identical. Amounts and
// accounts are drawn fresh each run (the seed is printed; GAS_SEED=<n> replays one).
import assert from 'node:assert/strict';
import { Wallet } from 'ethers';
import type { RunningMockNode } from '../../../mock-node/index';
import { machineFor } from '../../../mock-node/execution/evm/index';
import { runMessage } from '../../../mock-node/execution/execute';
import type { StableToken } from '../../../mock-node/execution/token/index';
import { StateDraft } from '../../../mock-node/state/worldState';
import { rpc, startTestNode } from '../../helpers/rpc';
import { buildScenarios, seededRandom, type Scenario, type TxSpec } from '../token/gasScenarios';
import { txJson } from '../token/usdcPair';

const seed = Number(process.env.GAS_SEED ?? Date.now() % 1_000_000_007);
const GAS = 1_000_000n;

interface PathResult {
  ok: boolean;
  gasUsed: bigint;
  returnData: string;
  logs: { address: string; topics: string[]; data: string }[];
  /** Slots whose value the call changed, with their new values. */
  storage: Record<string, Record<string, string>>;
}

function changedStorage(draft: StateDraft): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [address, slots] of draft.storageWrites) {
    for (const [slot, value] of slots) {
      if (draft.base.storage(address, slot) === value) continue;
      (out[address] ??= {})[`0x${slot.toString(16)}`] = `0x${value.toString(16)}`;
    }
  }
  return out;
}

describe(`token: the native path and FiatTokenV2_2's bytecode agree on every gas scenario, seed ${seed}`, function () {
  this.timeout(120_000);
  let node: RunningMockNode;
  let token: StableToken;
  let scenarios: Scenario[];

  before(async () => {
    node = await startTestNode();
    token = node.core.services.contracts.get(node.tokenAddress.toLowerCase()) as StableToken;
    const wallets = node.accounts.map((a) => new Wallet(a.privateKey));
    scenarios = buildScenarios({ token: token.address, implementation: token.implementation, signatureChecker: token.signatureChecker, proxyAdmin: token.proxyAdmin, chainId: node.chainId, wallets, random: seededRandom(seed) });
  });

  after(async () => {
    await node?.stop();
  });

  async function bothPaths(spec: TxSpec): Promise<{ native: PathResult; bytecode: PathResult }> {
    const chain = node.core.services.chain;
    const block = chain.pending;
    const env = chain.environment(block);
    const request = { from: spec.from.toLowerCase(), to: spec.to.toLowerCase(), value: spec.value ?? 0n, input: spec.data.toLowerCase(), gasLimit: spec.gas ?? GAS, accessList: spec.accessList?.map((e) => ({ address: e.address.toLowerCase(), storageKeys: e.storageKeys })) ?? null };

    const nativeDraft = new StateDraft(block.state);
    const native = runMessage(nativeDraft, request, env, node.core.services.contracts, { isStatic: false, origin: request.from });
    const machine = await machineFor(env.chainId);
    const evmDraft = new StateDraft(block.state);
    const evm = await machine.run(evmDraft, { ...request, gasPrice: 0n }, env, { origin: request.from, transaction: true });
    return {
      native: {
        ok: native.outcome.ok,
        gasUsed: native.gasUsed,
        returnData: native.outcome.ok ? native.outcome.returnData : native.outcome.revertData,
        logs: native.logs.map((l, i) => ({ address: native.logAddresses[i], topics: l.topics.map((t) => t.toLowerCase()), data: l.data.toLowerCase() })),
        storage: changedStorage(nativeDraft),
      },
      bytecode: {
        ok: evm.ok,
        gasUsed: evm.gasUsed,
        returnData: evm.returnData,
        logs: evm.logs.map((l, i) => ({ address: evm.logAddresses[i], topics: l.topics, data: l.data })),
        storage: changedStorage(evmDraft),
      },
    };
  }

  async function mine(spec: TxSpec): Promise<void> {
    const hash = await rpc(node.url, 'eth_sendTransaction', [txJson(spec)]);
    await rpc(node.url, 'evm_mine');
    const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [hash]);
    assert.equal(receipt.status, '0x1', 'a setup transaction failed');
  }

  it('runs at least 40 cases; each is identical on both paths (and as expected to succeed or revert)', async () => {
    assert.ok(scenarios.length >= 40, `${scenarios.length} cases`);
    const differences: string[] = [];
    for (const scenario of scenarios) {
      const snapshot = await rpc(node.url, 'evm_snapshot');
      try {
        for (const step of scenario.setup) await mine(step);
        const { native, bytecode } = await bothPaths(scenario.call);
        assert.equal(native.ok, scenario.ok, `${scenario.name}: native outcome`);
        try {
          assert.deepEqual(native, bytecode);
        } catch (error) {
          differences.push(`${scenario.name}: ${(error as Error).message}`);
        }
      } finally {
        await rpc(node.url, 'evm_revert', [snapshot]);
      }
    }
    assert.deepEqual(differences, []);
  });

  it('one gas below what a transfer needs runs out of gas alike on both paths', async () => {
    const scenario = scenarios.find((s) => s.name === 'transfer to an existing holder')!;
    const { gas: _gas, ...call } = txJson(scenario.call);
    const estimate = BigInt(await rpc(node.url, 'eth_estimateGas', [call]));
    const tight = await bothPaths({ ...scenario.call, gas: estimate - 1n });
    assert.equal(tight.native.ok, false);
    assert.deepEqual(tight.native, tight.bytecode);
    const enough = await bothPaths({ ...scenario.call, gas: estimate });
    assert.equal(enough.native.ok, true);
    assert.deepEqual(enough.native, enough.bytecode);
  });
});
