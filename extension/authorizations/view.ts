// The Authorizations view: one group per lifecycle state (all seven, so the lifecycle reads top
// to bottom; none while the list is empty, so the welcome shows), each authorization under the state derived live from the chain, the clock and the
// local void flag. Refreshed after every command and on demand.
import * as vscode from 'vscode';
import { RpcClient } from '../rpc/client';
import { describeRpcError } from '../rpc/errors';
import type { EndpointRegistry } from '../rpc/endpoints';
import { readSettings } from '../settings';
import { AuthorizationChain } from './chain';
import {
  allowedActions, deriveState, formatTokenAmount, LIFECYCLE_STATES, shortAddress, summary,
  type AuthorizationRecord, type DerivedState, type LifecycleState, type Observation,
} from './model';
import type { AuthorizationStore } from './store';

export const AUTHORIZATIONS_VIEW = 'chainExplorer.authorizations';

export type AuthorizationNode =
  | { kind: 'group'; state: LifecycleState }
  | { kind: 'authorization'; key: string; state: LifecycleState };

const GROUP_ICONS: Record<LifecycleState, string> = {
  Drafted: 'edit',
  Signed: 'pass',
  Stored: 'database',
  Used: 'check-all',
  Canceled: 'circle-slash',
  'Voided offchain': 'trash',
  Expired: 'watch',
};

/** Reads what each record's state depends on and derives it. */
export class AuthorizationObserver {
  private derived = new Map<string, DerivedState>();
  private errors = new Map<string, string>();

  constructor(private readonly store: AuthorizationStore, private readonly registry: EndpointRegistry) {}

  chainFor(record: Pick<AuthorizationRecord, 'endpointId' | 'token'>): AuthorizationChain | undefined {
    const endpoint = this.registry.get(record.endpointId);
    if (!endpoint) return undefined;
    return new AuthorizationChain(new RpcClient(endpoint.url, { timeoutMs: readSettings().requestTimeoutMs }), record.token);
  }

  /** Observes one record now. */
  async observe(record: AuthorizationRecord, clocks?: Map<string, Promise<number | undefined>>): Promise<{ observation: Observation; error?: string }> {
    const chain = this.chainFor(record);
    const localNow = Math.floor(Date.now() / 1000);
    if (!chain) return { observation: { consumed: undefined, now: localNow }, error: `endpoint ${record.endpointName} is not available` };
    try {
      let clock = clocks?.get(record.endpointId);
      if (!clock) {
        clock = chain.now().catch(() => undefined);
        clocks?.set(record.endpointId, clock);
      }
      const [now, consumed] = await Promise.all([clock, chain.consumed(record.authorization.from, record.authorization.nonce)]);
      let consumedBy: Observation['consumedBy'];
      if (consumed && record.capture?.status !== 'success' && record.cancel?.status !== 'success') {
        consumedBy = await chain.consumedBy(record.authorization.from, record.authorization.nonce).catch(() => undefined);
      }
      return { observation: { consumed, consumedBy, now: now ?? localNow } };
    } catch (error) {
      return { observation: { consumed: undefined, now: localNow }, error: describeRpcError(error) };
    }
  }

  async refresh(): Promise<void> {
    const records = this.store.list();
    const clocks = new Map<string, Promise<number | undefined>>();
    const results = await Promise.all(records.map(async (record) => ({ record, ...(await this.observe(record, clocks)) })));
    const derived = new Map<string, DerivedState>();
    const errors = new Map<string, string>();
    for (const { record, observation, error } of results) {
      derived.set(record.key, deriveState(record, observation));
      if (error) errors.set(record.key, error);
    }
    this.derived = derived;
    this.errors = errors;
  }

  /** The last derived state; records not yet observed are derived from local data and the local clock. */
  stateOf(record: AuthorizationRecord): DerivedState {
    return this.derived.get(record.key) ?? deriveState(record, { consumed: undefined, now: Math.floor(Date.now() / 1000) });
  }

  errorOf(key: string): string | undefined {
    return this.errors.get(key);
  }

