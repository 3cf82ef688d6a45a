// Applying a transaction to a state draft, and running a call (eth_call / eth_estimateGas)
// without keeping its effects. Value transfers are native; calls to a native contract run its
// TypeScript implementation against its own storage slots; a message that meets other code (a
// creation, a deployed contract) runs in the EVM (./evm), loaded only then.
import { AbiCoder, dataSlice } from 'ethers';
import { ChainError } from '../encoding/errors';
import type { Hex } from '../encoding/hex';
import type { AccessList, LogRecord, ReceiptRecord, TransactionRecord } from '../encoding/records';
import type { AccountRecord, StateDraft, StateReader } from '../state/worldState';
import { createdAddress } from './createdAddress';
import { machineFor } from './evm/index';
import { initialWarmSet, isPrecompile } from './evmGas';
import { calldataFloorGas, intrinsicGas } from './intrinsicGas';
import { NativePathDeclined, type BlockEnvironment, type CallOutcome, type ContractStorage, type NativeContract, type NativeLog } from './nativeContract';
import { effectiveGasPrice, maxFeePerGas } from './transaction';
import type { ExecutionTracer, TracedFrame } from './trace/recorder';

export class NativeContracts {
  private readonly byAddress = new Map<Hex, NativeContract>();

  constructor(contracts: readonly NativeContract[]) {
    for (const contract of contracts) this.byAddress.set(contract.address.toLowerCase(), contract);
  }

  get(address: Hex | null): NativeContract | undefined {
    return address ? this.byAddress.get(address) : undefined;
  }

  all(): NativeContract[] {
    return [...this.byAddress.values()];
  }
}

export interface CallRequest {
  from: Hex;
  to: Hex | null;
  value: bigint;
  input: Hex;
  gasLimit: bigint;
  accessList?: AccessList | null;
}

export interface CallResult {
  outcome: CallOutcome;
  logs: NativeLog[];
  logAddresses: Hex[];
  /** Gas the transaction uses: intrinsic plus execution, less the capped refund, at least the calldata floor. */
  gasUsed: bigint;
  /** The least gas limit with which the message does what it did with `gasLimit` (eth_estimateGas). */
  gasNeeded: bigint;
}

export function storageOf(draft: StateDraft, address: Hex): ContractStorage {
  return {
    get: (slot) => draft.storage(address, slot),
    set: (slot, value) => draft.setStorage(address, slot, value),
  };
}

const ERROR_STRING_SELECTOR = '0x08c379a0';

export function encodeRevertReason(reason: string): Hex {
  return ERROR_STRING_SELECTOR + AbiCoder.defaultAbiCoder().encode(['string'], [reason]).slice(2);
}

export function decodeRevertReason(data: Hex): string | undefined {
  if (!data.startsWith(ERROR_STRING_SELECTOR) || data.length < 10) return undefined;
  try {
    return AbiCoder.defaultAbiCoder().decode(['string'], dataSlice(data, 4))[0] as string;
  } catch {
    return undefined;
  }
}

/** EIP-3529: the refund is capped at a fifth of the gas used. */
const MAX_REFUND_QUOTIENT = 5n;

/**
 * Runs the message part of a transaction or call in a child draft: value transfer plus the
 * native contract, if any. The child is merged into `draft` only on success. Gas follows the
 * EVM: intrinsic gas, execution, the EIP-3529 refund (at most a fifth), the EIP-7623 floor; a
 * limit below what the contract needs runs out of gas as the EVM would.
 */
export interface MessageOptions {
  isStatic: boolean;
  origin: Hex;
  tracer?: ExecutionTracer;
  /** The caller runs the message in the EVM when the native contract declines (NativePathDeclined). */
  declineToEvm?: boolean;
}

export function runMessage(
  draft: StateDraft,
  request: CallRequest,
  env: BlockEnvironment,
  contracts: NativeContracts,
  options: MessageOptions,
): CallResult {
  const tracer = options.tracer;
  if (!tracer) return runUntraced(draft, request, env, contracts, options);
  // The transaction's own frame: gas is what is left after the intrinsic gas; gasUsed is the
  // transaction's (as geth's tracers report the outermost frame).
  const base = intrinsicGas(request.input, request.accessList ?? null);
  const frame = tracer.enter({ type: 'CALL', from: request.from, to: request.to ?? '0x', input: request.input, value: request.value, gas: request.gasLimit > base ? request.gasLimit - base : 0n });
  const result = runUntraced(draft, request, env, contracts, options);
  endTopFrame(tracer, frame, result);
  return result;
}

