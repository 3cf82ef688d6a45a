// Go to… (palette, view title, the search row of each endpoint, links in the tree), Reveal
// Transaction (for other features: an endpoint and a transaction hash), Load older blocks.
import * as vscode from 'vscode';
import { GO_TO_COMMAND } from './blockNodes';
import type { ExplorerCommandDeps } from './explorerCommands';
import { parseGoTo } from './goToInput';
import { LOAD_OLDER_COMMAND } from './recentNodes';
import type { ExplorerNode } from './treeProvider';

export const REVEAL_TRANSACTION_COMMAND = 'chainExplorer.revealTransaction';

export type GoToDeps = Pick<ExplorerCommandDeps, 'model' | 'tree' | 'treeView' | 'registry' | 'output'>;

export type GoToResult = { ok: true; nodeId: string } | { ok: false; message: string } | undefined;

/** The endpoint chosen by hand this session (Go to and the transaction page ask once). */
let remembered: string | undefined;

/**
 * The endpoint to look in: the one given (a row's, a link's), the selected row's, the only one,
 * the one chosen earlier this session, else the user's choice (remembered).
 */
export async function chooseEndpoint(deps: Pick<GoToDeps, 'registry' | 'treeView'>, given: string | ExplorerNode | undefined, title = 'Go to…'): Promise<string | undefined> {
  if (typeof given === 'string') {
    const byIdOrName = deps.registry.list().find((e) => e.id === given || e.name === given);
    return byIdOrName?.id;
  }
  if (given) return given.spec.endpointId;
  const selected = deps.treeView.selection[0];
  if (selected) return selected.spec.endpointId;
  const all = deps.registry.list();
  if (all.length <= 1) return all[0]?.id;
  if (remembered && all.some((e) => e.id === remembered)) return remembered;
  const picked = await vscode.window.showQuickPick(
    all.map((e) => ({ label: e.name, description: e.displayUrl, id: e.id })),
    { title, placeHolder: 'Look on which endpoint? (asked once this session)' },
  );
  if (picked) remembered = picked.id;
  return picked?.id;
}

async function goTo(deps: GoToDeps, given?: string | ExplorerNode, text?: string): Promise<GoToResult> {
  const endpointId = await chooseEndpoint(deps, given);
  const endpoint = endpointId ? deps.registry.get(endpointId) : undefined;
  if (!endpoint) {
    if (deps.registry.list().length === 0) void vscode.window.showInformationMessage('No endpoint yet: start the mock node or add an endpoint.');
    else if (typeof given === 'string') void vscode.window.showWarningMessage(`No endpoint named ${given}.`);
    return undefined;
  }
  const input = text ?? await vscode.window.showInputBox({
    title: `Go to… on ${endpoint.name}`,
    prompt: 'A block number, block hash, transaction hash or address',
    placeHolder: '0x… or 12345',
    ignoreFocusOut: true,
    validateInput: (v) => {
      if (v.trim() === '') return undefined;
      const parsed = parseGoTo(v);
      return parsed.ok ? undefined : parsed.error;
    },
  });
  if (!input?.trim()) return undefined;
  const outcome = await vscode.window.withProgress(
    { location: { viewId: 'chainExplorer.rpcExplorer' }, title: 'Go to…' },
    () => deps.model.goTo(endpoint.id, input),
  );
  if (!outcome.ok) {
    deps.output.info(`go to ${input.trim().slice(0, 80)} on ${endpoint.name}: ${outcome.message}`);
    void vscode.window.showWarningMessage(`${endpoint.name}: ${outcome.message}`);
    return outcome;
  }
  // VS Code may not have drawn the endpoint yet (just started, or its row just opened by itself):
  // a reveal it cannot place yet is tried again, and so is one whose selection a refresh of the
  // rows around it (the older results collapsing) did not keep; the result is in the tree either way.
  for (let attempt = 1; attempt <= 3; attempt++) {
    const node = await deps.tree.revealable(outcome.nodeId);
    if (!node) break;
    try {
      await deps.treeView.reveal(node, { select: true, focus: true, expand: true });
      if (await selectionIs(deps, outcome.nodeId)) break;
      if (attempt === 3) deps.output.info('go to: the result is revealed but VS Code did not keep it selected');
    } catch (error) {
      if (attempt === 3) deps.output.info(`go to: could not reveal the result: ${error instanceof Error ? error.message : String(error)}`);
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return outcome;
}

/** Whether the row `id` is the tree's selection, once VS Code has told the extension host (at most 300 ms). */
async function selectionIs(deps: GoToDeps, id: string): Promise<boolean> {
  for (const deadline = Date.now() + 300; ; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (deps.treeView.selection.some((node) => node.spec.id === id)) return true;
    if (Date.now() > deadline) return false;
  }
}

export function registerGoToCommands(deps: GoToDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(GO_TO_COMMAND, (given?: string | ExplorerNode, text?: string) => goTo(deps, given, text)),
    vscode.commands.registerCommand(REVEAL_TRANSACTION_COMMAND, (endpoint: string, hash: string) => {
      if (typeof endpoint !== 'string' || typeof hash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(hash)) {
        throw new Error(`${REVEAL_TRANSACTION_COMMAND} takes an endpoint (id or name) and a transaction hash`);
      }
      return goTo(deps, endpoint, hash);
    }),
    vscode.commands.registerCommand(LOAD_OLDER_COMMAND, async (endpointId?: string) => {
      const id = endpointId ?? deps.treeView.selection[0]?.spec.endpointId;
      if (id) await deps.model.loadOlderBlocks(id);
    }),
  ];
}
