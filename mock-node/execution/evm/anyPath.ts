// One message on whichever path runs it, for the inspection methods (debug_traceCall,
// eth_createAccessList, eth_simulateV1): the native path (value transfers, the built-in token's
// fast path) when it can, else the EVM, loaded only then. The message writes `draft` as a
// transaction's would, and an optional tracer sees every frame on either path.
import type { Hex } from '../../encoding/hex';
import { decodeRevertReason, messageNeedsEvm, runMessage, type CallRequest, type CallResult, type NativeContracts } from '../execute';
import { NativePathDeclined, type BlockEnvironment } from '../nativeContract';
import type { StateDraft } from '../../state/worldState';
import type { ExecutionTracer } from '../trace/recorder';
import { machineFor } from './index';

export interface AnyPathOptions {
  origin: Hex;
  /** The caller has already bumped the sender's nonce (as a transaction does before its message). */
  nonceBumped: boolean;
  /** Price per gas the EVM reports to GASPRICE; the native path does not read it. */
  gasPrice: bigint;
  isStatic?: boolean;
  tracer?: ExecutionTracer;
}

/** A message's result, with the address a creation made (on the EVM path). */
export type AnyPathResult = CallResult & { createdAddress?: Hex };

export async function runMessageOnAnyPath(draft: StateDraft, request: CallRequest, env: BlockEnvironment, contracts: NativeContracts, options: AnyPathOptions): Promise<AnyPathResult> {
  if (!messageNeedsEvm(draft, request.to, contracts)) {
    try {
      return runMessage(draft, request, env, contracts, { isStatic: options.isStatic ?? false, origin: options.origin, tracer: options.tracer, declineToEvm: true });
    } catch (error) {
      if (!(error instanceof NativePathDeclined)) throw error;
      // The token's fast path declined (a call that needs other contracts' code): its bytecode runs it.
      options.tracer?.restart?.();
    }
  }
  const machine = await machineFor(env.chainId);
  const outcome = await machine.run(
    draft,
    { from: request.from, to: request.to, value: request.value, input: request.input, gasLimit: request.gasLimit, accessList: request.accessList, gasPrice: options.gasPrice },
    env,
    { origin: options.origin, transaction: options.nonceBumped, tracer: options.tracer },
  );
  const reverted = outcome.error === 'revert';
  const result: AnyPathResult = {
    outcome: outcome.ok
      ? { ok: true, returnData: outcome.returnData, gasUsed: outcome.executionGasUsed }
      : { ok: false, revertData: reverted ? outcome.returnData : '0x', reason: reverted ? decodeRevertReason(outcome.returnData) : outcome.error, gasUsed: outcome.executionGasUsed },
    logs: outcome.logs,
    logAddresses: outcome.logAddresses,
    gasUsed: outcome.gasUsed,
    gasNeeded: outcome.consumed,
    createdAddress: outcome.createdAddress,
  };
  return result;
}
