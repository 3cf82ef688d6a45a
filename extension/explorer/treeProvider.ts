// Renders the explorer model as a VS Code tree. Node objects keep their identity across updates
// (VS Code refreshes an element by object), and after each update only the topmost nodes whose
// rendering changed are fired (changeDetection.ts).
import * as vscode from 'vscode';
import { diffTrees, indexTree, type RenderIndex } from './changeDetection';
import type { ExplorerModel } from './explorerModel';
import type { NodeSpec } from './nodeSpec';

export class ExplorerNode {
  constructor(public spec: NodeSpec, public parent: ExplorerNode | undefined) {}
  get id(): string { return this.spec.id; }
}

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
  private readonly nodes = new Map<string, ExplorerNode>();
  private roots: ExplorerNode[] = [];
  private index: RenderIndex = new Map();
  /** Change events fired (diagnostics and tests). */
  changeEvents = 0;

  constructor(private readonly model: ExplorerModel, private readonly isRemovable: (endpointId: string) => boolean) {}

  getTreeItem(node: ExplorerNode): vscode.TreeItem {
    const spec = node.spec;
    const item = new vscode.TreeItem(spec.label, {
      none: vscode.TreeItemCollapsibleState.None,
      collapsed: vscode.TreeItemCollapsibleState.Collapsed,
      expanded: vscode.TreeItemCollapsibleState.Expanded,
    }[spec.collapsible]);
    item.id = spec.id;
    item.description = spec.description;
    item.tooltip = spec.tooltip;
    if (spec.icon) item.iconPath = new vscode.ThemeIcon(spec.icon, spec.kind === 'error' ? new vscode.ThemeColor('problemsWarningIcon.foreground') : undefined);
    item.contextValue = contextValue(spec, spec.kind === 'endpoint' && this.isRemovable(spec.endpointId));
    return item;
  }

  getParent(node: ExplorerNode): ExplorerNode | undefined {
    return node.parent;
  }

  async getChildren(node?: ExplorerNode): Promise<ExplorerNode[]> {
    if (!node) {
      this.update(null);
      return this.roots;
    }
    const spec = node.spec;
    // Loading may already be under way (started by onDidExpandElement): wait for it, and rebuild
    // the nodes in any case, since the model may hold data newer than the last rebuild.
    if (spec.kind === 'endpoint') {
      await this.model.expandEndpoint(spec.endpointId);
      this.update(node.id);
    } else if (spec.section) {
      await this.model.openSection(spec.endpointId, spec.section);
      this.update(node.id);
    }
    const current = this.nodes.get(node.id) ?? node;
    return (current.spec.children ?? []).map((c) => this.nodes.get(c.id)).filter((n): n is ExplorerNode => n !== undefined);
  }

  node(id: string): ExplorerNode | undefined {
    return this.nodes.get(id);
  }

  /**
   * Rebuilds the tree from the model and fires change events for what changed, leaving out
   * `loading` (a node VS Code is asking children for right now) and everything under it;
   * `null` when VS Code is asking for the roots (nothing to fire then).
   */
  update(loading?: string | null): void {
    const specs = this.model.roots();
    const nextIndex = indexTree(specs);
    const changes = diffTrees(this.index, nextIndex, this.roots.map((r) => r.id), specs.map((s) => s.id));
    // The node being loaded gets its children from the pending getChildren call, but VS Code keeps
    // the label and description it had: refresh it once that call has returned.
    const loadingLookChanged = typeof loading === 'string' && this.index.get(loading)?.look !== nextIndex.get(loading)?.look;
    this.index = nextIndex;
    const seen = new Set<string>();
    const adopt = (spec: NodeSpec, parent: ExplorerNode | undefined): ExplorerNode => {
      seen.add(spec.id);
      let node = this.nodes.get(spec.id);
      if (node) {
        node.spec = spec;
        node.parent = parent;
      } else {
        node = new ExplorerNode(spec, parent);
        this.nodes.set(spec.id, node);
      }
      for (const child of spec.children ?? []) adopt(child, node);
      return node;
    };
    this.roots = specs.map((s) => adopt(s, undefined));
    for (const id of [...this.nodes.keys()]) if (!seen.has(id)) this.nodes.delete(id);
    this.updated.fire();
    // Endpoints listed but not read yet (new, or a new URL after a restart): read their overview.
    void this.model.loadOverviews().then((read) => { if (read) this.update(); });
    if (loading === null) return;
    if (changes.root) {
      this.fire(undefined);
      return;
    }
    for (const id of changes.nodes) {
      if (loading !== undefined && (id === loading || this.isUnder(id, loading))) continue;
      const node = this.nodes.get(id);
      if (node) this.fire(node);
    }
    if (loadingLookChanged) {
      setTimeout(() => {
        const node = this.nodes.get(loading);
        if (node) this.fire(node);
      }, 0);
    }
  }

  private isUnder(id: string, ancestor: string): boolean {
    let node = this.nodes.get(id)?.parent;
    while (node) {
      if (node.id === ancestor) return true;
      node = node.parent;
    }
    return false;
  }

  private fire(node: ExplorerNode | undefined): void {
    this.changeEvents++;
    this.emitter.fire(node);
  }

  dispose(): void {
    this.emitter.dispose();
    this.updated.dispose();
  }
}
