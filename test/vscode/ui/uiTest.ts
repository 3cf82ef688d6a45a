// Drives the workbench like a person (activity bar, welcome button, tree clicks, the view's
// title button, the command palette) in code-server + Chromium, checks what the screen shows,
// saves screenshots (media/ with CHAIN_EXPLORER_SCREENSHOTS=media, else test-results/), checks
// that polling stops while the window is unfocused, and measures the extension host's CPU with
// pending on and nothing changing, and with pending off.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Interface, randomBytes, hexlify } from 'ethers';
import type { Locator, Page } from 'playwright-core';
import { buildTypedData, STABLE_TOKEN_ABI } from '../../../mock-node/tokenKit/index';
import { openBrowser, workbenchUrl } from '../browserDriver';
import { freePort } from '../../helpers/freePort';
import { startCodeServer } from '../codeServer';
import { ensureVsCodeTools } from '../installTools';
import { profileProcess } from './hostProfile';
import { findProcesses, formatBreakdown, measureCpuBreakdown, settled, type CpuBreakdown } from './processCpu';

export interface UiResult {
  passed: number;
  failed: number;
}

/** Drags the side bar's edge, as a person would, so long descriptions fit. */
async function widenSideBar(page: Page, width: number): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box) throw new Error('no side bar');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 8 });
  await page.mouse.up();
}

const EXTENSION_ID = 'chain-rpc-explorer.chain-rpc-explorer';

/**
 * The lines of the explorer's own log (its output channel, one file per extension host: a window
 * reload starts another) that match `pattern`, in time order (each line starts with its time).
 */
function explorerLogLines(profileDir: string, pattern: RegExp): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (path.basename(dir) === EXTENSION_ID && entry.name.endsWith('.log')) files.push(full);
    }
  };
  try {
    walk(path.join(profileDir, 'user-data', 'logs'));
  } catch {
    return [];
  }
  const lines = files.flatMap((file) => fs.readFileSync(file, 'utf8').split('\n').filter((line) => pattern.test(line)));
  // `2026-11-27 01:08:11.809 [debug] …`: the time sorts as text; a stable sort keeps a file's order.
  return lines.sort((a, b) => (a.slice(0, 23) < b.slice(0, 23) ? -1 : a.slice(0, 23) > b.slice(0, 23) ? 1 : 0));
}

/**
 * Waits until the explorer's log says the workspace state holds the rows as last recorded: the
 * last `row <id> …` line it wrote is followed by a `tree rows saved (after <that id> …)` line.
 */
async function rowsSaved(profileDir: string, timeoutMs = 20_000): Promise<void> {
  let lines: string[] = [];
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    lines = explorerLogLines(profileDir, /\] (row |tree rows saved)/);
    let last = -1;
    lines.forEach((line, i) => { if (/\] row /.test(line)) last = i; });
    const id = last >= 0 ? /\] row (\S+)/.exec(lines[last])?.[1] : undefined;
    if (id !== undefined && lines.slice(last + 1).some((line) => line.includes(`(after ${id} `))) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the explorer's log does not say its rows are saved (last lines: ${lines.slice(-3).join(' | ') || 'none: no debug lines'})`);
}

const row = (page: Page, text: string | RegExp) => page.locator('.monaco-list-row', { hasText: text }).first();

/**
 * Clicks Collapse All in the RPC Explorer's title until `endpoint` shows collapsed. On a loaded
 * machine the click can wait behind something covering the title for a moment (a quick input
 * closing, a hover) or be lost while the tree re-renders: then Escape, and the click once more,
 * as a person would.
 */
async function collapseAll(page: Page, endpoint: string): Promise<void> {
  const button = page.locator('.pane-header [aria-label*="Collapse All"], .title-actions [aria-label*="Collapse All"]').first();
  const collapsed = page.locator('.monaco-list-row[aria-expanded="false"]', { hasText: endpoint }).first();
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      await button.click({ timeout: 10_000 });
      await collapsed.waitFor({ timeout: 10_000 });
      return;
    } catch (error) {
      lastError = error;
      await page.keyboard.press('Escape');
      await explorerPane(page).locator('.pane-header').first().hover().catch(() => undefined);
    }
  }
  throw lastError;
}

/**
 * Collapse All, then expand the endpoint row again. Waits for the collapse to show before the
 * click, and for the row to say it is expanded after it: a click that lands while the tree is
 * re-rendering its rows can be lost, and is then made once more, as a person would.
 */
async function collapseAllAndExpand(page: Page, endpoint: string): Promise<void> {
  await collapseAll(page, endpoint);
  const expanded = page.locator('.monaco-list-row[aria-expanded="true"]', { hasText: endpoint }).first();
  for (let attempt = 1; ; attempt++) {
    if (!(await expanded.isVisible())) await row(page, endpoint).click();
    if (await expanded.waitFor({ timeout: 5000 }).then(() => true, () => false)) return;
    if (attempt === 3) throw new Error(`${endpoint} did not expand after ${attempt} clicks`);
  }
}

/**
 * Scrolls the RPC Explorer's list with the mouse wheel, as a person would, until `target` is on
 * screen (the list renders only the rows in view): down first, and back up from the end.
 * Resolves whether it showed within `timeoutMs`.
 */
async function scrollToRow(page: Page, target: Locator, timeoutMs = 15_000): Promise<boolean> {
  const list = explorerPane(page).locator('.monaco-list').first();
  const firstIndex = () => explorerRows(page).evaluateAll((els) => Math.min(...els.map((e) => Number(e.getAttribute('data-index')))));
  /** Wholly inside the list's box: a row half under its edge is rendered, but not there to click. */
  const onScreen = async (): Promise<boolean> => {
    const [box, rowBox] = await Promise.all([list.boundingBox(), target.isVisible().then((v) => (v ? target.boundingBox() : null))]);
    return !!box && !!rowBox && rowBox.y >= box.y && rowBox.y + rowBox.height <= box.y + box.height;
  };
  let direction = 1;
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (await onScreen()) return true;
    const box = await list.boundingBox();
    if (!box) return false;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const before = await firstIndex();
    await page.mouse.wheel(0, direction * Math.round(box.height / 2));
    await new Promise((resolve) => setTimeout(resolve, 300));
    if ((await firstIndex()) === before) direction = -direction; // an end of the list: turn back
  }
  return onScreen();
}

