// Commands on the explorer and its nodes: refresh, pending on/off, copy value, copy as curl,
// open as JSON, add / remove / rename endpoint.
import * as vscode from 'vscode';
import { requestAsCurl } from '../rpc/curl';
import type { EndpointRegistry } from '../rpc/endpoints';
import { isHttpUrl, isWebSocketUrl, maskUrl } from '../rpc/endpointUrl';
import type { ExplorerModel } from './explorerModel';
import type { JsonDocuments } from './jsonDocuments';
import type { PendingToggle } from './pendingToggle';
import type { ExplorerNode, ExplorerTreeProvider } from './treeProvider';

export interface ExplorerCommandDeps {
  model: ExplorerModel;
  tree: ExplorerTreeProvider;
  treeView: vscode.TreeView<ExplorerNode>;
  pending: PendingToggle;
  registry: EndpointRegistry;
  json: JsonDocuments;
  output: vscode.LogOutputChannel;
}

/** The node a command was run on: the clicked one, else the selection. */
function target(deps: ExplorerCommandDeps, node: ExplorerNode | undefined): ExplorerNode | undefined {
  return node ?? deps.treeView.selection[0];
}

async function pickEndpoint(deps: ExplorerCommandDeps, node: ExplorerNode | undefined, removableOnly: boolean) {
  const clicked = target(deps, node);
  const all = deps.registry.list().filter((e) => !removableOnly || e.source !== 'mock');
  if (clicked) return all.find((e) => e.id === clicked.spec.endpointId);
  if (all.length === 0) {
    void vscode.window.showInformationMessage(removableOnly ? 'No endpoint of yours to change (the mock node goes away when stopped).' : 'No endpoint yet.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(all.map((e) => ({ label: e.name, description: e.displayUrl, endpoint: e })), { placeHolder: 'Endpoint' });
  return picked?.endpoint;
}

export function registerExplorerCommands(deps: ExplorerCommandDeps): vscode.Disposable[] {
  const { model, pending, registry, json, output } = deps;
  return [
    vscode.commands.registerCommand('chainExplorer.pendingOn', () => pending.set(true)),
    vscode.commands.registerCommand('chainExplorer.pendingOff', () => pending.set(false)),
    vscode.commands.registerCommand('chainExplorer.togglePending', () => pending.set(!pending.on)),
    vscode.commands.registerCommand('chainExplorer.refresh', async () => {
      await vscode.window.withProgress({ location: { viewId: 'chainExplorer.rpcExplorer' } }, async (_p, token) => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        try {
          await model.refreshAll(controller.signal);
        } finally {
          sub.dispose();
        }
      });
    }),
    vscode.commands.registerCommand('chainExplorer.copyValue', async (node?: ExplorerNode) => {
      const spec = target(deps, node)?.spec;
      const value = spec?.copyValue ?? spec?.description;
      if (value === undefined) return;
      await vscode.env.clipboard.writeText(value);
      vscode.window.setStatusBarMessage(`Copied ${spec?.label}`, 2000);
    }),
    vscode.commands.registerCommand('chainExplorer.copyAsCurl', async (node?: ExplorerNode) => {
      const spec = target(deps, node)?.spec;
      if (!spec?.request) return;
      const endpoint = registry.get(spec.endpointId);
      if (!endpoint) return;
      // The clipboard gets the real URL (the user asked for a runnable command); nothing is logged.
      await vscode.env.clipboard.writeText(requestAsCurl(endpoint.url, spec.request.method, spec.request.params));
      vscode.window.setStatusBarMessage(`Copied ${spec.request.method} as curl`, 2000);
    }),
    vscode.commands.registerCommand('chainExplorer.openJson', async (node?: ExplorerNode) => {
      const spec = target(deps, node)?.spec;
      if (!spec?.json) return;
      await json.open(spec.json.title, spec.json.value);
    }),
    vscode.commands.registerCommand('chainExplorer.addEndpoint', async (name?: string, url?: string, wsUrl?: string) => {
      const finalUrl = url ?? await vscode.window.showInputBox({
        title: 'Add Endpoint (1/3)', prompt: 'JSON-RPC URL (http or https). A URL holding a key is kept in the secret storage.',
        placeHolder: 'https://mainnet.base.org', ignoreFocusOut: true,
        validateInput: (v) => (isHttpUrl(v.trim()) ? undefined : 'an http:// or https:// URL'),
      });
      if (!finalUrl) return;
      // Asked only in the interactive flow: a caller passing the URL passes the WebSocket URL too, or none.
      const finalWsUrl = url !== undefined ? wsUrl : await vscode.window.showInputBox({
        title: 'Add Endpoint (2/3)',
        prompt: 'WebSocket URL (ws or wss), optional: the explorer then follows the chain by subscription instead of polling. Empty: HTTP polling.',
        placeHolder: 'wss://… (leave empty to poll over HTTP)', ignoreFocusOut: true,
        validateInput: (v) => (v.trim() === '' || isWebSocketUrl(v.trim()) ? undefined : 'a ws:// or wss:// URL, or nothing'),
      });
      if (finalWsUrl === undefined && url === undefined) return; // Escape
      if (finalWsUrl !== undefined && finalWsUrl.trim() !== '' && !isWebSocketUrl(finalWsUrl.trim())) {
        void vscode.window.showErrorMessage('Add Endpoint: the WebSocket URL must be ws:// or wss://');
        return;
      }
      const finalName = name ?? await vscode.window.showInputBox({
        title: 'Add Endpoint (3/3)', prompt: 'A name for it', value: new URL(finalUrl.trim()).host, ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? (registry.list().some((e) => e.name === v.trim()) ? 'that name is taken' : undefined) : 'a name'),
      });
      if (!finalName) return;
      const ws = finalWsUrl?.trim() ? finalWsUrl.trim() : undefined;
      const added = await registry.add(finalName.trim(), finalUrl.trim(), ws);
      output.info(`endpoint added: ${added.name} ${maskUrl(added.url)}${ws ? ` (WebSocket ${maskUrl(ws)})` : ''}${added.source === 'secret' ? ' (URLs in secret storage)' : ''}`);
      return added.id;
    }),
    vscode.commands.registerCommand('chainExplorer.moveKeysToSecretStorage', async () => {
      const moved = await registry.moveKeyedToSecrets();
      for (const name of moved) output.info(`endpoint ${name}: URL with a key moved from the settings to the secret storage`);
      return moved;
    }),
    vscode.commands.registerCommand('chainExplorer.removeEndpoint', async (node?: ExplorerNode) => {
      const endpoint = await pickEndpoint(deps, node, true);
      if (!endpoint || endpoint.source === 'mock') return;
      await registry.remove(endpoint);
      output.info(`endpoint removed: ${endpoint.name}`);
    }),
    vscode.commands.registerCommand('chainExplorer.renameEndpoint', async (node?: ExplorerNode, newName?: string) => {
      const endpoint = await pickEndpoint(deps, node, true);
      if (!endpoint || endpoint.source === 'mock') return;
      const name = newName ?? await vscode.window.showInputBox({ title: 'Rename Endpoint', value: endpoint.name });
      if (!name?.trim()) return;
      await registry.rename(endpoint, name.trim());
    }),
  ];
}
