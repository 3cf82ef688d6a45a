// Impersonation (anvil_impersonateAccount, anvil_autoImpersonateAccount and their hardhat_* names):
// which senders eth_sendTransaction may send for without their key. An impersonated sender's
// transaction is a real transaction in a block, with `from` that account and Anvil's fixed
// signature (r = s = 0, yParity 0: see transaction.ts). Node-wide and not part of the chain's
// state, as in Anvil: evm_revert and reorgs leave it as it is. eth_sendRawTransaction never
// looks here.
import type { Hex } from '../encoding/hex';

export class Impersonation {
  private readonly accounts = new Set<Hex>();
  private auto = false;

  impersonate(address: Hex): void {
    this.accounts.add(address.toLowerCase());
  }

  stop(address: Hex): void {
    this.accounts.delete(address.toLowerCase());
  }

  /** With auto impersonation on, every sender is impersonated. */
  setAuto(enabled: boolean): void {
    this.auto = enabled;
  }

  /** Whether eth_sendTransaction sends for `address` with the fixed signature instead of a key. */
  covers(address: Hex): boolean {
    return this.auto || this.accounts.has(address.toLowerCase());
  }
}
