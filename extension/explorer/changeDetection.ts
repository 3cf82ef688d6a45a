// Decides which tree nodes to refresh after new data: only nodes whose own rendering or child list
// changed, and of those only the topmost (refreshing a node refreshes what is under it). VS Code
// debounces tree updates by ~200 ms; firing for unchanged data every tick keeps the tree busy.
// No vscode import.
import type { NodeSpec } from './nodeSpec';

interface Rendered {
  /** Everything the node shows by itself. */
  look: string;
  /** Ids of its children, or null while not loaded. */
  children: string | null;
  parent: string | undefined;
}

export type RenderIndex = Map<string, Rendered>;

function look(node: NodeSpec): string {
  return JSON.stringify([node.label, node.description, node.tooltip, node.kind, node.icon, node.collapsible, node.copyValue]);
}

/** Flattens a forest into an index by id. */
export function indexTree(roots: NodeSpec[]): RenderIndex {
  const index: RenderIndex = new Map();
  const visit = (node: NodeSpec, parent: string | undefined): void => {
    index.set(node.id, { look: look(node), children: node.children ? node.children.map((c) => c.id).join('\n') : null, parent });
    for (const child of node.children ?? []) visit(child, node.id);
  };
  for (const root of roots) visit(root, undefined);
  return index;
}

export interface TreeChanges {
  /** true when the list of top-level nodes changed: refresh the whole tree. */
  root: boolean;
  /** Ids of the topmost changed nodes (existing before and after) to refresh. */
  nodes: string[];
}

export function diffTrees(before: RenderIndex, after: RenderIndex, rootsBefore: string[], rootsAfter: string[]): TreeChanges {
  if (rootsBefore.join('\n') !== rootsAfter.join('\n')) return { root: true, nodes: [] };
  const changed = new Set<string>();
  for (const [id, now] of after) {
    const then = before.get(id);
    if (!then) continue; // a new node: its parent's child list changed
    if (then.look !== now.look || then.children !== now.children) changed.add(id);
  }
  const topmost: string[] = [];
  for (const id of changed) {
    let parent = after.get(id)?.parent;
    let covered = false;
    while (parent !== undefined) {
      if (changed.has(parent)) { covered = true; break; }
      parent = after.get(parent)?.parent;
    }
    if (!covered) topmost.push(id);
  }
  return { root: false, nodes: topmost };
}
