// The endpoints the explorer shows: from settings (URLs without keys), from SecretStorage (URLs
// that hold a key: only a name and an id are kept outside it), and the bundled mock node while it
// runs. URLs with keys are shown masked and never logged.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { SlotSetting } from '../explorer/chainData';
import { readSettings, SECTION, updateSettingsEndpoints } from '../settings';
import { isWebSocketUrl, maskUrl, urlHoldsKey } from './endpointUrl';

export type EndpointSource = 'settings' | 'secret' | 'mock';

export interface Endpoint {
  /** Stable id, also the prefix of its tree node ids. */
  id: string;
  name: string;
  url: string;
  displayUrl: string;
  /** ws:// or wss://, where the chain is followed by subscription (derived for the mock node). */
  wsUrl?: string;
  source: EndpointSource;
  /** Known for the mock node; from the tokenAddress setting otherwise. */
  tokenAddress?: string;
  /** Accounts to show when chainExplorer.watchedAccounts is empty (the mock node's dev accounts). */
  defaultAccounts?: string[];
  /** Slots to show when chainExplorer.storageSlots is empty (the mock node's token slots). */
  defaultStorageSlots?: SlotSetting[];
}

interface SecretEndpointEntry {
  id: string;
  name: string;
}

const SECRET_LIST_KEY = 'chainExplorer.secretEndpoints';
const secretKey = (id: string): string => `chainExplorer.endpointUrl.${id}`;
const secretWsKey = (id: string): string => `chainExplorer.endpointWsUrl.${id}`;

export class EndpointRegistry implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private secretUrls = new Map<string, string>();
  private secretWsUrls = new Map<string, string>();
  private mockEndpoints: Endpoint[] = [];
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly context: vscode.ExtensionContext) {
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration(`${SECTION}.endpoints`)) this.changed.fire(); }),
      context.secrets.onDidChange(() => { void this.loadSecrets().then(() => this.changed.fire()); }),
    );
  }

  private secretEntries(): SecretEndpointEntry[] {
    return this.context.globalState.get<SecretEndpointEntry[]>(SECRET_LIST_KEY) ?? [];
  }

  /** Reads the secret URLs into memory (call once at start and after changes). */
  async loadSecrets(): Promise<void> {
    const urls = new Map<string, string>();
    const wsUrls = new Map<string, string>();
    for (const entry of this.secretEntries()) {
      const url = await this.context.secrets.get(secretKey(entry.id));
      if (url) urls.set(entry.id, url);
      const wsUrl = await this.context.secrets.get(secretWsKey(entry.id));
      if (wsUrl) wsUrls.set(entry.id, wsUrl);
    }
    this.secretUrls = urls;
    this.secretWsUrls = wsUrls;
  }

  list(): Endpoint[] {
    const settings = readSettings();
    const token = settings.tokenAddress || undefined;
    const fromSettings = settings.endpoints.map((e): Endpoint => ({
      id: `ep:settings:${e.name}`, name: e.name, url: e.url, displayUrl: maskUrl(e.url), source: 'settings', tokenAddress: token,
      ...(e.wsUrl && isWebSocketUrl(e.wsUrl) ? { wsUrl: e.wsUrl } : {}),
    }));
    const fromSecrets = this.secretEntries().flatMap((e): Endpoint[] => {
      const url = this.secretUrls.get(e.id);
      const wsUrl = this.secretWsUrls.get(e.id);
      return url ? [{ id: `ep:secret:${e.id}`, name: e.name, url, displayUrl: maskUrl(url), source: 'secret', tokenAddress: token, ...(wsUrl ? { wsUrl } : {}) }] : [];
    });
    return [...this.mockEndpoints, ...fromSettings, ...fromSecrets];
  }

  get(id: string): Endpoint | undefined {
    return this.list().find((e) => e.id === id);
  }

  setMockEndpoints(endpoints: Endpoint[]): void {
    this.mockEndpoints = endpoints;
    this.changed.fire();
  }

  /**
   * Adds an endpoint: when its URL or WebSocket URL holds a key both go to SecretStorage, else to
   * the user settings.
   */
  async add(name: string, url: string, wsUrl?: string): Promise<Endpoint> {
    if (urlHoldsKey(url) || (wsUrl !== undefined && urlHoldsKey(wsUrl))) {
      const id = randomUUID();
      await this.context.secrets.store(secretKey(id), url);
      if (wsUrl !== undefined) await this.context.secrets.store(secretWsKey(id), wsUrl);
      await this.context.globalState.update(SECRET_LIST_KEY, [...this.secretEntries(), { id, name }]);
      await this.loadSecrets();
      this.changed.fire();
      return { id: `ep:secret:${id}`, name, url, displayUrl: maskUrl(url), source: 'secret', ...(wsUrl !== undefined ? { wsUrl } : {}) };
    }
    await updateSettingsEndpoints((current) => [...current.filter((e) => e.name !== name), { name, url, ...(wsUrl !== undefined ? { wsUrl } : {}) }]);
    return { id: `ep:settings:${name}`, name, url, displayUrl: url, source: 'settings', ...(wsUrl !== undefined ? { wsUrl } : {}) };
  }

  /** Endpoints written into the settings by hand with a key in the URL. */
  keyedSettingsEndpoints(): Endpoint[] {
    return this.list().filter((e) => e.source === 'settings' && (urlHoldsKey(e.url) || (e.wsUrl !== undefined && urlHoldsKey(e.wsUrl))));
  }

  /** Moves settings endpoints whose URL holds a key into SecretStorage (same names). */
  async moveKeyedToSecrets(): Promise<string[]> {
    const keyed = this.keyedSettingsEndpoints();
    for (const endpoint of keyed) {
      await this.remove(endpoint);
      await this.add(endpoint.name, endpoint.url, endpoint.wsUrl);
    }
    return keyed.map((e) => e.name);
  }

  async remove(endpoint: Endpoint): Promise<void> {
    if (endpoint.source === 'secret') {
      const raw = endpoint.id.slice('ep:secret:'.length);
      await this.context.secrets.delete(secretKey(raw));
      await this.context.secrets.delete(secretWsKey(raw));
      await this.context.globalState.update(SECRET_LIST_KEY, this.secretEntries().filter((e) => e.id !== raw));
      await this.loadSecrets();
      this.changed.fire();
    } else if (endpoint.source === 'settings') {
      await updateSettingsEndpoints((current) => current.filter((e) => e.name !== endpoint.name));
    }
  }

  async rename(endpoint: Endpoint, name: string): Promise<void> {
    if (endpoint.source === 'secret') {
      const raw = endpoint.id.slice('ep:secret:'.length);
      await this.context.globalState.update(SECRET_LIST_KEY, this.secretEntries().map((e) => (e.id === raw ? { ...e, name } : e)));
      this.changed.fire();
    } else if (endpoint.source === 'settings') {
      await updateSettingsEndpoints((current) => current.map((e) => (e.name === endpoint.name ? { ...e, name } : e)));
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
