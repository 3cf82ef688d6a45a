// Export: the only way the signature leaves the secret storage, as a file in the seed's stored
// form (plus what a checker needs), readable only by its owner.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { exportAuthorization, InputError, type ExportedAuthorization } from '../model';
import { Dismissed, type Wizard } from './prompts';
import type { CommandContext, KeyArgs } from './context';

export interface ExportArgs extends KeyArgs {
  /** File to write; without it the user picks one. */
  path?: string;
  /** Skips the confirmation that the file holds a payment credential. */
  confirmed?: boolean;
  /** Consent to writing inside a workspace folder (where it could be committed). */
  insideWorkspace?: boolean;
}

export async function exportOne(ctx: CommandContext, w: Wizard, args: ExportArgs): Promise<ExportedAuthorization> {
  const { record } = await ctx.target(w, args.key, 'export');
  const signature = await ctx.store.signature(record.key);
  if (!signature) throw new InputError('the signature is missing from the secret storage');
  const confirmed = args.confirmed ?? await w.offer('The exported file holds the signature, a payment credential: anyone with it can capture the payment. Export?', 'Export with signature');
  if (!confirmed) throw new Dismissed();
  // The default place is outside the workspace (the home folder), so it is not committed by accident.
  const name = `${record.orderId ?? record.authorization.nonce.slice(2, 14)}.authorization.json`;
  const target = args.path ?? (await w.saveDialog({
    title: 'Export Authorization (a payment credential: keep it out of the repository)', filters: { 'Authorization JSON': ['json'] },
    defaultUri: vscode.Uri.file(path.join(os.homedir(), name)),
  })).fsPath;
  const folder = workspaceFolderOf(target);
  if (folder) {
    const message = `${target} is inside the workspace folder ${folder}: the file holds a payment credential. Add it to .gitignore (or choose a place outside the workspace) so it is never committed.`;
    if (!w.interactive && args.insideWorkspace !== true) throw new InputError(`${message} Not written: pass insideWorkspace: true to write it there.`);
    if (w.interactive) await w.consent(message, 'Write it there');
    ctx.output.warn(`authorization export inside the workspace (${folder}): keep it out of version control (.gitignore)`);
  }
  const exported = exportAuthorization(record, signature);
  await writePrivateFile(target, `${JSON.stringify(exported, null, 2)}\n`);
  ctx.output.info(`authorization exported with its signature to ${target}`);
  return exported;
}

/** The workspace folder holding `file`, if any. */
function workspaceFolderOf(file: string): string | undefined {
  const resolved = path.resolve(file);
  return vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath).find((folder) => {
    const relative = path.relative(folder, resolved);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  });
}

/** Writes a file readable by its owner only (mode 0600), also when it already exists with a wider mode. */
async function writePrivateFile(file: string, text: string): Promise<void> {
  // An existing file keeps its mode on write: narrow it first, so the credential is never readable by others.
  await fs.chmod(file, 0o600).catch((error: NodeJS.ErrnoException) => { if (error.code !== 'ENOENT') throw error; });
  await fs.writeFile(file, text, { mode: 0o600 });
  await fs.chmod(file, 0o600);
}
