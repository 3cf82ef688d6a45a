import { strict as assert } from 'node:assert';
import { DEFAULT_DEV_ACCOUNTS } from '../../../mock-node/execution/defaultDevAccounts';
import { DevAccounts, deriveDevAccounts } from '../../../mock-node/execution/devAccounts';
import { DEFAULT_MNEMONIC } from '../../../mock-node/options';

describe('dev accounts', () => {
  it('the constants of the default mnemonic are its derivation', () => {
    const derived = deriveDevAccounts(DEFAULT_MNEMONIC, DEFAULT_DEV_ACCOUNTS.length);
    assert.deepEqual(DEFAULT_DEV_ACCOUNTS.map(([address, privateKey]) => ({ address, privateKey })), derived);
    // Anvil's and Hardhat's first account.
    assert.equal(derived[0].address, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  });

  it('more accounts than the constants hold, and a custom mnemonic, are derived', () => {
    const many = new DevAccounts(DEFAULT_MNEMONIC, DEFAULT_DEV_ACCOUNTS.length + 2);
    assert.deepEqual(many.list, deriveDevAccounts(DEFAULT_MNEMONIC, DEFAULT_DEV_ACCOUNTS.length + 2));
    const custom = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
    const other = new DevAccounts(custom, 3);
    assert.deepEqual(other.list, deriveDevAccounts(custom, 3));
    assert.notEqual(other.list[0].address, many.list[0].address);
    assert.equal(other.wallet(other.list[1].address)!.address, other.list[1].address);
  });
});
