// The language server (its own bundle, dist/languageServer.js; started by
// extension/language/client.ts over Node IPC). Speaks LSP only and never imports vscode: the
// analysis lives in the pure modules beside it.
import {
  CodeAction, CodeActionKind, CodeLens, CompletionItem, DocumentSymbol, SymbolKind, CompletionItemKind, createConnection, Diagnostic, DiagnosticSeverity, InsertTextFormat,
  CodeLensRefreshRequest, MarkupKind, NotificationType, ProposedFeatures, TextDocuments, TextDocumentSyncKind, TextEdit,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeAuthorization, clockFor, type ChainClock } from './authorizationDiagnostics';
import { authorizationCompletions, directiveCompletions, rpcCompletions, type CompletionEntry } from './completion';
import { parseRpcDocument, type Fix, type Problem } from './document';
import { authorizationHover, rpcHover } from './hover';
import { sendLenses, SEND_COMMAND } from './lenses';
import { documentSymbols, type RequestSymbol } from './symbols';
import { CHAIN_CLOCKS, DOCUMENT_ENDPOINTS, ENDPOINTS, type NotificationSpec } from './messages';
import { AUTHORIZATION_LANGUAGE_ID, RPC_LANGUAGE_ID } from './protocol';
import { analyzeRpcDocument, resolveProfile, type KnownEndpoint } from './rpcDiagnostics';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
let endpoints: KnownEndpoint[] = [];
let documentEndpoints: Record<string, string> = {};
let chainClocks: ChainClock[] = [];

const now = (): number => Math.floor(Date.now() / 1000);

function kindOf(document: TextDocument): 'rpc' | 'authorization' | undefined {
  if (document.languageId === RPC_LANGUAGE_ID || document.uri.endsWith('.jsonrpc')) return 'rpc';
  if (document.languageId === AUTHORIZATION_LANGUAGE_ID || document.uri.endsWith('.authorization.json')) return 'authorization';
  return undefined;
}

const SEVERITY: Record<Problem['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, information: DiagnosticSeverity.Information, hint: DiagnosticSeverity.Hint,
};

function toDiagnostic(document: TextDocument, problem: Problem): Diagnostic {
  return {
    range: { start: document.positionAt(problem.offset), end: document.positionAt(problem.offset + problem.length) },
    severity: SEVERITY[problem.severity],
    message: problem.message,
    code: problem.code,
    source: kindOf(document) === 'rpc' ? 'jsonrpc' : 'authorization',
    ...(problem.fix ? { data: { fix: problem.fix } } : {}),
  };
}

function validate(document: TextDocument): void {
  const kind = kindOf(document);
  if (!kind) return;
  const text = document.getText();
  const problems = kind === 'rpc'
    ? analyzeRpcDocument(parseRpcDocument(text), { endpoints, chosenEndpointId: documentEndpoints[document.uri] })
    : analyzeAuthorization(text, (domain) => clockFor(chainClocks, domain, Date.now()));
  void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics: problems.map((p) => toDiagnostic(document, p)) });
}

function validateAll(kind?: 'rpc' | 'authorization'): void {
  for (const document of documents.all()) if (!kind || kindOf(document) === kind) validate(document);
}

const COMPLETION_KIND: Record<CompletionEntry['kind'], CompletionItemKind> = {
  method: CompletionItemKind.Method, value: CompletionItemKind.Value, property: CompletionItemKind.Property,
  snippet: CompletionItemKind.Snippet, keyword: CompletionItemKind.Keyword,
};

function toCompletion(document: TextDocument, entry: CompletionEntry): CompletionItem {
  const range = { start: document.positionAt(entry.offset), end: document.positionAt(entry.offset + entry.length) };
  return {
    label: entry.label,
    kind: COMPLETION_KIND[entry.kind],
    detail: entry.detail,
    documentation: entry.documentation ? { kind: MarkupKind.Markdown, value: entry.documentation } : undefined,
    textEdit: TextEdit.replace(range, entry.insertText),
    filterText: entry.filterText,
    sortText: entry.sortText,
    insertTextFormat: entry.snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
  };
}

connection.onInitialize(() => ({
  capabilities: {
    textDocumentSync: TextDocumentSyncKind.Incremental,
    completionProvider: { triggerCharacters: ['"', ':', ' ', '@'] },
    hoverProvider: true,
    codeLensProvider: { resolveProvider: false },
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    documentSymbolProvider: true,
  },
}));