  /** Keys per lifecycle state, as the view groups them. */
  groups(): Record<LifecycleState, string[]> {
    const groups = Object.fromEntries(LIFECYCLE_STATES.map((s) => [s, [] as string[]])) as Record<LifecycleState, string[]>;
    for (const record of this.store.list()) groups[this.stateOf(record).state].push(record.key);
    return groups;
  }
}

export class AuthorizationsTreeProvider implements vscode.TreeDataProvider<AuthorizationNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<AuthorizationNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private groupNodes = new Map<LifecycleState, AuthorizationNode>(LIFECYCLE_STATES.map((state) => [state, { kind: 'group', state }]));
  private refreshing: Promise<void> | undefined;
  private again = false;

  constructor(private readonly store: AuthorizationStore, readonly observer: AuthorizationObserver) {}

  /** Re-reads the chain for every authorization and redraws; concurrent calls coalesce. */
  async refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        await this.observer.refresh();
      } while (this.again);
    })().finally(() => {
      this.refreshing = undefined;
      this.emitter.fire(undefined);
    });
    return this.refreshing;
  }

  getTreeItem(node: AuthorizationNode): vscode.TreeItem {
    if (node.kind === 'group') {
      const count = this.observer.groups()[node.state].length;
      const item = new vscode.TreeItem(node.state, count > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
      // The id changes when a group fills or empties, so a group that gains its first item opens.
      item.id = `group:${node.state}:${count > 0 ? 'items' : 'empty'}`;
      item.description = String(count);
      item.iconPath = new vscode.ThemeIcon(GROUP_ICONS[node.state]);
      item.contextValue = 'authorizationGroup';
      return item;
    }
    const record = this.store.get(node.key);
    if (!record) return new vscode.TreeItem('(removed)');
    const derived = this.observer.stateOf(record);
    const error = this.observer.errorOf(record.key);
    const item = new vscode.TreeItem(record.orderId ? `Order ${record.orderId}` : summary(record), vscode.TreeItemCollapsibleState.None);
    item.id = `authorization:${record.key}`;
    item.description = record.orderId ? summary(record) : `nonce ${record.authorization.nonce.slice(0, 10)}…`;
    const a = record.authorization;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**${derived.state}**: ${derived.note}\n\n`);
    tooltip.appendMarkdown(`- payer \`${a.from}\`\n- merchant \`${a.to}\`\n- value ${formatTokenAmount(BigInt(a.value))} (\`${a.value}\`)\n`);
    tooltip.appendMarkdown(`- window ${new Date(a.validAfter * 1000).toISOString()} → ${new Date(a.validBefore * 1000).toISOString()} (${derived.window})\n`);
    tooltip.appendMarkdown(`- nonce \`${a.nonce}\`\n- capture route \`${record.route}\`\n- endpoint ${record.endpointName}, token ${shortAddress(record.token)}\n`);
    if (error) tooltip.appendMarkdown(`\n⚠️ ${error}\n`);
    item.tooltip = tooltip;
    item.iconPath = error ? new vscode.ThemeIcon('warning') : undefined;
    item.contextValue = ['authorization', ...allowedActions(derived.state)].join(' ');
    item.command = { command: 'chainExplorer.authorizations.inspect', title: 'Inspect', arguments: [node] };
    return item;
  }

  getChildren(node?: AuthorizationNode): AuthorizationNode[] {
    // No authorization yet: no groups, so VS Code shows the view's welcome (Draft, Import).
    if (!node) return this.store.list().length === 0 ? [] : LIFECYCLE_STATES.map((state) => this.groupNodes.get(state)!);
    if (node.kind === 'authorization') return [];
    const records = this.store.list().filter((r) => this.observer.stateOf(r).state === node.state);
    records.sort((x, y) => y.createdAt - x.createdAt);
    return records.map((r) => ({ kind: 'authorization', key: r.key, state: node.state }));
  }

  getParent(node: AuthorizationNode): AuthorizationNode | undefined {
    return node.kind === 'authorization' ? this.groupNodes.get(node.state) : undefined;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
