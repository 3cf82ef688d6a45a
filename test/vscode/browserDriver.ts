// Opens the code-server workbench in Debian's headless Chromium through playwright-core.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { format } from 'node:util';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export interface WorkbenchUrlOptions {
  origin: string;
  host: string;
  port: number;
  folder: string;
  /** Absent: the workbench runs the extensions installed in its profile (an installed VSIX). */
  extensionDevelopmentPath?: string;
  extensionTestsPath?: string;
  extensionEnvironment?: Record<string, string>;
}

/** The workbench URL with the development options as the `payload` query parameter. */
export function workbenchUrl(options: WorkbenchUrlOptions): string {
  const remote = (p: string): string => `vscode-remote://${options.host}:${options.port}${p}`;
  const payload: [string, string][] = [];
  if (options.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(options.extensionDevelopmentPath)]);
  if (options.extensionTestsPath) payload.push(['extensionTestsPath', remote(options.extensionTestsPath)]);
  if (options.extensionEnvironment) payload.push(['extensionEnvironment', JSON.stringify(options.extensionEnvironment)]);
  return `${options.origin}/?folder=${encodeURIComponent(options.folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

export interface OpenBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function openBrowser(chromiumPath: string, viewport = { width: 1400, height: 860 }): Promise<OpenBrowser> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chain-explorer-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    viewport,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close().catch(() => undefined);
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Workbench chatter that says nothing about our tests (no gallery offline, socket set-up, …). */
const WORKBENCH_NOISE = /ENOTFOUND|open-vsx|Creating a socket|connection token|grace time|builtin extensions cache|Service Worker|AgentHost|AccountPolicyGate|authentication provider|static\/out\/vs\/.*workbench\.js:\d+|^\s+at /;
const verbose = process.env.CHAIN_EXPLORER_VSCODE_VERBOSE === '1';

/**
 * Runs the extension test suite in the workbench and resolves with the exit code the workbench
 * reports through `codeAutomationExit`; a time limit turns a hang into a failure (exit code 124).
 */
export async function runSuiteInWorkbench(
  page: Page,
  url: string,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<number> {
  let finish: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => { finish = resolve; });
  await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
    const text = Array.isArray(args) ? format(...(args as unknown[])) : String(args);
    if (!verbose && WORKBENCH_NOISE.test(text)) return;
    log(type === 'error' ? `[host:error] ${text}` : text);
  });
  await page.exposeFunction('codeAutomationExit', (code: number) => finish(Number(code)));
  page.on('pageerror', (error) => log(`[page error] ${error.message}`));
  // A busy machine (several suites at once) takes more than the default 30 s to load the workbench.
  await page.goto(url, { timeout: 120_000 });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<number>((resolve) => {
    timer = setTimeout(() => {
      log(`[driver] suite did not finish within ${timeoutMs} ms`);
      resolve(124);
    }, timeoutMs);
  });
  try {
    return await Promise.race([exited, timeout]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
