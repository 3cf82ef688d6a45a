// The Authorizations view: one group per lifecycle state (all seven, so the lifecycle reads top
// to bottom; none while the list is empty, so the welcome shows), each authorization under the state derived live from the chain, the clock and the
// local void flag. Refreshed after every command and on demand.
import * as vscode from 'vscode';
import { RpcClient } from '../rpc/client';
import { describeRpcError } from '../rpc/errors';
import type { EndpointRegistry } from '../rpc/endpoints';
import { readSettings } from '../settings';
import { AuthorizationChain, NEW_SEARCH, type ConsumerSearch } from './chain';
import type { ChainClock } from '../language/server/authorizationDiagnostics';
import type { Heads } from './evidence';
import {
  actionsFor, deriveState, formatTokenAmount, LIFECYCLE_STATES, shortAddress, summary, transactionsOf,
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
  'Consumed elsewhere': 'error',
  'Voided offchain': 'trash',
  Expired: 'watch',
};

/** What one refresh reads once per endpoint: the chain's clock and heads. */
type PerEndpoint = Map<string, Promise<{ now?: number; heads?: Heads; chainId?: bigint }>>;

/** Reads what each record's state depends on and derives it. */
export class AuthorizationObserver {
  private derived = new Map<string, DerivedState>();
  private errors = new Map<string, string>();
  /** Searches for the transaction that consumed a nonce, per record (continued on each refresh). */
  private readonly searches = new Map<string, ConsumerSearch>();
  private readonly clocksRead = new vscode.EventEmitter<ChainClock[]>();
  /** The block time of each endpoint with a known token, after every refresh (the language server judges `.authorization.json` windows by it). */
  readonly onDidReadClocks = this.clocksRead.event;

  constructor(private readonly store: AuthorizationStore, private readonly registry: EndpointRegistry) {}

  chainFor(record: Pick<AuthorizationRecord, 'endpointId' | 'token'>): AuthorizationChain | undefined {
    const endpoint = this.registry.get(record.endpointId);
    if (!endpoint) return undefined;
    return new AuthorizationChain(new RpcClient(endpoint.url, { timeoutMs: readSettings().requestTimeoutMs }), record.token);
  }

  /** Observes one record now: the nonce's flag, our own transactions, and who consumed it when none of ours did. */
  async observe(record: AuthorizationRecord, shared?: PerEndpoint): Promise<{ observation: Observation; error?: string }> {
    const chain = this.chainFor(record);
    const localNow = Math.floor(Date.now() / 1000);
    if (!chain) return { observation: { consumed: undefined, now: localNow }, error: `endpoint ${record.endpointName} is not available` };
    try {
      let endpoint = shared?.get(record.endpointId);
      if (!endpoint) {
        const depth = readSettings().confirmationDepth;
        endpoint = Promise.all([chain.now().catch(() => undefined), chain.heads(depth).catch(() => undefined), chain.chainId().catch(() => undefined)])
          .then(([now, heads, chainId]) => ({ now, heads, chainId }));
        shared?.set(record.endpointId, endpoint);
      }
      const a = record.authorization;
      const [{ now, heads }, consumed] = await Promise.all([endpoint, chain.consumed(a.from, a.nonce)]);
      const observation: Observation = { consumed, now: now ?? localNow, heads };
      if (heads) {
        if (record.capture) observation.capture = await chain.sighting(record.capture.hash, heads, a);
        if (record.cancel) observation.cancel = await chain.sighting(record.cancel.hash, heads, a);
      }
      const ours = [observation.capture, observation.cancel].some((s) => s && s.effect && s.effect.kind !== 'unrelated');
      if (consumed && !ours) {
        // A consumed nonce is never shown as open: who consumed it, or why that is unknown.
        observation.consumer = heads
          ? await this.consumer(record, chain, heads).catch((error: unknown) => ({ found: false as const, searched: `not read: ${describeRpcError(error)}` }))
          : { found: false, searched: 'not read: the chain head could not be read' };
      }
      return { observation };
    } catch (error) {
      return { observation: { consumed: undefined, now: localNow }, error: describeRpcError(error) };
    }
  }

