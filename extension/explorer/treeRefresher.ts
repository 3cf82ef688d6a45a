// The one place that turns model changes into tree refreshes. The model says which subtrees may
// have changed (`request(ids)`); requests made close together are coalesced into one rebuild,
// which compares only those subtrees with what VS Code was last given and fires only the topmost
// nodes whose rendering changed. Node objects keep their identity across rebuilds (VS Code
// refreshes an element by object). No vscode import: the tree provider hands it `fire`.
//
// Two rules keep VS Code's tree from losing rows (see docs/explorer.md, "How the tree refreshes"):
// - Nothing is fired while VS Code is asking for children (the extension host would clear the
//   children it is registering); changes found meanwhile wait until every request has returned.
// - The node VS Code has just listed the children of is not fired at once when its own row changed
//   meanwhile: a refresh of it clears its children's handles in the extension host while the
//   workbench may still be expanding one of them, which then shows expanded with no children.
//   Its row is refreshed `settleMs` later instead.
import { diffTrees, indexTree, mergeIndex, type RenderIndex } from './changeDetection';
import type { NodeSpec } from './nodeSpec';

export class ExplorerNode {
  constructor(public spec: NodeSpec, public parent: ExplorerNode | undefined) {}
  get id(): string { return this.spec.id; }
}

export interface RefresherTimers {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  /** The clock quiet() measures with (default Date.now). */
  now?: () => number;
}

export interface TreeRefresherOptions {
  /** The whole tree as plain data, built without side effects. */
  build: () => NodeSpec[];
  /** Refreshes a node in VS Code (`undefined`: the whole tree). */
  fire: (node: ExplorerNode | undefined) => void;
  /** After every rebuild (the status bar follows it). */
  afterRebuild?: () => void;
  /** How long a node just listed waits before its own row is refreshed (default 1000 ms). */
  settleMs?: number;
  timers?: RefresherTimers;
}

