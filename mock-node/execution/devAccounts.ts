// Dev accounts derived from a mnemonic on the standard path m/44'/60'/0'/0/i, the same
// addresses Anvil and Hardhat print for the well-known test mnemonic. For that mnemonic the
// first 20 come from constants (defaultDevAccounts.ts); others are derived.
import { HDNodeWallet, Mnemonic, Wallet } from 'ethers';
import type { Hex } from '../encoding/hex';
import { DEFAULT_MNEMONIC } from '../options';
import { DEFAULT_DEV_ACCOUNTS } from './defaultDevAccounts';

export interface DevAccount {
  /** Checksummed address. */
  address: string;
  privateKey: Hex;
}

/** Derives `count` accounts of a mnemonic (ethers: BIP-39 seed, BIP-32 path). */
export function deriveDevAccounts(mnemonic: string, count: number): DevAccount[] {
  const root = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(mnemonic), "m/44'/60'/0'/0");
  const list: DevAccount[] = [];
  for (let i = 0; i < count; i++) {
    const child = root.deriveChild(i);
    list.push({ address: child.address, privateKey: child.privateKey as Hex });
  }
  return list;
}

function accountsOf(mnemonic: string, count: number): DevAccount[] {
  if (mnemonic === DEFAULT_MNEMONIC && count <= DEFAULT_DEV_ACCOUNTS.length) {
    return DEFAULT_DEV_ACCOUNTS.slice(0, count).map(([address, privateKey]) => ({ address, privateKey }));
  }
  return deriveDevAccounts(mnemonic, count);
}

export class DevAccounts {
  readonly list: readonly DevAccount[];
  private readonly keys = new Map<Hex, Hex>();
  /** Signers, made on first use (each costs a public-key computation, which start-up need not pay). */
  private readonly wallets = new Map<Hex, Wallet>();

  constructor(mnemonic: string, count: number) {
    this.list = accountsOf(mnemonic, count);
    for (const account of this.list) this.keys.set(account.address.toLowerCase(), account.privateKey);
  }

  /** Lowercase addresses, in derivation order. */
  addresses(): Hex[] {
    return this.list.map((a) => a.address.toLowerCase());
  }

  /** The signer for a dev account, or undefined for any other address. */
  wallet(address: string): Wallet | undefined {
    const key = address.toLowerCase();
    let wallet = this.wallets.get(key);
    if (!wallet) {
      const privateKey = this.keys.get(key);
      if (!privateKey) return undefined;
      wallet = new Wallet(privateKey);
      this.wallets.set(key, wallet);
    }
    return wallet;
  }
}
