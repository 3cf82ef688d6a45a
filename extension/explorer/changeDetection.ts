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

/**
 * `scope`: only nodes at or under these ids are compared (the subtrees the model said may have
 * changed); everything when left out.
 */
export function diffTrees(
  before: RenderIndex, after: RenderIndex, rootsBefore: string[], rootsAfter: string[], scope?: ReadonlySet<string>,
): TreeChanges {
  if (rootsBefore.join('\n') !== rootsAfter.join('\n')) return { root: true, nodes: [] };
  const inScope = scopeTest(after, scope);
  const changed = new Set<string>();
  for (const [id, now] of after) {
    const then = before.get(id);
    if (!then) continue; // a new node: its parent's child list changed
    if ((then.look !== now.look || then.children !== now.children) && inScope(id)) changed.add(id);
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

/**
 * The index VS Code's view now matches: the new entries in scope, the old ones elsewhere (a
 * change nobody asked to compare is still found when its subtree is asked for later).
 */
export function mergeIndex(before: RenderIndex, after: RenderIndex, scope: ReadonlySet<string> | undefined): RenderIndex {
  if (scope === undefined) return after;
  const inScope = scopeTest(after, scope);
  const merged: RenderIndex = new Map();
  for (const [id, entry] of after) merged.set(id, inScope(id) ? entry : before.get(id) ?? entry);
  return merged;
}

/** Whether a node is at or under one of the scope's ids (always true without a scope). */
export function scopeTest(index: RenderIndex, scope: ReadonlySet<string> | undefined): (id: string) => boolean {
  if (scope === undefined) return () => true;
  const known = new Map<string, boolean>();
  const test = (id: string | undefined): boolean => {
    if (id === undefined) return false;
    if (scope.has(id)) return true;
    let answer = known.get(id);
    if (answer === undefined) {
      answer = test(index.get(id)?.parent);
      known.set(id, answer);
    }
    return answer;
  };
  return test;
}
