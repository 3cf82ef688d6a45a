// Guards around real money: which chains count as development chains, the well-known development
// keys (the `test … junk` mnemonic every dev node funds), and the sentence a confirmation shows
// before a capture or cancel on any other chain. Pure: no vscode import.
import { HDNodeWallet, Mnemonic, getAddress } from 'ethers';
import { formatTokenAmount, type AuthorizationRecord } from './model';

/** The mnemonic Hardhat, Anvil and this mock node derive their dev accounts from. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
/** Hardhat's and Anvil's chain id, the mock node's default. */
export const DEV_CHAIN_ID = 31337n;
const DEV_ACCOUNT_COUNT = 20;

let devAddresses: Set<string> | undefined;

/** True for an address of the first 20 accounts of the well-known dev mnemonic (public knowledge: anyone can spend from them). */
export function isWellKnownDevAccount(address: string): boolean {
  if (!devAddresses) {
    const mnemonic = Mnemonic.fromPhrase(DEV_MNEMONIC);
    devAddresses = new Set(Array.from({ length: DEV_ACCOUNT_COUNT }, (_, i) => HDNodeWallet.fromMnemonic(mnemonic, `m/44'/60'/0'/0/${i}`).address));
  }
  return devAddresses.has(getAddress(address));
}

/** A development chain: the bundled mock node's endpoint, or chain id 31337. */
export function isDevChain(chainId: bigint, isMockEndpoint: boolean): boolean {
  return isMockEndpoint || chainId === DEV_CHAIN_ID;
}

/** What a capture or cancel on a real chain asks the user to confirm: amount, recipient, chain. */
export function realChainConfirmation(action: 'capture' | 'cancel', record: AuthorizationRecord, chainId: bigint, symbol = 'USDC'): string {
  const a = record.authorization;
  const amount = `${formatTokenAmount(BigInt(a.value))} ${symbol}`;
  return action === 'capture'
    ? `Capture ${amount} from ${a.from} to the recipient ${a.to} on chain ${chainId} (${record.endpointName})? This is not the mock node: the transaction moves real funds and costs gas.`
    : `Cancel the authorization of ${amount} from ${a.from} to ${a.to} on chain ${chainId} (${record.endpointName})? This is not the mock node: the transaction costs gas and the nonce is consumed for good.`;
}
