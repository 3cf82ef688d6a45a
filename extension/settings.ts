// The extension's settings (contributes.configuration in package.json), read in one place.
import * as vscode from 'vscode';
import type { LogFilterSetting, SlotSetting } from './explorer/chainData';
import { mockNodeSettings, type MockNodeSettings } from './mockNode/mockNodeSettings';

export const SECTION = 'chainExplorer';

export interface EndpointSetting {
  name: string;
  url: string;
  /** ws:// or wss://: the explorer follows the chain there by subscription. */
  wsUrl?: string;
}

export interface ExplorerSettings {
  endpoints: EndpointSetting[];
  /** Pending polling period (ms): the flashblock interval. */
  flashblockMs: number;
  /** Polling period (ms) while pending is off; 0 = at the block time while following latest, else by hand. */
  pollIntervalMs: number;
  /** With pending off, follow new heads at the block time while the view is visible and focused. */
  followLatest: boolean;
  /** Blocks per page of Recent blocks. */
  recentBlocks: number;
  /** Blocks back an address's token transfers are searched. */
  addressHistoryBlocks: number;
  /** Blocks the Activity filters follow. */
  activityBlocks: number;
  requestTimeoutMs: number;
  showSafeFinalized: boolean;
  watchedAccounts: string[];
  storageSlots: SlotSetting[];
  logFilters: LogFilterSetting[];
  tokenAddress: string;
  /** Blocks on top of a capture's block before it counts as confirmed; 0 = the endpoint's `safe` block. */
  confirmationDepth: number;
  /** Endpoints (names or ids) whose inspector does not dry-run the capture (a dry run sends the signature). */
  dryRunOff: string[];
  /** Contract address → ABI file (an ABI array or a build artifact holding one), relative to the workspace. */
  contractAbis: Record<string, string>;
  /** Read every ABI in the workspace's Foundry `out/` and Hardhat `artifacts/` folders. */
  scanWorkspaceAbis: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function readSettings(): ExplorerSettings {
  const c = vscode.workspace.getConfiguration(SECTION);
  const list = <T>(key: string, keep: (v: unknown) => v is T): T[] => (c.get<unknown[]>(key) ?? []).filter(keep);
  return {
    endpoints: list('endpoints', (v): v is EndpointSetting => isRecord(v) && typeof v.name === 'string' && typeof v.url === 'string'
      && (v.wsUrl === undefined || typeof v.wsUrl === 'string')),
    flashblockMs: Math.max(50, c.get<number>('flashblockMs') ?? 200),
    pollIntervalMs: Math.max(0, c.get<number>('pollIntervalMs') ?? 0),
    followLatest: c.get<boolean>('followLatest') ?? true,
    recentBlocks: Math.min(100, Math.max(1, Math.floor(c.get<number>('recentBlocks') ?? 10))),
    addressHistoryBlocks: Math.min(100_000, Math.max(1, Math.floor(c.get<number>('addressHistoryBlocks') ?? 2000))),
    activityBlocks: Math.min(10_000, Math.max(1, Math.floor(c.get<number>('activityBlocks') ?? 100))),
    requestTimeoutMs: Math.max(500, c.get<number>('requestTimeoutMs') ?? 10_000),
    showSafeFinalized: c.get<boolean>('showSafeFinalized') ?? true,
    watchedAccounts: list('watchedAccounts', (v): v is string => typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v)),
    storageSlots: list('storageSlots', (v): v is SlotSetting => isRecord(v) && typeof v.address === 'string' && typeof v.slot === 'string'),
    logFilters: list('logFilters', (v): v is LogFilterSetting => isRecord(v) && typeof v.name === 'string'),
    tokenAddress: c.get<string>('tokenAddress') ?? '',
    confirmationDepth: Math.max(0, Math.floor(c.get<number>('authorizations.confirmationDepth') ?? 0)),
    dryRunOff: list('authorizations.dryRunOff', (v): v is string => typeof v === 'string'),
    contractAbis: Object.fromEntries(Object.entries(c.get<Record<string, unknown>>('contractAbis') ?? {})
      .filter((entry): entry is [string, string] => /^0x[0-9a-fA-F]{40}$/.test(entry[0]) && typeof entry[1] === 'string')),
    scanWorkspaceAbis: c.get<boolean>('scanWorkspaceAbis') ?? true,
  };
}

/** Rewrites the endpoints kept in the user settings (the ones whose URL holds no key). */
export async function updateSettingsEndpoints(change: (current: EndpointSetting[]) => EndpointSetting[]): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const current = config.get<EndpointSetting[]>('endpoints') ?? [];
  await config.update('endpoints', change(current), vscode.ConfigurationTarget.Global);
}

/**
 * chainExplorer.mockNode.options: startMockNode options for the bundled node (validated when it
 * starts). The exposure keys come from user settings only and an untrusted workspace sets none
 * (mockNodeSettings); `ignored` names what a workspace tried to set.
 */
export function readMockNodeOptionsSetting(): MockNodeSettings {
  const config = vscode.workspace.getConfiguration(`${SECTION}.mockNode`);
  const inspected = config.inspect<unknown>('options');
  // Application scope: only the user's own settings hold these (a workspace cannot point the node at a URL).
  const fork = { forkUrl: config.inspect<unknown>('forkUrl')?.globalValue, forkBlockNumber: config.inspect<unknown>('forkBlockNumber')?.globalValue };
  return mockNodeSettings(inspected, vscode.workspace.isTrusted, fork);
}
