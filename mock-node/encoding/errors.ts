// What the chain and execution refuse, as data: a ChainError carries a kind and the numbers that
// explain it, never a JSON-RPC code or wording. The JSON-RPC edge (rpc/chainErrors.ts) turns each
// kind into its code and geth's sentence, in one place.
import type { Hex } from './hex';

export type ChainFault =
  // A transaction refused at intake (eth_sendRawTransaction / eth_sendTransaction).
  | { kind: 'undecodable-transaction'; reason: string }
  | { kind: 'unsupported-transaction-type'; type: number | null }
  | { kind: 'invalid-chain-id'; have: bigint; want: bigint }
  | { kind: 'tip-above-fee-cap'; from?: Hex; maxPriorityFeePerGas: bigint; maxFeePerGas: bigint }
  | { kind: 'intrinsic-gas-too-low'; gas: bigint; minimum: bigint }
  /** EIP-7623: the limit is under the calldata floor. */
  | { kind: 'floor-data-gas-too-low'; gas: bigint; minimum: bigint }
  | { kind: 'exceeds-block-gas-limit' }
  | { kind: 'already-known' }
  | { kind: 'nonce-too-low'; next: bigint; nonce: bigint }
  | { kind: 'replacement-underpriced' }
  | { kind: 'fee-below-base-fee'; from: Hex; maxFeePerGas: bigint; baseFee: bigint }
  | { kind: 'insufficient-funds'; balance: bigint; cost: bigint }
  // The queue's bounds (geth's txpool errors): per sender, and in total.
  | { kind: 'account-limit-exceeded' }
  | { kind: 'txpool-full' }
  // What happened to a queued transaction someone waits for.
  | { kind: 'transaction-replaced' }
  | { kind: 'transaction-dropped'; reason: 'nonce too low' | 'insufficient funds for gas * price + value' | 'removed from the pool' | "the fork's upstream did not answer" }
  | { kind: 'not-preconfirmed'; hash: Hex; timeoutMs: number }
  // A call (eth_call / eth_estimateGas).
  | { kind: 'insufficient-funds-for-transfer' }
  | { kind: 'out-of-gas' }
  /** The EVM stopped for another reason than REVERT or running out of gas (an invalid opcode, a stack underflow…). */
  | { kind: 'halted'; error: string }
  | { kind: 'initcode-too-large'; size: number }
  /** A method that follows the native path only met EVM code (a deployed contract, a creation). */
  | { kind: 'evm-not-followed'; method: string }
  | { kind: 'reverted'; data: Hex; reason?: string }
  // Chain control.
  | { kind: 'timestamp-not-after-latest'; timestamp: bigint; latest: bigint }
  // A header's timestamp is 64 bits: no block may be stamped past 2^64 - 1.
  | { kind: 'timestamp-too-large'; timestamp: bigint }
  | { kind: 'clock-overflow'; now: bigint; seconds: bigint }
  | { kind: 'reorg-depth-invalid' }
  // --history-blocks: a read or a change that needs a sealed block the node no longer keeps.
  | { kind: 'block-pruned'; number: bigint; oldest: bigint; kept: number; subject?: string }
  | { kind: 'reorg-too-deep'; depth: number; head: bigint; safe: bigint; finalized: bigint; safeDepth: number; finalizedDepth: number };

export type ChainErrorKind = ChainFault['kind'];

export class ChainError extends Error {
  constructor(readonly fault: ChainFault) {
    super(fault.kind.replace(/-/g, ' '));
    this.name = 'ChainError';
  }

  get kind(): ChainErrorKind {
    return this.fault.kind;
  }
}
