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
  private readonly wallets = new Map<Hex, Wallet>();

  constructor(mnemonic: string, count: number) {
    const root = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(mnemonic), "m/44'/60'/0'/0");
    const list: DevAccount[] = [];
    for (let i = 0; i < count; i++) {
      const child = root.deriveChild(i);
      list.push({ address: child.address, privateKey: child.privateKey });
      this.wallets.set(child.address.toLowerCase(), new Wallet(child.privateKey));
    }
    this.list = list;
  }

  /** Lowercase addresses, in derivation order. */
  addresses(): Hex[] {
    return this.list.map((a) => a.address.toLowerCase());
  }

  /** The signer for a dev account, or undefined for any other address. */
  wallet(address: string): Wallet | undefined {
    return this.wallets.get(address.toLowerCase());
  }
}
