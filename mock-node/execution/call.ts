// A call that keeps no effects (eth_call, eth_estimateGas, eth_sendTransaction's gas estimate):
// runs the message on a throw-away draft of a block's state and throws a ChainError when it does
// not succeed (a revert with its data, out of gas, a value the sender cannot pay). A message that
// meets EVM code (creation code in a deployless call, a deployed contract) runs in the EVM.
import { ChainError } from '../encoding/errors';
import { StateDraft, type StateReader } from '../state/worldState';
import { missesTogether, runRecorded, type MissRecorder } from '../state/missRecorder';
import { machineFor } from './evm/index';
import type { EvmMessage, EvmOutcome, Machine } from './evm/machine';
import { decodeRevertReason, messageNeedsEvm, runMessage, type CallRequest, type CallResult, type NativeContracts } from './execute';
import { calldataFloorGas } from './intrinsicGas';
import { NativePathDeclined, type BlockEnvironment } from './nativeContract';

export interface SimulateOptions {
  /** Also find the least gas limit with which the call succeeds (eth_estimateGas); the EVM searches for it. */
  estimate?: boolean;
}

export function simulateCall(
  state: StateReader,
  request: CallRequest,
  env: BlockEnvironment,
  contracts: NativeContracts,
  options: SimulateOptions = {},
): Promise<CallResult> {
  // On a fork, everything the call reads that is not fetched yet is asked for together; over a
  // state that can fetch it (a block's), the call runs again here once it is.
  if (state.forked) {
    const run = (reader: MissRecorder) => simulate(reader, request, env, contracts, options);
    const fetchMissing = state.fetchMissing?.bind(state);
    return fetchMissing ? runRecorded(fetchMissing, () => state, run) : missesTogether(state, run);
  }
  return simulate(state, request, env, contracts, options);
}

async function simulate(
  state: StateReader,
  request: CallRequest,
  env: BlockEnvironment,
  contracts: NativeContracts,
  options: SimulateOptions,
): Promise<CallResult> {
  const draft = new StateDraft(state);
  if (request.value > 0n && draft.account(request.from).balance < request.value) {
    throw new ChainError({ kind: 'insufficient-funds-for-transfer' });
  }
  if (messageNeedsEvm(draft, request.to, contracts)) return simulateWithEvm(state, request, env, options);
  let result: CallResult;
  try {
    result = runMessage(draft, request, env, contracts, { isStatic: true, origin: request.from, declineToEvm: true });
  } catch (error) {
    if (error instanceof NativePathDeclined) return simulateWithEvm(state, request, env, options);
    throw error;
  }
  const outcome = result.outcome;
  if (outcome.ok) return result;
  const reason = outcome.reason ?? decodeRevertReason(outcome.revertData);
  if (reason === 'out of gas') throw new ChainError({ kind: 'out-of-gas' });
  throw new ChainError({ kind: 'reverted', data: outcome.revertData, reason });
}

async function simulateWithEvm(state: StateReader, request: CallRequest, env: BlockEnvironment, options: SimulateOptions): Promise<CallResult> {
  const machine = await machineFor(env.chainId);
  const message: EvmMessage = { from: request.from, to: request.to, value: request.value, input: request.input, gasLimit: request.gasLimit, accessList: request.accessList, gasPrice: 0n };
  const outcome = await runOn(machine, state, message, env);
  if (!outcome.ok) throw failureOf(outcome);
  const gasNeeded = options.estimate ? await leastGasLimit(machine, state, message, env, outcome) : outcome.gasUsed;
  const result: CallResult = {
    outcome: { ok: true, returnData: outcome.returnData, gasUsed: outcome.executionGasUsed },
    logs: outcome.logs,
    logAddresses: outcome.logAddresses,
    gasUsed: outcome.gasUsed,
    gasNeeded,
  };
  return result;
}

function runOn(machine: Machine, state: StateReader, message: EvmMessage, env: BlockEnvironment): Promise<EvmOutcome> {
  return machine.run(new StateDraft(state), message, env, { origin: message.from, transaction: false });
}

