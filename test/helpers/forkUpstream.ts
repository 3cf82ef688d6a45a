// The upstream the fork tests fork: a local Anvil with Base's chain id (8453) and Circle's
// FiatTokenV2_2 behind its proxy at Base's USDC address, holding the mock's genesis token state
// (every dev account a holder), with some history: a USDC transfer and an ETH transfer before the
// fork block, and changes after it that a fork must not see.
import { Interface, Wallet } from 'ethers';
import type { StableToken } from '../../mock-node/execution/token/index';
import { findAnvil, startAnvil, type RunningAnvil } from './anvil';
import { rpc, startTestNode } from './rpc';
import { installUsdc } from './usdcOnAnvil';

export const BASE_CHAIN_ID = 8453n;
/** Circle's USDC on Base (the fork's token address on chain 8453). */
export const BASE_USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
export const USDC = new Interface([
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address,uint256) returns (bool)',
  'function transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)',
  'function cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)',
  'function authorizationState(address,bytes32) view returns (bool)',
]);

export interface ForkUpstream {
  anvil: RunningAnvil;
  /** The dev accounts (the same mnemonic on every node). */
  wallets: Wallet[];
  /** The fork block. */
  forkBlock: bigint;
  /** A block before it, with a USDC transfer from dev 0 to `holder`. */
  historyBlock: bigint;
  historyTx: string;
  /** A fresh holder: USDC arrived at `historyBlock`, more after the fork block. */
  holder: string;
  /** An account whose ETH changed after the fork block. */
  changedAfter: string;
  stop(): Promise<void>;
}

export async function sendAndMine(url: string, tx: Record<string, unknown>): Promise<any> {
  const hash = await rpc(url, 'eth_sendTransaction', [tx]);
  for (let tries = 0; tries < 200; tries++) {
    const receipt = await rpc(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no receipt for ${hash}`);
}

export function balanceOfCall(holder: string): Record<string, unknown> {
  return { to: BASE_USDC, data: USDC.encodeFunctionData('balanceOf', [holder]) };
}

export async function startForkUpstream(extraArgs: string[] = []): Promise<ForkUpstream> {
  // The mock's genesis token storage for this chain and address: what the upstream's USDC holds.
  const source = await startTestNode({ chainId: BASE_CHAIN_ID, token: { address: BASE_USDC } });
  const token = source.core.services.contracts.get(BASE_USDC) as StableToken;
  const dump = await rpc(source.url, 'mock_dumpState');
  const storage = dump.blocks[0].state.storage[token.address] as Record<string, string>;
  const wallets = source.accounts.map((account) => new Wallet(account.privateKey));
  await source.stop();
  const anvil = await startAnvil(findAnvil()!, ['--chain-id', String(BASE_CHAIN_ID), ...extraArgs]);
  await installUsdc(anvil.url, { token: BASE_USDC, implementation: token.implementation, signatureChecker: token.signatureChecker }, storage);
  await rpc(anvil.url, 'anvil_mine', ['0x3']);
  const holder = '0x00000000000000000000000000000000000be11e';
  const changedAfter = '0x0000000000000000000000000000000000c0ffee';
  const transfer = await sendAndMine(anvil.url, { from: wallets[0].address, to: BASE_USDC, data: USDC.encodeFunctionData('transfer', [holder, 1_234_567n]) });
  await sendAndMine(anvil.url, { from: wallets[1].address, to: changedAfter, value: '0x64' });
  await rpc(anvil.url, 'anvil_mine', ['0x2']);
  const forkBlock = BigInt(await rpc(anvil.url, 'eth_blockNumber'));
  // After the fork block: what a fork must not see.
  await sendAndMine(anvil.url, { from: wallets[0].address, to: BASE_USDC, data: USDC.encodeFunctionData('transfer', [holder, 5n]) });
  await sendAndMine(anvil.url, { from: wallets[1].address, to: changedAfter, value: '0x1' });
  return {
    anvil,
    wallets,
    forkBlock,
    historyBlock: BigInt(transfer.blockNumber),
    historyTx: transfer.transactionHash,
    holder,
    changedAfter,
    stop: () => anvil.stop(),
  };
}
