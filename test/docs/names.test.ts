// The names the docs use exist: every CLI flag is in the built CLI's --help (or is named as another
// tool's), every JSON-RPC method is in the method catalog or listed as not served, every
// chainExplorer.* setting, command, view and context key is in package.json's contributes, and every
// "Chain: …" command title is one the extension contributes. Each check also runs on a bad sample.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG } from '../../mock-node/catalog/methods';
import { docs, readDoc, ROOT } from './docFiles';

// ---- CLI flags -------------------------------------------------------------------------------

/**
 * Flags the docs name that belong to other tools, with the tool: they are not the mock node's and
 * need not be in its --help. A flag of ours that a doc misspells is not here, so it fails.
 */
const OTHER_TOOLS_FLAGS: Record<string, string> = {
  '--install-extension': 'code (the VS Code command line)',
  '--save-dev': 'npm install', '--no-save': 'npm install', '--no-install': 'npx', '--dry-run': 'npm pack',
  '--no-config': 'mocha', '--require': 'mocha', '--extension': 'mocha', '--timeout': 'mocha', '--exit': 'mocha',
  '--only': 'npm run bench', '--quick': 'npm run bench', '--profile': 'npm run bench', '--json': 'npm run bench and npm run demo',
  '--production': 'node esbuild.mjs',
  '--write': 'test/mock-node/token/gasCalibration.ts', '--check': 'examples/permit-checkout/build.ts',
  '--interrupt-budget': 'node (V8)', '--single-threaded-gc': 'node (V8)', '--single-threaded': 'node (V8)', '--semi-space-growth-factor': 'node (V8)', '--cpu-prof': 'node',
  '--rpc-url': 'cast', '--nonce': 'cast', '--block': 'cast',
  '--prune-history': 'anvil', '--no-mining': 'anvil', '--no-cors': 'anvil',
  // anvil --fork-url's flags that docs/forking.md lists as not offered here
  '--dump-state': 'anvil', '--fork-chain-id': 'anvil', '--fork-header': 'anvil', '--fork-transaction-hash': 'anvil',
  '--compute-units-per-second': 'anvil', '--no-rate-limit': 'anvil', '--no-storage-caching': 'anvil',
};

/** The flags a --help text lists. */
export function helpFlags(help: string): Set<string> {
  return new Set([...help.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)].map((match) => match[0]));
}

/** The flags a doc names that are neither in --help nor another tool's. `--dedicated-…` is a prefix. */
export function unknownFlags(text: string, known: Set<string>): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*)(…)?/g)) {
    const [, flag, ellipsis] = match;
    if (ellipsis || flag.endsWith('-')) {
      if (![...known].some((name) => name.startsWith(flag))) unknown.add(flag + '…');
    } else if (!known.has(flag) && !(flag in OTHER_TOOLS_FLAGS)) {
      unknown.add(flag);
    }
  }
  return [...unknown];
}

// ---- JSON-RPC methods ------------------------------------------------------------------------

const METHOD_NAME = /\b(?:eth|net|web3|debug|evm|anvil|hardhat|mock|txpool|personal|trace|ots|erigon|wallet|odyssey)_[A-Za-z0-9_]*[A-Za-z0-9](\*)?/g;

/** Names shaped like methods that are not methods: the notification of eth_subscribe. */
const NOT_METHODS = new Set(['eth_subscription']);

/**
 * The methods docs/anvil-drop-in.md lists as not served: the table after "**Not served**". A name
 * followed by " with …" (`anvil_reset` with `forking.jsonRpcUrl`) is not served only so: the
 * catalog may serve it otherwise.
 */
export function notServed(page: string): Set<string> {
  return new Set(notServedRows(page).map((entry) => entry.name));
}

