// The RPC Explorer as one feature: its model, tree view, pending toggle and status bar, poller,
// commands and the events that drive them. activate() calls activateExplorer() once.
import * as vscode from 'vscode';
import { markWalkthroughEvent } from '../walkthrough';
import type { EndpointRegistry } from '../rpc/endpoints';
import { readSettings, SECTION } from '../settings';
import { registerExplorerCommands } from './explorerCommands';
import { registerGoToCommands } from './goToCommands';
import { ExplorerModel } from './explorerModel';
import type { JsonDocuments } from './jsonDocuments';
import { PendingToggle } from './pendingToggle';
import { Poller } from './poller';
import { SubscriptionDriver } from './subscriptionDriver';
import { WsRpcClient } from '../rpc/wsClient';
import { ExplorerTreeProvider, type ExplorerNode } from './treeProvider';
import { watchAbiSources } from './abiSources';
import { ExpansionMemory } from './expansionMemory';
import { chooseEndpoint } from './goToCommands';
import { OPEN_TRANSACTION_COMMAND, TRANSACTION_SCHEME, TransactionPages } from './transactionPage';

export const RPC_EXPLORER_VIEW = 'chainExplorer.rpcExplorer';

export interface ExplorerApi {
  model: ExplorerModel;
  tree: ExplorerTreeProvider;
  treeView: vscode.TreeView<ExplorerNode>;
  poller: Poller;
  subscriptions: SubscriptionDriver;
  pending: PendingToggle;
  statusBarText(): string | undefined;
  /** Transaction pages (their text, for tests). */
  pages: TransactionPages;
  /** Reads the user's ABIs again (setting and workspace build output); resolves once the tree has them. */
  reloadAbis(): Promise<void>;
  /** Resolves once the one-off refreshes started so far (tag switch, settings change) are done. */
  idle(): Promise<void>;
}

