// The language features on the extension side: starts the language server (dist/languageServer.js)
// with vscode-languageclient over Node IPC the first time a `.jsonrpc` or `.authorization.json`
// document is open (never at activation), tells it which endpoints exist (names and profiles, no
// URLs), and runs the "Send" code lens: the request (or batch) goes through extension/rpc's
// client to the endpoint the file names (`// @endpoint`), else the one picked for that document
// (remembered in the workspace state), and the reply opens as a read-only JSON document.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
// Types only: vscode-languageclient (about 1 MB of code) is its own bundle, dist/languageClient.js
// (extension/language/clientLibrary.ts), required when the client starts, not at activation.
import type { LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import type { JsonDocuments } from '../explorer/jsonDocuments';
import { RpcClient } from '../rpc/client';
import type { Endpoint, EndpointRegistry } from '../rpc/endpoints';
import { maskUrl } from '../rpc/endpointUrl';
import { readSettings } from '../settings';
import { endpointProfile, payloadOf, sendPayload } from './send';
import { parseRpcDocument, segmentAt, type ParsedRpcDocument } from './server/document';
import { AUTHORIZATION_LANGUAGE_ID, RPC_LANGUAGE_ID, SEND_COMMAND, type KnownEndpoint } from './server/protocol';
import type { ChainClock } from './server/authorizationDiagnostics';

export const CHOOSE_ENDPOINT_COMMAND = 'chainExplorer.language.chooseEndpoint';
const LANGUAGE_IDS = [RPC_LANGUAGE_ID, AUTHORIZATION_LANGUAGE_ID];
const CHOICES_KEY = 'chainExplorer.language.documentEndpoints';

/** What Send did: for the in-VS-Code tests and for callers of the command. */
export interface SendResult {
  endpoint: string;
  /** The JSON-RPC response (an array for a batch), or an `{ httpStatus, error }` object. */
  response: unknown;
  /** The reply document. */
  uri: string;
}

export interface LanguageFeaturesApi {
  /** Whether the language client was started (it starts when a language document opens). */
  readonly started: boolean;
  /** Resolves once the client runs (starting it if needed). */
  whenReady(): Promise<void>;
  /** The endpoint id remembered for a document. */
  endpointFor(uri: vscode.Uri): string | undefined;
  rememberEndpoint(uri: vscode.Uri, endpointId: string | undefined): Promise<void>;
  /** The chains' block times (from the Authorizations view), by which `.authorization.json` windows are judged. */
  setChainClocks(clocks: ChainClock[]): void;
}

interface Deps {
  context: vscode.ExtensionContext;
  registry: EndpointRegistry;
  json: JsonDocuments;
  output: vscode.LogOutputChannel;
}

class LanguageFeatures implements vscode.Disposable, LanguageFeaturesApi {
  private client: LanguageClient | undefined;
  /** The typed custom messages, loaded with the client library. */
  private messages: typeof import('./clientLibrary').messages | undefined;
  private starting: Promise<void> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: Deps) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((document) => this.maybeStart(document)),
      deps.registry.onDidChange(() => void this.pushEndpoints().catch(() => undefined)),
    );
    for (const document of vscode.workspace.textDocuments) this.maybeStart(document);
  }

  get started(): boolean {
    return this.client !== undefined;
  }

  private maybeStart(document: vscode.TextDocument): void {
    if (LANGUAGE_IDS.includes(document.languageId) && !this.starting) void this.whenReady().catch(() => undefined);
  }

  whenReady(): Promise<void> {
    this.starting ??= this.start().catch((error: unknown) => {
      this.deps.output.error(`language server failed to start: ${error instanceof Error ? error.message : String(error)}`);
      this.starting = undefined;
      this.client = undefined;
      throw error;
    });
    return this.starting;
  }

  private async start(): Promise<void> {
    const library = path.join(this.deps.context.extensionPath, 'dist', 'languageClient.js');
    const module = path.join(this.deps.context.extensionPath, 'dist', 'languageServer.js');
    for (const file of [library, module]) if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build`);
    // A runtime require of a path: esbuild leaves it alone, so the library stays out of dist/extension.js.
    const { LanguageClient, TransportKind, messages } = require(library) as typeof import('./clientLibrary');
    this.messages = messages;
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc },
      debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: LANGUAGE_IDS.map((language) => ({ language })),
      outputChannel: this.deps.output,
    };
    const client = new LanguageClient('chainExplorer.language', 'Chain RPC language server', serverOptions, clientOptions);
    this.client = client;
    const started = Date.now();
    await client.start();
    this.deps.output.info(`language server started in ${Date.now() - started} ms`);
    await this.pushEndpoints();
    await this.pushChoices();
    await this.pushClocks();
  }

  private knownEndpoints(): KnownEndpoint[] {
    return this.deps.registry.list().map((e) => ({ id: e.id, name: e.name, profile: endpointProfile(e) }));
  }

  private async pushEndpoints(): Promise<void> {
    if (!this.client?.isRunning() || !this.messages) return;
    await this.client.sendNotification(this.messages.endpoints, this.knownEndpoints());
  }

  private choices(): Record<string, string> {
    return this.deps.context.workspaceState.get<Record<string, string>>(CHOICES_KEY) ?? {};
  }

  private clocks: ChainClock[] = [];

  setChainClocks(clocks: ChainClock[]): void {
    this.clocks = clocks;
    void this.pushClocks().catch(() => undefined);
  }

  private async pushClocks(): Promise<void> {
    if (!this.client?.isRunning() || !this.messages) return;
    await this.client.sendNotification(this.messages.chainClocks, this.clocks);
  }

  private async pushChoices(): Promise<void> {
    if (!this.client?.isRunning() || !this.messages) return;
    await this.client.sendNotification(this.messages.documentEndpoints, this.choices());
  }

  endpointFor(uri: vscode.Uri): string | undefined {
    return this.choices()[uri.toString()];
  }

  async rememberEndpoint(uri: vscode.Uri, endpointId: string | undefined): Promise<void> {
    const choices = { ...this.choices() };
    if (endpointId) choices[uri.toString()] = endpointId;
    else delete choices[uri.toString()];
    await this.deps.context.workspaceState.update(CHOICES_KEY, choices);
    await this.pushChoices();
  }

  /** The endpoint for a document: its `// @endpoint`, else the remembered choice, else a quick pick. */
  private async endpointForSend(document: vscode.TextDocument, doc: ParsedRpcDocument, forcePick: boolean): Promise<Endpoint | undefined> {
    const all = this.deps.registry.list();
    const directive = doc.directives.endpoint?.value;
    if (directive && !forcePick) {
      const named = all.find((e) => e.name.toLowerCase() === directive.toLowerCase() || e.id === directive);
      if (named) return named;
      if (/^https?:\/\//i.test(directive)) {
        return { id: `url:${directive}`, name: maskUrl(directive), url: directive, displayUrl: maskUrl(directive), source: 'settings' };
      }
      void vscode.window.showWarningMessage(`This file names the endpoint "${directive}", which is not listed (${all.map((e) => e.name).join(', ') || 'no endpoint yet'}). Pick one instead.`);
    }
    const remembered = this.endpointFor(document.uri);
    if (remembered && !forcePick) {
      const endpoint = all.find((e) => e.id === remembered);
      if (endpoint) return endpoint;
    }
    if (all.length === 0) {
      const start = 'Start Mock Node';
      const answer = await vscode.window.showInformationMessage('No endpoint to send to: start the bundled mock node or add an endpoint.', start, 'Add Endpoint…');
      if (!answer) return undefined;
      await vscode.commands.executeCommand(answer === start ? 'chainExplorer.startMockNode' : 'chainExplorer.addEndpoint');
      return this.deps.registry.list().length > 0 ? this.endpointForSend(document, doc, false) : undefined;
    }
    const picked = await vscode.window.showQuickPick(
      all.map((e) => ({ label: e.name, description: e.displayUrl, detail: endpointProfile(e) ? `${endpointProfile(e)} profile` : undefined, endpoint: e })),
      { placeHolder: `Endpoint for ${path.basename(document.uri.path)} (remembered for this file)` },
    );
    if (!picked) return undefined;
    await this.rememberEndpoint(document.uri, picked.endpoint.id);
    return picked.endpoint;
  }

  async chooseEndpoint(uri?: string | vscode.Uri): Promise<string | undefined> {
    const document = await this.documentFor(uri);
    if (!document) return undefined;
    const endpoint = await this.endpointForSend(document, parseRpcDocument(document.getText()), true);
    return endpoint?.id;
  }

  private async documentFor(uri: string | vscode.Uri | undefined): Promise<vscode.TextDocument | undefined> {
    if (uri) return vscode.workspace.openTextDocument(typeof uri === 'string' ? vscode.Uri.parse(uri) : uri);
    const editor = vscode.window.activeTextEditor;
    if (editor?.document.languageId === RPC_LANGUAGE_ID) return editor.document;
    void vscode.window.showInformationMessage('Open a .jsonrpc file and put the cursor in a request to send it.');
    return undefined;
  }

  /** SEND_COMMAND: (uri?, segment?, element?). Without arguments: the request at the cursor. */
  async send(uri?: string | vscode.Uri, segmentIndex?: number, element?: number): Promise<SendResult | undefined> {
    const document = await this.documentFor(uri);
    if (!document) return undefined;
    const doc = parseRpcDocument(document.getText());
    let index = segmentIndex;
    if (index === undefined) {
      const editor = vscode.window.visibleTextEditors.find((e) => e.document === document);
      const offset = editor ? document.offsetAt(editor.selection.active) : 0;
      index = segmentAt(doc, offset)?.index;
    }
    const payload = index === undefined ? undefined : payloadOf(doc, index, element);
    if (!payload) {
      void vscode.window.showErrorMessage('Nothing to send here: a request is an object with a "method" string (fix the errors the file shows).');
      return undefined;
    }
    const endpoint = await this.endpointForSend(document, doc, false);
    if (!endpoint) return undefined;
    const client = new RpcClient(endpoint.url, { timeoutMs: readSettings().requestTimeoutMs });
    const items = payload.requests;
    const what = payload.batch ? `a batch of ${items.length}` : items[0].method;
    const response = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `Sending ${what} to ${endpoint.name}` },
      () => sendPayload(client, payload),
    );
    this.deps.output.info(`Send ${items.map((r) => r.method).join(', ')} to ${endpoint.name} (${endpoint.displayUrl})`);
    const title = `reply ${payload.batch ? `batch of ${items.length}` : items[0].method} from ${endpoint.name}`;
    const editor = await this.deps.json.open(title, response);
    return { endpoint: endpoint.name, response, uri: editor.document.uri.toString() };
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.client?.stop().catch(() => undefined);
  }
}

/** Registers the language features: call from activate(); nothing starts until a language document opens. */
export function registerLanguageFeatures(deps: Deps): { api: LanguageFeaturesApi; disposables: vscode.Disposable[] } {
  const features = new LanguageFeatures(deps);
  return {
    api: features,
    disposables: [
      features,
      vscode.commands.registerCommand(SEND_COMMAND, (uri?: string | vscode.Uri, segment?: number, element?: number) => features.send(uri, segment, element)),
      vscode.commands.registerCommand(CHOOSE_ENDPOINT_COMMAND, (uri?: string | vscode.Uri) => features.chooseEndpoint(uri)),
    ],
  };
}
