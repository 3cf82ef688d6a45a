// Export: the only way the signature leaves the secret storage, as a file in the seed's stored
// form (plus what a checker needs), readable only by its owner.
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { exportAuthorization, InputError, type ExportedAuthorization } from '../model';
import { Dismissed, type Wizard } from './prompts';
import type { CommandContext, KeyArgs } from './context';

export interface ExportArgs extends KeyArgs {
  /** File to write; without it the user picks one. */
  path?: string;
  /** Skips the confirmation that the file holds a payment credential. */
  confirmed?: boolean;
}

export async function exportOne(ctx: CommandContext, w: Wizard, args: ExportArgs): Promise<ExportedAuthorization> {
  const { record } = await ctx.target(w, args.key, 'export');
  const signature = await ctx.store.signature(record.key);
  if (!signature) throw new InputError('the signature is missing from the secret storage');
  const confirmed = args.confirmed ?? await w.offer('The exported file holds the signature, a payment credential: anyone with it can capture the payment. Export?', 'Export with signature');
  if (!confirmed) throw new Dismissed();
  const base = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = `${record.orderId ?? record.authorization.nonce.slice(2, 14)}.authorization.json`;
  const target = args.path ?? (await w.saveDialog({
    title: 'Export Authorization', filters: { 'Authorization JSON': ['json'] },
    ...(base ? { defaultUri: vscode.Uri.joinPath(base, name) } : {}),
  })).fsPath;
  const exported = exportAuthorization(record, signature);
  await fs.writeFile(target, `${JSON.stringify(exported, null, 2)}\n`, { mode: 0o600 });
  ctx.output.info(`authorization exported with its signature to ${target}`);
  return exported;
}
