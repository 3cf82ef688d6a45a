// Copy Typed Data: the exact `eth_signTypedData_v4` JSON for the payer's own wallet, of the
// authorization (the type its capture route verifies) or of its CancelAuthorization, over the
// domain the token and chain give now. The domain is kept, so Paste Signature checks against it.
import * as vscode from 'vscode';
import { authorizationTypedData, cancelTypedData, InputError, primaryTypeFor } from '../model';
import type { CommandContext, KeyArgs } from './context';
import type { Wizard } from './prompts';

export type SignedMessageKind = 'authorization' | 'cancel';

export interface CopyTypedDataArgs extends KeyArgs {
  /** Which message: the authorization (default) or its cancellation. */
  message?: SignedMessageKind;
}

export const MESSAGE_KINDS = [
  { label: 'The authorization', description: 'the typed data its capture route verifies', message: 'authorization' as const },
  { label: 'A cancellation', description: 'CancelAuthorization(authorizer, nonce), for cancelAuthorization', message: 'cancel' as const },
];

export async function copyTypedData(ctx: CommandContext, w: Wizard, args: CopyTypedDataArgs): Promise<string> {
  const kind = args.message ?? (await w.pick(MESSAGE_KINDS, { placeHolder: 'Typed data to sign in the payer\'s wallet' }, MESSAGE_KINDS[0])).message;
  const { record } = await ctx.target(w, args.key, kind === 'authorization' ? 'sign' : 'cancel');
  if (kind !== 'authorization' && kind !== 'cancel') throw new InputError('kind must be authorization or cancel');
  const domain = await ctx.chain(record).domain();
  const a = record.authorization;
  const payload = kind === 'authorization' ? authorizationTypedData(primaryTypeFor(record.route), domain, a) : cancelTypedData(domain, a.from, a.nonce);
  const json = JSON.stringify(payload);
  if (kind === 'authorization') await ctx.store.put({ ...record, domain });
  // Not awaited: a browser-hosted workbench can hold the write until the page is focused.
  void Promise.resolve(vscode.env.clipboard.writeText(json)).catch(() => undefined);
  ctx.output.info(`typed data of the ${kind} copied (${payload.primaryType}, chain ${domain.chainId}): sign it with eth_signTypedData_v4 as ${a.from}, then run Paste Signature`);
  void vscode.window.showInformationMessage(`Copied the eth_signTypedData_v4 JSON (${payload.primaryType}). Sign it in the payer's wallet as ${a.from}, then run Chain: Paste Signature.`);
  return json;
}