function endTopFrame(tracer: ExecutionTracer, frame: TracedFrame, result: CallResult): void {
  const outcome = result.outcome;
  if (outcome.ok) {
    tracer.exit(frame, { gasUsed: result.gasUsed, output: outcome.returnData });
    return;
  }
  const reason = outcome.reason ?? decodeRevertReason(outcome.revertData);
  if (reason === 'out of gas') {
    // The native contract ran out of gas as a whole: its inner frames did not complete.
    frame.calls = [];
    tracer.exit(frame, { gasUsed: result.gasUsed, error: 'out of gas' });
    return;
  }
  if (reason === 'insufficient balance for transfer') {
    tracer.exit(frame, { gasUsed: result.gasUsed, error: reason });
    return;
  }
  tracer.exit(frame, { gasUsed: result.gasUsed, output: outcome.revertData, error: 'execution reverted', revertReason: reason });
}

function runUntraced(
  draft: StateDraft,
  request: CallRequest,
  env: BlockEnvironment,
  contracts: NativeContracts,
  options: MessageOptions,
): CallResult {
  const base = intrinsicGas(request.input, request.accessList ?? null);
  const floor = calldataFloorGas(request.input);
  const atLeastFloor = (gas: bigint): bigint => (gas > floor ? gas : floor);
  const child = draft.child();
  const logs: NativeLog[] = [];
  const logAddresses: Hex[] = [];
  if (request.value > 0n) {
    if (child.account(request.from).balance < request.value) {
      const reason = 'insufficient balance for transfer';
      const gasUsed = atLeastFloor(base);
      return { outcome: { ok: false, revertData: '0x', reason, gasUsed: 0n }, logs: [], logAddresses: [], gasUsed, gasNeeded: gasUsed };
    }
    child.subtractBalance(request.from, request.value);
    if (request.to) child.addBalance(request.to, request.value);
  }
  const contract = contracts.get(request.to);
  let outcome: CallOutcome = { ok: true, returnData: '0x', gasUsed: 0n };
  if (contract) {
    try {
      outcome = contract.call({
        caller: request.from,
        origin: options.origin,
        address: contract.address,
        value: request.value,
        data: request.input,
        block: env,
        isStatic: options.isStatic,
        storage: storageOf(child, contract.address),
        warm: initialWarmSet(options.origin, contract.address, env.coinbase, request.accessList ?? []),
        emitLog: (log) => {
          logs.push(log);
          logAddresses.push(contract.address);
          options.tracer?.log(contract.address, log.topics.map((t) => t.toLowerCase()), log.data.toLowerCase());
        },
        tracer: options.tracer,
        hasCode: (address) => child.account(address).code !== '0x',
        codeAt: (address) => child.account(address).code,
      });
    } catch (error) {
      if (error instanceof NativePathDeclined) {
        // The caller runs the message in the EVM instead, or (a method following the native path only) refuses it.
        if (options.declineToEvm) throw error;
        throw new ChainError({ kind: 'evm-not-followed', method: 'this method' });
      }
      // A bug in a native contract must not take the node down: it reverts like an invalid opcode.
      const reason = `native contract error: ${(error as Error).message}`;
      outcome = { ok: false, revertData: '0x', reason, gasUsed: 0n };
    }
  }
  const needed = outcome.gas?.needed ?? outcome.gasUsed;
  const gasNeeded = atLeastFloor(base + needed);
  const available = request.gasLimit - base;
  if (available < needed) {
    // Out of gas: everything the message did is undone.
    const spent = outcome.gas ? outcome.gas.outOfGas(available > 0n ? available : 0n) : available;
    const gasUsed = atLeastFloor(base + (spent > 0n ? spent : 0n));
    const capped = gasUsed < request.gasLimit ? gasUsed : request.gasLimit;
    return { outcome: { ok: false, revertData: '0x', reason: 'out of gas', gasUsed: spent }, logs: [], logAddresses: [], gasUsed: capped, gasNeeded };
  }
  const beforeRefund = base + outcome.gasUsed;
  const earned = outcome.ok ? (outcome.gas?.refund ?? 0n) : 0n;
  const refund = earned < beforeRefund / MAX_REFUND_QUOTIENT ? earned : beforeRefund / MAX_REFUND_QUOTIENT;
  const gasUsed = atLeastFloor(beforeRefund - (refund > 0n ? refund : 0n));
  if (!outcome.ok) return { outcome, logs: [], logAddresses: [], gasUsed, gasNeeded };
  child.mergeInto(draft);
  return { outcome, logs, logAddresses, gasUsed, gasNeeded };
}