/**
 * Waits until Go to has revealed its result: the row selected. Go to reveals once the tree has
 * been quiet for a moment, which can be after the row first shows; a step that went on at once
 * (Collapse All) would see the late reveal expand the endpoint again.
 */
async function revealed(page: Page, text: string): Promise<void> {
  await page.locator('.monaco-list-row.selected', { hasText: text }).first().waitFor({ timeout: 10_000 });
}

/** The RPC Explorer's pane in the side bar (the Authorizations view's rows are elsewhere). */
const explorerPane = (page: Page) => page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'RPC Explorer' }) });
const explorerRows = (page: Page) => explorerPane(page).locator('.monaco-list-row[aria-level]');

/**
 * The tree's rows in screen order with their nesting, as "Parent > Child" paths (the rows' labels,
 * without descriptions), whether each is expanded (`undefined` for a leaf) and its list index.
 * Read from the DOM (aria-level, aria-expanded, data-index), so it is what the user sees. The
 * list renders only the rows in view: keep the tree short enough to fit.
 */
async function treeRows(page: Page): Promise<Map<string, { expanded: boolean | undefined; index: number }>> {
  const rows = await explorerRows(page).evaluateAll((els) => els.map((e) => ({
    index: Number(e.getAttribute('data-index')),
    level: Number(e.getAttribute('aria-level')),
    expanded: e.getAttribute('aria-expanded'),
    label: (e.querySelector('.label-name')?.textContent ?? '').trim(),
  })));
  rows.sort((a, b) => a.index - b.index);
  const paths = new Map<string, { expanded: boolean | undefined; index: number }>();
  const stack: string[] = [];
  for (const r of rows) {
    stack.length = r.level - 1;
    stack.push(r.label);
    paths.set(stack.join(' > '), { expanded: r.expanded === null ? undefined : r.expanded === 'true', index: r.index });
  }
  return paths;
}

/**
 * The one row whose path is `rowPath`, or matches it: a block row's label changes every block
 * (`latest #13`, then `latest #14`), so it is found by a pattern.
 */
function findRow<T>(rows: Map<string, T>, rowPath: string | RegExp): [string, T] | undefined {
  if (typeof rowPath === 'string') {
    const found = rows.get(rowPath);
    return found === undefined ? undefined : [rowPath, found];
  }
  return [...rows.entries()].find(([p]) => rowPath.test(p));
}

/** Waits until the row at `rowPath` shows, expanded or collapsed as said. */
async function rowState(page: Page, rowPath: string | RegExp, expanded: boolean, timeout = 15_000): Promise<void> {
  let seen = new Map<string, { expanded: boolean | undefined }>();
  for (const deadline = Date.now() + timeout; Date.now() < deadline;) {
    seen = await treeRows(page);
    if (findRow(seen, rowPath)?.[1].expanded === expanded) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const now = findRow(seen, rowPath)?.[1];
  throw new Error(`row "${rowPath}" is not ${expanded ? 'expanded' : 'collapsed'} (it is ${now ? (now.expanded ? 'expanded' : 'collapsed') : 'not shown'}; shown: ${[...seen.keys()].join(' | ')})`);
}

/** Clicks the row at `rowPath` until it shows expanded or collapsed as wanted, as a person would. */
async function setRow(page: Page, rowPath: string | RegExp, expanded: boolean): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const now = findRow(await treeRows(page), rowPath)?.[1];
    if (!now) throw new Error(`row "${rowPath}" is not shown`);
    if (now.expanded === expanded) return;
    await explorerPane(page).locator(`.monaco-list-row[data-index="${now.index}"]`).first().click();
    try {
      await rowState(page, rowPath, expanded, 5000);
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** Opens the palette and types a command's title, up to the point of pressing Enter. */
async function prepareCommand(page: Page, title: string): Promise<void> {
  // The palette may not list a just-registered command at once: retry briefly.
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      // A quick input still open (or closing) would swallow F1: close it first.
      if (await input.isVisible()) await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 5000 });
      await input.fill(`>${title}`, { timeout: 5000 });
      await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ state: 'visible', timeout: 3000 });
      return;
    } catch {
      await page.keyboard.press('Escape');
    }
  }
  throw new Error(`command "${title}" not found in the palette`);
}

async function runCommand(page: Page, title: string): Promise<void> {
  await prepareCommand(page, title);
  await page.keyboard.press('Enter');
}

/**
 * Runs a command that asks with a quick pick, and chooses an item with the keyboard, as a person in
 * a hurry does: type its label into the filter, wait until it is the focused row, press Enter. No
 * mouse click: a hover left over from a tree row, or the list scrolling, can cover or move a row.
 * The workbench sometimes closes a quick pick right after it opens (seen here and in CI, with
 * the pick's rows still in the DOM but hidden); then the command is run again, up to three times.
 */
async function runCommandAndChoose(page: Page, title: string, label: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    await runCommand(page, title);
    try {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(label, { timeout: 5000 });
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: label }).first().waitFor({ state: 'visible', timeout: 5000 });
      await page.keyboard.press('Enter');
      await input.waitFor({ state: 'hidden', timeout: 5000 });
      return;
    } catch (error) {
      lastError = error;
      if (await input.isVisible()) await page.keyboard.press('Escape');
    }
  }
  throw lastError;
}

