import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DevAccounts } from '../../../mock-node/execution/devAccounts';
import { NativeContracts } from '../../../mock-node/execution/execute';
import { createStableToken } from '../../../mock-node/execution/token/index';
import { DEFAULT_GENESIS, DEFAULT_GENESIS_INPUTS } from '../../../mock-node/genesis/defaultGenesis';
import { deriveGenesis, genesisAlloc, genesisInputs } from '../../../mock-node/genesis/genesisAlloc';
import { defaultGenesisModule } from '../../../mock-node/genesis/writeDefaultGenesis';
import { createMockNodeCore } from '../../../mock-node/node';
import { resolveOptions, type MockNodeOptionsInput } from '../../../mock-node/options';
import { StateTrie } from '../../../mock-node/state/stateTrie';
import { StateDraft } from '../../../mock-node/state/worldState';

function setUp(input: MockNodeOptionsInput) {
  const options = resolveOptions(input);
  const accounts = new DevAccounts(options.mnemonic, options.accounts);
  const contracts = new NativeContracts([createStableToken(options.token, accounts.addresses()[0])]);
  return { options, accounts, contracts };
}

describe('the default genesis, made at build time', () => {
  it('defaultGenesis.ts is what the generator derives from the options now', async () => {
    const file = readFileSync(join(__dirname, '..', '..', '..', 'mock-node', 'genesis', 'defaultGenesis.ts'), 'utf8');
    assert.equal(file, await defaultGenesisModule());
  });

  it('the default options take the constants: the same alloc and roots as deriving them', async () => {
    const { options, accounts, contracts } = setUp({});
    assert.equal(genesisInputs(options), DEFAULT_GENESIS_INPUTS);
    const fast = genesisAlloc(options, accounts, contracts);
    const derived = await deriveGenesis(options, accounts, contracts);
    assert.ok(fast.roots, 'the default options use the build-time roots');
    assert.deepEqual(fast.accounts, derived.alloc.accounts);
    assert.deepEqual(fast.storage, derived.alloc.storage);
    assert.equal(fast.roots.stateRoot, derived.constants.stateRoot);
    assert.deepEqual([...fast.roots.storageRoots], derived.constants.storageRoots);
    assert.deepEqual(DEFAULT_GENESIS, derived.constants);
  });

  it('the tries planted from the constant alloc agree with the constant root at the first commit', async () => {
    const { options, accounts, contracts } = setUp({});
    const alloc = genesisAlloc(options, accounts, contracts);
    const trie = new StateTrie();
    const genesis = await trie.genesis(alloc.accounts, alloc.storage, alloc.roots);
    const draft = new StateDraft(genesis);
    draft.updateAccount(accounts.addresses()[1], { balance: 1n });
    // Planting checks the root it computes against the one given (a mismatch throws).
    const next = await trie.commit(genesis, draft);
    assert.notEqual(next.stateRoot, genesis.stateRoot);
    // A wrong root given is caught the same way.
    const wrong = new StateTrie();
    const bad = await wrong.genesis(alloc.accounts, alloc.storage, { ...alloc.roots!, stateRoot: `0x${'11'.repeat(32)}` });
    const change = new StateDraft(bad);
    change.updateAccount(accounts.addresses()[1], { balance: 1n });
    await assert.rejects(wrong.commit(bad, change), /genesis state root mismatch/);
  });

  for (const [what, input] of [
    ['another chain id', { chainId: 8453n }],
    ['another token name', { token: { name: 'Other Coin' } }],
    ['more accounts', { accounts: 12 }],
    ['another balance', { balance: 5n }],
  ] as [string, MockNodeOptionsInput][]) {
    it(`${what} derives the genesis at start`, async () => {
      const { options, accounts, contracts } = setUp(input);
      assert.notEqual(genesisInputs(options), DEFAULT_GENESIS_INPUTS);
      const alloc = genesisAlloc(options, accounts, contracts);
      assert.equal(alloc.roots, undefined);
      const derived = await deriveGenesis(options, accounts, contracts);
      assert.notEqual(derived.constants.stateRoot, DEFAULT_GENESIS.stateRoot);
      const core = await createMockNodeCore({ ...input, auto: false, quiet: true });
      assert.equal(core.services.chain.latest.state.stateRoot, derived.constants.stateRoot);
    });
  }

  it('a node with the default options starts on the constant state root', async () => {
    const core = await createMockNodeCore({ auto: false, quiet: true });
    assert.equal(core.services.chain.latest.state.stateRoot, DEFAULT_GENESIS.stateRoot);
  });
});
