// Starts code-server (a full VS Code build) on loopback with fresh profile folders, and stops its
// whole process group afterwards: a code-server left running keeps extension hosts alive for hours.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { freePort } from '../helpers/freePort';
import * as os from 'node:os';
import * as path from 'node:path';
import type { VsCodeTools } from './installTools';

export interface RunningCodeServer {
  origin: string;
  host: string;
  port: number;
  process: ChildProcess;
  /** Folder holding this run's user data and extensions (removed by stop()). */
  profileDir: string;
  stop(): Promise<void>;
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode} before answering`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      return;
    } catch (error) {
      lastError = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`code-server did not answer at ${url} within ${timeoutMs} ms: ${lastError}`);
}

export interface CodeServerOptions {
  folder: string;
  /** User settings merged over the defaults below. */
  settings?: Record<string, unknown>;
  /** Environment for the server and so for its extension hosts. */
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** VSIX files installed into this run's extensions folder before the server starts. */
  installExtensions?: string[];
  /**
   * VS Code's `--log` values (a level, or `publisher.extension:level` for one extension's log),
   * passed through code-server's --vscode-option. Give two or more: code-server passes a single
   * one on as a string where VS Code wants a list (the workbench then answers HTTP 500).
   */
  logLevels?: string[];
}

export async function startCodeServer(tools: VsCodeTools, options: CodeServerOptions): Promise<RunningCodeServer> {
  const host = '127.0.0.1';
  const port = await freePort();
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chain-explorer-code-server-'));
  const userDataDir = path.join(profileDir, 'user-data');
  const extensionsDir = path.join(profileDir, 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({
      'chat.disableAIFeatures': true,
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'telemetry.telemetryLevel': 'off',
      'security.workspace.trust.enabled': false,
      'window.commandCenter': false,
      ...options.settings,
    }, null, 2),
  );
  for (const vsix of options.installExtensions ?? []) {
    // The way a user installs a downloaded VSIX: code-server's --install-extension into this profile.
    const installed = spawnSync(tools.node, [tools.codeServerEntry, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix], { encoding: 'utf8', timeout: 120_000 });
    if (installed.status !== 0) {
      fs.rmSync(profileDir, { recursive: true, force: true });
      throw new Error(`code-server --install-extension ${vsix} failed (${installed.status}):\n${installed.stdout}${installed.stderr}`);
    }
  }
  const args = [
    tools.codeServerEntry,
    '--auth', 'none',
    '--bind-addr', `${host}:${port}`,
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--vscode-option', 'enable-smoke-test-driver',
    ...(options.logLevels ?? []).flatMap((level) => ['--vscode-option', `log=${level}`]),
    options.folder,
  ];
  const child = spawn(tools.node, args, {
    env: { ...process.env, ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = options.log ?? (() => undefined);
  const forward = (chunk: Buffer): void => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) log(line);
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  const origin = `http://${host}:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
      const killed = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
      if (!killed) {
        try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
      }
    }
    fs.rmSync(profileDir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`${origin}/healthz`, child, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, host, port, process: child, profileDir, stop };
}
