// activate(): builds the services and registers the views and commands; nothing heavy (the mock
// node's code loads when first started, the language server when a request file opens).
import * as vscode from 'vscode';
import { activateAuthorizations, type AuthorizationsApi } from './authorizations/index';
import { activateExplorer, type ExplorerApi } from './explorer/explorerFeature';
import { JSON_SCHEME, JsonDocuments } from './explorer/jsonDocuments';
import { registerLanguageFeatures, type LanguageFeaturesApi } from './language/client';
import { registerMockNodeCommands } from './mockNode/mockNodeCommands';
import { MockNodeService } from './mockNode/mockNodeService';
import { registerTokenDemoCommands, type TokenDemoCommands } from './mockNode/tokenDemoCommands';
import { EndpointRegistry } from './rpc/endpoints';
import { activateX402, type X402Api } from './x402/x402Feature';

export { RPC_EXPLORER_VIEW } from './explorer/explorerFeature';

/** What activate() returns: used by the in-VS-Code tests. */
export interface ChainExplorerApi extends ExplorerApi {
  mockNode: MockNodeService;
  registry: EndpointRegistry;
  activationMs: number;
  /** The Authorizations view, its store and commands. */
  authorizations: AuthorizationsApi;
  /** x402: payment headers and the mock node's facilitator settlements. */
  x402: X402Api;
  /** The language client (started when a .jsonrpc or .authorization.json document opens) and Send. */
  language: LanguageFeaturesApi;
  /** The mock node's token demo commands (send token, pause, blocklist, advance time). */
  tokenDemo: TokenDemoCommands;
  /** The folder of the extension's log files: the output channel (with the mock node's lines) writes there. */
  logUri: vscode.Uri;
}

export async function activate(context: vscode.ExtensionContext): Promise<ChainExplorerApi> {
  const started = performance.now();
  const output = vscode.window.createOutputChannel('Chain RPC Explorer', { log: true });
  const registry = new EndpointRegistry(context);
  await registry.loadSecrets();
  const json = new JsonDocuments();
  const mockNode = new MockNodeService(registry, output, context.extensionPath);
  const explorer = activateExplorer(context, registry, json, output);
  const authorizations = activateAuthorizations(context, registry, output);
  const language = registerLanguageFeatures({ context, registry, json, output });
  const tokenDemo = registerTokenDemoCommands(mockNode);
  // The language server judges .authorization.json windows by the chains' block times the view reads.
  const clocks = authorizations.api.tree.observer.onDidReadClocks((read) => language.api.setChainClocks(read));
  const x402 = activateX402(registry, authorizations.api, output);

  context.subscriptions.push(
    output, registry, mockNode,
    vscode.workspace.registerTextDocumentContentProvider(JSON_SCHEME, json),
    ...explorer.disposables,
    ...registerMockNodeCommands(mockNode),
    ...tokenDemo.disposables, clocks,
    ...authorizations.disposables,
    ...x402.disposables,
    ...language.disposables,
    vscode.commands.registerCommand('chainExplorer.showVersion', () => {
      void vscode.window.showInformationMessage(`Chain RPC Explorer ${String(context.extension.packageJSON.version)}`);
    }),
  );
  const activationMs = performance.now() - started;
  output.info(`activated in ${activationMs.toFixed(1)} ms`);
  return {
    ...explorer.api, mockNode, registry, activationMs, authorizations: authorizations.api, x402: x402.api, language: language.api, tokenDemo, logUri: context.logUri,
  };
}

export function deactivate(): void {}
