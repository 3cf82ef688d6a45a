// The EVM that runs every contract that is not native: @ethereumjs/evm at Osaka, Anvil 1.7.1's
// default hardfork (the rules the native token's gas tables and the intrinsic-gas rules follow).
// It executes one message at a time over a StateDraft (see draftStateManager.ts); around the
// message it does what a transaction adds, as the VM's runTx would: the EIP-2929/2930/3651 warm
// set, intrinsic gas (with CREATE's 32,000 and EIP-3860's initcode words), the EIP-3529 refund cap
// and the EIP-7623 calldata floor. This module is loaded only when a message meets code.
import { Hardfork, Mainnet, createCustomCommon } from '@ethereumjs/common';
import { EVMError, createEVM, type EVM, type EVMResult } from '@ethereumjs/evm';
import { Address, bytesToHex, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { AccessList } from '../../encoding/records';
import type { Hex } from '../../encoding/hex';
import type { StateDraft, StateReader } from '../../state/worldState';
import { calldataFloorGas, transactionIntrinsicGas } from '../intrinsicGas';
import type { BlockEnvironment, NativeLog } from '../nativeContract';
import type { ExecutionTracer } from '../trace/recorder';
import { installCodeAnalysisCache } from './codeAnalysisCache';
import { installStepHookGuard } from './stepHookGuard';
import { installSyncStepLoop } from './syncStepLoop';
import type { EvmCrypto } from './nodeCrypto';
import { DraftStateManager } from './draftStateManager';
import { EvmTraceBridge, failureOf } from './traceBridge';

export const EVM_HARDFORK = Hardfork.Osaka;

/** EIP-3529: the refund is capped at a fifth of the gas used. */
const MAX_REFUND_QUOTIENT = 5n;

export interface RunOptions {
  origin: Hex;
  /** The caller has bumped the sender's nonce and bought the gas (a transaction), or not (a call). */
  transaction: boolean;
  /** Told every frame, log, slot and account of the message (debug_trace*, eth_createAccessList). */
  tracer?: ExecutionTracer;
}

export interface EvmMessage {
  from: Hex;
  /** null: contract creation (the input is initcode). */
  to: Hex | null;
  value: bigint;
  input: Hex;
  gasLimit: bigint;
  accessList?: AccessList | null;
  gasPrice?: bigint;
}

export interface EvmOutcome {
  ok: boolean;
  /** Return data on success, revert data on REVERT, '0x' on any other halt. */
  returnData: Hex;
  /** Why it did not succeed: 'revert', 'out of gas' or the EVM's name for another halt. */
  error?: string;
  logs: NativeLog[];
  logAddresses: Hex[];
  /** What the transaction is charged: intrinsic + execution − capped refund, at least the calldata floor. */
  gasUsed: bigint;
  /** Execution gas before the refund. */
  executionGasUsed: bigint;
  /** Intrinsic plus execution gas, before the refund and the floor: a limit below it cannot do the same. */
  consumed: bigint;
  /** The address a creation made (also on failure, as receipts do not show it then). */
  createdAddress?: Hex;
}

function toAddress(hex: Hex): Address {
  return new Address(hexToBytes(hex as PrefixedHexString));
}

/** One EVM per chain id, reused; messages run one at a time (the adapter points at one draft). */
export class Machine {
  private queue: Promise<unknown> = Promise.resolve();
  /** The interpreter keeps its code analyses (codeAnalysisCache.ts), from this machine's first run that used it. */
  private analysisKept = false;

  private constructor(
    private readonly evm: EVM,
    private readonly state: DraftStateManager,
    private readonly blocks: BlockHashes,
  ) {}

  /** `crypto`: the node's own keccak, ECRECOVER and SHA256 (nodeCrypto.ts); the library's JavaScript ones without it. */
  static async create(chainId: bigint, crypto?: EvmCrypto): Promise<Machine> {
    const common = createCustomCommon({ chainId: Number(chainId) }, Mainnet, { hardfork: EVM_HARDFORK, ...(crypto ? { customCrypto: crypto } : {}) });
    const state = new DraftStateManager();
    const blocks = new BlockHashes();
    const evm = await createEVM({ common, stateManager: state, blockchain: blocks as never });
    return new Machine(evm, state, blocks);
  }

  /**
   * Runs `message` over `draft` (written in place; a failed message leaves only what a failed
   * transaction leaves: nothing but what the caller did before). `transaction`: the caller has
   * already bumped the sender's nonce and bought the gas; otherwise (a call) the nonce is bumped
   * here, as the EVM sees it during eth_call.
   */
  run(draft: StateDraft, message: EvmMessage, env: BlockEnvironment, options: RunOptions): Promise<EvmOutcome> {
    const next = this.queue.then(() => this.runNow(draft, message, env, options));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async runNow(draft: StateDraft, message: EvmMessage, env: BlockEnvironment, options: RunOptions): Promise<EvmOutcome> {
    const intrinsic = transactionIntrinsicGas(message.to, message.input, message.accessList);
    const floor = calldataFloorGas(message.input);
    const atLeastFloor = (gas: bigint): bigint => (gas > floor ? gas : floor);
    const original: StateReader = draft;
    const working = draft.child();
    this.state.attach(working, original);
    const evm = this.evm;
    const blocks = this.blocks;
    blocks.env = env;
    try {
      evm.journal.cleanJournal();
      evm.transientStorage.clear();
      // What a transaction warms before it runs (EIP-2929 origin, target and precompiles, EIP-3651 coinbase, EIP-2930 list).
      for (const address of evm.precompiles.keys()) evm.journal.addAlwaysWarmAddress(address);
      evm.journal.addAlwaysWarmAddress(message.from);
      if (message.to) evm.journal.addAlwaysWarmAddress(message.to);
      evm.journal.addAlwaysWarmAddress(env.coinbase);
      for (const entry of message.accessList ?? []) {
        evm.journal.addAlwaysWarmAddress(entry.address);
        for (const slot of entry.storageKeys) evm.journal.addAlwaysWarmSlot(entry.address, slot);
      }
      const available = message.gasLimit - intrinsic;
      if (available < 0n) {
        if (options.tracer) {
          const frame = options.tracer.enter({ type: message.to ? 'CALL' : 'CREATE', from: message.from, to: message.to ?? '0x', input: message.input, value: message.value, gas: 0n });
          options.tracer.exit(frame, { gasUsed: message.gasLimit, error: 'out of gas' });
        }
        return { ok: false, returnData: '0x', error: 'out of gas', logs: [], logAddresses: [], gasUsed: message.gasLimit, executionGasUsed: 0n, consumed: message.gasLimit };
      }
      const bridge = options.tracer ? new EvmTraceBridge(options.tracer, available) : undefined;
      const detach = bridge?.attach(evm);
      let result: EVMResult;
      try {
        result = await evm.runCall({
          block: blockOf(env),
          gasPrice: message.gasPrice ?? env.baseFeePerGas,
          origin: toAddress(options.origin),
          caller: toAddress(message.from),
          to: message.to ? toAddress(message.to) : undefined,
          value: message.value,
          data: hexToBytes(message.input as PrefixedHexString),
          gasLimit: available,
          skipNonceIncrement: options.transaction,
        });
      } finally {
        detach?.();
      }
      if (!this.analysisKept && result.execResult.runState) {
        installCodeAnalysisCache(result.execResult.runState.interpreter);
        installSyncStepLoop(result.execResult.runState.interpreter);
        installStepHookGuard(result.execResult.runState.interpreter);
        this.analysisKept = true;
      }
      await evm.journal.cleanup();
      const exec = result.execResult;
      const failure = exec.exceptionError;
      const used = intrinsic + exec.executionGasUsed;
      const earned = failure ? 0n : (exec.gasRefund ?? 0n);
      const cap = used / MAX_REFUND_QUOTIENT;
      const gasUsed = atLeastFloor(used - (earned < cap ? earned : cap));
      working.mergeInto(draft);
      const charged = gasUsed < message.gasLimit ? gasUsed : message.gasLimit;
      if (bridge?.top) {
        // geth's callTracer gives the outermost frame the transaction's gas used (refund and floor applied).
        const ended = failure ? (bridge.topFailure ?? failureOf(failure, exec.returnValue)) : undefined;
        options.tracer!.exit(bridge.top, ended ? { gasUsed: charged, ...ended } : { gasUsed: charged, output: bytesToHex(exec.returnValue) });
      }
      const logs = failure ? [] : (exec.logs ?? []);
      return {
        ok: !failure,
        returnData: bytesToHex(exec.returnValue),
        error: failure ? haltName(failure) : undefined,
        logs: logs.map(([, topics, data]) => ({ topics: topics.map((t) => bytesToHex(t)), data: bytesToHex(data) })),
        logAddresses: logs.map(([address]) => bytesToHex(address)),
        gasUsed: charged,
        executionGasUsed: exec.executionGasUsed,
        consumed: used,
        createdAddress: result.createdAddress?.toString(),
      };
    } finally {
      this.state.detach();
      blocks.env = undefined;
    }
  }
}

function haltName(error: EVMError): string {
  if (error.error === EVMError.errorMessages.REVERT) return 'revert';
  if (error.error === EVMError.errorMessages.OUT_OF_GAS) return 'out of gas';
  return error.error;
}

function blockOf(env: BlockEnvironment) {
  return {
    header: {
      number: env.number,
      coinbase: toAddress(env.coinbase),
      timestamp: env.timestamp,
      difficulty: 0n,
      prevRandao: hexToBytes((env.prevRandao ?? `0x${'00'.repeat(32)}`) as PrefixedHexString),
      gasLimit: env.gasLimit ?? 30_000_000n,
      baseFeePerGas: env.baseFeePerGas,
      // No blob transactions on this chain: BLOBBASEFEE reports the minimum, 1 wei.
      getBlobGasPrice: () => 1n,
    },
  };
}

/**
 * BLOCKHASH: the EVM asks the "blockchain" for block n; the environment knows the chain's hashes,
 * and on a fork asks the upstream for a block below the fork block (as Anvil does).
 */
class BlockHashes {
  env: BlockEnvironment | undefined;

  async getBlock(number: number): Promise<{ hash(): Uint8Array }> {
    const env = this.env;
    const hash = env?.blockHash?.(BigInt(number)) ?? (await env?.upstreamBlockHash?.(BigInt(number)));
    const bytes = hexToBytes((hash ?? `0x${'00'.repeat(32)}`) as PrefixedHexString);
    return { hash: () => bytes };
  }

  shallowCopy(): BlockHashes {
    return new BlockHashes();
  }
}
