// What the explorer knows about each endpoint, how it loads it and how one poll tick refreshes it.
// Every load says which subtrees it may have changed (`onDidChange`); `roots()` only reads.
// No vscode import: the tree refresher renders it, the poller drives it.
import { RpcClient } from '../rpc/client';
import { RateLimitedError } from '../rpc/errors';
import { blockTitle, PendingRefreshCounter, statusBarText } from './blockTitle';
import { ChainLookups } from './chainLookups';
import { EndpointBrowser, type BrowserSettings, type GoToOutcome } from './endpointBrowser';
import { endpointNode, unshowableEndpointNode, unshowableText } from './endpointNodes';
import type { FollowMode } from './followMode';
import { EndpointReader, endpointUnusable } from './endpointReader';
import { foundId } from './foundNodes';
import { recentSectionId } from './recentNodes';
import type { AbiBook } from './decoding';
import type { EndpointData, EndpointView, NodeSpec, SectionKey } from './nodeSpec';
import type { AccountData, BlockJson, FilterLogs, Loaded, LogFilterSetting, Overview, ReceiptJson, SlotData, SlotSetting, TokenData } from './chainData';

export interface ExplorerEndpoint {
  id: string;
  name: string;
  url: string;
  displayUrl: string;
  /** Where the chain can be followed by subscription (eth_subscribe); polled over `url` otherwise. */
  wsUrl?: string;
  tokenAddress?: string;
  defaultAccounts?: string[];
  defaultStorageSlots?: SlotSetting[];
}

export interface ModelSettings {
  requestTimeoutMs: number;
  showSafeFinalized: boolean;
  watchedAccounts: string[];
  storageSlots: SlotSetting[];
  logFilters: LogFilterSetting[];
  /** Blocks per page of Recent blocks. */
  recentBlocks: number;
  /** Blocks back an address's token transfers are searched. */
  addressHistoryBlocks: number;
  /** Blocks the Activity filters follow. */
  activityBlocks: number;
}

interface EndpointState extends EndpointData {
  url: string;
  reader: EndpointReader;
  browser: EndpointBrowser;
  expanded: boolean;
  open: Set<SectionKey>;
  counter: PendingRefreshCounter;
  pendingRefreshes: number;
  /** Loads in flight (expanding the endpoint, opening a section), shared by concurrent callers. */
  loading: Map<string, Promise<void>>;
  /** Per-endpoint back-off: consecutive failed ticks, and ticks still to skip. */
  failures: number;
  skipTicks: number;
  /** blockFingerprint() of the block the open sections were last read at. */
  sectionsReadAt?: string;
  /** A read for a subscription's news in flight, and the newest news that came meanwhile. */
  following?: Promise<void>;
  nextNews?: FollowNews;
}

/**
 * What a subscription said changed: a new sealed block (read it), the pending block as of a new
 * flashblock (nothing to read for it), or something to read again (a catch-up read).
 */
export type FollowNews = { kind: 'head' } | { kind: 'flashblock'; block: BlockJson } | { kind: 'read' };

/**
 * What the open sections depend on, for one block: its identity, its state root, receipts and
 * transactions. Two equal fingerprints mean equal state, logs and receipts, so a tick that sees
 * the same one need not read the sections again. Undefined (always read) for a block without a
 * state root, where nothing safe can be compared.
 */
export function blockFingerprint(block: BlockJson | null): string | undefined {
  if (!block || typeof block.stateRoot !== 'string') return undefined;
  const transactions = block.transactions.map((t) => (typeof t === 'string' ? t : t.hash));
  return JSON.stringify([block.number, block.hash, block.stateRoot, block.receiptsRoot, block.gasUsed, block.timestamp, transactions]);
}

/** Ticks an endpoint sits out after `failures` consecutive failures: 1, 3, 7, … capped at 31. */
export function ticksToSkip(failures: number): number {
  return failures === 0 ? 0 : Math.min(31, 2 ** failures - 1);
}