/** Why a queued transaction cannot be included right now. */
export type InclusionProblem = 'nonce-too-low' | 'nonce-gap' | 'fee-below-base-fee' | 'insufficient-funds' | 'block-full';

export interface AppliedTransaction {
  receipt: Omit<ReceiptRecord, 'cumulativeGasUsed' | 'logsBloom'>;
}

/**
 * Whether a message to `to` runs EVM code: a creation, a precompile (ECRECOVER, SHA256, ... called
 * directly: it answers and charges as in a contract's call), or an address with code that no
 * native contract serves.
 */
export function messageNeedsEvm(state: StateReader, to: Hex | null, contracts: NativeContracts): boolean {
  if (to === null) return true;
  if (contracts.get(to)) return false;
  return state.account(to).code !== '0x' || isPrecompile(to);
}

type Applied = AppliedTransaction | { problem: InclusionProblem };

/**
 * Applies a signed transaction on top of `draft`: nonce, gas purchase, message, refund and the
 * fee recipient's tip. Returns a problem instead when the transaction cannot be included. A
 * transaction whose message meets EVM code (a creation, a call to a deployed contract) returns a
 * promise: the EVM is loaded and run only then; everything else stays synchronous.
 */
export function applyTransaction(
  draft: StateDraft,
  tx: TransactionRecord,
  env: BlockEnvironment,
  contracts: NativeContracts,
  gasLeftInBlock: bigint,
  firstLogIndex: number,
  transactionIndex: number,
  tracer?: ExecutionTracer,
): Applied | Promise<Applied> {
  const sender = draft.account(tx.from);
  if (tx.nonce < sender.nonce) return { problem: 'nonce-too-low' };
  if (tx.nonce > sender.nonce) return { problem: 'nonce-gap' };
  if (maxFeePerGas(tx) < env.baseFeePerGas) return { problem: 'fee-below-base-fee' };
  if (tx.gasLimit > gasLeftInBlock) return { problem: 'block-full' };
  if (sender.balance < tx.gasLimit * maxFeePerGas(tx) + tx.value) return { problem: 'insufficient-funds' };

  const price = effectiveGasPrice(tx, env.baseFeePerGas);
  const needsEvm = messageNeedsEvm(draft, tx.to, contracts);
  if (!needsEvm && !tracer && !contracts.get(tx.to)) {
    const transfer = plainTransfer(draft, tx, sender, env, price);
    if (transfer) return transfer;
  }
  draft.updateAccount(tx.from, { nonce: sender.nonce + 1n, balance: sender.balance - tx.gasLimit * price });
  const place = { firstLogIndex, transactionIndex };
  if (needsEvm) return applyWithEvm(draft, tx, env, price, place, tracer);
  let result: CallResult;
  try {
    result = runMessage(
      draft,
      { from: tx.from, to: tx.to, value: tx.value, input: tx.input, gasLimit: tx.gasLimit, accessList: tx.accessList },
      env,
      contracts,
      { isStatic: false, origin: tx.from, tracer, declineToEvm: true },
    );
  } catch (error) {
    // The message needs other contracts' code: the native contract's bytecode runs it instead (traced afresh).
    if (error instanceof NativePathDeclined) {
      tracer?.restart?.();
      return applyWithEvm(draft, tx, env, price, place, tracer);
    }
    throw error;
  }
  const failure = result.outcome.ok
    ? undefined
    : { revertData: result.outcome.revertData, reason: result.outcome.reason ?? decodeRevertReason(result.outcome.revertData) };
  return finishTransaction(draft, tx, env, price, { gasUsed: result.gasUsed, logs: result.logs, logAddresses: result.logAddresses, failure, contractAddress: null }, place);
}

