// The contract interface the node executes without an EVM. A native contract keeps all of its
// state in its own storage slots (so eth_getStorageAt sees exactly what a Solidity contract with
// the same layout would store) and answers ABI-encoded calldata with ABI-encoded return data.
import type { WarmSet } from './warmSet';
import type { ExecutionTracer } from './trace/recorder';
import type { StateReader } from '../state/worldState';

/** 0x-prefixed lowercase hex. */
export type Hex = string;

/** Read/write access to one contract's storage within the transaction being executed. */
export interface ContractStorage {
  /** The 32-byte slot value as an unsigned integer (0 when never written). */
  get(slot: bigint): bigint;
  /** Writes a slot; writing 0 clears it. */
  set(slot: bigint, value: bigint): void;
}

/** The block the call executes in. */
export interface BlockEnvironment {
  readonly number: bigint;
  /** Unix seconds; token time checks compare against this. */
  readonly timestamp: bigint;
  readonly chainId: bigint;
  readonly coinbase: Hex;
  readonly baseFeePerGas: bigint;
  /** The block's gas limit (GASLIMIT); the EVM reads it, native contracts do not. */
  readonly gasLimit?: bigint;
  /** The header's mixHash (PREVRANDAO). */
  readonly prevRandao?: Hex;
  /** BLOCKHASH: the hash of an earlier block of this chain, when there is one. */
  readonly blockHash?: (number: bigint) => Hex | undefined;
  /** BLOCKHASH on a fork, of a block below the fork block: the upstream's hash (an UpstreamError when it fails). */
  readonly upstreamBlockHash?: (number: bigint) => Promise<Hex | undefined>;
}

export interface NativeLog {
  /** 0 to 4 topics, each 32-byte hex. */
  readonly topics: Hex[];
  readonly data: Hex;
}

export interface CallContext {
  /** msg.sender, lowercase hex address. */
  readonly caller: Hex;
  /** tx.origin, lowercase hex address. */
  readonly origin: Hex;
  /** The contract's own address, lowercase hex. */
  readonly address: Hex;
  readonly value: bigint;
  /** Calldata: selector + ABI-encoded arguments. */
  readonly data: Hex;
  readonly block: BlockEnvironment;
  /** True for eth_call; a native contract may still write (the writes are discarded). */
  readonly isStatic: boolean;
  readonly storage: ContractStorage;
  /** What the transaction has warmed so far (EIP-2929): the contract adds what it touches. */
  readonly warm: WarmSet;
  /** Appends a log emitted by this contract. Discarded if the call reverts. */
  emitLog(log: NativeLog): void;
  /** Present only when the message is traced: the contract reports its frames, slots and accounts. */
  readonly tracer?: ExecutionTracer;
  /** Whether an account holds code (a contract), at the state the call runs in. */
  hasCode(address: Hex): boolean;
  /** The code at an address as the transaction sees it ('0x' for none). */
  codeAt?(address: Hex): Hex;
}

/**
 * Thrown by a native contract when the call needs other contracts' code (an ERC-1271 signer, say):
 * the node then runs the whole message in the EVM over the contract's bytecode instead.
 */
export class NativePathDeclined extends Error {
  constructor(readonly why: string) {
    super(`the native path declines: ${why}`);
  }
}

/** How a call's gas behaves beyond what it used: refund, the gas it needs, running out of it. */
export interface CallGasDetail {
  /** The path the call took (for tests and the gas table). */
  readonly path: string;
  /** EIP-3529 refund earned, before the transaction caps it at a fifth. */
  readonly refund: bigint;
  /** The least execution gas with which the call does what it does (≥ gasUsed). */
  readonly needed: bigint;
  /** Execution gas used when only `available` < `needed` is offered. */
  outOfGas(available: bigint): bigint;
  /** The state-dependent part of `gasUsed` (storage and account access), for calibration against an EVM. */
  readonly metered?: { readonly dynamic: bigint; readonly proxyDynamic: bigint; readonly lastSstoreCost?: bigint };
}

export type CallOutcome =
  | { readonly ok: true; readonly returnData: Hex; readonly gasUsed: bigint; readonly gas?: CallGasDetail }
  | {
      readonly ok: false;
      /** ABI-encoded revert data, e.g. Error(string) (selector 0x08c379a0). */
      readonly revertData: Hex;
      /** The decoded reason string, when there is one. */
      readonly reason?: string;
      readonly gasUsed: bigint;
      readonly gas?: CallGasDetail;
    };

/** Seeds a contract's storage at genesis. */
export interface GenesisContext {
  readonly storage: ContractStorage;
  readonly chainId: bigint;
  /** Dev account addresses, lowercase hex. */
  readonly devAccounts: readonly Hex[];
}

export interface NativeContract {
  /** Lowercase hex address the contract is deployed at. */
  readonly address: Hex;
  /** Runtime code reported by eth_getCode (its keccak is the account's codeHash); the EVM runs it when a contract calls this one. */
  readonly code: Hex;
  /** Other accounts with code the contract needs at genesis (the token's implementation and library). */
  readonly companions?: readonly { address: Hex; code: Hex }[];
  /** Executes one call; `gasUsed` in the outcome is the execution gas on top of the intrinsic gas, before any refund. */
  call(ctx: CallContext): CallOutcome;
  genesis?(ctx: GenesisContext): void;
  /**
   * Work a call's execution can do ahead, when a transaction calling the contract is accepted
   * (the token recovers an authorization's signer): a hint that never changes an outcome.
   */
  prepare?(data: Hex, state: StateReader, chainId: bigint): void;
}
