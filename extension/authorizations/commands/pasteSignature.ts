// Paste Signature: a signature the payer made in their own wallet over the copied typed data,
// checked against the token's rules before it is kept and before anything is sent: the verdict
// opens as a document. An authorization signature that passes makes the draft Signed; a
// cancellation that passes is kept for Cancel to relay.
import * as vscode from 'vscode';
import { InputError } from '../model';
import { checkPastedAuthorization, checkPastedCancel, pastedMarkdown, pastedRecord, type PastedVerdict } from '../pasted';
import { MESSAGE_KINDS, type SignedMessageKind } from './copyTypedData';
import type { CommandContext, KeyArgs } from './context';
import type { Wizard } from './prompts';

export interface PasteSignatureArgs extends KeyArgs {
  /** Which message: the authorization (default) or its cancellation. */
  message?: SignedMessageKind;
  signature?: string;
  /** Open the verdict document (default true). */
  show?: boolean;
}

export async function pasteSignature(ctx: CommandContext, w: Wizard, args: PasteSignatureArgs): Promise<PastedVerdict & { key: string }> {
  const kind = args.message ?? (await w.pick(MESSAGE_KINDS, { placeHolder: 'What the payer signed' }, MESSAGE_KINDS[0])).message;
  const { record } = await ctx.target(w, args.key, kind === 'authorization' ? 'sign' : 'cancel');
  const signature = (args.signature ?? await w.input({
    title: 'Paste Signature', prompt: `The payer's signature (0x + 130 hex digits) of the copied ${kind === 'authorization' ? 'authorization' : 'CancelAuthorization'}`,
    placeHolder: '0x…', password: true, ignoreFocusOut: true,
    validateInput: (v) => (/^0x[0-9a-fA-F]+$/.test(v.trim()) ? undefined : '0x-prefixed hex'),
  })).trim();
  if (!/^0x[0-9a-fA-F]+$/.test(signature)) throw new InputError('the signature must be 0x-prefixed hex');
  const chain = ctx.chain(record);
  const live = await chain.domain();
  let verdict: PastedVerdict;
  if (kind === 'authorization') {
    // Checked over the domain copied for the wallet (else the chain's now), the chain's domain as the reference.
    const candidate = pastedRecord(record, record.domain ?? live, signature);
    const facts = await chain.facts(record.authorization);
    verdict = checkPastedAuthorization({ record: candidate, signature, chain: facts });
    if (verdict.accepted) {
      await ctx.store.setSignature(record.key, signature);
      await ctx.store.put({ ...candidate, signed: true, signedWith: 'pasted' });
    }
  } else {
    verdict = checkPastedCancel(record, live, signature);
    if (verdict.accepted) await ctx.store.setCancelSignature(record.key, signature);
  }
  ctx.output.info(`pasted ${kind} signature for ${record.authorization.from}, nonce ${record.authorization.nonce}: ${verdict.accepted ? 'accepted' : 'refused'}`);
  if (args.show !== false) await ctx.deps.documents.show(`pasted-${kind}-${record.authorization.nonce.slice(0, 10)}`, pastedMarkdown(`Pasted ${kind === 'authorization' ? 'authorization' : 'cancellation'} signature`, verdict));
  if (!verdict.accepted) void vscode.window.showWarningMessage(verdict.verdict);
  return { key: record.key, ...verdict };
}
