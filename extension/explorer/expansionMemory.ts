// Which rows of the explorer are expanded, kept across window reloads (workspace state), and
// which endpoints open by themselves: the only endpoint, and one just added or started, so a
// user's first look shows its block rather than a collapsed row. Rows the user collapsed stay
// collapsed. No vscode import (the memento is passed in).
import type { NodeSpec } from './nodeSpec';

export interface Memento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const KEY = 'chainExplorer.treeExpansion';
/** Ids kept at most (the oldest go first). */
const MAX_IDS = 500;

interface Saved {
  expanded: string[];
  collapsed: string[];
}

export class ExpansionMemory {
  private readonly expanded: Set<string>;
  private readonly collapsed: Set<string>;
  private readonly opening = new Set<string>();
  private known: Set<string> | undefined;

  /** `log`: a line for each row remembered (the output channel's debug level). */
  constructor(private readonly memento: Memento, private readonly log: (line: string) => void = () => undefined) {
    const saved = memento.get<Saved>(KEY);
    this.expanded = new Set(Array.isArray(saved?.expanded) ? saved.expanded : []);
    this.collapsed = new Set(Array.isArray(saved?.collapsed) ? saved.collapsed : []);
    log(`tree rows remembered from the workspace state: ${this.expanded.size} expanded, ${this.collapsed.size} collapsed`);
  }

  /**
   * The endpoints now configured: the first time, the only one opens; later, the first new one
   * (the mock node's public endpoint when it starts, an endpoint the user just added).
   */
  endpointsAre(ids: readonly string[]): void {
    if (this.known === undefined) {
      if (ids.length === 1) this.opening.add(ids[0]);
    } else {
      const added = ids.filter((id) => !this.known!.has(id));
      if (added.length > 0) {
        this.opening.add(added[0]);
        this.collapsed.delete(added[0]);
      }
    }
    this.known = new Set(ids);
  }

  /** The state a row is drawn in: what the user left it in, else the row's own. */
  stateOf(spec: NodeSpec): NodeSpec['collapsible'] {
    if (spec.collapsible === 'none') return 'none';
    if (this.collapsed.has(spec.id)) return 'collapsed';
    if (this.expanded.has(spec.id) || this.opening.has(spec.id)) return 'expanded';
    return spec.collapsible;
  }

  /**
   * What the user did to a row. A row that is open by default (a block's transactions, Go to
   * results) is not kept closed: Collapse All closes it, and it opens again with the next data.
   */
  recordRow(spec: NodeSpec, expanded: boolean): void {
    if (!expanded && spec.collapsible === 'expanded') {
      this.expanded.delete(spec.id);
      this.log(`row ${spec.id} collapsed (open by default: not kept closed)`);
      this.save(`${spec.id} collapsed`);
      return;
    }
    this.record(spec.id, expanded);
  }

  record(id: string, expanded: boolean): void {
    (expanded ? this.collapsed : this.expanded).delete(id);
    const set = expanded ? this.expanded : this.collapsed;
    set.delete(id);
    set.add(id);
    if (!expanded) this.opening.delete(id);
    this.log(`row ${id} ${expanded ? 'expanded' : 'collapsed'} (kept across reloads)`);
    for (const s of [this.expanded, this.collapsed]) while (s.size > MAX_IDS) s.delete(s.values().next().value as string);
    this.save(`${id} ${expanded ? 'expanded' : 'collapsed'}`);
  }

  /**
   * Writes the sets to the workspace state (asynchronously: the log says when the workbench has
   * them, which a window reload then keeps).
   */
  private save(after: string): void {
    const saved = { expanded: [...this.expanded], collapsed: [...this.collapsed] } satisfies Saved;
    void Promise.resolve(this.memento.update(KEY, saved)).then(
      () => this.log(`tree rows saved (after ${after}): ${saved.expanded.length} expanded, ${saved.collapsed.length} collapsed`),
      (error: unknown) => this.log(`tree rows not saved (after ${after}): ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}