async function rpcCall(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = await response.json() as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** 2.5 USDC from the first dev account to the second, as a dapp would send it; resolves once mined. */
async function sendTokenTransfer(url: string): Promise<string> {
  const [from, to] = await rpcCall(url, 'eth_accounts', []) as string[];
  const token = '0x3600000000000000000000000000000000000000';
  const data = `0xa9059cbb${to.slice(2).padStart(64, '0')}${(2_500_000).toString(16).padStart(64, '0')}`;
  const hash = await rpcCall(url, 'eth_sendTransaction', [{ from, to: token, data }]) as string;
  for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
    if (await rpcCall(url, 'eth_getTransactionReceipt', [hash])) return hash;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`transfer ${hash} not mined within 15 s`);
}

/**
 * A capture, as a merchant's backend does it: the payer (dev account 0) signs an EIP-3009
 * TransferWithAuthorization (eth_signTypedData_v4 on the node), the merchant (dev account 1)
 * relays it. Resolves with the block it was mined in.
 */
async function sendCapture(url: string): Promise<number> {
  const [payer, merchant] = await rpcCall(url, 'eth_accounts', []) as string[];
  const token = new Interface(STABLE_TOKEN_ABI);
  const address = '0x3600000000000000000000000000000000000000';
  const read = async (name: string) => token.decodeFunctionResult(name, await rpcCall(url, 'eth_call', [{ to: address, data: token.encodeFunctionData(name, []) }, 'latest']) as string)[0] as string;
  const message = { from: payer, to: merchant, value: 1_000_000n, validAfter: 0n, validBefore: BigInt(Math.floor(Date.now() / 1000) + 3600), nonce: hexlify(randomBytes(32)) };
  const typed = buildTypedData('TransferWithAuthorization', { name: await read('name'), version: await read('version'), chainId: 31337n, verifyingContract: address }, message);
  const signature = await rpcCall(url, 'eth_signTypedData_v4', [payer, JSON.stringify(typed)]) as string;
  const data = token.encodeFunctionData('transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)', [
    message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, signature,
  ]);
  const hash = await rpcCall(url, 'eth_sendTransaction', [{ from: merchant, to: address, data }]) as string;
  for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
    const receipt = await rpcCall(url, 'eth_getTransactionReceipt', [hash]) as { status: string; blockNumber: string } | null;
    if (receipt) {
      if (receipt.status !== '0x1') throw new Error(`capture ${hash} failed`);
      return Number(receipt.blockNumber);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`capture ${hash} not mined within 15 s`);
}

/**
 * `vsix`: the extension as a user installs it (code-server --install-extension), instead of the
 * development folder.
 */