/**
 * A message to an account without code that no native contract serves (an ETH transfer, or data
 * to an externally owned account), untraced: nothing runs, so the gas is the intrinsic gas (at
 * least the EIP-7623 floor) and there is nothing to undo. The sender, the recipient and the fee
 * recipient each change once, with what runMessage and finishTransaction would leave (the checks
 * in applyTransaction leave the sender the value after buying the gas). Undefined when the gas
 * limit does not cover the intrinsic gas: runMessage's out-of-gas path answers that.
 */
function plainTransfer(draft: StateDraft, tx: TransactionRecord, sender: AccountRecord, env: BlockEnvironment, price: bigint): AppliedTransaction | undefined {
  const base = intrinsicGas(tx.input, tx.accessList);
  if (tx.gasLimit < base) return undefined;
  const floor = calldataFloorGas(tx.input);
  const used = base > floor ? base : floor;
  const gasUsed = used > tx.gasLimit ? tx.gasLimit : used;
  draft.updateAccount(tx.from, { nonce: sender.nonce + 1n, balance: sender.balance - gasUsed * price - tx.value });
  if (tx.value > 0n) draft.addBalance(tx.to!, tx.value);
  const tip = (price - env.baseFeePerGas) * gasUsed;
  if (tip > 0n) draft.addBalance(env.coinbase, tip);
  return { receipt: { status: 1, gasUsed, effectiveGasPrice: price, logs: [], contractAddress: null } };
}

async function applyWithEvm(draft: StateDraft, tx: TransactionRecord, env: BlockEnvironment, price: bigint, place: LogPlace, tracer?: ExecutionTracer): Promise<Applied> {
  const machine = await machineFor(env.chainId);
  const outcome = await machine.run(
    draft,
    { from: tx.from, to: tx.to, value: tx.value, input: tx.input, gasLimit: tx.gasLimit, accessList: tx.accessList, gasPrice: price },
    env,
    { origin: tx.from, transaction: true, tracer },
  );
  const failure = outcome.ok
    ? undefined
    : outcome.error === 'revert'
      ? { revertData: outcome.returnData, reason: decodeRevertReason(outcome.returnData) }
      : { revertData: '0x', reason: outcome.error };
  // A creation's receipt names the address it deploys to, whether or not the deployment succeeded.
  const contractAddress = tx.to === null ? createdAddress(tx.from, tx.nonce) : null;
  return finishTransaction(draft, tx, env, price, { gasUsed: outcome.gasUsed, logs: outcome.logs, logAddresses: outcome.logAddresses, failure, contractAddress }, place);
}

interface LogPlace {
  firstLogIndex: number;
  transactionIndex: number;
}

interface MessageCharge {
  gasUsed: bigint;
  logs: NativeLog[];
  logAddresses: Hex[];
  failure?: { revertData: Hex; reason?: string };
  contractAddress: Hex | null;
}

/** The unused gas back to the sender, the tip to the fee recipient, and the receipt. */
function finishTransaction(draft: StateDraft, tx: TransactionRecord, env: BlockEnvironment, price: bigint, charge: MessageCharge, place: LogPlace): AppliedTransaction {
  const gasUsed = charge.gasUsed > tx.gasLimit ? tx.gasLimit : charge.gasUsed;
  draft.addBalance(tx.from, (tx.gasLimit - gasUsed) * price);
  const tip = (price - env.baseFeePerGas) * gasUsed;
  if (tip > 0n) draft.addBalance(env.coinbase, tip);

  const logs: LogRecord[] = charge.logs.map((log, i) => ({
    address: charge.logAddresses[i],
    topics: log.topics.map((t) => t.toLowerCase()),
    data: log.data.toLowerCase(),
    logIndex: place.firstLogIndex + i,
    transactionIndex: place.transactionIndex,
    transactionHash: tx.hash,
  }));
  const receipt: AppliedTransaction['receipt'] = {
    status: charge.failure ? 0 : 1,
    gasUsed,
    effectiveGasPrice: price,
    logs,
    contractAddress: charge.contractAddress,
  };
  if (charge.failure) {
    receipt.revertData = charge.failure.revertData;
    receipt.revertReason = charge.failure.reason;
  }
  return { receipt };
}
