// Builds the authorization feature: store, observer, view, inspector documents and commands.
// main.ts calls activateAuthorizations() and hands the result to the tests.
import * as vscode from 'vscode';
import type { EndpointRegistry } from '../rpc/endpoints';
import { AuthorizationCommands, INSPECTOR_SCHEME, InspectorDocuments } from './commands/index';
import type { LifecycleState } from './model';
import { AuthorizationStore } from './store';
import { AUTHORIZATIONS_VIEW, AuthorizationObserver, AuthorizationsTreeProvider, type AuthorizationNode } from './view';

export { AUTHORIZATIONS_VIEW } from './view';

/** What the in-VS-Code tests use. */
export interface AuthorizationsApi {
  store: AuthorizationStore;
  tree: AuthorizationsTreeProvider;
  treeView: vscode.TreeView<AuthorizationNode>;
  commands: AuthorizationCommands;
  /** The inspector's read-only markdown documents (other features show their inspections there too). */
  documents: InspectorDocuments;
  /** Re-reads the chain and returns the keys per lifecycle state, as the view groups them. */
  groups(): Promise<Record<LifecycleState, string[]>>;
}

export function activateAuthorizations(context: vscode.ExtensionContext, registry: EndpointRegistry, output: vscode.LogOutputChannel): { api: AuthorizationsApi; disposables: vscode.Disposable[] } {
  const store = new AuthorizationStore(context.workspaceState, context.globalState, context.secrets);
  const observer = new AuthorizationObserver(store, registry);
  const tree = new AuthorizationsTreeProvider(store, observer);
  const treeView = vscode.window.createTreeView(AUTHORIZATIONS_VIEW, { treeDataProvider: tree });
  const documents = new InspectorDocuments();
  const commands = new AuthorizationCommands({ store, tree, registry, output, documents });
  const setCount = (): void => {
    void vscode.commands.executeCommand('setContext', 'chainExplorer.authorizationCount', store.list().length);
  };
  setCount();
  const disposables: vscode.Disposable[] = [
    store, tree, treeView, documents,
    vscode.workspace.registerTextDocumentContentProvider(INSPECTOR_SCHEME, documents),
    ...commands.register(),
    store.onDidChange(setCount),
    // Another view's link to one authorization (the transaction page of a capture or cancel).
    vscode.commands.registerCommand('chainExplorer.authorizations.show', async (key: unknown) => {
      const record = typeof key === 'string' ? store.get(key) : undefined;
      if (!record) {
        void vscode.window.showInformationMessage('That authorization is not in the Authorizations view (it was signed or stored elsewhere).');
        return false;
      }
      await tree.refresh();
      await treeView.reveal({ kind: 'authorization', key: record.key, state: observer.stateOf(record).state }, { select: true, focus: true });
      return true;
    }),
    // Endpoints come and go (the mock node starts and stops): the states follow.
    registry.onDidChange(() => { void tree.refresh(); }),
    treeView.onDidChangeVisibility((e) => { if (e.visible) void tree.refresh(); }),
  ];
  // Time moves authorizations into and out of their windows: while the view is visible and some
  // authorization can still change state, re-derive every 10 s.
  const timer = setInterval(() => {
    if (!treeView.visible) return;
    // Until paid and confirmed, canceled, consumed elsewhere or expired: confirmations grow, a reorg can undo an inclusion.
    const live = store.list().some((r) => {
      const derived = observer.stateOf(r);
      return derived.inFlight || derived.paid?.stage === 'included' || !['Used', 'Canceled', 'Consumed elsewhere', 'Expired'].includes(derived.state);
    });
    if (live) void tree.refresh();
  }, 10_000);
  disposables.push({ dispose: () => clearInterval(timer) });
  void tree.refresh();
  return {
    api: {
      store, tree, treeView, commands, documents,
      groups: async () => {
        await tree.refresh();
        return observer.groups();
      },
    },
    disposables,
  };
}