export interface TickOutcome {
  /** Endpoints whose reads failed this tick. */
  failures: number;
  /** Endpoints read successfully this tick. */
  successes?: number;
  /** The longest Retry-After an endpoint asked for. */
  retryAfterMs?: number;
}

/** Ticks between retries of unexpanded endpoints that could not be read (5 s at 200 ms). */
const RETRY_UNEXPANDED_EVERY = 25;

/** Tree ids of the subtrees a load may have changed. */
export type ChangeListener = (ids: string[]) => void;

export class ExplorerModel {
  tag: 'latest' | 'pending' = 'latest';
  /** The user's ABIs: the tree decodes other contracts' calls and events with them. */
  abis: AbiBook | undefined;
  private tickCount = 0;
  private readonly states = new Map<string, EndpointState>();
  private readonly listeners = new Set<ChangeListener>();
  private readonly followModes = new Map<string, FollowMode>();

  constructor(
    private readonly endpoints: () => ExplorerEndpoint[],
    private readonly settings: () => ModelSettings,
  ) {}

  onDidChange(listener: ChangeListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => { this.listeners.delete(listener); } };
  }

  private changed(ids: string[]): void {
    if (ids.length === 0) return;
    for (const listener of [...this.listeners]) listener(ids);
  }

  /**
   * Follows the endpoint list: forgets endpoints that left, starts over for a changed URL, and
   * reads the overview of endpoints not read yet (`retryFailed`: also of those whose read failed).
   */
  async syncEndpoints(retryFailed = false): Promise<void> {
    const live = new Set(this.endpoints().map((e) => e.id));
    const gone = [...this.states.keys()].filter((id) => !live.has(id));
    for (const id of gone) this.states.delete(id);
    this.changed(gone);
    await this.loadOverviews(retryFailed);
  }

  /** The endpoint's state, created (or started over for a new URL) when a load needs it. */
  private state(endpoint: ExplorerEndpoint): EndpointState {
    let state = this.states.get(endpoint.id);
    if (!state || state.url !== endpoint.url) {
      // A new URL (a restarted mock node on another port) starts from scratch, keeping what was open.
      const reader = new EndpointReader(new RpcClient(endpoint.url, { timeoutMs: this.settings().requestTimeoutMs }));
      state = {
        url: endpoint.url,
        reader,
        browser: new EndpointBrowser(new ChainLookups(reader)),
        expanded: state?.expanded ?? false,
        open: state?.open ?? new Set(),
        counter: new PendingRefreshCounter(),
        pendingRefreshes: 0,
        loading: new Map(),
        failures: 0,
        skipTicks: 0,
      };
      this.states.set(endpoint.id, state);
      this.changed([endpoint.id]);
    }
    return state;
  }

  /** The state to show: none yet, or one left from another URL, shows as not read. */
  private shownState(endpoint: ExplorerEndpoint): EndpointState | undefined {
    const state = this.states.get(endpoint.id);
    return state && state.url === endpoint.url ? state : undefined;
  }

  private view(endpoint: ExplorerEndpoint, state: EndpointState | undefined): EndpointView {
    return {
      id: endpoint.id, name: endpoint.name, displayUrl: endpoint.displayUrl, curlUrl: endpoint.displayUrl,
      overview: state?.overview, block: state?.block, receipts: state?.receipts, logs: state?.logs,
      accounts: state?.accounts, storage: state?.storage, token: state?.token, open: state?.open ?? new Set(),
      blockReceipts: this.tag === 'latest' ? state?.browser.blockReceipts : undefined,
      recent: state?.browser.recent, recentBlocks: state?.browser.recentBlocks, found: state?.browser.found, activity: state?.browser.activity,
      recentPageSize: this.settings().recentBlocks, abis: this.abis,
      follow: state?.expanded ? this.followModes.get(endpoint.id) ?? 'polling' : undefined,
    };
  }

  /** The whole tree as it stands (reads only). */
  roots(): NodeSpec[] {
    const settings = this.settings();
    return this.endpoints().map((endpoint) => {
      const state = this.shownState(endpoint);
      const view = this.view(endpoint, state);
      try {
        return endpointNode(view, { tag: this.tag, pendingRefreshes: state?.pendingRefreshes ?? 0 }, {
          showSafeFinalized: settings.showSafeFinalized,
          hasToken: endpoint.tokenAddress !== undefined,
          activityBlocks: settings.activityBlocks,
        });
      } catch (error) {
        // One endpoint's odd answers never blank the whole view.
        return unshowableEndpointNode(view, error);
      }
    });
  }

  endpoint(id: string): ExplorerEndpoint | undefined {
    return this.endpoints().find((e) => e.id === id);
  }

  client(id: string): RpcClient | undefined {
    const endpoint = this.endpoint(id);
    return endpoint ? this.state(endpoint).reader.client : undefined;
  }

  /** Endpoints the user has expanded: the ones polled. */
  expandedEndpoints(): ExplorerEndpoint[] {
    return this.endpoints().filter((e) => this.states.get(e.id)?.expanded);
  }

  /** How the endpoint is followed now (its row says it). */
  setFollowMode(id: string, mode: FollowMode): void {
    if ((this.followModes.get(id) ?? 'polling') === mode) return;
    this.followModes.set(id, mode);
    if (this.states.get(id)?.expanded) this.changed([id]);
  }

  /**
   * Whether a poll tick has anything to do: an expanded endpoint not covered by subscriptions, or
   * an endpoint whose first read failed (retried now and then).
   */
  needsPolling(covered: (id: string) => boolean): boolean {
    return this.endpoints().some((e) => {
      const state = this.states.get(e.id);
      return state?.expanded ? !covered(e.id) : state?.overview?.ok === false;
    });
  }

  setTag(tag: 'latest' | 'pending'): void {
    if (tag === this.tag) return;
    this.tag = tag;
    for (const state of this.states.values()) {
      state.counter.reset();
      state.pendingRefreshes = 0;
    }
    this.changed([...this.states.keys()].map(blockId));
  }

  isExpanded(id: string): boolean {
    return this.states.get(id)?.expanded ?? false;
  }

  /** Marks the endpoint expanded (so it is polled) and loads it unless already loaded. */
  async expandEndpoint(id: string): Promise<void> {
    const endpoint = this.endpoint(id);
    if (!endpoint) return;
    const state = this.state(endpoint);
    state.expanded = true;
    if (state.block && !state.loading.has('endpoint')) return;
    await this.once(state, 'endpoint', () => this.refreshEndpointSafely(endpoint, state, true).then(() => undefined));
  }

  /** Whether the endpoint's block has been read (its children can be shown). */
  isLoaded(id: string): boolean {
    return this.states.get(id)?.block !== undefined;
  }

  /**
   * Reads chain id, client version and head for endpoints not read yet, so the endpoint row shows
   * them before anyone expands it.
   */
  private async loadOverviews(retryFailed = false): Promise<void> {
    const settings = this.settings();
    const wanted = this.endpoints().map((endpoint) => ({ endpoint, state: this.state(endpoint) }))
      .filter(({ state }) => (state.overview === undefined || (retryFailed && !state.overview.ok && !state.expanded))
        && !state.loading.has('overview'));
    await Promise.all(wanted.map(({ endpoint, state }) => this.once(state, 'overview', async () => {
      const overview = await state.reader.overview(settings.showSafeFinalized);
      if (state.overview === undefined || !state.overview.ok) state.overview = overview;
      this.changed([endpoint.id]);
    })));
  }

  private once(state: EndpointState, key: string, load: () => Promise<void>): Promise<void> {
    let promise = state.loading.get(key);
    if (!promise) {
      promise = load().finally(() => state.loading.delete(key));
      state.loading.set(key, promise);
    }
    return promise;
  }

  collapseEndpoint(id: string): void {
    const state = this.states.get(id);
    if (state) state.expanded = false;
  }

  /** Marks a section open (so it is polled) and loads it unless already loaded. */
  async openSection(id: string, section: SectionKey): Promise<void> {
    const endpoint = this.endpoint(id);
    if (!endpoint) return;
    const state = this.state(endpoint);
    const wasOpen = state.open.has(section);
    state.open.add(section);
    if (wasOpen && this.sectionLoaded(state, section) && !state.loading.has(section)) return;
    await this.once(state, section, async () => {
      await this.loadSection(endpoint, state, section);
      this.changed([sectionId(endpoint.id, section)]);
    });
  }

  private sectionLoaded(state: EndpointState, section: SectionKey): boolean {
    if (section === 'recent') return state.browser.recent !== undefined;
    if (section === 'activity') return state.browser.activity !== undefined;
    if (section.startsWith('block:')) return state.browser.recentBlocks.has(section);
    return state[section as 'receipts' | 'logs' | 'accounts' | 'storage' | 'token'] !== undefined;
  }

  private browserSettings(endpoint: ExplorerEndpoint): BrowserSettings {
    const settings = this.settings();
    return {
      recentBlocks: settings.recentBlocks, addressHistoryBlocks: settings.addressHistoryBlocks, tokenAddress: endpoint.tokenAddress,
      activityFilters: this.logFilters(endpoint), activityBlocks: settings.activityBlocks,
    };
  }

  /** The configured log filters; none configured: every event of the endpoint's token. */
  private logFilters(endpoint: ExplorerEndpoint): LogFilterSetting[] {
    const settings = this.settings();
    return settings.logFilters.length > 0 ? settings.logFilters
      : endpoint.tokenAddress ? [{ name: 'Token events', address: endpoint.tokenAddress }] : [];
  }

  /**
   * Go to…: resolves a block number or tag, a hash or an address on the endpoint and keeps it
   * as its newest Go to result; the outcome names the tree id to reveal, or says what failed.
   */
  async goTo(id: string, text: string): Promise<{ ok: true; nodeId: string } | { ok: false; message: string }> {
    const endpoint = this.endpoint(id);
    if (!endpoint) return { ok: false, message: 'that endpoint is gone' };
    // The result shows under the endpoint, which VS Code expands to reveal it: read it first.
    await this.expandEndpoint(id);
    const state = this.state(endpoint);
    const outcome: GoToOutcome = await state.browser.goTo(text, this.browserSettings(endpoint));
    if (!outcome.ok) return outcome;
    this.changed([endpoint.id]);
    return { ok: true, nodeId: foundId(endpoint.id, outcome.found) };
  }

  /** Adds a page of older blocks under Recent blocks. */
  async loadOlderBlocks(id: string): Promise<void> {
    const endpoint = this.endpoint(id);
    if (!endpoint) return;
    const state = this.state(endpoint);
    await this.once(state, 'older', () => state.browser.loadOlder(this.browserSettings(endpoint)));
    this.changed([recentSectionId(endpoint.id)]);
  }

  /** How often `latest` is checked while following the chain: the block time seen (default 2 s). */
  blockTimeMs(): number {
    const seen = this.expandedEndpoints().map((e) => this.states.get(e.id)?.browser.blockTimeMs).filter((ms): ms is number => ms !== undefined && ms > 0);
    return Math.min(12_000, Math.max(1000, seen.length > 0 ? Math.min(...seen) : 2000));
  }

  closeSection(id: string, section: SectionKey): void {
    const state = this.states.get(id);
    if (!state?.open.delete(section)) return;
    this.changed([sectionId(id, section)]);
  }

  /**
   * One poll tick over every expanded endpoint, one request at a time. An endpoint that fails
   * sits out a growing number of ticks, so one dead endpoint does not slow the others down.
   */
  async tick(signal?: AbortSignal, covered?: (id: string) => boolean): Promise<TickOutcome> {
    const outcome: TickOutcome = { failures: 0, successes: 0 };
    // Now and then, endpoints listed but not expanded whose first read failed are tried again.
    if (++this.tickCount % RETRY_UNEXPANDED_EVERY === 0) await this.loadOverviews(true);
    for (const endpoint of this.expandedEndpoints()) {
      if (signal?.aborted) break;
      // Followed by subscription: notifications say when to read it.
      if (covered?.(endpoint.id)) continue;
      const state = this.state(endpoint);
      if (state.skipTicks > 0) {
        state.skipTicks--;
        continue;
      }
      const result = await this.refreshEndpointSafely(endpoint, state, false, signal);
      if (result.ok) {
        outcome.successes = (outcome.successes ?? 0) + 1;
        state.failures = 0;
      } else {
        outcome.failures++;
        state.failures++;
        state.skipTicks = ticksToSkip(state.failures);
        if (result.retryAfterMs !== undefined) outcome.retryAfterMs = Math.max(outcome.retryAfterMs ?? 0, result.retryAfterMs);
      }
    }
    return outcome;
  }

  /**
   * Reads what a subscription's news says changed on an expanded endpoint. One read at a time per
   * endpoint: news that comes meanwhile waits, and only the newest is read after it (a flashblock
   * supersedes the ones before it). News that brings no new block or state changes nothing.
   */
  follow(id: string, news: FollowNews): Promise<void> {
    const endpoint = this.endpoint(id);
    const state = endpoint ? this.states.get(id) : undefined;
    if (!endpoint || !state?.expanded || state.url !== endpoint.url) return Promise.resolve();
    if (state.following) {
      state.nextNews = news;
      return state.following;
    }
    const run = async (first: FollowNews): Promise<void> => {
      let next: FollowNews | undefined = first;
      while (next) {
        state.nextNews = undefined;
        const result = await this.refreshEndpointSafely(endpoint, state, false, undefined, next);
        if (result.ok) state.failures = 0;
        next = state.nextNews;
      }
    };
    state.following = run(news).finally(() => { state.following = undefined; });
    return state.following;
  }

  /** Re-reads everything shown (the Refresh command), and retries endpoints that could not be read. */
  async refreshAll(signal?: AbortSignal): Promise<void> {
    for (const endpoint of this.expandedEndpoints()) await this.refreshEndpointSafely(endpoint, this.state(endpoint), true, signal);
    await this.loadOverviews(true);
  }

  /** The status bar for the first expanded endpoint: `latest #N` or `pending #N.k`. */
  /** Whether an expanded endpoint's block at the current tag holds a transaction (the walkthrough's "a transaction seen"). */
  showsTransaction(): boolean {
    return this.expandedEndpoints().some((endpoint) => {
      const block = this.states.get(endpoint.id)?.block;
      return block?.ok === true && (block.value?.transactions?.length ?? 0) > 0;
    });
  }

  statusText(): { text: string; endpointName?: string } {
    const endpoint = this.expandedEndpoints().find((e) => this.states.get(e.id)?.block?.ok)
      ?? this.endpoints().find((e) => this.states.get(e.id)?.block?.ok);
    const state = endpoint ? this.states.get(endpoint.id) : undefined;
    if (!endpoint || !state?.block?.ok) return { text: this.tag, endpointName: this.endpoints()[0]?.name };
    const head = state.overview?.ok ? state.overview.value.head : undefined;
    const title = blockTitle(this.tag, state.block.value, head);
    return { text: statusBarText(this.tag, title.number, state.pendingRefreshes), endpointName: endpoint.name };
  }

  /**
   * refreshEndpoint, where an endpoint whose answers make the refresh throw (results of the wrong
   * types) counts as failed: it backs off alone, and the tick goes on to the other endpoints.
   */
  private async refreshEndpointSafely(
    endpoint: ExplorerEndpoint, state: EndpointState, full: boolean, signal?: AbortSignal, news?: FollowNews,
  ): Promise<{ ok: boolean; retryAfterMs?: number }> {
    try {
      return await this.refreshEndpoint(endpoint, state, full, signal, news);
    } catch (error) {
      state.overview = { ok: false, error: unshowableText(error) };
      return { ok: false };
    }
  }

  /** Reads the endpoint's block and what is open under it, then says what may have changed. */
  private async refreshEndpoint(
    endpoint: ExplorerEndpoint, state: EndpointState, full: boolean, signal?: AbortSignal, news?: FollowNews,
  ): Promise<{ ok: boolean; retryAfterMs?: number }> {
    let quiet = false;
    try {
      const result = await this.readEndpoint(endpoint, state, full, signal, news);
      quiet = result.quiet === true;
      return result;
    } finally {
      // The overview and the token shape rows all over the endpoint: the whole subtree is compared.
      if (!signal?.aborted && !quiet) this.changed([endpoint.id]);
    }
  }

  /**
   * `quiet`: nothing changed (the head had not moved, or the block read is the one shown), so the
   * tree has nothing to compare. `news`: what a subscription said changed; a flashblock's pending
   * block is taken as it came, not read again.
   */
  private async readEndpoint(
    endpoint: ExplorerEndpoint, state: EndpointState, full: boolean, signal?: AbortSignal, news?: FollowNews,
  ): Promise<{ ok: boolean; retryAfterMs?: number; quiet?: boolean }> {
    const settings = this.settings();
    // Following latest: one cheap head check; the rest is read only when a new block came.
    if (this.tag === 'latest' && !full && news?.kind !== 'head' && state.block?.ok && state.block.value && state.overview?.ok) {
      try {
        const now = await state.browser.lookups.head(signal);
        if (`0x${now.toString(16)}` === state.block.value.number) return { ok: true, quiet: true };
      } catch { /* read in full below, which records the error */ }
    }
    const shown = state.block?.ok ? blockFingerprint(state.block.value) : undefined;
    const { block, head, error } = news?.kind === 'flashblock' && this.tag === 'pending'
      ? { block: { ok: true as const, value: news.block }, head: parentNumber(news.block), error: undefined }
      : await state.reader.block(this.tag, signal);
    if (signal?.aborted) return { ok: true };
    // The same block as shown, at the same head, with every open section read at it: nothing to do.
    if (!full && block.ok && shown !== undefined && blockFingerprint(block.value) === shown && state.sectionsReadAt === shown
      && state.overview?.ok && state.overview.value.head === head && this.sectionsLoaded(state)
      && (!endpoint.tokenAddress || state.token !== undefined)) {
      return { ok: true, quiet: true };
    }
    state.block = block;
    if (block.ok && this.tag === 'latest') await state.browser.observeLatest(block.value, signal);
    if (block.ok && state.open.has('recent') && head !== undefined) await state.browser.followHead(this.browserSettings(endpoint), BigInt(head), signal);
    if (block.ok && state.open.has('activity') && head !== undefined) await state.browser.followActivity(this.browserSettings(endpoint), BigInt(head), signal, this.tag === 'latest' ? block.value ?? undefined : undefined);
    if (block.ok && head !== undefined && state.browser.found.length > 0) await state.browser.followFound(this.browserSettings(endpoint), BigInt(head), signal);
    const headMoved = !state.overview?.ok || state.overview.value.head !== head;
    if (!block.ok && endpointUnusable(error)) {
      // Nothing works there now (timeout, not JSON-RPC, HTTP error): the row shows that, without a second wait.
      state.overview = { ok: false, error: block.error };
    } else if (full || headMoved || !block.ok) {
      state.overview = await state.reader.overview(settings.showSafeFinalized, signal);
    }
    if (!block.ok) {
      return { ok: false, retryAfterMs: error instanceof RateLimitedError ? error.retryAfterMs : undefined };
    }
    if (this.tag === 'pending') {
      const title = blockTitle('pending', block.value, head);
      state.pendingRefreshes = state.counter.observe(title.number, block.value);
    }
    if (endpoint.tokenAddress && (full || headMoved || !state.token)) {
      state.token = await state.reader.token(endpoint.tokenAddress, 'latest', signal);
    }
    // Nothing changed since the sections were read (the same block, head and state): a quiet tick
    // costs one request. Sections that failed are read again.
    const fingerprint = blockFingerprint(block.value);
    if (!full && !headMoved && fingerprint !== undefined && fingerprint === state.sectionsReadAt && this.sectionsLoaded(state)) return { ok: true };
    for (const section of state.open) {
      if (section === 'token' || section === 'recent' || section === 'activity' || section.startsWith('block:')) continue;
      // A public endpoint's 403 on receipts does not change from tick to tick: ask again only on a
      // full refresh (the Refresh command, switching the tag, expanding again).
      if (section === 'receipts' && !full && state.receipts?.ok === false && state.receipts.needsDedicated) continue;
      await this.loadSection(endpoint, state, section, signal);
    }
    state.sectionsReadAt = signal?.aborted ? undefined : fingerprint;
    return { ok: true };
  }

  /** Every open section holds a successful read (or the public profile's 403 for receipts). */
  private sectionsLoaded(state: EndpointState): boolean {
    return [...state.open].every((section) => {
      // The browser's own sections (recent blocks, activity, a recent block) follow heads themselves.
      if (section === 'token' || section === 'recent' || section === 'activity' || section.startsWith('block:')) return true;
      const data = state[section as 'accounts' | 'storage' | 'logs' | 'receipts'];
      if (!data) return false;
      return data.ok || (section === 'receipts' && state.receipts?.ok === false && state.receipts.needsDedicated === true);
    });
  }

  private async loadSection(endpoint: ExplorerEndpoint, state: EndpointState, section: SectionKey, signal?: AbortSignal): Promise<void> {
    const settings = this.settings();
    const block = state.block?.ok ? state.block.value : undefined;
    if (section.startsWith('block:')) {
      await state.browser.loadBlock(section, signal);
      return;
    }
    switch (section) {
      case 'recent':
        await state.browser.loadRecent(this.browserSettings(endpoint), undefined, signal);
        break;
      case 'receipts':
        state.receipts = await state.reader.receipts(this.tag, block, signal);
        break;
      case 'logs':
        state.logs = await state.reader.logs(this.logFilters(endpoint), this.tag, block, signal);
        break;
      case 'activity':
        await state.browser.loadActivity(this.browserSettings(endpoint), signal);
        break;
      case 'accounts': {
        const accounts = settings.watchedAccounts.length > 0 ? settings.watchedAccounts : endpoint.defaultAccounts ?? [];
        state.accounts = await state.reader.accounts(accounts, this.tag, endpoint.tokenAddress, signal);
        break;
      }
      case 'storage': {
        const slots = settings.storageSlots.length > 0 ? settings.storageSlots : endpoint.defaultStorageSlots ?? [];
        state.storage = await state.reader.storage(slots, this.tag, signal);
        break;
      }
      case 'token':
        if (endpoint.tokenAddress) state.token = await state.reader.token(endpoint.tokenAddress, 'latest', signal);
        break;
    }
  }
}

/** The head under a pending block: its parent's number (undefined for a block without a number). */
function parentNumber(block: BlockJson): string | undefined {
  if (typeof block.number !== 'string') return undefined;
  try {
    const number = BigInt(block.number);
    return number > 0n ? `0x${(number - 1n).toString(16)}` : undefined;
  } catch {
    return undefined;
  }
}

/** The tree id of the block node at the current tag. */
export function blockId(endpointId: string): string {
  return `${endpointId}/block`;
}

/** The tree id of a lazy section's node. */
export function sectionId(endpointId: string, section: SectionKey): string {
  if (section.startsWith('block:')) return `${recentSectionId(endpointId)}/${section.slice('block:'.length)}`;
  return section === 'receipts' || section === 'logs' ? `${blockId(endpointId)}/${section}` : `${endpointId}/${section}`;
}
