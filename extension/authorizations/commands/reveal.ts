// Reveal in RPC Explorer: an authorization's capture, its cancellation, or the transaction that
// consumed its nonce, shown by the explorer's own chainExplorer.revealTransaction as a node of the
// RPC Explorer (its receipt's status, decoded logs and a link to its block), selected.
import * as vscode from 'vscode';
import { REVEAL_TRANSACTION_COMMAND, type GoToResult } from '../../explorer/goToCommands';
import { InputError, TRANSACTION_ROLE_LABELS, transactionsOf, type TransactionRole } from '../model';
import type { CommandContext, KeyArgs, Requirement } from './context';
import type { Wizard } from './prompts';

export const REVEAL_AUTHORIZATION_TRANSACTION_COMMAND = 'chainExplorer.authorizations.revealTransaction';

export interface RevealArgs extends KeyArgs {
  /** Which transaction; default: the only one, else asked (an argument object gets the capture's, then the cancel's). */
  transaction?: TransactionRole;
}

export interface RevealResult {
  key: string;
  role: TransactionRole;
  hash: string;
  /** What the RPC Explorer answered: the revealed node's id, or why it could not show the transaction. */
  outcome: GoToResult;
}

const HAS_TRANSACTION: Requirement = {
  verb: 'reveal',
  refusal: (record, state) => (transactionsOf(record).length > 0 ? undefined : `no transaction was sent or found for this authorization yet (it is ${state.state})`),
};

export async function revealTransaction(ctx: CommandContext, w: Wizard, args: RevealArgs): Promise<RevealResult> {
  const { record } = await ctx.target(w, args.key, HAS_TRANSACTION);
  const recorded = transactionsOf(record);
  const items = recorded.map((t) => ({ label: TRANSACTION_ROLE_LABELS[t.role], description: t.hash, ...t }));
  const chosen = args.transaction
    ? recorded.find((t) => t.role === args.transaction)
    : items.length === 1 ? items[0] : await w.pick(items, { title: 'Reveal in RPC Explorer', placeHolder: 'Which transaction?' }, items[0]);
  if (!chosen) throw new InputError(`this authorization has no ${args.transaction} transaction (it has: ${recorded.map((t) => t.role).join(', ')})`);
  const endpoint = ctx.endpoint(record.endpointId);
  const outcome = await vscode.commands.executeCommand<GoToResult>(REVEAL_TRANSACTION_COMMAND, endpoint.id, chosen.hash);
  return { key: record.key, role: chosen.role, hash: chosen.hash, outcome };
}
