// Dev accounts derived from a mnemonic on the standard path m/44'/60'/0'/0/i, the same
// addresses Anvil and Hardhat print for the well-known test mnemonic.
import { HDNodeWallet, Mnemonic, Wallet } from 'ethers';
import type { Hex } from '../chain/hex';

export interface DevAccount {
  /** Checksummed address. */
  address: string;
  privateKey: Hex;
}

export class DevAccounts {
  readonly list: readonly DevAccount[];
  private readonly keys = new Map<Hex, Hex>();
  /** Signers, made on first use (each costs a public-key computation, which start-up need not pay). */
  private readonly wallets = new Map<Hex, Wallet>();

  constructor(mnemonic: string, count: number) {
    const root = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(mnemonic), "m/44'/60'/0'/0");
    const list: DevAccount[] = [];
    for (let i = 0; i < count; i++) {
      const child = root.deriveChild(i);
      list.push({ address: child.address, privateKey: child.privateKey });
      this.keys.set(child.address.toLowerCase(), child.privateKey);
    }
    this.list = list;
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