documents.onDidChangeContent((e) => validate(e.document));
documents.onDidClose((e) => void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] }));

const typed = <P>(spec: NotificationSpec<P>) => new NotificationType<P>(spec.method);

connection.onNotification(typed(ENDPOINTS), (list) => {
  endpoints = Array.isArray(list) ? list : [];
  validateAll('rpc');
  void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
});
connection.onNotification(typed(DOCUMENT_ENDPOINTS), (map) => {
  documentEndpoints = map && typeof map === 'object' ? map : {};
  validateAll('rpc');
  void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
});

connection.onNotification(typed(CHAIN_CLOCKS), (clocks) => {
  chainClocks = Array.isArray(clocks) ? clocks : [];
  validateAll('authorization');
});

connection.onCompletion((params) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return [];
  const offset = document.offsetAt(params.position);
  const text = document.getText();
  const kind = kindOf(document);
  if (kind === 'rpc') {
    const directive = directiveCompletions(text, offset, endpoints.map((e) => e.name));
    const entries = directive ?? rpcCompletions(parseRpcDocument(text), offset);
    return entries.map((e) => toCompletion(document, e));
  }
  if (kind === 'authorization') return authorizationCompletions(text, offset).map((e) => toCompletion(document, e));
  return [];
});

connection.onHover((params) => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return null;
  const offset = document.offsetAt(params.position);
  const kind = kindOf(document);
  const hover = kind === 'rpc' ? rpcHover(parseRpcDocument(document.getText()), offset, now())
    : kind === 'authorization' ? authorizationHover(document.getText(), offset, now()) : undefined;
  if (!hover) return null;
  return {
    contents: { kind: MarkupKind.Markdown, value: hover.markdown },
    range: { start: document.positionAt(hover.offset), end: document.positionAt(hover.offset + hover.length) },
  };
});

function isFix(value: unknown): value is Fix {
  const fix = value as Fix | undefined;
  return !!fix && typeof fix.title === 'string' && typeof fix.offset === 'number' && typeof fix.length === 'number' && typeof fix.newText === 'string';
}

// Quick fixes travel with their diagnostics (Diagnostic.data) and come back in the request's context.
connection.onCodeAction((params): CodeAction[] => {
  const document = documents.get(params.textDocument.uri);
  if (!document) return [];
  return params.context.diagnostics.flatMap((diagnostic): CodeAction[] => {
    const fix = (diagnostic.data as { fix?: unknown } | undefined)?.fix;
    if (!isFix(fix)) return [];
    const range = { start: document.positionAt(fix.offset), end: document.positionAt(fix.offset + fix.length) };
    return [{
      title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: true,
      edit: { changes: { [document.uri]: [TextEdit.replace(range, fix.newText)] } },
    }];
  });
});

connection.onDocumentSymbol((params): DocumentSymbol[] => {
  const document = documents.get(params.textDocument.uri);
  if (!document || kindOf(document) !== 'rpc') return [];
  const range = (offset: number, length: number) => ({ start: document.positionAt(offset), end: document.positionAt(offset + length) });
  const convert = (symbol: RequestSymbol): DocumentSymbol => ({
    name: symbol.name, detail: symbol.detail, kind: symbol.kind === 'batch' ? SymbolKind.Array : SymbolKind.Function,
    range: range(symbol.offset, symbol.length), selectionRange: range(symbol.selectionOffset, symbol.selectionLength),
    children: symbol.children.map(convert),
  });
  return documentSymbols(parseRpcDocument(document.getText())).map(convert);
});

connection.onCodeLens((params): CodeLens[] => {
  const document = documents.get(params.textDocument.uri);
  if (!document || kindOf(document) !== 'rpc') return [];
  const parsed = parseRpcDocument(document.getText());
  const target = resolveProfile(parsed, { endpoints, chosenEndpointId: documentEndpoints[document.uri] });
  const endpointName = target.endpointName ?? (parsed.directives.endpoint?.value);
  return sendLenses(parsed, endpointName).map((lens) => {
    const position = document.positionAt(lens.offset);
    const args: unknown[] = [document.uri, lens.segment];
    if (lens.element !== undefined) args.push(lens.element);
    return { range: { start: position, end: position }, command: { title: lens.title, command: SEND_COMMAND, arguments: args } };
  });
});

// Expiry depends on the clock: look again at open authorization files every half minute.
setInterval(() => validateAll('authorization'), 30_000).unref();

documents.listen(connection);
connection.listen();
