// How a transaction executes on an OP Stack chain (a preset's block rules), in the same shape as
// applyTransaction so the builder and the trace replay pick one function per chain, not a branch
// per transaction:
// - the L1-attributes deposit (type 0x7e) runs in the EVM against the L1Block predeploy's real
//   code, from the depositor, with no gas bought and no fee paid; its receipt carries the
//   depositor's nonce before it and receipt version 1;
// - any other transaction pays its L1 data fee (l1Fee.ts, with the parameters the block's deposit
//   stored) and Isthmus's operator fee on top of what applyTransaction charges; the fees go to the
//   L1 fee vault and the operator fee vault, and the base fee, which an OP Stack chain does not
//   burn, to the base fee vault.
import { hexBytes } from '../../encoding/bytes';
import type { TransactionRecord } from '../../encoding/records';
import { OP_STACK_PREDEPLOYS } from '../../presets/chainPresets';
import type { StateDraft } from '../../state/worldState';
import { machineFor } from '../evm/index';
import { applyTransaction, decodeRevertReason, type AppliedTransaction, type InclusionProblem } from '../execute';
import type { BlockEnvironment } from '../nativeContract';
import type { ExecutionTracer } from '../trace/recorder';
import { l1FeeParamsOf } from './l1Attributes';
import { operatorFee, transactionL1Fee } from './l1Fee';

type Applied = AppliedTransaction | { problem: InclusionProblem };

/** applyTransaction's signature: what the builder and the replay call for each transaction. */
export type ApplyTransaction = typeof applyTransaction;

/** Runs a deposit: the depositor's nonce goes up, the message runs in the EVM, nothing is paid. */
export async function applyDeposit(draft: StateDraft, tx: TransactionRecord, env: BlockEnvironment, firstLogIndex: number, transactionIndex: number, tracer?: ExecutionTracer): Promise<AppliedTransaction> {
  const depositor = draft.account(tx.from);
  draft.updateAccount(tx.from, { nonce: depositor.nonce + 1n });
  const machine = await machineFor(env.chainId);
  const outcome = await machine.run(
    draft,
    { from: tx.from, to: tx.to, value: tx.value, input: tx.input, gasLimit: tx.gasLimit, gasPrice: 0n },
    env,
    { origin: tx.from, transaction: true, tracer },
  );
  const receipt: AppliedTransaction['receipt'] = {
    status: outcome.ok ? 1 : 0,
    gasUsed: outcome.gasUsed,
    effectiveGasPrice: 0n,
    logs: outcome.logs.map((log, i) => ({
      address: outcome.logAddresses[i],
      topics: log.topics.map((t) => t.toLowerCase()),
      data: log.data.toLowerCase(),
      logIndex: firstLogIndex + i,
      transactionIndex,
      transactionHash: tx.hash,
    })),
    contractAddress: null,
    deposit: { depositNonce: depositor.nonce, depositReceiptVersion: 1 },
  };
  if (!outcome.ok) {
    receipt.revertData = outcome.returnData;
    receipt.revertReason = decodeRevertReason(outcome.returnData);
  }
  return { receipt };
}

/** applyTransaction plus the OP Stack's fees; deposits run as deposits. */
export const applyOpStackTransaction: ApplyTransaction = (draft, tx, env, contracts, gasLeftInBlock, firstLogIndex, transactionIndex, tracer) => {
  if (tx.deposit) return applyDeposit(draft, tx, env, firstLogIndex, transactionIndex, tracer);
  const sender = draft.account(tx.from);
  // A nonce out of line is that problem, whatever the balance.
  if (tx.nonce !== sender.nonce) return applyTransaction(draft, tx, env, contracts, gasLeftInBlock, firstLogIndex, transactionIndex, tracer);
  const params = l1FeeParamsOf(draft);
  const l1 = transactionL1Fee(hexBytes(tx.encoded), params);
  // Paid before the message runs, as op-geth buys them with the gas (the operator fee for the
  // whole gas limit, the unused part given back after): applyTransaction's balance check then
  // covers value + gas + L1 fee + operator fee. Every problem it answers comes before it changes
  // anything, so giving the fees back undoes the whole attempt.
  const upfront = l1.l1Fee + operatorFee(tx.gasLimit, params);
  if (sender.balance < upfront) return { problem: 'insufficient-funds' };
  if (upfront > 0n) draft.updateAccount(tx.from, { balance: sender.balance - upfront });
  const settle = (applied: Applied): Applied => {
    if ('problem' in applied) {
      if (upfront > 0n) draft.addBalance(tx.from, upfront);
      return applied;
    }
    const operator = operatorFee(applied.receipt.gasUsed, params);
    if (upfront - l1.l1Fee > operator) draft.addBalance(tx.from, upfront - l1.l1Fee - operator);
    if (operator > 0n) draft.addBalance(OP_STACK_PREDEPLOYS.operatorFeeVault, operator);
    draft.addBalance(OP_STACK_PREDEPLOYS.l1FeeVault, l1.l1Fee);
    const baseFee = applied.receipt.gasUsed * env.baseFeePerGas;
    if (baseFee > 0n) draft.addBalance(OP_STACK_PREDEPLOYS.baseFeeVault, baseFee);
    applied.receipt.l1Fee = l1;
    return applied;
  };
  const result = applyTransaction(draft, tx, env, contracts, gasLeftInBlock, firstLogIndex, transactionIndex, tracer);
  return result instanceof Promise ? result.then(settle) : settle(result);
};
