// The prompts a command may show, and the wizard one invocation walks through. A command run from
// the palette or the view asks; a command run with an argument object (another extension, the
// tests) asks nothing: its arguments answer every step, a step without an answer or default is an
// InputError, and the object stands for the caller's consent to the routine confirmations.
import * as vscode from 'vscode';
import { InputError } from '../model';

/**
 * The primitives the commands use: VS Code's own by default. The in-VS-Code tests swap in scripted
 * answers to walk the interactive path (the same code, only the UI primitive replaced).
 */
export interface Prompts {
  quickPick<T extends vscode.QuickPickItem>(items: T[], options: vscode.QuickPickOptions): Thenable<T | undefined>;
  inputBox(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  /** A modal warning with one action; true when the user chose it. */
  confirm(message: string, action: string): Thenable<boolean>;
  saveDialog(options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined>;
  openDialog(options: vscode.OpenDialogOptions): Thenable<vscode.Uri[] | undefined>;
}

export const vscodePrompts: Prompts = {
  quickPick: (items, options) => vscode.window.showQuickPick(items, options),
  inputBox: (options) => vscode.window.showInputBox(options),
  confirm: async (message, action) => (await vscode.window.showWarningMessage(message, { modal: true }, action)) === action,
  saveDialog: (options) => vscode.window.showSaveDialog(options),
  openDialog: (options) => vscode.window.showOpenDialog(options),
};

/** Thrown when the user dismisses a prompt: nothing happens and nothing is reported. */
export class Dismissed extends Error {}

export function answered<T>(value: T | undefined): T {
  if (value === undefined) throw new Dismissed();
  return value;
}

const describe = (o: { title?: string; placeHolder?: string; prompt?: string }): string => o.prompt ?? o.placeHolder ?? o.title ?? 'an answer';

/** One invocation's steps: `args.x ?? await wizard.pick(…)`. */
export class Wizard {
  constructor(readonly ui: Prompts, readonly interactive: boolean) {}

  /** A choice; without a user, `fallback` or an error naming the missing answer. */
  async pick<T extends vscode.QuickPickItem>(items: T[], options: vscode.QuickPickOptions, fallback?: T): Promise<T> {
    if (!this.interactive) return fallback ?? missing(options);
    return answered(await this.ui.quickPick(items, options));
  }

  /** A text; without a user, the box's default value or an error naming the missing answer. */
  async input(options: vscode.InputBoxOptions): Promise<string> {
    if (!this.interactive) return options.value ?? missing(options);
    return answered(await this.ui.inputBox(options));
  }

  /** A routine confirmation: asked of a user (no: nothing happens); given by an argument object. */
  async consent(message: string, action: string): Promise<void> {
    if (this.interactive && !(await this.ui.confirm(message, action))) throw new Dismissed();
  }

  /** An offer to do something other than asked: only a user can accept it. */
  async offer(message: string, action: string): Promise<boolean> {
    return this.interactive && this.ui.confirm(message, action);
  }

  async saveDialog(options: vscode.SaveDialogOptions): Promise<vscode.Uri> {
    if (!this.interactive) return missing({ title: options.title ?? 'the file to write' });
    return answered(await this.ui.saveDialog(options));
  }

  async openDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri> {
    if (!this.interactive) return missing({ title: options.title ?? 'the file to read' });
    const [uri] = answered(await this.ui.openDialog(options));
    return answered(uri);
  }
}

function missing(options: { title?: string; placeHolder?: string; prompt?: string }): never {
  throw new InputError(`${describe(options)}: not given in the command's arguments`);
}