function failureOf(outcome: EvmOutcome): ChainError {
  if (outcome.error === 'revert') return new ChainError({ kind: 'reverted', data: outcome.returnData, reason: decodeRevertReason(outcome.returnData) });
  if (outcome.error === 'out of gas') return new ChainError({ kind: 'out-of-gas' });
  return new ChainError({ kind: 'halted', error: outcome.error ?? 'unknown' });
}

/** Opcodes whose effect depends on the gas left: GAS reads it; CREATE, CALL, CALLCODE, DELEGATECALL, CREATE2 and STATICCALL pass on 63/64 of it. */
const GAS_DEPENDENT_OPCODES = new Set([0x5a, 0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa]);

/** Where sequential execution stops: STOP, JUMP, RETURN, REVERT, INVALID, SELFDESTRUCT. */
const TERMINATING_OPCODES = new Set([0x00, 0x56, 0xf3, 0xfd, 0xfe, 0xff]);
const JUMPDEST = 0x5b;

/**
 * Whether the message's run can depend on its gas limit only by running out of gas: a creation
 * (its initcode is all that runs, unless it calls or creates) none of whose reachable
 * instructions is in GAS_DEPENDENT_OPCODES. Instructions are read as the EVM reads them (PUSH data
 * skipped, so its jump destinations are ours); reachable are those from the start and from every
 * JUMPDEST up to the next instruction that ends sequential execution: execution enters code only
 * there. What follows the constructor (the runtime code it returns, the metadata, the constructor
 * arguments) is reached only through a JUMPDEST byte within it, and then only makes the answer no.
 * When the answer is yes, every run follows the same path whatever its limit, each step needing
 * only that the gas left be at least some amount (its cost, SSTORE's 2,300 sentry, the code
 * deposit at the end): success is monotone in the limit.
 */
export function gasOnlyRunsOut(message: EvmMessage): boolean {
  if (message.to !== null) return false;
  const code = Buffer.from(message.input.slice(2), 'hex');
  // 0xEF starts an EOF container, whose instruction set differs.
  if (code[0] === 0xef) return false;
  let reachable = true;
  for (let i = 0; i < code.length; i++) {
    const op = code[i];
    if (op === JUMPDEST) reachable = true;
    if (!reachable) {
      if (op >= 0x60 && op <= 0x7f) i += op - 0x5f;
      continue;
    }
    if (GAS_DEPENDENT_OPCODES.has(op)) return false;
    if (TERMINATING_OPCODES.has(op)) reachable = false;
    else if (op >= 0x60 && op <= 0x7f) i += op - 0x5f;
  }
  return true;
}

/**
 * The least gas limit with which the message still succeeds, by binary search between the gas it
 * consumed before its refund (less cannot do) and the limit it succeeded with.
 */
async function leastGasLimit(machine: Machine, state: StateReader, message: EvmMessage, env: BlockEnvironment, first: EvmOutcome): Promise<bigint> {
  const floor = calldataFloorGas(message.input);
  let low = (first.consumed > floor ? first.consumed : floor) - 1n;
  let high = message.gasLimit;
  const succeeds = async (limit: bigint): Promise<boolean> => (await runOn(machine, state, { ...message, gasLimit: limit }, env)).ok;
  // When success is monotone in the limit (below), the least limit is often the gas consumed
  // itself: one run there answers what the search would find in a dozen. One that fails only
  // raises the search's lower bound, so the answer is the search's either way.
  if (high - low > 1n && gasOnlyRunsOut(message)) {
    if (await succeeds(low + 1n)) return low + 1n;
    low += 1n;
  }
  // Most messages succeed with what they used plus the refund and a 63/64 margin: try that first.
  const optimistic = ((first.consumed + 2_300n) * 64n) / 63n;
  if (optimistic > low && optimistic < high && (await succeeds(optimistic))) high = optimistic;
  while (high - low > 1n) {
    const middle = (high + low) / 2n;
    if (await succeeds(middle)) high = middle;
    else low = middle;
  }
  return high;
}
