// The constant gas around USDC's signature check that call traces show, as measured on USDC: the
// shape of the generated table (traceGasTable.ts) and of what traceGas.ts answers from it.
export interface SignatureCallGas {
  /** The implementation's constant gas before the library's DELEGATECALL (its metered part is added). */
  implementationBefore: bigint;
  /** The library's constant gas before the STATICCALL to ecrecover. */
  libraryBefore: bigint;
  /** All the library's constant gas (ecrecover's 3,000 and the metered accesses are added). */
  library: bigint;
}
