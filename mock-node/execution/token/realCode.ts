// The token as real bytecode: FiatTokenProxy at the token's address, delegating to FiatTokenV2_2
// at `implementation`, which links SignatureChecker at `signatureChecker` (the addresses
// StableToken derives). The EVM runs this code when a contract calls the token; it reads and
// writes the same storage the native implementation keeps in USDC's layout.
import type { Hex } from '../nativeContract';
import {
  FIAT_TOKEN_PROXY_RUNTIME,
  FIAT_TOKEN_V2_2_LIBRARY_OFFSETS,
  FIAT_TOKEN_V2_2_RUNTIME_UNLINKED,
  SIGNATURE_CHECKER_RUNTIME_UNLINKED,
} from './fiatTokenBytecode';

export { FIAT_TOKEN_PROXY_RUNTIME };

function bare(address: Hex): string {
  return address.slice(2).toLowerCase();
}

/** FiatTokenV2_2's runtime code with SignatureChecker's address at each link offset. */
export function fiatTokenV2_2Runtime(signatureChecker: Hex): Hex {
  // One pass over the 48 KB of hex (slicing the text linked so far would copy all of it per link).
  const library = bare(signatureChecker);
  const pieces = ['0x'];
  let at = 2;
  for (const offset of FIAT_TOKEN_V2_2_LIBRARY_OFFSETS) {
    pieces.push(FIAT_TOKEN_V2_2_RUNTIME_UNLINKED.slice(at, 2 + offset * 2), library);
    at = 2 + (offset + 20) * 2;
  }
  pieces.push(FIAT_TOKEN_V2_2_RUNTIME_UNLINKED.slice(at));
  return pieces.join('');
}

/** SignatureChecker's runtime code deployed at `address`: its leading PUSH20 holds that address. */
export function signatureCheckerRuntime(address: Hex): Hex {
  return `0x73${bare(address)}${SIGNATURE_CHECKER_RUNTIME_UNLINKED.slice(44)}`;
}
