// Two nodes in the same token state: the mock node (manual mode, in-process) and Anvil with
// Circle's FiatTokenV2_2 behind FiatTokenProxy at the same address and the same storage. Runs a
// scenario on both (setup, then the measured transaction, each state rolled back afterwards) and
// reports what each charged.
import { Wallet } from 'ethers';
import type { RunningMockNode } from '../../../mock-node/index';
import type { StableToken } from '../../../mock-node/execution/token/index';
import { findAnvil, startAnvil, type RunningAnvil } from '../../helpers/anvil';
import { rpc, startTestNode } from '../../helpers/rpc';
import { installUsdc } from '../../helpers/usdcOnAnvil';
import type { ScenarioContext, Scenario, TxSpec } from './gasScenarios';

export interface Charged {
  status: string;
  gasUsed: bigint;
  cumulativeGasUsed: bigint;
  blockGasUsed: bigint;
  /** eth_estimateGas of the measured call before it was sent (successful calls only). */
  estimate?: bigint;
}

export interface UsdcPair {
  node: RunningMockNode;
  anvil: RunningAnvil;
  token: StableToken;
  context(random: () => number): ScenarioContext;
  run(scenario: Scenario): Promise<{ mock: Charged; usdc: Charged }>;
  stop(): Promise<void>;
}

const GAS = 1_000_000n;

function txJson(spec: TxSpec): Record<string, unknown> {
  return {
    from: spec.from,
    to: spec.to,
    data: spec.data,
    gas: `0x${(spec.gas ?? GAS).toString(16)}`,
    ...(spec.value ? { value: `0x${spec.value.toString(16)}` } : {}),
    ...(spec.accessList ? { accessList: spec.accessList } : {}),
  };
}

/** Starts both nodes; `anvilArgs` e.g. ['--steps-tracing'] for debug_traceCall. */
export async function startUsdcPair(anvilArgs: string[] = []): Promise<UsdcPair> {
  const node = await startTestNode();
  const anvil = await startAnvil(findAnvil()!, anvilArgs);
  try {
    const token = node.core.services.contracts.get(node.tokenAddress.toLowerCase()) as StableToken;
    const dump = await rpc(node.url, 'mock_dumpState');
    const storage = dump.blocks[0].state.storage[token.address] as Record<string, string>;
    await installUsdc(anvil.url, { token: node.tokenAddress, implementation: token.implementation, signatureChecker: token.signatureChecker }, storage);
    const wallets = node.accounts.map((a) => new Wallet(a.privateKey));
    // The proxy's admin has no key anywhere: both nodes send for it by impersonation, with ETH for gas.
    for (const url of [node.url, anvil.url]) {
      await rpc(url, 'anvil_impersonateAccount', [token.proxyAdmin]);
      await rpc(url, 'anvil_setBalance', [token.proxyAdmin, '0x56bc75e2d63100000']);
    }
    if (BigInt(await rpc(node.url, 'eth_getBalance', [token.proxyAdmin, 'pending'])) === 0n) throw new Error('the proxy admin has no ETH on the mock');
    await rpc(node.url, 'evm_mine');

    async function send(url: string, spec: TxSpec, mine: boolean): Promise<any> {
      const hash = await rpc(url, 'eth_sendTransaction', [txJson(spec)]);
      if (mine) await rpc(url, 'evm_mine');
      // Anvil mines on arrival; under load its receipt can lag the hash by a moment.
      for (let tries = 0; ; tries++) {
        const receipt = await rpc(url, 'eth_getTransactionReceipt', [hash]);
        if (receipt) return receipt;
        if (tries === 200) throw new Error(`no receipt for ${hash} on ${mine ? 'the mock' : 'Anvil'}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }

    async function charged(url: string, receipt: any, estimate?: bigint): Promise<Charged> {
      const block = await rpc(url, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
      return {
        status: receipt.status,
        gasUsed: BigInt(receipt.gasUsed),
        cumulativeGasUsed: BigInt(receipt.cumulativeGasUsed),
        blockGasUsed: BigInt(block.gasUsed),
        estimate,
      };
    }

    async function runOn(url: string, scenario: Scenario, isMock: boolean): Promise<Charged> {
      const snapshot = await rpc(url, 'evm_snapshot');
      try {
        for (const step of scenario.setup) {
          const receipt = await send(url, step, isMock);
          if (receipt.status !== '0x1') throw new Error(`${scenario.name}: a setup transaction failed on ${isMock ? 'the mock' : 'Anvil'}`);
        }
        const { gas: _gas, ...call } = txJson(scenario.call);
        const estimate = scenario.ok ? BigInt(await rpc(url, 'eth_estimateGas', [call])) : undefined;
        return await charged(url, await send(url, scenario.call, isMock), estimate);
      } finally {
        await rpc(url, 'evm_revert', [snapshot]);
      }
    }

    return {
      node,
      anvil,
      token,
      context: (random) => ({
        token: token.address,
        implementation: token.implementation,
        signatureChecker: token.signatureChecker,
        proxyAdmin: token.proxyAdmin,
        chainId: node.chainId,
        wallets,
        random,
      }),
      run: async (scenario) => ({ mock: await runOn(node.url, scenario, true), usdc: await runOn(anvil.url, scenario, false) }),
      stop: async () => {
        await anvil.stop();
        await node.stop();
      },
    };
  } catch (error) {
    await anvil.stop();
    await node.stop();
    throw error;
  }
}

export { txJson };
