// The inspector's read-only markdown documents, served from memory under their own scheme.
import * as vscode from 'vscode';

export const INSPECTOR_SCHEME = 'chain-authorization';

export class InspectorDocuments implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '_Run Chain: Inspect Authorization again._\n';
  }

  /** Opens (or updates) the document named after the order, or the nonce for one not stored yet. */
  async show(name: string, markdown: string): Promise<vscode.TextDocument> {
    const uri = vscode.Uri.from({ scheme: INSPECTOR_SCHEME, path: `/${name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60)}.md` });
    this.contents.set(uri.toString(), markdown);
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    await vscode.window.showTextDocument(document, { preview: true });
    return document;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
