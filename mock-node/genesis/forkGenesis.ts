// What a fork starts with on top of the upstream's state: the dev accounts' ETH (their nonce and
// code stay the upstream's, as Anvil does), and the built-in token when its address is empty
// upstream. When the address holds code upstream, that contract is the token: nothing is placed
// over it and nothing is minted.
import type { GenesisAlloc } from '../chain/chain';
import type { Hex } from '../encoding/hex';
import type { DevAccounts } from '../execution/devAccounts';
import type { NativeContracts } from '../execution/execute';
import type { MockNodeOptions } from '../options';
import type { AccountRecord } from '../state/worldState';
import { PROXY_SLOTS } from '../upstream/proxySlots';
import type { UpstreamState } from '../upstream/upstreamState';
import { genesisAlloc } from './genesisAlloc';

/**
 * Fetches what the fork's start needs to know (the dev accounts, the token's address) in one
 * batch, with the proxy slots at the token's address: when the token is a proxy (USDC is), its
 * implementation's account follows in one more, and a first balanceOf needs only the balance.
 */
export async function fetchStartAccounts(state: UpstreamState, options: MockNodeOptions, accounts: DevAccounts): Promise<void> {
  const token = options.token.address;
  await state.fetch({ accounts: new Set<Hex>([...accounts.addresses(), token]), slots: new Map([[token, new Set(PROXY_SLOTS)]]) });
}

/** True when the token's address holds code at the fork block (the upstream's contract is the token). */
export function tokenAddressTaken(state: UpstreamState, options: MockNodeOptions): boolean {
  const account = state.account(options.token.address);
  return account !== undefined && account.code !== '0x';
}

/** The fork's first layer: the dev accounts' ETH over the upstream's records; the built-in token's code and storage when `contracts` holds it. */
export function forkGenesisAlloc(state: UpstreamState, options: MockNodeOptions, accounts: DevAccounts, contracts: NativeContracts): GenesisAlloc {
  const alloc = genesisAlloc(options, accounts, contracts);
  const devAccounts = new Map<Hex, AccountRecord>();
  for (const address of accounts.addresses()) {
    const upstream = state.account(address);
    devAccounts.set(address, { nonce: upstream?.nonce ?? 0n, code: upstream?.code ?? '0x', balance: options.balance });
  }
  for (const [address, record] of alloc.accounts) if (!devAccounts.has(address)) devAccounts.set(address, record);
  // The roots are computed from this alloc (the build's constants are a fresh chain's).
  return { accounts: devAccounts, storage: alloc.storage };
}
