// The constant gas around USDC's signature check, for the frames a trace shows (the gas used
// itself is in tokenGasTable.ts): the implementation's gas before it DELEGATECALLs the
// SignatureChecker library, the library's gas before its STATICCALL to ecrecover, and all the
// library's constant gas. Measured on Circle's contracts on Anvil 1.7.1 by
// test/mock-node/inspection/traceGasCalibration.ts; regenerate with `--write`, do not edit by hand.
import type { SignatureCallGas } from './signatureCallGas';
import { SIGNATURE_CALL_GAS_TABLE } from './traceGasTable';


/** The constants of a function's signature check; a function never measured takes its closest sibling's (same arguments, the other signature form). */
export function signatureCallGas(signature: string): SignatureCallGas {
  const exact = SIGNATURE_CALL_GAS_TABLE[signature];
  if (exact) return exact;
  const name = signature.slice(0, signature.indexOf('('));
  const sibling = Object.keys(SIGNATURE_CALL_GAS_TABLE).find((key) => key.startsWith(`${name}(`));
  return sibling ? SIGNATURE_CALL_GAS_TABLE[sibling] : { implementationBefore: 0n, libraryBefore: 0n, library: 0n };
}
