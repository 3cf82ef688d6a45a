// The two nodes a drop-in case runs against: the mock node (in-process, over real HTTP) and
// Anvil 1.7.1, each with Circle's USDC at the same address and the same balances (Anvil gets
// FiatTokenV2_2 behind its proxy from usdcOnAnvil), so a token transfer logs the same Transfer on
// both. A case gets a Target and does what a user's test suite would do with its client library.
import type { MockNodeOptionsInput, RunningMockNode } from '../../../mock-node/index';
import type { StableToken } from '../../../mock-node/execution/token/index';
import { findAnvil, startAnvil, type RunningAnvil } from '../../helpers/anvil';
import { rpc, startTestNode } from '../../helpers/rpc';
import { installUsdc } from '../../helpers/usdcOnAnvil';

export type TargetName = 'mock' | 'anvil';

export interface Target {
  name: TargetName;
  url: string;
  wsUrl: string;
  chainId: number;
  /** The well-known dev accounts (same mnemonic on both). */
  accounts: readonly { address: `0x${string}`; privateKey: `0x${string}` }[];
  /** USDC (FiatTokenV2_2 on Anvil, the native token on the mock) at the same address. */
  token: `0x${string}`;
  call<T = any>(method: string, params?: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

export interface TargetSetup {
  /** Mock node options for this case (defaults: auto mode, 1 s blocks, 100 ms flashblocks). */
  mock?: MockNodeOptionsInput;
  /** Extra Anvil flags for this case. */
  anvil?: string[];
}

export const MOCK_DEFAULTS: MockNodeOptionsInput = { auto: true, blockTimeMs: 1000, flashblockMs: 100 };

export async function startMockTarget(options: MockNodeOptionsInput = {}): Promise<Target & { node: RunningMockNode }> {
  const node = await startTestNode({ ...MOCK_DEFAULTS, ...options });
  return {
    name: 'mock',
    node,
    url: node.url,
    wsUrl: node.wsUrl,
    chainId: Number(node.chainId),
    accounts: node.accounts.map((a) => ({ address: a.address as `0x${string}`, privateKey: a.privateKey as `0x${string}` })),
    token: node.tokenAddress as `0x${string}`,
    call: (method, params = []) => rpc(node.url, method, params),
    stop: () => node.stop(),
  };
}

/** Anvil with USDC installed as the mock node `source` has it (its genesis token storage). */
export async function startAnvilTarget(source: RunningMockNode, args: string[] = []): Promise<Target & { anvil: RunningAnvil }> {
  const anvil = await startAnvil(findAnvil()!, args);
  try {
    const token = source.core.services.contracts.get(source.tokenAddress.toLowerCase()) as StableToken;
    const dump = await rpc(source.url, 'mock_dumpState');
    const storage = dump.blocks[0].state.storage[token.address] as Record<string, string>;
    await installUsdc(anvil.url, { token: source.tokenAddress, implementation: token.implementation, signatureChecker: token.signatureChecker }, storage);
  } catch (error) {
    await anvil.stop();
    throw error;
  }
  return {
    name: 'anvil',
    anvil,
    url: anvil.url,
    wsUrl: anvil.url.replace(/^http/, 'ws'),
    chainId: 31337,
    accounts: source.accounts.map((a) => ({ address: a.address as `0x${string}`, privateKey: a.privateKey as `0x${string}` })),
    token: source.tokenAddress as `0x${string}`,
    call: (method, params = []) => rpc(anvil.url, method, params),
    stop: () => anvil.stop(),
  };
}

/** Both nodes for one case: the mock first (Anvil copies its token storage). */
export async function startPair(setup: TargetSetup = {}): Promise<{ mock: Target; anvil: Target; stop(): Promise<void> }> {
  const mock = await startMockTarget(setup.mock);
  let anvil: Target;
  try {
    anvil = await startAnvilTarget(mock.node, setup.anvil);
  } catch (error) {
    await mock.stop();
    throw error;
  }
  return { mock, anvil, stop: async () => void (await Promise.all([mock.stop(), anvil.stop()])) };
}
