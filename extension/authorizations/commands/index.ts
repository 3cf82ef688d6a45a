// The authorization commands (category "Chain"), one module each: Draft, Sign, Store, Inspect,
// Capture, Cancel, Void offchain, Copy Typed Data, Paste Signature, Reveal in RPC Explorer, Export,
// Import, Remove, Refresh, and adding / removing a local signing key. Each is a short wizard over its arguments. What VS Code passes is turned into those
// arguments here, once: the view's node is `{ key }` and the user answers the rest; nothing (the
// palette) means the user answers everything; an argument object (another extension, the tests)
// answers the prompts itself and asks nothing. Bad input gets an error message and changes
// nothing. Signatures and keys never reach the output channel.
import * as vscode from 'vscode';
import { describeRpcError, RpcClientError } from '../../rpc/errors';
import { InputError } from '../model';
import type { AuthorizationNode } from '../view';
import { addLocalKey } from './addLocalKey';
import { cancel } from './cancel';
import { capture } from './capture';
import { copyTypedData } from './copyTypedData';
import { CommandContext, type AuthorizationCommandDeps } from './context';
import { deleteOne } from './delete';
import { draft } from './draft';
import { exportOne } from './export';
import { importOne } from './import';
import { inspect } from './inspect';
import { Dismissed, vscodePrompts, Wizard, type Prompts } from './prompts';
import { pasteSignature } from './pasteSignature';
import { removeLocalKey } from './removeLocalKey';
import { revealTransaction } from './reveal';
import { sign } from './sign';
import { storeForOrder } from './store';
import { voidOffchain } from './void';

export { INSPECTOR_SCHEME, InspectorDocuments } from './inspectorDocuments';
export { vscodePrompts, type Prompts } from './prompts';
export type { AuthorizationCommandDeps, CommandOutcome, KeyArgs, SignerChoice } from './context';
export type { DraftArgs } from './draft';
export type { SignArgs } from './sign';
export type { StoreArgs } from './store';
export type { InspectArgs, InspectResult } from './inspect';
export type { CaptureArgs } from './capture';
export type { CancelArgs } from './cancel';
export type { ExportArgs } from './export';
export type { ImportArgs } from './import';
export type { CopyTypedDataArgs } from './copyTypedData';
export type { PasteSignatureArgs } from './pasteSignature';
export type { RevealArgs, RevealResult } from './reveal';

/** A wizard over its own argument type (never: any of them fits here; `invocation` builds the value). */
type Run = (ctx: CommandContext, w: Wizard, args: never) => Promise<unknown>;

interface CommandEntry {
  run: Run;
  /** The argument field a bare string argument fills (e.g. the private key of Add Local Signing Key). */
  stringArg?: string;
}

/** Command id suffix → its wizard. */
const COMMANDS: Record<string, CommandEntry> = {
  draft: { run: draft },
  sign: { run: sign },
  store: { run: storeForOrder },
  inspect: { run: inspect },
  capture: { run: capture },
  cancel: { run: cancel },
  void: { run: voidOffchain },
  copyTypedData: { run: copyTypedData },
  pasteSignature: { run: pasteSignature },
  revealTransaction: { run: revealTransaction },
  export: { run: exportOne },
  import: { run: importOne },
  delete: { run: deleteOne },
  addLocalKey: { run: addLocalKey, stringArg: 'privateKey' },
  removeLocalKey: { run: removeLocalKey, stringArg: 'address' },
};

/** The view's node (a group or an authorization, both with their state), not an argument object. */
function isNode(arg: unknown): arg is AuthorizationNode {
  return typeof arg === 'object' && arg !== null && 'kind' in arg && 'state' in arg && ((arg as AuthorizationNode).kind === 'group' || (arg as AuthorizationNode).kind === 'authorization');
}

/** What VS Code passed → the command's arguments, and whether a user is there to answer. */
export function invocation(arg: unknown, stringArg?: string): { args: Record<string, unknown>; interactive: boolean } {
  if (arg === undefined || arg === null) return { args: {}, interactive: true };
  if (isNode(arg)) return { args: arg.kind === 'authorization' ? { key: arg.key } : {}, interactive: true };
  if (typeof arg === 'string' && stringArg) return { args: { [stringArg]: arg }, interactive: false };
  if (typeof arg === 'object') return { args: arg as Record<string, unknown>, interactive: false };
  throw new InputError(`unexpected argument ${JSON.stringify(arg)}`);
}

export class AuthorizationCommands {
  /** The last error a command reported (tests read it; users see it as a message). */
  lastError: string | undefined;
  /** The prompts (VS Code's; replaceable by tests). */
  ui: Prompts = vscodePrompts;
  private readonly ctx: CommandContext;

  constructor(private readonly deps: AuthorizationCommandDeps) {
    this.ctx = new CommandContext(deps);
  }

  register(): vscode.Disposable[] {
    const registered = Object.entries(COMMANDS).map(([id, entry]) => vscode.commands.registerCommand(`chainExplorer.authorizations.${id}`, (arg?: unknown) => this.guard(id, () => {
      const { args, interactive } = invocation(arg, entry.stringArg);
      return entry.run(this.ctx, new Wizard(this.ui, interactive), args as never);
    })));
    return [...registered, vscode.commands.registerCommand('chainExplorer.authorizations.refresh', () => this.deps.tree.refresh())];
  }

  /** Runs a command: expected failures become one error message; the view is refreshed after. */
  private async guard<T>(id: string, run: () => Promise<T>): Promise<T | undefined> {
    this.lastError = undefined;
    try {
      return await run();
    } catch (error) {
      if (error instanceof Dismissed) return undefined;
      const message = error instanceof InputError || error instanceof RpcClientError ? describeRpcError(error) : error instanceof Error ? error.message : String(error);
      this.lastError = message;
      this.deps.output.warn(`authorization ${id}: ${message}`);
      void vscode.window.showErrorMessage(`Authorization: ${message}`);
      return undefined;
    } finally {
      await this.deps.tree.refresh();
    }
  }
}
