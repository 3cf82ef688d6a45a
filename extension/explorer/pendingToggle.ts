// The pending toggle: state kept per workspace, the context key that picks which of the two
// view-title commands (on / off) shows, and the status bar item `latest #N` / `pending #N.k`.
import * as vscode from 'vscode';

const STATE_KEY = 'chainExplorer.pending';
export const PENDING_CONTEXT_KEY = 'chainExplorer.pending';

export class PendingToggle implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<boolean>();
  readonly onDidChange = this.emitter.event;
  readonly statusBar: vscode.StatusBarItem;

  constructor(private readonly workspaceState: vscode.Memento) {
    this.statusBar = vscode.window.createStatusBarItem('chainExplorer.status', vscode.StatusBarAlignment.Left, 50);
    this.statusBar.name = 'Chain RPC Explorer';
    this.statusBar.command = 'chainExplorer.togglePending';
    void vscode.commands.executeCommand('setContext', PENDING_CONTEXT_KEY, this.on);
  }

  get on(): boolean {
    return this.workspaceState.get<boolean>(STATE_KEY) ?? false;
  }

  async set(on: boolean): Promise<void> {
    await this.workspaceState.update(STATE_KEY, on);
    await vscode.commands.executeCommand('setContext', PENDING_CONTEXT_KEY, on);
    this.emitter.fire(on);
  }

  /** What the status bar shows now (`undefined`: hidden), so an update that changes nothing sends nothing to the workbench. */
  private shown: string | undefined;

  /** Shows `latest #N` / `pending #N.k`; hidden while there is no endpoint. Each change costs a message to the workbench: only changes are sent. */
  show(text: string | undefined, endpointName?: string): void {
    if (text === undefined) {
      if (this.shown !== undefined) this.statusBar.hide();
      this.shown = undefined;
      return;
    }
    const shownText = `$(${this.on ? 'pulse' : 'package'}) ${text}`;
    const tooltip = `${endpointName ?? 'Chain'}: ${this.on ? 'following the pending block; click for latest' : 'showing the latest block; click to follow pending'}`;
    const key = `${shownText}\n${tooltip}`;
    if (key === this.shown) return;
    this.shown = key;
    this.statusBar.text = shownText;
    this.statusBar.tooltip = tooltip;
    this.statusBar.show();
  }

  dispose(): void {
    this.emitter.dispose();
    this.statusBar.dispose();
  }
}
