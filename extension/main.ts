// activate(): builds the services and registers the views and commands; nothing heavy (the mock
// node's code loads when first started).
import * as vscode from 'vscode';
import { activateAuthorizations, type AuthorizationsApi } from './authorizations/index';
import { ExplorerModel } from './explorer/explorerModel';
import { registerExplorerCommands } from './explorer/explorerCommands';
import { JSON_SCHEME, JsonDocuments } from './explorer/jsonDocuments';
import { registerLanguageFeatures, type LanguageFeaturesApi } from './language/client';
import { PendingToggle } from './explorer/pendingToggle';
import { Poller } from './explorer/poller';
import { ExplorerTreeProvider, type ExplorerNode } from './explorer/treeProvider';
import { registerMockNodeCommands } from './mockNode/mockNodeCommands';
import { MockNodeService } from './mockNode/mockNodeService';
import { EndpointRegistry } from './rpc/endpoints';
import { readSettings, SECTION } from './settings';

export const RPC_EXPLORER_VIEW = 'chainExplorer.rpcExplorer';

/** What activate() returns: used by the in-VS-Code tests. */
export interface ChainExplorerApi {
  model: ExplorerModel;
  tree: ExplorerTreeProvider;
  treeView: vscode.TreeView<ExplorerNode>;
  poller: Poller;
  pending: PendingToggle;
  mockNode: MockNodeService;
  registry: EndpointRegistry;
  activationMs: number;
  /** The Authorizations view, its store and commands. */
  authorizations: AuthorizationsApi;
  /** The language client (started when a .jsonrpc or .authorization.json document opens) and Send. */
  language: LanguageFeaturesApi;
  statusBarText(): string | undefined;
  /** Resolves once the one-off refreshes started so far (tag switch, settings change) are done. */
  idle(): Promise<void>;
}

export async function activate(context: vscode.ExtensionContext): Promise<ChainExplorerApi> {
  const started = performance.now();
  const output = vscode.window.createOutputChannel('Chain RPC Explorer', { log: true });
  const registry = new EndpointRegistry(context);
  await registry.loadSecrets();
  const model = new ExplorerModel(() => registry.list(), () => readSettings());
  const tree = new ExplorerTreeProvider(model, (id) => registry.get(id)?.source !== 'mock');
  const treeView = vscode.window.createTreeView(RPC_EXPLORER_VIEW, { treeDataProvider: tree, showCollapseAll: true });
  const pending = new PendingToggle(context.workspaceState);
  model.setTag(pending.on ? 'pending' : 'latest');
  const mockNode = new MockNodeService(registry, output, context.extensionPath);
  const json = new JsonDocuments();
  const authorizations = activateAuthorizations(context, registry, output);
  const language = registerLanguageFeatures({ context, registry, json, output });

  const updateStatus = (): void => {
    const status = model.statusText();
    pending.show(registry.list().length > 0 ? status.text : undefined, status.endpointName);
  };
  const poller = new Poller({
    intervalMs: () => {
      const settings = readSettings();
      return model.tag === 'pending' ? settings.flashblockMs : Math.max(settings.pollIntervalMs, 250);
    },
    tick: (signal) => model.tick(signal),
    afterTick: () => tree.update(),
  });
  /** Polls only while the view is visible, the window focused, and pending on (or a poll interval set). */
  const updatePolling = (): void => {
    const wanted = model.tag === 'pending' || readSettings().pollIntervalMs > 0;
    poller.setActive(wanted && treeView.visible && vscode.window.state.focused);
  };
  /** Re-reads everything shown once (tag switch, settings change); tests await `idle()`. */
  let refreshing: Promise<void> = Promise.resolve();
  const refreshNow = (): void => {
    refreshing = refreshing.then(() => model.refreshAll()).then(() => tree.update(), () => tree.update());
  };
  const setEndpointCount = (): void => {
    void vscode.commands.executeCommand('setContext', 'chainExplorer.endpointCount', registry.list().length);
  };
  setEndpointCount();
  updateStatus();
  /** A URL with a key typed into the settings by hand: offer to move it (names only in messages). */
  const warnedKeyed = new Set<string>();
  const offerToMoveKeys = (): void => {
    const keyed = registry.keyedSettingsEndpoints().filter((e) => !warnedKeyed.has(e.name));
    if (keyed.length === 0) return;
    for (const e of keyed) warnedKeyed.add(e.name);
    const names = keyed.map((e) => e.name).join(', ');
    output.warn(`endpoints in the settings hold a key in their URL: ${names}`);
    void vscode.window.showWarningMessage(
      `The URL of ${names} holds a key and is in your settings. Keep it in the secret storage instead?`, 'Move to Secret Storage',
    ).then((choice) => { if (choice) void vscode.commands.executeCommand('chainExplorer.moveKeysToSecretStorage'); });
  };
  offerToMoveKeys();

  context.subscriptions.push(
    output, registry, tree, treeView, pending, mockNode, poller,
    vscode.workspace.registerTextDocumentContentProvider(JSON_SCHEME, json),
    ...registerExplorerCommands({ model, tree, treeView, pending, registry, json, output }),
    ...registerMockNodeCommands(mockNode),
    ...authorizations.disposables,
    ...language.disposables,
    vscode.commands.registerCommand('chainExplorer.showVersion', () => {
      void vscode.window.showInformationMessage(`Chain RPC Explorer ${String(context.extension.packageJSON.version)}`);
    }),
    tree.onDidUpdate(updateStatus),
    treeView.onDidChangeVisibility(updatePolling),
    vscode.window.onDidChangeWindowState(updatePolling),
    treeView.onDidExpandElement(async (e) => {
      const spec = e.element.spec;
      if (spec.kind === 'endpoint' && !model.isExpanded(spec.endpointId)) {
        await model.expandEndpoint(spec.endpointId);
        tree.update(e.element.id);
      }
    }),
    treeView.onDidCollapseElement((e) => {
      const spec = e.element.spec;
      if (spec.kind === 'endpoint') model.collapseEndpoint(spec.endpointId);
      else if (spec.section) {
        model.closeSection(spec.endpointId, spec.section);
        tree.update();
      }
    }),
    pending.onDidChange((on) => {
      model.setTag(on ? 'pending' : 'latest');
      updateStatus();
      updatePolling();
      // Show the other tag at once, even with polling off.
      refreshNow();
    }),
    registry.onDidChange(() => {
      setEndpointCount();
      tree.update();
      offerToMoveKeys();
      // An endpoint that failed while unexpanded (e.g. during a mock node restart) is read again.
      void model.loadOverviews(true).then((read) => { if (read) tree.update(); });
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      updatePolling();
      refreshNow();
    }),
  );
  updatePolling();
  const activationMs = performance.now() - started;
  output.info(`activated in ${activationMs.toFixed(1)} ms`);
  return {
    model, tree, treeView, poller, pending, mockNode, registry, activationMs, authorizations: authorizations.api, language: language.api,
    statusBarText: () => (registry.list().length > 0 ? pending.statusBar.text : undefined),
    idle: () => refreshing,
  };
}

export function deactivate(): void {}
