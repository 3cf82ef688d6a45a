// The constant gas of one token call path, as measured on USDC: the shape of the generated table
// (tokenGasTable.ts) and of what the gas model (gas.ts) computes from it.
/** Constant gas of one path (everything but the metered storage and account accesses). */
export interface PathGas {
  /** All of it: the proxy's and the implementation's (and the library's) opcodes. */
  total: bigint;
  /** The proxy's part before its DELEGATECALL. */
  proxyBefore: bigint;
  /** The proxy's part after the DELEGATECALL returns. */
  proxyAfter: bigint;
  /** The implementation's gas after its last SSTORE (for the 2,300-gas sentry); undefined without an SSTORE. */
  afterLastSstore?: bigint;
  /** The implementation's gas after a CALL it makes returns (the token calling itself); undefined without one. */
  afterCall?: bigint;
}
