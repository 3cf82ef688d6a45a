// Which of the chainExplorer.mockNode.options a workspace may set. A cloned repository's
// .vscode/settings.json must not reconfigure who can reach the node or where it writes: the
// exposure keys below are taken from the user's own settings only, and an untrusted workspace
// sets nothing at all. No vscode import: unit-tested with plain mocha.
import type { MockNodeOptionsInput } from '../../mock-node/index';

/** Options that decide who can reach the node, with which key, and which file it writes. */
/** `fork`: the URL the node sends requests to, perhaps with an API key in it. */
export const USER_ONLY_OPTIONS = ['host', 'port', 'cors', 'allowOrigins', 'allowHosts', 'apiKey', 'stateFile', 'autosaveBlocks', 'fork'] as const;

/** chainExplorer.mockNode.forkUrl and forkBlockNumber, as the user's own settings hold them. */
export interface ForkSettings {
  forkUrl?: unknown;
  forkBlockNumber?: unknown;
}

/** What `WorkspaceConfiguration.inspect()` answers, as far as this needs. */
export interface InspectedSetting {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

export interface MockNodeSettings {
  options: MockNodeOptionsInput;
  /** Keys a workspace tried to set and that were ignored (for one line in the output channel). */
  ignored: string[];
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function mockNodeSettings(inspected: InspectedSetting | undefined, workspaceTrusted: boolean, fork: ForkSettings = {}): MockNodeSettings {
  const user = record(inspected?.globalValue);
  const workspace = { ...record(inspected?.workspaceValue), ...record(inspected?.workspaceFolderValue) };
  const ignored: string[] = [];
  const fromWorkspace: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(workspace)) {
    if (!workspaceTrusted || (USER_ONLY_OPTIONS as readonly string[]).includes(key)) ignored.push(key);
    else fromWorkspace[key] = value;
  }
  const options = { ...user, ...fromWorkspace } as MockNodeOptionsInput;
  // The fork settings (user settings only: their scope is the application) win over an options.fork.
  if (typeof fork.forkUrl === 'string' && fork.forkUrl.trim() !== '') {
    const blockNumber = typeof fork.forkBlockNumber === 'number' && Number.isInteger(fork.forkBlockNumber) && fork.forkBlockNumber >= 0 ? fork.forkBlockNumber : undefined;
    options.fork = { ...(options.fork ?? {}), url: fork.forkUrl.trim(), ...(blockNumber !== undefined ? { blockNumber } : {}) };
  }
  return { options, ignored };
}
