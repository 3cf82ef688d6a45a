// Opens a fork: the upstream (redacted URL, timing), its chain id and fork block, the token's
// place (the upstream's contract when its address holds code, else the built-in token placed
// there), and the first layer over the upstream's state. At start and for anvil_reset({ forking }).
import type { GenesisAlloc } from './chain/chain';
import type { ForkBase } from './chain/forkBase';
import type { DevAccounts } from './execution/devAccounts';
import { NativeContracts } from './execution/execute';
import { createStableToken } from './execution/token/index';
import { fetchStartAccounts, forkGenesisAlloc, tokenAddressTaken } from './genesis/forkGenesis';
import { rulesForUpstreamChain } from './genesis/upstreamChainRules';
import { OptionError, type ForkOptions, type MockNodeOptions, type MockNodeOptionsInput } from './options';
import { presetByName } from './presets/chainPresets';
import { redactUrl } from './redact';
import { findForkBlock } from './upstream/forkBlock';
import { UpstreamClient } from './upstream/upstreamClient';
import { UpstreamState } from './upstream/upstreamState';

export interface OpenedFork {
  /** The options with the upstream's chain id (and the chain's USDC as the token, unless one was given). */
  options: MockNodeOptions;
  fork: ForkBase;
  /** The built-in token when it is placed (its address is empty upstream); none when the upstream's contract is the token. */
  contracts: NativeContracts;
  alloc: GenesisAlloc;
}

export async function openFork(options: MockNodeOptions, input: Pick<MockNodeOptionsInput, 'chainId' | 'token'>, accounts: DevAccounts, fork: ForkOptions): Promise<OpenedFork> {
  const client = new UpstreamClient({ url: fork.url, shownUrl: redactUrl(fork.url), timeoutMs: fork.timeoutMs, retries: fork.retries, retryBackoffMs: fork.retryBackoffMs, waitAtMisses: fork.waitAtMisses, headers: fork.headers, computeUnitsPerSecond: fork.computeUnitsPerSecond });
  const start = await findForkBlock(client, fork.blockNumber, fork.chainId);
  if (input.chainId !== undefined && BigInt(input.chainId) !== start.chainId) {
    throw new OptionError(`chainId ${BigInt(input.chainId)} differs from the chain id of the fork's upstream ${client.settings.shownUrl} (${start.chainId}): a fork keeps the upstream's chain id`);
  }
  const preset = options.chain === undefined ? undefined : presetByName(options.chain);
  if (preset && preset.chainId !== start.chainId) {
    throw new OptionError(`--chain ${options.chain} builds chain ${preset.chainId}'s blocks, but the fork's upstream ${client.settings.shownUrl} is chain ${start.chainId}: fork that chain, or leave --chain out`);
  }
  const usdc = rulesForUpstreamChain(start.chainId).usdc;
  const token = input.token?.address === undefined && usdc !== undefined ? { ...options.token, address: usdc } : options.token;
  const forked: MockNodeOptions = { ...options, chainId: start.chainId, token, fork: { ...fork, blockNumber: start.header.number } };
  const state = new UpstreamState(client, start.header.number);
  await fetchStartAccounts(state, forked, accounts);
  const placed = tokenAddressTaken(state, forked) ? [] : [createStableToken(forked.token, accounts.addresses()[0])];
  const contracts = new NativeContracts(placed);
  const alloc = forkGenesisAlloc(state, forked, accounts, contracts);
  return { options: forked, fork: { client, state, header: start.header, hash: start.hash, size: start.size }, contracts, alloc };
}
