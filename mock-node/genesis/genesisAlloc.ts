// The genesis state: the dev accounts' balances, the native contracts' code and their genesis
// storage, and its roots. For the default options these are constants made at build time
// (defaultGenesis.ts, written by esbuild.mjs through writeDefaultGenesis.ts): the slots the token
// seeds (each dev account's balance slot is a keccak), the storage and state roots (a keccak per
// slot, account and trie node) and the code hashes (the token's 24 KB implementation) were the
// largest part of a start. Any other option that shapes the genesis derives them at start.
import type { GenesisAlloc } from '../chain/chain';
import type { Hex } from '../encoding/hex';
import type { DevAccounts } from '../execution/devAccounts';
import { storageOf, type NativeContracts } from '../execution/execute';
import type { MockNodeOptions } from '../options';
import { codeHash, EMPTY_TRIE_ROOT, rememberCodeHash, StateTrie } from '../state/stateTrie';
import { StateDraft, EMPTY_ACCOUNT, type AccountRecord, type StateReader } from '../state/worldState';
import { placeOpStackPredeploys } from './opStackPredeploys';
import { DEFAULT_GENESIS, DEFAULT_GENESIS_INPUTS, type GenesisConstants } from './defaultGenesis';

/**
 * Everything of the options the genesis state depends on, as one string: the dev accounts
 * (mnemonic, count) and their ETH, the chain id (the token's domain separator) and the token.
 */
export function genesisInputs(options: MockNodeOptions): string {
  const { mnemonic, accounts, balance, chainId, token, chain } = options;
  return JSON.stringify({ mnemonic, accounts, balance: String(balance), chainId: String(chainId), token: { ...token, balance: String(token.balance) }, ...(chain ? { chain } : {}) });
}

/** The accounts with their ETH and code, and (unless `withStorage` is false) every contract's genesis storage. */
function allocOf(options: MockNodeOptions, accounts: DevAccounts, contracts: NativeContracts, withStorage: boolean): GenesisAlloc {
  const empty: StateReader = { account: () => EMPTY_ACCOUNT, storage: () => 0n };
  const draft = new StateDraft(empty);
  for (const address of accounts.addresses()) draft.setAccount(address, { nonce: 0n, balance: options.balance, code: '0x' });
  if (options.chain !== undefined) placeOpStackPredeploys(draft);
  for (const contract of contracts.all()) {
    draft.setAccount(contract.address, { nonce: 1n, balance: 0n, code: contract.code });
    // Nonce 0, as code placed without a creation has (anvil_setCode on USDC's side of the tests).
    for (const companion of contract.companions ?? []) draft.setAccount(companion.address, { nonce: 0n, balance: 0n, code: companion.code });
    if (withStorage) contract.genesis?.({ storage: storageOf(draft, contract.address), chainId: options.chainId, devAccounts: accounts.addresses() });
  }
  return {
    accounts: new Map<Hex, AccountRecord>(draft.accountChanges),
    storage: new Map([...draft.storageWrites].map(([a, slots]) => [a, new Map([...slots].filter(([, v]) => v !== 0n))])),
  };
}

/** The genesis derived from the options: contracts seed their storage, the roots are computed. */
export async function deriveGenesis(options: MockNodeOptions, accounts: DevAccounts, contracts: NativeContracts): Promise<{ alloc: GenesisAlloc; constants: GenesisConstants }> {
  const alloc = allocOf(options, accounts, contracts, true);
  const layer = await new StateTrie().genesis(alloc.accounts, alloc.storage);
  const hex = (value: bigint) => `0x${value.toString(16)}`;
  const constants: GenesisConstants = {
    storage: [...alloc.storage].map(([address, slots]) => [address, [...slots].map(([slot, value]) => [hex(slot), hex(value)])]),
    stateRoot: layer.stateRoot,
    storageRoots: [...alloc.storage.keys()].map((address) => [address, layer.storageRoot(address) ?? EMPTY_TRIE_ROOT]),
    codeHashes: [...alloc.accounts].filter(([, record]) => record.code !== '0x').map(([address, record]) => [address, codeHash(record.code)]),
  };
  return { alloc, constants };
}

/** The genesis alloc of these options, with its roots when they are the build's constants. */
export function genesisAlloc(options: MockNodeOptions, accounts: DevAccounts, contracts: NativeContracts): GenesisAlloc {
  if (genesisInputs(options) !== DEFAULT_GENESIS_INPUTS) return allocOf(options, accounts, contracts, true);
  return withConstants(allocOf(options, accounts, contracts, false), DEFAULT_GENESIS);
}

/** The alloc's storage and roots from the constants; the code hashes are remembered for the first commit. */
function withConstants(alloc: GenesisAlloc, constants: GenesisConstants): GenesisAlloc {
  for (const [address, slots] of constants.storage) alloc.storage.set(address, new Map(slots.map(([slot, value]) => [BigInt(slot), BigInt(value)])));
  for (const [address, hash] of constants.codeHashes) {
    const code = alloc.accounts.get(address)?.code;
    if (code !== undefined) rememberCodeHash(code, hash);
  }
  return { ...alloc, roots: { stateRoot: constants.stateRoot, storageRoots: new Map(constants.storageRoots) } };
}