const defaultTimers: RefresherTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class TreeRefresher {
  private readonly nodes = new Map<string, ExplorerNode>();
  private roots: ExplorerNode[] = [];
  private index: RenderIndex = new Map();
  /** Subtrees to compare at the next rebuild; 'all' before the first one and after a full request. */
  private requested: Set<string> | 'all' = 'all';
  /** Nodes found changed and not fired yet (they wait while VS Code is loading children). */
  private readonly unfired = new Set<string>();
  private rootChanged = false;
  /** getChildren calls in flight. */
  private loading = 0;
  private flushTimer: unknown;
  private readonly settling = new Map<string, unknown>();
  private readonly timers: RefresherTimers;
  /** Change events fired (diagnostics and tests). */
  changeEvents = 0;
  private lastFireAt = 0;

  constructor(private readonly options: TreeRefresherOptions) {
    this.timers = options.timers ?? defaultTimers;
  }

  /** The subtrees under these ids may have changed; `undefined`: anything may have. */
  request(ids?: readonly string[]): void {
    if (ids === undefined) this.requested = 'all';
    else if (this.requested !== 'all') for (const id of ids) this.requested.add(id);
    this.schedule();
  }

  /** The node with this id as the model has it now (rebuilt first if a change is waiting). */
  node(id: string): ExplorerNode | undefined {
    if (this.loading === 0 && this.pending()) this.flush();
    return this.nodes.get(id);
  }

  private pending(): boolean {
    return this.requested === 'all' || this.requested.size > 0 || this.unfired.size > 0 || this.rootChanged;
  }

  /** The top-level nodes, for VS Code asking for the roots (it reloads everything then). */
  rootNodes(): ExplorerNode[] {
    this.rebuild(undefined);
    // VS Code re-reads the whole tree now: nothing found so far needs firing.
    this.unfired.clear();
    this.rootChanged = false;
    return this.roots;
  }

  /**
   * The children of `node` for VS Code, after `load` (the lazy data behind it) has finished.
   * Nothing is fired while this runs; what changed elsewhere is fired after it returns.
   */
  async children(node: ExplorerNode, load?: () => Promise<void>): Promise<ExplorerNode[]> {
    this.loading++;
    try {
      if (load) await load();
      this.rebuild(node.id);
      const current = this.nodes.get(node.id) ?? node;
      return (current.spec.children ?? []).map((c) => this.nodes.get(c.id)).filter((n): n is ExplorerNode => n !== undefined);
    } finally {
      this.loading--;
      if (this.loading === 0 && this.pending()) this.schedule();
    }
  }

  private schedule(): void {
    if (this.flushTimer !== undefined) return;
    this.flushTimer = this.timers.setTimeout(() => {
      this.flushTimer = undefined;
      this.flush();
    }, 0);
  }

  /** Rebuilds what was requested and fires what changed, unless VS Code is loading children. */
  private flush(): void {
    if (this.loading > 0) return; // children() schedules again when the last one returns
    if (this.requested === 'all' || this.requested.size > 0) this.rebuild(undefined);
    if (this.rootChanged) {
      this.rootChanged = false;
      this.unfired.clear();
      this.fire(undefined);
      return;
    }
    const ids = [...this.unfired];
    this.unfired.clear();
    for (const id of topmost(ids, this.nodes)) {
      const node = this.nodes.get(id);
      if (node) this.fire(node);
    }
  }

  /**
   * Builds the tree from the model, adopts the new specs into the existing node objects and
   * records what changed in the requested subtrees. `listing`: the node whose children VS Code is
   * being given now; changes at or under it need no event.
   */
  private rebuild(listing: string | undefined): void {
    const specs = this.options.build();
    const next = indexTree(specs);
    const scope = this.requested;
    this.requested = new Set();
    // VS Code gets the node being listed as it is now, so its subtree is compared in any case.
    if (listing !== undefined && scope !== 'all') scope.add(listing);
    const scopeSet = scope === 'all' ? undefined : scope;
    const changes = diffTrees(this.index, next, this.roots.map((r) => r.id), specs.map((s) => s.id), scopeSet);
    const listingLook = listing !== undefined ? this.index.get(listing)?.look : undefined;
    this.index = changes.root ? next : mergeIndex(this.index, next, scopeSet);
    this.adopt(specs);
    if (changes.root) this.rootChanged = true;
    for (const id of changes.nodes) {
      if (listing !== undefined && (id === listing || this.isUnder(id, listing))) continue;
      this.unfired.add(id);
    }
    if (listing !== undefined && listingLook !== undefined && listingLook !== next.get(listing)?.look) this.settle(listing);
    this.options.afterRebuild?.();
  }

  private adopt(specs: NodeSpec[]): void {
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
  }

  /** Refreshes a just-listed node's own row once VS Code has settled. */
  private settle(id: string): void {
    const previous = this.settling.get(id);
    if (previous !== undefined) this.timers.clearTimeout(previous);
    this.settling.set(id, this.timers.setTimeout(() => {
      this.settling.delete(id);
      this.unfired.add(id);
      this.schedule();
    }, this.options.settleMs ?? 1000));
  }

  private isUnder(id: string, ancestor: string): boolean {
    let node = this.nodes.get(id)?.parent;
    while (node) {
      if (node.id === ancestor) return true;
      node = node.parent;
    }
    return false;
  }

  /**
   * Resolves once no refresh has been fired for `ms` (VS Code applies refreshes ~200 ms after
   * the event: revealing a node before that races with the refresh registering it), or after
   * `maxMs` at most: a busy chain followed at pending changes the tree every flashblock (200 ms),
   * and would never leave it quiet for long.
   */
  async quiet(ms = 300, maxMs = 2000): Promise<void> {
    const deadline = this.now() + maxMs;
    for (;;) {
      const wait = Math.min(this.lastFireAt + ms, deadline) - this.now();
      if (wait <= 0) return;
      await new Promise((resolve) => this.timers.setTimeout(() => resolve(undefined), wait));
    }
  }

  private now(): number {
    return this.timers.now ? this.timers.now() : Date.now();
  }

  private fire(node: ExplorerNode | undefined): void {
    this.changeEvents++;
    this.lastFireAt = this.now();
    this.options.fire(node);
  }

  dispose(): void {
    if (this.flushTimer !== undefined) this.timers.clearTimeout(this.flushTimer);
    for (const handle of this.settling.values()) this.timers.clearTimeout(handle);
    this.settling.clear();
  }
}

/** The ids not under another id of the list (refreshing a node refreshes what is under it). */
function topmost(ids: string[], nodes: Map<string, ExplorerNode>): string[] {
  const set = new Set(ids);
  return ids.filter((id) => {
    for (let parent = nodes.get(id)?.parent; parent; parent = parent.parent) if (set.has(parent.id)) return false;
    return true;
  });
}
