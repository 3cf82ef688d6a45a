// A call that keeps no effects (eth_call, eth_estimateGas, eth_sendTransaction's gas estimate):
// runs the message on a throw-away draft of a block's state and throws a ChainError when it does
// not succeed (a revert with its data, out of gas, a value the sender cannot pay).
import { ChainError } from '../chain/errors';
import { StateDraft, type StateReader } from '../state/worldState';
import { decodeRevertReason, runMessage, type CallRequest, type CallResult, type NativeContracts } from './execute';
import type { BlockEnvironment } from './nativeContract';

export function simulateCall(state: StateReader, request: CallRequest, env: BlockEnvironment, contracts: NativeContracts): CallResult {
  const draft = new StateDraft(state);
  if (request.value > 0n && draft.account(request.from).balance < request.value) {
    throw new ChainError({ kind: 'insufficient-funds-for-transfer' });
  }
  const result = runMessage(draft, request, env, contracts, { isStatic: true, origin: request.from });
  const outcome = result.outcome;
  if (outcome.ok) return result;
  const reason = outcome.reason ?? decodeRevertReason(outcome.revertData);
  if (reason === 'out of gas') throw new ChainError({ kind: 'out-of-gas' });
  throw new ChainError({ kind: 'reverted', data: outcome.revertData, reason });
}
