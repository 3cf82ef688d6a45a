// Renders the explorer model as a VS Code tree. Which nodes to refresh, and when, is decided by
// the one TreeRefresher (treeRefresher.ts); this class only adapts it to the TreeDataProvider API.
import * as vscode from 'vscode';
import type { ExplorerModel } from './explorerModel';
import type { NodeSpec } from './nodeSpec';
import { ExplorerNode, TreeRefresher } from './treeRefresher';

export { ExplorerNode } from './treeRefresher';

function contextValue(spec: NodeSpec, removable: boolean): string {
  return [spec.kind, spec.copyValue !== undefined ? 'copy' : '', spec.json ? 'json' : '', spec.request ? 'request' : '', removable ? 'removable' : '']
    .filter(Boolean).join(' ');
}

export class ExplorerTreeProvider implements vscode.TreeDataProvider<ExplorerNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ExplorerNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly updated = new vscode.EventEmitter<void>();
  /** After every rebuild from the model (the status bar follows it). */
  readonly onDidUpdate = this.updated.event;
  private readonly refresher: TreeRefresher;
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly model: ExplorerModel,
    private readonly isRemovable: (endpointId: string) => boolean,
    /** The state to draw a row in (the user's choice kept across reloads); default: the row's own. */
    private readonly stateOf: (spec: NodeSpec) => NodeSpec['collapsible'] = (spec) => spec.collapsible,
  ) {
    this.refresher = new TreeRefresher({
      build: () => model.roots(),
      fire: (node) => this.emitter.fire(node),
      afterRebuild: () => this.updated.fire(),
    });
    this.subscription = model.onDidChange((ids) => this.refresher.request(ids));
  }

  /** Change events fired (diagnostics and tests). */
  get changeEvents(): number {
    return this.refresher.changeEvents;
  }

  getTreeItem(node: ExplorerNode): vscode.TreeItem {
    const spec = node.spec;
    const item = new vscode.TreeItem(spec.label, {
      none: vscode.TreeItemCollapsibleState.None,
      collapsed: vscode.TreeItemCollapsibleState.Collapsed,
      expanded: vscode.TreeItemCollapsibleState.Expanded,
    }[this.stateOf(spec)]);
    item.id = spec.id;
    item.description = spec.description;
    item.tooltip = spec.tooltip;
    if (spec.icon) item.iconPath = new vscode.ThemeIcon(spec.icon, spec.kind === 'error' ? new vscode.ThemeColor('problemsWarningIcon.foreground') : undefined);
    item.contextValue = contextValue(spec, spec.kind === 'endpoint' && this.isRemovable(spec.endpointId));
    if (spec.command) item.command = { command: spec.command.id, title: spec.command.title, arguments: spec.command.arguments };
    return item;
  }

  getParent(node: ExplorerNode): ExplorerNode | undefined {
    return node.parent;
  }

  async getChildren(node?: ExplorerNode): Promise<ExplorerNode[]> {
    if (!node) return this.refresher.rootNodes();
    const spec = node.spec;
    // Loading may already be under way (started by onDidExpandElement): the model shares it.
    if (spec.kind === 'endpoint') return this.refresher.children(node, () => this.model.expandEndpoint(spec.endpointId));
    const section = spec.section;
    if (section) return this.refresher.children(node, () => this.model.openSection(spec.endpointId, section));
    return this.refresher.children(node);
  }

  node(id: string): ExplorerNode | undefined {
    return this.refresher.node(id);
  }

  /** The node once the tree holds it and VS Code has applied the refreshes fired so far. */
  async revealable(id: string, timeoutMs = 5000): Promise<ExplorerNode | undefined> {
    const deadline = Date.now() + timeoutMs;
    let node = this.refresher.node(id);
    while (!node && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      node = this.refresher.node(id);
    }
    if (node) await this.refresher.quiet();
    return node;
  }

  /** Compares the whole tree with what VS Code shows at the next refresh (settings changed). */
  refreshAll(): void {
    this.refresher.request();
  }

  dispose(): void {
    this.subscription.dispose();
    this.refresher.dispose();
    this.emitter.dispose();
    this.updated.dispose();
  }
}
