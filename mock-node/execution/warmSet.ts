// The accounts and storage slots a transaction has touched (EIP-2929): gas metering (evmGas.ts) keeps
// them and a native contract's call context (nativeContract.ts) carries them.
import type { Hex } from '../encoding/hex';

/** What a transaction warms before it runs (EIP-2929, EIP-2930, EIP-3651). */
export interface WarmSet {
  /** Lowercase addresses warm so far; the precompiles are always warm and not listed (evmGas.ts). */
  accounts: Set<Hex>;
  /** Per lowercase address, the warm storage slots. */
  slots: Map<Hex, Set<bigint>>;
}