  /** The transaction that consumed the nonce: the one found before (kept in the record), else a search that continues where it stopped. */
  private async consumer(record: AuthorizationRecord, chain: AuthorizationChain, heads: Heads): Promise<Observation['consumer']> {
    if (record.consumerHash) {
      const sighting = await chain.sighting(record.consumerHash, heads, record.authorization);
      if (sighting.stage !== 'dropped') return { found: true, sighting };
      // Reorganized away: search again.
      await this.store.update(record.key, (r) => ({ ...r, consumerHash: undefined }));
    }
    const search = await chain.findConsumer(record.authorization.from, record.authorization.nonce, this.searches.get(record.key) ?? NEW_SEARCH);
    if (search.hash) {
      this.searches.delete(record.key);
      await this.store.update(record.key, (r) => ({ ...r, consumerHash: search.hash }));
      return { found: true, sighting: await chain.sighting(search.hash, heads, record.authorization) };
    }
    this.searches.set(record.key, search);
    const searched = search.complete ? `searched every block, 0–${search.newest} and pending` : `searched blocks ${search.oldest}–${search.newest} and pending so far; older blocks on the next refresh`;
    return { found: false, searched };
  }

  async refresh(): Promise<void> {
    const records = this.store.list();
    const shared: PerEndpoint = new Map();
    const results = await Promise.all(records.map(async (record) => ({ record, ...(await this.observe(record, shared)) })));
    void this.readClocks(shared, records);
    const derived = new Map<string, DerivedState>();
    const errors = new Map<string, string>();
    for (const { record, observation, error } of results) {
      derived.set(record.key, deriveState(record, observation));
      if (error) errors.set(record.key, error);
    }
    this.derived = derived;
    this.errors = errors;
  }

  /** The chain's clock per endpoint and token: the records' and every endpoint's own token. */
  private async readClocks(shared: PerEndpoint, records: AuthorizationRecord[]): Promise<void> {
    const pairs = new Map<string, { endpointId: string; token: string }>();
    for (const r of records) pairs.set(`${r.endpointId}|${r.token.toLowerCase()}`, { endpointId: r.endpointId, token: r.token });
    for (const e of this.registry.list()) if (e.tokenAddress) pairs.set(`${e.id}|${e.tokenAddress.toLowerCase()}`, { endpointId: e.id, token: e.tokenAddress });
    const clocks = await Promise.all([...pairs.values()].map(async ({ endpointId, token }): Promise<ChainClock | undefined> => {
      const endpoint = this.registry.get(endpointId);
      const chain = this.chainFor({ endpointId, token });
      if (!endpoint || !chain) return undefined;
      let read = shared.get(endpointId);
      if (!read) {
        read = Promise.all([chain.now().catch(() => undefined), chain.chainId().catch(() => undefined)]).then(([now, chainId]) => ({ now, chainId }));
        shared.set(endpointId, read);
      }
      const { now, chainId } = await read;
      return now !== undefined && chainId !== undefined ? { chainId: chainId.toString(), token, endpointName: endpoint.name, now, observedAtMs: Date.now() } : undefined;
    }));
    this.clocksRead.fire(clocks.filter((c): c is ChainClock => c !== undefined));
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
    // `reveal`: a transaction to show in the RPC Explorer (our capture or cancel, or the one that consumed the nonce).
    // `x402`: a signed TransferWithAuthorization, which x402's exact scheme can carry in a payment header.
    const x402 = record.signed && record.primaryType === 'TransferWithAuthorization' ? ['x402'] : [];
    item.contextValue = ['authorization', ...actionsFor(derived), ...(transactionsOf(record).length > 0 ? ['reveal'] : []), ...x402].join(' ');
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
