// "Open as JSON": read-only documents served from memory under the chain-explorer-json scheme.
import * as vscode from 'vscode';

export const JSON_SCHEME = 'chain-explorer-json';
const KEEP = 50;

export class JsonDocuments implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private counter = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '// no longer available: open it again from the explorer\n';
  }

  async open(title: string, value: unknown): Promise<vscode.TextEditor> {
    const name = title.replace(/[^A-Za-z0-9#._-]+/g, '-');
    const uri = vscode.Uri.from({ scheme: JSON_SCHEME, path: `/${name}.json`, query: String(++this.counter) });
    this.contents.set(uri.toString(), `${JSON.stringify(value, null, 2)}\n`);
    while (this.contents.size > KEEP) this.contents.delete(this.contents.keys().next().value as string);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, 'json');
    return vscode.window.showTextDocument(document, { preview: true });
  }
}