export function activateExplorer(
  context: vscode.ExtensionContext,
  registry: EndpointRegistry,
  json: JsonDocuments,
  output: vscode.LogOutputChannel,
): { api: ExplorerApi; disposables: vscode.Disposable[] } {
  const model = new ExplorerModel(() => registry.list(), () => readSettings());
  const expansion = new ExpansionMemory(context.workspaceState, (line) => output.debug(line));
  expansion.endpointsAre(registry.list().map((e) => e.id));
  const tree = new ExplorerTreeProvider(model, (id) => registry.get(id)?.source !== 'mock', (spec) => expansion.stateOf(spec));
  const treeView = vscode.window.createTreeView(RPC_EXPLORER_VIEW, { treeDataProvider: tree, showCollapseAll: true });
  const pending = new PendingToggle(context.workspaceState);
  model.setTag(pending.on ? 'pending' : 'latest');

  const updateStatus = (): void => {
    const status = model.statusText();
    pending.show(registry.list().length > 0 ? status.text : undefined, status.endpointName);
    if (model.showsTransaction()) markWalkthroughEvent('transactionSeen');
  };
  // Endpoints with a WebSocket URL are followed by subscription; the poller covers the others,
  // and those whose socket is (re)connecting.
  const subscriptions = new SubscriptionDriver({
    connect: (url) => new WsRpcClient(url, { timeoutMs: readSettings().requestTimeoutMs }),
    listener: {
      head: (id) => { void model.follow(id, { kind: 'head' }); },
      flashblock: (id, block) => { void model.follow(id, { kind: 'flashblock', block }); },
      pendingActivity: (id) => { void model.follow(id, { kind: 'read' }); },
      subscribed: (id) => { void model.follow(id, { kind: 'read' }); },
      mode: (id, mode) => {
        model.setFollowMode(id, mode);
        queueMicrotask(() => updatePolling()); // not from inside the driver's own sync()
      },
    },
  });
  const poller = new Poller({
    intervalMs: () => {
      const settings = readSettings();
      if (model.tag === 'pending') return settings.flashblockMs;
      return settings.pollIntervalMs > 0 ? Math.max(settings.pollIntervalMs, 250) : model.blockTimeMs();
    },
    tick: (signal) => model.tick(signal, (id) => subscriptions.covers(id)),
  });
  /**
   * Works only while seen: polls and subscribes only while the view is visible, the window
   * focused, and pending on or latest followed; polls only endpoints subscriptions do not cover.
   */
  /** Whether the explorer follows its expanded endpoints now (seen, and pending on or latest followed). */
  let following = false;
  // Transaction pages on an endpoint the explorer follows learn from its news that the chain moved.
  const pages = new TransactionPages(registry, () => model.abis, {
    followed: (id, needsPending) => following && model.isExpanded(id) && (model.tag === 'pending' || !needsPending),
  });
  const updatePolling = (): void => {
    const settings = readSettings();
    const wanted = model.tag === 'pending' || settings.pollIntervalMs > 0 || settings.followLatest;
    const seen = wanted && treeView.visible && vscode.window.state.focused;
    following = seen;
    pages.followChanged();
    const targets = model.expandedEndpoints().flatMap((e) => (e.wsUrl ? [{ id: e.id, wsUrl: e.wsUrl }] : []));
    subscriptions.sync(targets, model.tag, seen);
    poller.setActive(seen && model.needsPolling((id) => subscriptions.covers(id)));
  };
  /** Re-reads everything shown once (tag switch, settings change); `idle()` waits for it. */
  let refreshing: Promise<void> = Promise.resolve();
  const refreshNow = (): void => {
    refreshing = refreshing.then(() => model.refreshAll()).catch(() => undefined);
  };
  const setEndpointCount = (): void => {
    void vscode.commands.executeCommand('setContext', 'chainExplorer.endpointCount', registry.list().length);
  };
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

  const abiSources = watchAbiSources((book) => {
    model.abis = book;
    output.info(`ABIs: ${book.size} read (chainExplorer.contractAbis and the workspace's out/ and artifacts/)`);
    tree.refreshAll();
  }, (message) => output.warn(message));
  /** A transaction row, (endpoint, hash) from another feature or a link, or nothing: ask. */
  const openTransaction = async (given?: string | ExplorerNode, hashArg?: string): Promise<vscode.TextEditor | undefined> => {
    const rowHash = typeof given === 'object' ? given.spec.copyValue : undefined;
    const endpointId = await chooseEndpoint({ registry, treeView }, given, 'Open Transaction Page…');
    const endpoint = endpointId ? registry.get(endpointId) : undefined;
    if (!endpoint) {
      void vscode.window.showInformationMessage('No endpoint yet: start the mock node or add an endpoint.');
      return undefined;
    }
    const hash = hashArg ?? (rowHash && /^0x[0-9a-fA-F]{64}$/.test(rowHash) ? rowHash : await vscode.window.showInputBox({
      title: `Open Transaction Page on ${endpoint.name}`, prompt: 'A transaction hash', placeHolder: '0x…', ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' || /^0x[0-9a-fA-F]{64}$/.test(v.trim()) ? undefined : 'a transaction hash is 0x and 64 hex digits'),
    }));
    if (!hash?.trim()) return undefined;
    return pages.open(endpoint, hash.trim());
  };

  const disposables: vscode.Disposable[] = [
    tree, treeView, pending, poller, subscriptions, abiSources, pages,
    vscode.workspace.registerTextDocumentContentProvider(TRANSACTION_SCHEME, pages),
    vscode.languages.registerDocumentLinkProvider({ scheme: TRANSACTION_SCHEME }, pages),
    vscode.commands.registerCommand(OPEN_TRANSACTION_COMMAND, openTransaction),
    ...registerExplorerCommands({ model, tree, treeView, pending, registry, json, output }),
    ...registerGoToCommands({ model, tree, treeView, registry, output }),
    tree.onDidUpdate(updateStatus),
    model.onDidChange((ids) => {
      for (const endpoint of registry.list()) {
        if (ids.some((id) => id === endpoint.id || id.startsWith(`${endpoint.id}/`))) pages.chainMoved(endpoint.id);
      }
    }),
    // Expanding or collapsing an endpoint, an endpoint read or failing: what to follow may have changed.
    tree.onDidUpdate(updatePolling),
    treeView.onDidChangeVisibility(updatePolling),
    vscode.window.onDidChangeWindowState(updatePolling),
    treeView.onDidExpandElement((e) => expansion.recordRow(e.element.spec, true)),
    treeView.onDidCollapseElement((e) => expansion.recordRow(e.element.spec, false)),
    treeView.onDidExpandElement(async (e) => {
      // Re-expanding an endpoint (its children cached by VS Code) puts it back into the polling.
      const spec = e.element.spec;
      if (spec.kind === 'endpoint' && !model.isExpanded(spec.endpointId)) await model.expandEndpoint(spec.endpointId);
      updatePolling();
    }),
    treeView.onDidCollapseElement((e) => {
      const spec = e.element.spec;
      if (spec.kind === 'endpoint') model.collapseEndpoint(spec.endpointId);
      else if (spec.section) model.closeSection(spec.endpointId, spec.section);
      updatePolling();
    }),
    pending.onDidChange((on) => {
      model.setTag(on ? 'pending' : 'latest');
      updateStatus();
      updatePolling();
      refreshNow(); // show the other tag at once, even with polling off
    }),
    registry.onDidChange(() => {
      expansion.endpointsAre(registry.list().map((e) => e.id));
      setEndpointCount();
      tree.refreshAll();
      offerToMoveKeys();
      // New endpoints are read, and one that failed while unexpanded (e.g. during a mock node restart) again.
      void model.syncEndpoints(true);
      updatePolling();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      updatePolling();
      tree.refreshAll();
      refreshNow();
    }),
  ];
  setEndpointCount();
  void model.syncEndpoints();
  updateStatus();
  offerToMoveKeys();
  updatePolling();
  return {
    api: {
      model, tree, treeView, poller, subscriptions, pending, pages,
      reloadAbis: () => abiSources.reload(),
      statusBarText: () => (registry.list().length > 0 ? pending.statusBar.text : undefined),
      idle: () => refreshing,
    },
    disposables,
  };
}
