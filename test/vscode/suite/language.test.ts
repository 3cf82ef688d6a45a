// The language features in a real VS Code: the client starts when a .jsonrpc file opens, the
// server's diagnostics, completion and hover arrive through the editor's own commands, and the
// Send code lens runs requests against the bundled mock node and opens the reply.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChainExplorerApi } from '../../../extension/main';
import type { SendResult } from '../../../extension/language/client';
import { api, waitFor } from './helpers';

const SEND = 'chainExplorer.language.send';

describe('language features for .jsonrpc and .authorization.json files', function () {
  this.timeout(90_000);
  let explorer: ChainExplorerApi;
  let dir: string;

  before(async () => {
    explorer = await api();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    dir = fs.mkdtempSync(path.join(folder ?? os.tmpdir(), 'language-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('chainExplorer.stopMockNode');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function open(name: string, text: string): Promise<vscode.TextDocument> {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    const document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document);
    return document;
  }

  /** Diagnostics of a document once `done` holds for them (the server publishes after each change). */
  async function diagnostics(document: vscode.TextDocument, done: (list: vscode.Diagnostic[]) => boolean): Promise<{ code: string; text: string; severity: vscode.DiagnosticSeverity; message: string }[]> {
    const list = await waitFor(`diagnostics of ${path.basename(document.uri.fsPath)}`, () => {
      const current = vscode.languages.getDiagnostics(document.uri);
      return done(current) ? current : undefined;
    }, 30_000);
    return list.map((d) => ({ code: String(typeof d.code === 'object' ? d.code.value : d.code), text: document.getText(d.range), severity: d.severity, message: d.message }));
  }

  const BAD = [
    '// @profile public',
    '{ "jsonrpc": "2.0", "id": 1, "method": "eth_getBlockByNumbr", "params": ["latest", false] }',
    '{ "jsonrpc": "2.0", "id": 2, "method": "eth_getBlockByNumber", "params": ["0x01", "false"] }',
    '{ "jsonrpc": "2.0", "id": 3, "method": "eth_getLogs", "params": [{ "fromBlock": "0x0", "toBlock": "0x7d0" }] }',
    '{ "jsonrpc": "2.0", "id": 4, "method": "eth_getBlockReceipts", "params": ["pendng"] }',
    '{ "jsonrpc": "2.0", "id": 5, "method": "eth_getTransactionCount", "params": ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"] }',
    '',
  ].join('\n');

  it('starts the language client only when a .jsonrpc file opens', async () => {
    const before = vscode.workspace.textDocuments.some((d) => d.languageId === 'jsonrpc' || d.languageId === 'chain-authorization');
    if (!before) assert.equal(explorer.language.started, false, 'no language document open: the client has not started');
    const document = await open('bad.jsonrpc', BAD);
    assert.equal(document.languageId, 'jsonrpc');
    await waitFor('the language client to start', () => explorer.language.started);
    await explorer.language.whenReady();
  });

  it('publishes diagnostics with precise ranges for a file with errors', async () => {
    const document = await vscode.workspace.openTextDocument(path.join(dir, 'bad.jsonrpc'));
    const seen = await diagnostics(document, (list) => list.length >= 7);
    const byCode = (code: string) => seen.filter((d) => d.code === code).map((d) => d.text);
    assert.deepEqual(byCode('method-unknown'), ['"eth_getBlockByNumbr"']);
    assert.match(seen.find((d) => d.code === 'method-unknown')!.message, /did you mean eth_getBlockByNumber/);
    assert.deepEqual(byCode('hex'), ['"0x01"']);
    assert.deepEqual(byCode('param-type'), ['"false"']);
    assert.deepEqual(byCode('logs-range'), ['"0x0", "toBlock": "0x7d0"']);
    assert.deepEqual(byCode('receipts-public'), ['"eth_getBlockReceipts"']);
    assert.deepEqual(byCode('block-tag'), ['"pendng"']);
    assert.deepEqual(byCode('params-count'), ['["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"]']);
    assert.ok(seen.every((d) => d.severity === vscode.DiagnosticSeverity.Error), JSON.stringify(seen));
    assert.equal(seen.length, 7, JSON.stringify(seen));
  });

  it('offers block tags including pending, and method names, as completions', async () => {
    const document = await open('complete.jsonrpc', '{ "jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", ""] }\n');
    const inTag = document.positionAt(document.getText().lastIndexOf('""') + 1);
    const tags = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, inTag);
    const labels = tags.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const tag of ['latest', 'pending', 'safe', 'finalized', 'earliest']) assert.ok(labels.includes(tag), `${tag} in ${labels.join(', ')}`);
    const inMethod = document.positionAt(document.getText().indexOf('eth_getBalance') + 3);
    const methods = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, inMethod);
    const methodLabels = methods.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(methodLabels.includes('eth_getBlockReceipts') && methodLabels.includes('eth_getLogs'), methodLabels.join(', '));
  });

  it('hovers a hex quantity as decimal and a method with its documentation', async () => {
    const document = await vscode.workspace.openTextDocument(path.join(dir, 'bad.jsonrpc'));
    const text = document.getText();
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, document.positionAt(text.indexOf('0x7d0') + 2));
    const markdown = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(markdown, /\*\*2000\*\*/);
    const methodHover = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, document.positionAt(text.indexOf('eth_getBlockReceipts') + 4));
    const methodMarkdown = methodHover.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(methodMarkdown, /Rejected on public endpoints/);
  });

  it('offers quick fixes with the diagnostics; applying one clears its diagnostic', async () => {
    const document = await vscode.workspace.openTextDocument(path.join(dir, 'bad.jsonrpc'));
    const at = document.getText().indexOf('"0x01"');
    const range = new vscode.Range(document.positionAt(at), document.positionAt(at + 6));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a) => a.title === 'Change to "0x1"');
    assert.ok(fix?.edit, actions.map((a) => a.title).join(', '));
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.match(document.getText(), /"params": \["0x1", "false"\]/);
    const seen = await diagnostics(document, (list) => !list.some((d) => d.code === 'hex') && list.length === 6);
    assert.deepEqual(seen.filter((d) => d.code === 'param-type').map((d) => d.text), ['"false"']);
  });

  it('Send code lens: runs a request on the mock node named by the file and opens the reply', async () => {
    await vscode.commands.executeCommand('chainExplorer.startMockNode');
    const document = await open('send.jsonrpc', [
      '// @endpoint Mock node (dedicated)',
      '{ "jsonrpc": "2.0", "id": 7, "method": "eth_chainId", "params": [] }',
      '[',
      '  { "jsonrpc": "2.0", "id": "a", "method": "eth_getBlockReceipts", "params": ["latest"] },',
      '  { "jsonrpc": "2.0", "id": "b", "method": "eth_getBlockByNumber", "params": ["pending", false] }',
      ']',
      '',
    ].join('\n'));
    const lenses = await waitFor('the Send code lenses', async () => {
      const list = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri);
      return list.length === 4 && list.every((l) => l.command?.command === SEND) ? list : undefined;
    });
    assert.deepEqual(lenses.map((l) => l.command!.title), [
      '▶ Send eth_chainId to Mock node (dedicated)', '▶ Send batch (2 requests) to Mock node (dedicated)',
      '▶ Send eth_getBlockReceipts to Mock node (dedicated)', '▶ Send eth_getBlockByNumber to Mock node (dedicated)',
    ]);
    const single = await vscode.commands.executeCommand<SendResult>(SEND, ...lenses[0].command!.arguments!);
    assert.equal(single.endpoint, 'Mock node (dedicated)');
    assert.deepEqual(single.response, { jsonrpc: '2.0', id: 7, result: '0x7a69' });
    const reply = vscode.window.activeTextEditor!.document;
    assert.equal(reply.uri.toString(), single.uri);
    assert.equal(reply.uri.scheme, 'chain-explorer-json');
    assert.deepEqual(JSON.parse(reply.getText()), single.response);

    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', document.uri);
    assert.deepEqual(symbols.map((s) => [s.name, s.children.map((c) => c.name)]), [['eth_chainId', []], ['batch (2 requests)', ['eth_getBlockReceipts', 'eth_getBlockByNumber']]]);

    const batch = await vscode.commands.executeCommand<SendResult>(SEND, ...lenses[1].command!.arguments!);
    const [receipts, block] = batch.response as { id: string; result: unknown }[];
    assert.equal(receipts.id, 'a');
    assert.ok(Array.isArray(receipts.result), 'the dedicated endpoint answers receipts');
    assert.equal(block.id, 'b');
    assert.match((block.result as { number: string }).number, /^0x[0-9a-f]+$/);
  });

  it('remembers the endpoint chosen for a file: public flags receipts, and Send shows the 403', async () => {
    const document = await open('public.jsonrpc', '{ "jsonrpc": "2.0", "id": 1, "method": "eth_getBlockReceipts", "params": ["latest"] }\n');
    assert.deepEqual(await diagnostics(document, () => true), [], 'no endpoint chosen yet: no profile, no receipts diagnostic');
    await explorer.language.rememberEndpoint(document.uri, 'ep:mock:public');
    assert.equal(explorer.language.endpointFor(document.uri), 'ep:mock:public');
    const seen = await diagnostics(document, (list) => list.length > 0);
    assert.deepEqual(seen.map((d) => [d.code, d.text]), [['receipts-public', '"eth_getBlockReceipts"']]);
    const result = await vscode.commands.executeCommand<SendResult>(SEND, document.uri.toString(), 0);
    assert.equal(result.endpoint, 'Mock node (public)');
    const response = result.response as { httpStatus: number; error: { code: number } };
    assert.equal(response.httpStatus, 403);
    assert.equal(response.error.code, -32004);
  });

  it('asks for the endpoint with a quick pick once per file, then remembers it; without arguments Send takes the request at the cursor', async () => {
    const document = await open('pick.jsonrpc', [
      '{ "jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": [] }',
      '{ "jsonrpc": "2.0", "id": 2, "method": "net_version", "params": [] }',
      '',
    ].join('\n'));
    assert.equal(explorer.language.endpointFor(document.uri), undefined);
    const editor = vscode.window.activeTextEditor!;
    const second = document.positionAt(document.getText().indexOf('net_version'));
    editor.selection = new vscode.Selection(second, second);
    let settled = false;
    const sending = Promise.resolve(vscode.commands.executeCommand<SendResult>(SEND)).finally(() => { settled = true; });
    // The quick pick lists the endpoints, the mock node's public profile first: accept it.
    for (let i = 0; i < 200 && !settled; i++) {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const first = await sending;
    assert.equal(first.endpoint, 'Mock node (public)');
    assert.deepEqual(first.response, { jsonrpc: '2.0', id: 2, result: '31337' }, 'the request under the cursor');
    assert.equal(explorer.language.endpointFor(document.uri), 'ep:mock:public');
    // Remembered: no quick pick this time (the command resolves without anyone accepting).
    const again = await vscode.commands.executeCommand<SendResult>(SEND, document.uri.toString(), 0);
    assert.equal(again.endpoint, 'Mock node (public)');
    assert.deepEqual(again.response, { jsonrpc: '2.0', id: 1, result: '0x7a69' });
  });

  it('checks an .authorization.json file: nonce size, window order, expiry, signature form', async () => {
    const document = await open('order-1.authorization.json', JSON.stringify({
      orderId: 'order-1',
      authorization: {
        from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
        value: '12.5', validAfter: '1700000000', validBefore: '1600000000', nonce: '0xabcd',
      },
      signature: `0x${'11'.repeat(32)}${'ff'.repeat(32)}1b`,
    }, null, 2));
    assert.equal(document.languageId, 'chain-authorization');
    const seen = await diagnostics(document, (list) => list.length >= 4);
    assert.deepEqual(seen.map((d) => [d.code, d.text]).sort(), [
      ['nonce', '"0xabcd"'], ['signature', `"0x${'11'.repeat(32)}${'ff'.repeat(32)}1b"`], ['value-integer', '"12.5"'], ['window-order', '"1600000000"'],
    ].sort());
  });
});