export async function runUiTest(repoRoot: string, options: { vsix?: string } = {}): Promise<UiResult> {
  const tools = ensureVsCodeTools();
  const shotsDir = process.env.CHAIN_EXPLORER_SCREENSHOTS === 'media'
    ? path.join(repoRoot, 'media')
    : path.join(repoRoot, 'test-results', 'screenshots');
  fs.mkdirSync(shotsDir, { recursive: true });
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'chain-explorer-ui-'));
  // The mock node on a port the test knows, so it can send transactions as a dapp would.
  const nodePort = await freePort();
  const nodeUrl = `http://127.0.0.1:${nodePort}/`;
  const portScan = process.env.CHAIN_EXPLORER_UI_PORT_SCAN === '1';
  const server = await startCodeServer(tools, {
    folder: workspace,
    installExtensions: options.vsix ? [options.vsix] : [],
    // The explorer's debug lines (rows it keeps expanded or collapsed): the reload step waits for
    // them and prints them. The web workbench takes only the global level from code-server.
    logLevels: ['debug', `${EXTENSION_ID}:debug`],
    settings: {
      'workbench.view.alwaysShowHeaderActions': true,
      'workbench.colorTheme': 'Default Dark Modern',
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'workbench.tips.enabled': false,
      'chainExplorer.mockNode.options': { port: nodePort },
      // code-server runs the workbench as a remote: its extension host scans /proc for listening
      // ports every 2 s or more to offer forwarding (findCandidatePorts: /proc/net/tcp, a stat,
      // readlink and read per process, and two shell commands, `ls -l /proc/[0-9]*/fd/[0-9]*` and
      // `ps -F -A -l`, per scan). Desktop VS Code on a local folder does not run it. What turns it
      // off is not remote.autoForwardPorts (code-server has a tunnel provider, which keeps the
      // scan on regardless) but remote.autoForwardPortsSource "output" (the workbench's
      // processFindingEnabled()); one scan at the extension host's start remains.
      // CHAIN_EXPLORER_UI_PORT_SCAN=1 leaves it on, to measure what it costs.
      ...(portScan ? {} : { 'remote.autoForwardPorts': false, 'remote.autoForwardPortsSource': 'output' }),
    },
  });
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  try {
    browser = await openBrowser(tools.chromium, { width: 1280, height: 800 });
  } catch (error) {
    await server.stop(); // never leave a code-server running
    fs.rmSync(workspace, { recursive: true, force: true });
    throw error;
  }
  const page = browser.page;
  const result: UiResult = { passed: 0, failed: 0 };
  let broken = false;
  /** One checked step; after a failure the remaining steps (which build on it) are skipped. */
  const step = async (name: string, body: () => Promise<void>): Promise<boolean> => {
    if (broken) {
      console.log(`    - ${name} (skipped after a failure)`);
      return false;
    }
    try {
      await body();
      result.passed++;
      console.log(`    ✔ ${name}`);
      return true;
    } catch (error) {
      result.failed++;
      broken = true;
      console.log(`    ✘ ${name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      await page.screenshot({ path: path.join(shotsDir, `failure-${result.failed}.png`) }).catch(() => undefined);
      const rows = await page.locator('.monaco-list-row')
        .evaluateAll((els) => els.map((e) => `${(e as HTMLElement).offsetParent ? 'visible' : 'hidden'} expanded=${e.getAttribute('aria-expanded')} ${e.textContent}`))
        .catch(() => [] as string[]);
      // What the tree showed, for the failure report next to the screenshot.
      fs.writeFileSync(path.join(shotsDir, `failure-${result.failed}-rows.txt`), `${rows.join('\n')}\n`);
      // And in the log, where a CI run leaves nothing else.
      console.log(`      the tree showed:\n${rows.map((r) => `        ${r}`).join('\n')}`);
      return false;
    }
  };
  const shot = (name: string) => page.screenshot({ path: path.join(shotsDir, name) });
  console.log(`  UI test (the workbench driven like a person; the extension ${options.vsix ? `installed from ${path.basename(options.vsix)}` : 'from the development folder'})`);
  try {
    // A busy machine takes more than the default 30 s to load the workbench.
    page.setDefaultNavigationTimeout(120_000);
    await page.goto(workbenchUrl({ origin: server.origin, host: server.host, port: server.port, folder: workspace, extensionDevelopmentPath: options.vsix ? undefined : repoRoot }));
    /** The extension host of this window (code-server starts it when the workbench connects). */
    const extensionHost = async (): Promise<number> => {
      for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
        const hosts = findProcesses(server.process.pid!, 'extensionHost');
        if (hosts.length > 0) return hosts[hosts.length - 1];
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      throw new Error('no extension host process found');
    };
    const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
    let baseline: CpuBreakdown | undefined;
    await step('measures the extension host CPU before the Chain view was ever opened (code-server\'s own: the baseline)', async () => {
      await page.locator('.activitybar [aria-label^="Chain"]').first().waitFor({ timeout: 60_000 });
      const host = await extensionHost();
      // The workbench's start (built-in extensions activating, one port scan) is over first:
      // a 1 s slice under 1 % of a core, or 30 s.
      await settled(host, { below: 0.01, maxMs: 30_000 });
      baseline = await measureCpuBreakdown(host, 10_000);
      console.log(`      extension host CPU with the Chain view never opened and no endpoint: ${formatBreakdown(baseline)}; code-server's port scan ${portScan ? 'on' : 'off'}`);
    });

    await step('opens the Chain view from the activity bar and shows the welcome', async () => {
      await page.locator('.activitybar [aria-label^="Chain"]').first().click({ timeout: 60_000 });
      await page.getByText('No endpoint yet.').waitFor({ timeout: 20_000 });
      await widenSideBar(page, 560);
      // Give the RPC Explorer the whole side bar: fold the other views of the container.
      const others = page.locator('.part.sidebar .pane-header.expanded', { hasNotText: 'RPC Explorer' });
      for (let i = await others.count(); i > 0; i--) await others.first().click();
      await shot('explorer-welcome.png');
    });

    await step('starts the mock node from the welcome button: the started endpoint opens by itself on its latest block', async () => {
      await page.locator('.welcome-view-content').getByRole('button', { name: 'Start Mock Node' }).click();
      await row(page, 'Mock node (public)').waitFor({ timeout: 30_000 });
      await row(page, 'Mock node (dedicated)').waitFor({ timeout: 5000 });
      // The first minute (issue 24): no click, and the block is there.
      await page.locator('.monaco-list-row[aria-expanded="true"]', { hasText: 'Mock node (public)' }).first().waitFor({ timeout: 10_000 });
      await row(page, /latest #\d+/).waitFor({ timeout: 10_000 });
      await page.locator('.monaco-list-row[aria-expanded="false"]', { hasText: 'Mock node (dedicated)' }).first().waitFor({ timeout: 5000 });
      await shot('explorer-first-minute.png');
    });

    await step('expands the endpoint, then at once the latest block: it lists its children (issue 11)', async () => {
      // The bug: the endpoint was read before it was expanded, a block was sealed meanwhile, and
      // expanding it read it again; the explorer then refreshed the endpoint row right after VS
      // Code had listed its children, and a block expanded in that moment stayed empty for good.
      await row(page, /Mock node \(public\).*chain 31337/).waitFor({ timeout: 10_000 });
      // It opened by itself: close it first, so that the step expands it as before.
      await row(page, 'Mock node (public)').click();
      await page.locator('.monaco-list-row[aria-expanded="false"]', { hasText: 'Mock node (public)' }).first().waitFor({ timeout: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 2500)); // the mock node seals a block every 2 s
      await row(page, 'Mock node (public)').click();
      await row(page, /latest #\d+/).click({ timeout: 10_000 });
      for (const child of ['Transactions', 'Receipts', 'Logs', 'Header']) await row(page, child).waitFor({ timeout: 10_000 });
      await page.locator('.statusbar-item', { hasText: /latest #\d+/ }).waitFor({ timeout: 10_000 });
      await shot('explorer-latest.png');
    });

    await step('follows latest with pending off: two new heads show without any click', async () => {
      // The row reads `latest #12` then the hash `0x…`, with or without a space between.
      const shown = Number(/latest #(\d+)(?=\s|0x)/.exec(await row(page, /latest #\d+/).innerText())?.[1]);
      await row(page, new RegExp(`latest #${shown + 2}(?=\\s|0x)`)).waitFor({ timeout: 15_000 });
      await row(page, 'Transactions').waitFor({ timeout: 5000 }); // still expanded, with its children
    });

    let transfer = '';
    await step('a dapp sends a token transfer; Go to from the endpoint\'s row asks no endpoint and shows the decoded transfer', async () => {
      transfer = await sendTokenTransfer(nodeUrl);
      await row(page, 'Go to…').click();
      // Straight to the text box for this endpoint: no quick pick of endpoints first (issue 24).
      await page.locator('.quick-input-widget', { hasText: 'Go to… on Mock node (public)' }).waitFor({ state: 'visible', timeout: 10_000 });
      const input = page.locator('.quick-input-widget input');
      await input.fill(transfer);
      await page.keyboard.press('Enter');
      await row(page, new RegExp(`^transfer 2\\.5 USDC to 0x7099…79C8.*success · #\\d+ · tx ${transfer.slice(0, 10)}`)).waitFor({ timeout: 15_000 });
      await revealed(page, 'transfer 2.5 USDC to 0x7099…79C8');
      await shot('explorer-goto-transaction.png');
    });

    await step('opens the transaction page of the found transfer from the palette: stage, decoded input, gas, logs', async () => {
      await runCommand(page, 'Chain: Open Transaction Page');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(transfer);
      await page.keyboard.press('Enter');
      const line = (text: RegExp) => page.locator('.monaco-editor .view-line', { hasText: text }).first();
      // The editor draws spaces as no-break spaces: \s matches both.
      await line(/Stage:\s+(included|safe|finalized)\s+in\s+block\s+#\d+/).waitFor({ timeout: 15_000 });
      await line(/Action:\s+transfer\s+2\.5\s+USDC\s+to\s+0x7099…79C8/).waitFor({ timeout: 5000 });
      await shot('transaction-page.png');
      await runCommand(page, 'View: Close Editor');
    });

    await step('one click on the sender (a link) opens the address: balances, nonce, the token transfer out', async () => {
      await row(page, /^from0x/).click();
      await row(page, /out · Transfer 2\.5 USDC 0xf39F…2266 → 0x7099…79C8/).waitFor({ timeout: 15_000 });
      await row(page, /^nonce\d+ · pending \d+/).waitFor({ timeout: 5000 });
      await revealed(page, '0xf39fd6…b92266');
      await shot('explorer-address.png');
    });

    await step('Go to the transfer, then Go to its sender from the palette: the sender is selected, its balance in view without scrolling, the transaction collapsed (issue 38)', async () => {
      const goTo = async (text: string) => {
        await runCommand(page, 'Chain: Go to Block, Transaction or Address…');
        await page.locator('.quick-input-widget', { hasText: 'Go to… on Mock node (public)' }).waitFor({ state: 'visible', timeout: 10_000 });
        await page.locator('.quick-input-widget input').fill(text);
        await page.keyboard.press('Enter');
      };
      await goTo(transfer);
      await revealed(page, 'transfer 2.5 USDC to 0x7099…79C8');
      await page.locator('.monaco-list-row[aria-expanded="true"]', { hasText: 'transfer 2.5 USDC to 0x7099…79C8' }).first().waitFor({ timeout: 10_000 });
      const sender = (await rpcCall(nodeUrl, 'eth_getTransactionByHash', [transfer]) as { from: string }).from;
      await goTo(sender);
      await revealed(page, '0xf39fd6…b92266');
      // No scrolling by the test: the balance row must be wholly inside the list's box as Go to left it.
      const list = explorerPane(page).locator('.monaco-list').first();
      const balance = explorerPane(page).locator('.monaco-list-row', { hasText: /^balance\d/ }).first();
      const inView = async () => {
        const [box, rowBox] = await Promise.all([list.boundingBox(), balance.isVisible().then((v) => (v ? balance.boundingBox() : null))]);
        return !!box && !!rowBox && rowBox.y >= box.y && rowBox.y + rowBox.height <= box.y + box.height;
      };
      for (const deadline = Date.now() + 5000; !(await inView());) {
        if (Date.now() > deadline) throw new Error("the sender's balance row is not in view after Go to");
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // The older result, the transaction, shows as one collapsed row under it.
      await page.locator('.monaco-list-row[aria-expanded="false"]', { hasText: 'transfer 2.5 USDC to 0x7099…79C8' }).first().waitFor({ timeout: 5000 });
      await shot('explorer-goto-sender.png');
    });

    await step('finds the transfer in Recent blocks: expands its block, the transaction shows its status', async () => {
      await collapseAllAndExpand(page, 'Mock node (public)');
      await row(page, 'Recent blocks').click();
      const number = Number(await rpcCall(nodeUrl, 'eth_getTransactionReceipt', [transfer]).then((r) => (r as { blockNumber: string }).blockNumber));
      const blockRow = explorerPane(page).locator('.monaco-list-row', { hasText: new RegExp(`^#${number}0x`) }).first();
      const blockOpen = explorerPane(page).locator('.monaco-list-row[aria-expanded="true"]', { hasText: new RegExp(`^#${number}0x`) }).first();
      const older = explorerPane(page).locator('.monaco-list-row', { hasText: /Load \d+ older blocks…/ }).first();
      // Ten blocks a page, newest first, and a new block every 2 s: the transfer's block is some
      // pages down by now (more on a loaded machine). The list keeps as many pages as were loaded,
      // so each new block pushes the oldest one out at the bottom (and it starts again from the
      // newest page when the explorer fell more than a page behind the head). So, until the block
      // shows expanded: load older blocks until the oldest listed is well below the transfer's
      // block (15 blocks: half a minute before it can slide out); scroll the list; click the
      // block when it is on screen (a new block shifts the rows under the mouse: the click may
      // land on its neighbour, then again).
      const margin = 15;
      for (const deadline = Date.now() + 90_000; !(await blockOpen.isVisible());) {
        if (Date.now() > deadline) throw new Error(`block #${number} not found and expanded under Recent blocks`);
        // The row that loads older blocks is at the list's end: scroll to it first (none: the
        // list reaches the first block).
        const olderShown = (await older.isVisible()) || (await scrollToRow(page, older, 5000));
        const oldest = olderShown ? Number(/before #(\d+)/.exec(await older.innerText().catch(() => ''))?.[1] ?? Infinity) : 0;
        if (oldest > Math.max(0, number - margin)) {
          await older.click({ timeout: 10_000 }).catch(() => undefined);
          await explorerPane(page).locator('.monaco-list-row', { hasText: `before #${oldest}` }).waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
        } else if (await scrollToRow(page, blockRow, 5000)) {
          await blockRow.click({ timeout: 10_000 }).catch(() => undefined);
          await blockOpen.waitFor({ timeout: 5000 }).catch(() => undefined);
        }
      }
      // Its transactions open under it (by default), possibly below the edge of the list.
      const transaction = explorerPane(page).locator('.monaco-list-row', { hasText: new RegExp(`#0 transfer 2\\.5 USDC to 0x7099…79C8.*success · ${transfer.slice(0, 10)}`) }).first();
      if (!(await scrollToRow(page, transaction, 15_000))) throw new Error(`the transfer did not show under block #${number}`);
      await shot('explorer-recent-blocks.png');
      await collapseAllAndExpand(page, 'Mock node (public)');
    });

    await step('Activity follows a capture across three blocks: its Transfer and AuthorizationUsed stay listed', async () => {
      await row(page, /^Activity/).click();
      await row(page, 'Token events').waitFor({ timeout: 10_000 });
      const mined = await sendCapture(nodeUrl);
      const used = row(page, new RegExp(`AuthorizationUsed by 0xf39F…2266 · nonce.*#${mined}\\b`));
      await used.waitFor({ timeout: 15_000 });
      await row(page, new RegExp(`Transfer 1 USDC 0xf39F…2266 → 0x7099…79C8.*#${mined}\\b`)).waitFor({ timeout: 5000 });
      // Checked at every new head the status bar shows, until three blocks have gone by.
      const status = page.locator('.statusbar-item', { hasText: /latest #\d+/ }).first();
      const head = async () => Number(/latest #(\d+)/.exec(await status.innerText())?.[1] ?? -1);
      for (let seen = await head(), deadline = Date.now() + 30_000; seen < mined + 3;) {
        if (Date.now() > deadline) throw new Error(`latest stayed at #${seen}, the capture is in #${mined}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const now = await head();
        if (now !== seen) await used.waitFor({ timeout: 5000 }); // still listed at the new head
        seen = now;
      }
      await shot('explorer-activity.png');
      await collapseAllAndExpand(page, 'Mock node (public)');
      await row(page, /latest #\d+/).click();
      await row(page, 'Transactions').waitFor({ timeout: 10_000 });
    });

    await step('flips pending on with the view title button; the status bar shows pending', async () => {
      await page.locator('.pane-header [aria-label*="Follow Pending Block"], .title-actions [aria-label*="Follow Pending Block"]').first().click();
      await page.locator('.statusbar-item', { hasText: /pending #\d+\.\d+/ }).waitFor({ timeout: 10_000 });
      await row(page, /pending #\d+/).waitFor({ timeout: 10_000 });
    });

    await step('sends transactions from the palette and sees them arrive in the pending block', async () => {
      const arrivals: number[] = [];
      const missed: string[] = [];
      const status = page.locator('.statusbar-item', { hasText: /pending #\d+\.\d+/ }).first();
      const pendingAt = async () => {
        const match = /pending #(\d+)\.(\d+)/.exec(await status.innerText());
        return { block: Number(match?.[1] ?? -1), k: Number(match?.[2] ?? 99) };
      };
      while (arrivals.length < 3) {
        const sent = page.locator('.statusbar-item', { hasText: /Sent 0x[0-9a-f]{8}/ });
        await sent.waitFor({ state: 'detached', timeout: 5000 }).catch(() => undefined); // the previous message
        await prepareCommand(page, 'Chain: Send Test Transaction (Mock Node)');
        // Press Enter right after a new block shows, so the transaction stays pending for most of
        // the 2 s block (k counts the refreshes seen, not the flashblock index).
        const current = (await pendingAt()).block;
        for (let waited = 0; waited < 80 && (await pendingAt()).block === current; waited++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        const atSend = await pendingAt();
        await page.keyboard.press('Enter');
        const sentAt = Date.now();
        const prefix = /Sent (0x[0-9a-f]{8})/.exec(await sent.first().innerText({ timeout: 10_000 }))?.[1];
        if (!prefix) throw new Error('no "Sent 0x…" message in the status bar');
        // Shown in the pending block, or (a slow poll of a cold extension host) sealed into latest
        // before the screen showed it pending: that one is noted and another is sent.
        let outcome: 'shown' | 'sealed' | undefined;
        for (const deadline = Date.now() + 10_000; !outcome && Date.now() < deadline;) {
          if (await row(page, prefix).isVisible()) outcome = 'shown';
          else if ((await pendingAt()).block > atSend.block) outcome = (await row(page, prefix).isVisible()) ? 'shown' : 'sealed';
          else await new Promise((resolve) => setTimeout(resolve, 25));
        }
        if (outcome === 'shown') arrivals.push(Date.now() - sentAt);
        else if (outcome === 'sealed' && missed.length < 2) missed.push(`sent at #${atSend.block}.${atSend.k}, sealed after ${Date.now() - sentAt} ms`);
        else throw new Error(`transaction ${prefix}… not shown in the pending block (${outcome ?? 'timed out'}; earlier misses: ${missed.join('; ') || 'none'})`);
      }
      console.log(`      sent → row on screen: ${arrivals.map((ms) => `${ms} ms`).join(', ')}${missed.length ? `; sealed before shown pending: ${missed.join('; ')}` : ''}`);
    });

    await step('restarts the node with slow flashblocks from the palette; three transactions fill one pending block', async () => {
      await runCommandAndChoose(page, 'Chain: Restart Mock Node with Options', 'Slow flashblocks');
      await row(page, /pending #\d+.*· 0 tx/).waitFor({ timeout: 15_000 });
      // Send right after a block begins: three palette commands on a busy machine can take longer
      // than what is left of a 10 s block, and a seal in between splits them over two blocks.
      const status = page.locator('.statusbar-item', { hasText: /pending #\d+\.\d+/ }).first();
      const blockNow = async () => Number(/pending #(\d+)\./.exec(await status.innerText())?.[1] ?? -1);
      const started = await blockNow();
      for (let waited = 0; waited < 240 && (await blockNow()) === started; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
      for (let i = 0; i < 3; i++) await runCommand(page, 'Chain: Send Test Transaction (Mock Node)');
      await row(page, /Transactions\s*3/).waitFor({ timeout: 10_000 });
      await shot('explorer-pending.png');
    });

    await step('opens Receipts on the public endpoint and sees the 403 node', async () => {
      await row(page, 'Receipts').click();
      await row(page, 'needs a dedicated endpoint (HTTP 403)').waitFor({ timeout: 10_000 });
      await shot('explorer-receipts-403.png');
    });

    await step('shows accounts (nonce latest / pending, ETH, token) and the token', async () => {
      await row(page, 'Receipts').click(); // collapse again
      await row(page, 'Transactions').click();
      await row(page, 'Accounts').click();
      await row(page, /nonce \d+ \/ pending \d+ · .* USDC/).waitFor({ timeout: 10_000 });
      await row(page, /^Token/).click();
      await row(page, 'USD Coin').waitFor({ timeout: 10_000 });
      await shot('explorer-accounts-token.png');
    });

    await step('stops polling while the window has lost focus and resumes when it is back', async () => {
      // Slow flashblocks (1 s flashblocks, 10 s blocks): a transaction sent now shows in the
      // pending block's row within about a second, if the explorer is polling.
      const block = row(page, /pending #\d+/);
      const unchangedFor = async (before: string, ms: number): Promise<boolean> => {
        for (const deadline = Date.now() + ms; Date.now() < deadline;) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          if ((await block.innerText()) !== before) return false;
        }
        return true;
      };
      const sendTestTransaction = async () => {
        await runCommand(page, 'Chain: Send Test Transaction (Mock Node)');
        await page.locator('.statusbar-item', { hasText: /Sent 0x[0-9a-f]{8}/ }).first().waitFor({ timeout: 5000 });
      };
      // First with focus: the row changes when a transaction arrives.
      const focused = await block.innerText();
      await sendTestTransaction();
      if (await unchangedFor(focused, 4000)) throw new Error(`the pending block row did not change with the window focused: ${focused}`);
      // Headless Chromium keeps every page focused (focus emulation), so the page is told what a
      // real focus loss tells it: document.hasFocus() false, then a blur event. The workbench sends
      // the window state to the extension host, whose onDidChangeWindowState stops the poller.
      await page.evaluate(() => {
        (document as unknown as { hasFocus: () => boolean }).hasFocus = () => false;
        window.dispatchEvent(new Event('blur'));
      });
      await new Promise((resolve) => setTimeout(resolve, 1500)); // a tick in flight may still land
      const before = await block.innerText();
      await sendTestTransaction();
      if (!(await unchangedFor(before, 3000))) throw new Error('the pending block changed on screen with the window unfocused');
      // Focus back: the workbench re-reads document.hasFocus() on a visibility change.
      await page.evaluate(() => {
        delete (document as unknown as { hasFocus?: unknown }).hasFocus; // back to Document.prototype.hasFocus
        window.dispatchEvent(new Event('focus'));
        document.dispatchEvent(new Event('visibilitychange'));
      });
      if (await unchangedFor(before, 5000)) throw new Error(`polling did not resume when the window got focus back: ${before}`);
    });

    await step('restarts the mock node in manual mode from the command palette', async () => {
      await runCommandAndChoose(page, 'Chain: Restart Mock Node with Options', 'Manual mode');
      await row(page, /pending #\d+/).waitFor({ timeout: 15_000 });
    });

    await step('measures the extension host CPU (pending on with nothing changing, then pending off)', async () => {
      const host = await extensionHost();
      // The mock node has a WebSocket: the explorer follows it by subscription, and its row says so.
      await row(page, /Mock node \(public\).*· subscribed/).waitFor({ timeout: 15_000 });
      const profile = async (what: string): Promise<void> => {
        // Where the time goes (diagnostics, after the measurement: the inspector costs a little itself).
        if (process.env.CHAIN_EXPLORER_PROFILE_HOST === '1') console.log(`      ${what}, profile:\n        ${(await profileProcess(host, 10_000)).join('\n        ')}`);
      };
      const figures: [string, CpuBreakdown][] = [];
      // Steady state: the restart's reads and the tree's re-render are over (a loaded machine is slow).
      await settled(host);
      figures.push(['pending on, nothing changing', await measureCpuBreakdown(host, 10_000)]);
      await profile('pending on');
      await page.locator('.pane-header [aria-label*="Show Latest Block"], .title-actions [aria-label*="Show Latest Block"]').first().click();
      await page.locator('.statusbar-item', { hasText: /latest #\d+/ }).waitFor({ timeout: 10_000 });
      // Steady state: the one read of everything shown at latest, and its re-render, are over.
      await settled(host);
      figures.push(['pending off', await measureCpuBreakdown(host, 10_000)]);
      await profile('pending off');
      // The same extension host with the Chain view hidden (the explorer does nothing then): the
      // side bar closed, rather than another view opened (the file explorer's start would be measured).
      await runCommand(page, 'View: Toggle Primary Side Bar Visibility');
      await page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: 10_000 });
      await settled(host);
      figures.push(['Chain view hidden', await measureCpuBreakdown(host, 10_000)]);
      await profile('Chain view hidden');
      // Printed, never asserted: the figures depend on the machine's load.
      const base = baseline?.total;
      console.log(`      extension host CPU (mock node in it, manual mode, followed by subscription), % of one core over 10 s; `
        + `code-server's own, measured before the Chain view was first opened: ${base === undefined ? 'not measured' : pct(base)}; `
        + `code-server's port scan ${portScan ? 'ON (CHAIN_EXPLORER_UI_PORT_SCAN=1)' : 'off (remote.autoForwardPortsSource "output"; desktop VS Code does not run it)'}:`);
      for (const [what, figure] of figures) {
        const ours = base === undefined ? '' : `, above code-server's own ${pct(Math.max(0, figure.total - base))}`;
        console.log(`        ${what}: ${pct(figure.total)}${ours}`);
      }
      if (process.env.CHAIN_EXPLORER_PROFILE_HOST === '1') {
        for (const [what, figure] of [['baseline', baseline], ...figures] as [string, CpuBreakdown | undefined][]) {
          if (figure) console.log(`        ${what} by thread: ${formatBreakdown(figure)}`);
        }
      }
    });

    await step('rows expanded and collapsed stay so across a window reload (Developer: Reload Window)', async () => {
      try {
        await reloadKeepsRows();
      } finally {
        // What the explorer remembered, as its log says (debug lines): the dedicated endpoint's rows,
        // and each window's start.
        const lines = explorerLogLines(server.profileDir, /tree rows (remembered|not saved)|row ep:mock:dedicated(\/block|\/accounts)? /);
        console.log(`      the explorer's log, rows it remembered:\n${lines.map((l) => `        ${l}`).join('\n') || '        (no debug lines: the log level was not applied)'}`);
      }
    });
    async function reloadKeepsRows(): Promise<void> {
      // A tall window, so that every row of the tree is rendered (the list draws only the rows in view).
      await page.setViewportSize({ width: 1280, height: 1600 });
      await page.locator('.activitybar [aria-label^="Chain"]').first().click();
      await row(page, 'Mock node (public)').waitFor({ timeout: 15_000 });
      // A short tree, so that every row is rendered.
      await collapseAll(page, 'Mock node (public)');
      // An endpoint of the user's own, kept in the settings: after a reload it is the only one
      // (the mock node runs in the extension host, which the reload restarts).
      await runCommand(page, 'Chain: Add Endpoint');
      const input = page.locator('.quick-input-widget input');
      await page.locator('.quick-input-widget', { hasText: 'Add Endpoint (1/3)' }).waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(nodeUrl);
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget', { hasText: 'Add Endpoint (2/3)' }).waitFor({ state: 'visible', timeout: 10_000 });
      await page.keyboard.press('Enter'); // no WebSocket URL: polled over HTTP
      await page.locator('.quick-input-widget', { hasText: 'Add Endpoint (3/3)' }).waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill('Local node');
      await page.keyboard.press('Enter');
      await input.waitFor({ state: 'hidden', timeout: 5000 });
      await rowState(page, 'Local node', true, 30_000); // just added: it opens by itself
      // What the user does: opens the dedicated endpoint and, under it, Accounts and the latest
      // block (both closed by default); leaves the endpoint just added as it opened.
      await setRow(page, 'Mock node (dedicated)', true);
      await rowState(page, 'Mock node (dedicated) > Accounts', false);
      await setRow(page, 'Mock node (dedicated) > Accounts', true);
      // The block row's label changes every block: found by its pattern (`latest`, then `latest #13`).
      const blockRow = /^Mock node \(dedicated\) > latest( #\d+)?$/;
      await rowState(page, blockRow, false);
      await setRow(page, blockRow, true);
      await rowState(page, /^Mock node \(dedicated\) > latest #\d+ > Transactions$/, true);
      await reloadWindow();
      // The reloaded window: the side bar comes back on the Chain view, the mock node is not
      // running, and the user's endpoint is the only one: it opens by itself (never closed).
      await row(page, 'Local node').waitFor({ timeout: 60_000 });
      await rowState(page, 'Local node', true, 30_000);
      // The user closes it, and starts the mock node.
      await setRow(page, 'Local node', false);
      await runCommand(page, 'Chain: Start Mock Node');
      // Opened by the user before the reload: open again, and so are the rows under it.
      await rowState(page, 'Mock node (dedicated)', true, 30_000);
      await rowState(page, 'Mock node (dedicated) > Accounts', true);
      await rowState(page, blockRow, true);
      // Open with its rows under it, and still open a few blocks later (2 s blocks).
      await rowState(page, /^Mock node \(dedicated\) > latest #\d+ > Transactions$/, true);
      const number = async () => Number(/latest #(\d+)/.exec(findRow(await treeRows(page), blockRow)?.[0] ?? '')?.[1] ?? -1);
      const reloadedAt = await number();
      for (const deadline = Date.now() + 30_000; (await number()) < reloadedAt + 2;) {
        if (Date.now() > deadline) throw new Error(`the block row stayed at #${reloadedAt} after the reload`);
        await rowState(page, blockRow, true, 1000);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await rowState(page, blockRow, true, 1000);
      await rowState(page, 'Local node', false, 1000);
      // A second reload: the user's endpoint is the only one again, and closed by the user it
      // stays closed (it would open by itself).
      await reloadWindow();
      await row(page, 'Local node').waitFor({ timeout: 60_000 });
      await rowState(page, 'Local node', false);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await rowState(page, 'Local node', false, 1000);
    }

    /**
     * Developer: Reload Window, once the explorer's log says the workspace state holds the rows
     * recorded last (it is written asynchronously; the reload saves what the workbench has), and
     * once the window is back on the Chain view.
     */
    async function reloadWindow(): Promise<void> {
      await rowsSaved(server.profileDir);
      const reloaded = page.waitForEvent('framenavigated', { timeout: 60_000 });
      await runCommand(page, 'Developer: Reload Window');
      await reloaded;
      await page.locator('.activitybar [aria-label^="Chain"]').first().waitFor({ timeout: 120_000 });
    }
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
  return result;
}
