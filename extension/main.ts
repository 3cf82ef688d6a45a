import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('chainExplorer.showVersion', () => {
      void vscode.window.showInformationMessage(`Chain RPC Explorer ${String(context.extension.packageJSON.version)}`);
    }),
  );
}

export function deactivate(): void {}