/** The same, each name with whether the table qualifies it. */
export function notServedRows(page: string): { name: string; qualified: boolean }[] {
  const start = page.indexOf('**Not served**');
  assert.ok(start >= 0, 'docs/anvil-drop-in.md has no "**Not served**" table');
  const lines = page.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const end = lines.findIndex((line, index) => index > first && !line.startsWith('|'));
  const names: { name: string; qualified: boolean }[] = [];
  for (const row of lines.slice(first, end < 0 ? undefined : end)) {
    const firstCell = row.split('|')[1] ?? '';
    for (const match of firstCell.matchAll(METHOD_NAME)) {
      names.push({ name: match[0], qualified: /^`? with /.test(firstCell.slice(match.index! + match[0].length)) });
    }
  }
  return names;
}

/** Names the table lists as not served although the catalog serves them, unqualified: a stale row. */
export function staleNotServed(page: string, served: ReadonlySet<string>): string[] {
  return notServedRows(page).filter((entry) => !entry.qualified && served.has(entry.name)).map((entry) => entry.name);
}

/** Method names a doc uses that are neither served (the catalog) nor listed as not served. `debug_trace*` is a prefix. */
export function unknownMethods(text: string, served: ReadonlySet<string>, unserved: Set<string>): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(METHOD_NAME)) {
    const name = match[0];
    if (match[1]) {
      const prefix = name.slice(0, -1);
      if (![...served, ...unserved].some((method) => method.startsWith(prefix))) unknown.add(name);
    } else if (!served.has(name) && !unserved.has(name) && !NOT_METHODS.has(name)) {
      unknown.add(name);
    }
  }
  return [...unknown];
}

// ---- Settings, commands, views and context keys ----------------------------------------------

interface Contributes {
  configuration: { properties: Record<string, unknown> };
  commands: { command: string; title: string; category?: string }[];
  views: Record<string, { id: string }[]>;
  walkthroughs?: { id: string; steps: { completionEvents?: string[] }[] }[];
  menus: Record<string, { when?: string }[]>;
  viewsWelcome?: { when?: string }[];
}

const EXTENSION_NAME = /\bchainExplorer\.[A-Za-z0-9_.]*[A-Za-z0-9_]/g;

/** Every chainExplorer.* name package.json contributes: settings, commands, views, walkthroughs, and the context keys its `when` clauses and completion events read. */
export function contributedNames(contributes: Contributes): Set<string> {
  const names = new Set<string>([
    ...Object.keys(contributes.configuration.properties),
    ...contributes.commands.map((command) => command.command),
    ...Object.values(contributes.views).flat().map((view) => view.id),
    ...(contributes.walkthroughs ?? []).map((walkthrough) => walkthrough.id),
  ]);
  const clauses = [
    ...Object.values(contributes.menus).flat().map((item) => item.when ?? ''),
    ...(contributes.viewsWelcome ?? []).map((item) => item.when ?? ''),
    ...(contributes.walkthroughs ?? []).flatMap((walkthrough) => walkthrough.steps.flatMap((step) => step.completionEvents ?? [])),
  ];
  for (const clause of clauses) for (const match of clause.matchAll(EXTENSION_NAME)) names.add(match[0]);
  return names;
}

/** chainExplorer.* names a doc uses that package.json does not contribute. */
export function unknownExtensionNames(text: string, known: Set<string>): string[] {
  return [...new Set([...text.matchAll(EXTENSION_NAME)].map((match) => match[0]).filter((name) => !known.has(name)))];
}

/** "**Chain: Title**" command names a doc uses that are not a contributed command's category and title. */
export function unknownCommandTitles(text: string, contributes: Contributes): string[] {
  const titles = new Set(contributes.commands.map((command) => `${command.category ?? ''}: ${command.title}`));
  return [...new Set([...text.matchAll(/\*\*(Chain: [^*]+)\*\*/g)].map((match) => match[1].replace(/\s+/g, ' ')).filter((title) => !titles.has(title)))];
}

// ---- The checks ------------------------------------------------------------------------------

const contributes = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: Contributes }).contributes;

describe('docs: the names they use exist', () => {
  let known: Set<string>;

  before(() => {
    // The built CLI (npm test builds first), as a user runs it.
    known = helpFlags(execFileSync(process.execPath, [join(ROOT, 'dist', 'mock-node.js'), '--help']).toString());
  });

  it('every CLI flag the docs name is in --help of the built CLI, or named as another tool\'s', () => {
    for (const { path, text } of docs()) assert.deepEqual(unknownFlags(text, known), [], `${path} names flags the CLI does not have`);
  });

  it('the flag check fails on a misspelt or missing flag, and on a prefix nothing starts with', () => {
    assert.ok(known.has('--block-time-ms') && known.has('--dedicated-max-log-range'));
    const sample = 'Run `chain-mock-node --block-time-ms 500 --blocktime 5 --dedicated-… --no-such-… --save-dev`.';
    assert.deepEqual(unknownFlags(sample, known), ['--blocktime', '--no-such-…']);
  });

  it('every JSON-RPC method the docs name is in the method catalog, or listed as not served', () => {
    const unserved = notServed(readDoc('docs/anvil-drop-in.md'));
    assert.ok(unserved.has('anvil_setChainId') && unserved.has('eth_getWork'), 'the not-served table was not read');
    for (const { path, text } of docs()) assert.deepEqual(unknownMethods(text, new Set(CATALOG.keys()), unserved), [], `${path} names methods neither served nor listed as not served`);
  });

  it('no method the catalog serves is listed as not served (unless the table says when: "with …")', () => {
    assert.deepEqual(staleNotServed(readDoc('docs/anvil-drop-in.md'), new Set(CATALOG.keys())), []);
    const sample = '**Not served**\n\n| methods | why |\n|---|---|\n| `anvil_reset` with `forking.jsonRpcUrl`, `eth_getWork` | … |\n| `eth_chainId` | … |\n\nafter';
    assert.deepEqual(staleNotServed(sample, new Set(['anvil_reset', 'eth_chainId'])), ['eth_chainId']);
  });

  it('the method check fails on a method the node does not know and the docs do not list', () => {
    const unserved = notServed(readDoc('docs/anvil-drop-in.md'));
    const sample = '`eth_getBlockByNumber`, `anvil_setChainId`, `debug_trace*`, `eth_getBlockByNumbr`, `mock_teleport`, `trace_nothing*`';
    assert.deepEqual(unknownMethods(sample, new Set(CATALOG.keys()), unserved), ['eth_getBlockByNumbr', 'mock_teleport', 'trace_nothing*']);
  });

  it('every chainExplorer.* setting, command, view and context key the docs name is in package.json', () => {
    const names = contributedNames(contributes);
    for (const { path, text } of docs()) assert.deepEqual(unknownExtensionNames(text, names), [], `${path} names settings or commands package.json does not contribute`);
  });

  it('every "Chain: …" command title the docs name is a contributed command', () => {
    for (const { path, text } of docs()) assert.deepEqual(unknownCommandTitles(text, contributes), [], `${path} names command titles package.json does not contribute`);
  });

  it('the setting and command checks fail on names package.json does not contribute', () => {
    const sample = '`chainExplorer.flashblockMs`, `chainExplorer.flashblocksMs`, `chainExplorer.pending`, **Chain: Start Mock Node**, **Chain: Start The Node**';
    assert.deepEqual(unknownExtensionNames(sample, contributedNames(contributes)), ['chainExplorer.flashblocksMs']);
    assert.deepEqual(unknownCommandTitles(sample, contributes), ['Chain: Start The Node']);
  });
});
