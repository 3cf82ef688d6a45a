// chain-mock-node: argv / config file -> options -> startMockNode; prints the banner and
// stops cleanly on SIGINT / SIGTERM.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatUnits, parseUnits } from 'ethers';
import { keccakBackend, whenKeccakSettled } from './encoding/keccak';
import { startMockNode, type RunningMockNode } from './node';
import { presetByName } from './presets/chainPresets';
import { CLI_FLAGS, defaultAt, OptionError, type CliFlag, type MockNodeOptionsInput } from './options';

const HEADER = 'chain-mock-node: an offline JSON-RPC node with a live 200 ms pending block and an EIP-3009 token';

/** The last lines of --help: where the manual is (the npm package and the single executable carry no docs of their own). */
const REPOSITORY_URL = 'https://github.com/chain-rpc-explorer/chain-rpc-explorer';
export const HELP_EPILOGUE = [
  'Documentation: every option, method, limit and error explained, with examples',
  `  ${REPOSITORY_URL}/blob/main/docs/mock-node.md`,
  `  ${REPOSITORY_URL}/tree/main/docs`,
];

/** Flags of the command line itself, beside the options of CLI_FLAGS. */
const OWN_FLAGS = [
  { usage: '--config <file.json>', help: 'read options from a JSON file (command-line flags win)' },
  { usage: '-h, --help', help: 'show this help' },
];

function defaultText(flag: CliFlag): string | undefined {
  if (flag.shownDefault !== undefined) return flag.shownDefault;
  if (flag.kind === 'on' || flag.kind === 'off') return undefined;
  const value = defaultAt(flag.target);
  if (value === undefined) return undefined;
  if (flag.kind === 'eth') return formatUnits(value as bigint, 18).replace(/\.0$/, '');
  if (flag.kind === 'tokenUnits') return formatUnits(value as bigint, 6).replace(/\.0$/, '');
  return String(value);
}

/** --help, from the option table. */
export function helpText(): string {
  const line = (usage: string, help: string) => `  ${usage.padEnd(34)} ${help}`;
  const lines = [HEADER, '', 'Usage: chain-mock-node [options]'];
  for (const section of [...new Set(CLI_FLAGS.map((flag) => flag.section))]) {
    lines.push('', section);
    for (const flag of CLI_FLAGS.filter((f) => f.section === section)) {
      const shown = defaultText(flag);
      lines.push(line(`--${flag.flag}${flag.arg ? ` ${flag.arg}` : ''}`, `${flag.help}${shown === undefined ? '' : ` (default ${shown})`}`));
    }
  }
  lines.push('', 'Command line');
  for (const own of OWN_FLAGS) lines.push(line(own.usage, own.help));
  lines.push('', ...HELP_EPILOGUE);
  return lines.join('\n') + '\n';
}

const PARSE_ARGS_OPTIONS: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {
  ...Object.fromEntries(CLI_FLAGS.map((flag) => [
    flag.flag,
    { type: flag.kind === 'on' || flag.kind === 'off' ? 'boolean' : 'string', ...(flag.kind === 'list' || flag.kind === 'repeatable' ? { multiple: true } : {}) },
  ])),
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

function integer(name: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new OptionError(`--${name} takes a whole number, got ${value}`);
  return Number(value);
}

function amount(name: string, value: string, decimals: number): bigint {
  try {
    return parseUnits(value, decimals);
  } catch {
    throw new OptionError(`--${name} takes a decimal amount, got ${value}`);
  }
}

function jsonFile(name: string, path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (error) {
    throw new OptionError(`--${name} ${path}: ${(error as Error).message}`);
  }
}

/** A flag's value as its option takes it; undefined when the flag leaves the option alone. */
function valueOf(flag: CliFlag, raw: string | boolean | (string | boolean)[]): unknown {
  switch (flag.kind) {
    case 'integer': return integer(flag.flag, raw as string);
    case 'text': return raw;
    case 'eth': return amount(flag.flag, raw as string, 18);
    case 'tokenUnits': return amount(flag.flag, raw as string, 6);
    case 'jsonFile': return jsonFile(flag.flag, raw as string);
    case 'accountRef': return /^\d+$/.test(raw as string) ? Number(raw) : raw;
    case 'list': return (raw as string[]).flatMap((item) => item.split(',')).map((item) => item.trim()).filter(Boolean);
    // Each as given: a header's value may hold commas.
    case 'repeatable': return raw as string[];
    case 'on': return raw === true ? true : undefined;
    case 'off': return raw === true ? false : undefined;
  }
}

/** Sets options[a][b][c] for the target 'a.b.c', keeping what is already there. */
function setAt(options: Record<string, unknown>, target: string, value: unknown): void {
  const keys = target.split('.');
  let node = options;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    node = node[key] = next && typeof next === 'object' ? { ...(next as Record<string, unknown>) } : {};
  }
  node[keys[keys.length - 1]] = value;
}

export function parseCommandLine(argv: string[]): { help: boolean; options: MockNodeOptionsInput } {
  const { values } = parseArgs({ args: argv, options: PARSE_ARGS_OPTIONS, strict: true, allowPositionals: false });
  if (values.help) return { help: true, options: {} };
  const options = (values.config === undefined ? {} : jsonFile('config', values.config as string)) as Record<string, unknown>;
  for (const flag of CLI_FLAGS) {
    const raw = values[flag.flag];
    if (raw === undefined) continue;
    const value = valueOf(flag, raw);
    if (value !== undefined) setAt(options, flag.target, value);
  }
  return { help: false, options: options as MockNodeOptionsInput };
}

export function banner(node: RunningMockNode): string {
  const o = node.options;
  const fork = node.core.services.chain.fork;
  const tokenPlaced = node.core.services.contracts.get(o.token.address.toLowerCase()) !== undefined;
  const lines = [
    'chain-mock-node is running',
    '',
    `  JSON-RPC (public)     ${node.url}`,
    `  JSON-RPC (dedicated)  ${node.dedicatedUrl}`,
    `  WebSocket             ${node.wsUrl} (and ${node.dedicatedUrl.replace(/^http/, 'ws')})`,
    ...(node.flashblocksWsUrl ? [`  Flashblocks stream    ${node.flashblocksWsUrl} (FlashblocksPayloadV1 as JSON text; ?encoding=brotli for brotli binary frames)`] : []),
    `  Health                ${node.url}health`,
    `  Chain id              ${o.chainId} (0x${o.chainId.toString(16)})${fork ? ", the fork's upstream's" : ''}`,
    ...(fork ? [`  Fork                  ${fork.client.settings.shownUrl} at block ${fork.header.number} (${fork.hash}); state fetched as it is read`] : []),
    ...(o.chain ? [`  Chain preset          ${presetByName(o.chain)!.label} (--chain ${o.chain}): OP Stack blocks (L1-attributes deposit first), L1 fees paid`] : []),
    `  Blocks                ${o.auto ? `every ${o.blockTimeMs} ms, pending refreshed every ${o.flashblockMs} ms` : 'manual (evm_mine / mock_flashblock)'}`,
    `  Pending identity      ${o.pendingIdentity}`,
    `  Pending nonce         ${o.pendingNonce === 'pool' ? 'pool (queued transactions count, as geth and Anvil)' : 'preconfirmed (flashblocks only, as Base)'}`,
    tokenPlaced
      ? `  Token                 ${o.token.name} (${o.token.symbol}) at ${o.token.address}${fork ? ' (built in, placed over an empty address)' : ''}`
      : `  Token                 the upstream's contract at ${o.token.address}`,
    ...(o.stateFile ? [`  State file            ${o.stateFile} (loaded at start, saved on exit${o.autosaveBlocks ? `, every ${o.autosaveBlocks} blocks` : ''} and on mock_dumpState)`] : []),
    '',
    'Dev accounts (test keys: never use them on a real network)',
    ...node.accounts.map((a, i) => `  (${i}) ${a.address}  ${a.privateKey}`),
    '',
    tokenPlaced
      ? `  Each holds ${formatUnits(o.balance, 18)} ETH and ${formatUnits(o.token.balance, 6)} ${o.token.symbol}.`
      : `  Each holds ${formatUnits(o.balance, 18)} ETH; its token balance is the upstream's.`,
    `  Mnemonic: ${o.mnemonic}`,
    '',
    'Ctrl+C stops the node.',
  ];
  return lines.join('\n');
}

/**
 * V8's interrupt budget for a node process of its own (the CLI and the single executable; never a
 * process that embeds the node, like the VS Code extension host). V8 sends a function to TurboFan
 * once it has run its budget of bytecode (about 66 KB by default); a server that lives for hours
 * earns that back many times over. A dev node mostly lives for a test file or a suite: on a fresh
 * node's first few thousand requests, TurboFan compiling about 115 functions (a sixth of them
 * Node's own stream, socket and timer code) cost more CPU than their optimized code saved
 * (callgrind, first 2,000 ETH transfers: 1.05 G of the 1.63 G instructions by which they exceeded
 * a warm node's). Sixteen times the budget leaves TurboFan only what stays hot, and Sparkplug
 * (V8's baseline compiler, cheap) runs the rest; git history of the README's "Performance" gives what it changed on a
 * fresh node and on a warm one.
 */
export const STANDALONE_V8_FLAGS = '--interrupt-budget=1081344';

/**
 * V8's own interrupt budget (66 KB, the default of Node 20's V8 and of the V8 versions around it),
 * given back once a node has lived LONG_LIVED_MS: a node that runs that long (a demo, a dev server
 * left open) is past any test file's life, and its hot paths are worth TurboFan's full work.
 */
const V8_DEFAULT_BUDGET = '--interrupt-budget=67584';
export const LONG_LIVED_MS = 10 * 60_000;

/**
 * Whether this V8 tiers up by an interrupt budget (`--interrupt-budget`): Node 20's V8 11 does, the
 * Node it was measured on. Node 24's V8 13 tiers up by invocation counts instead and answers
 * `setFlagsFromString('--interrupt-budget=…')` with "Error: unrecognized flag" on stderr, so the
 * budget is set only on a V8 before 12 (on any other the node runs with V8's own tiering).
 */
export function v8HasInterruptBudget(v8Version: string = process.versions.v8): boolean {
  return Number(v8Version.split('.')[0]) < 12;
}

/**
 * The V8 flags the CLI sets for its own process, each unless the same was given on Node's command
 * line (`given`: its execArgv and NODE_OPTIONS):
 * - once listening (node:v8 takes 4 ms to load: not on the way to the first answer):
 *   - STANDALONE_V8_FLAGS (above);
 *   - RSS: V8 doubles the young generation's semi-spaces (up to 16 MiB each) when its scavenges
 *     see many survivors, as a burst of transactions makes them, and those pages stay resident.
 *     The CLI keeps them at their start size (1 MiB): `--semi-space-growth-factor=1` set at run
 *     time (on the command line V8 raises that flag to 2 when the heap is set up, so it has to be
 *     set here);
 * - after LONG_LIVED_MS, V8's own budget again (when the CLI had raised it).
 * The budget only where this V8 has it (v8HasInterruptBudget).
 * tuneV8 sets none in the code cache's training run: V8 stamps the flags on the cache, and the
 * cache must be the one a plain start compiles with (the budget changes no bytecode).
 */
export function standaloneV8Flags(given: string, hasBudget = v8HasInterruptBudget()): { listening: string[]; longLived: string[] } {
  const budget = hasBudget && !/interrupt-budget/.test(given);
  return {
    listening: [...(/semi-space/.test(given) ? [] : ['--semi-space-growth-factor=1']), ...(budget ? [STANDALONE_V8_FLAGS] : [])],
    longLived: budget ? [V8_DEFAULT_BUDGET] : [],
  };
}

function tuneV8(logger: { debug(message: string, fields?: Record<string, unknown>): void }): void {
  if (process.env.CHAIN_MOCK_NODE_WRITE_CODE_CACHE) return;
  const plan = standaloneV8Flags([...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '));
  const set = (flags: string[]) => {
    const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
    for (const flag of flags) setFlagsFromString(flag);
  };
  setTimeout(() => {
    set(plan.listening);
    logger.debug('v8 flags', { set: plan.listening.length > 0 ? plan.listening.join(' ') : 'none (given on the command line)' });
  }, 200).unref();
  if (plan.longLived.length > 0) {
    setTimeout(() => {
      set(plan.longLived);
      logger.debug('v8 flags, a long-lived node', { set: plan.longLived.join(' ') });
    }, LONG_LIVED_MS).unref();
  }
}

export async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`chain-mock-node: ${(error as Error).message}\nRun chain-mock-node --help for the options.\n`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(helpText());
    return;
  }
  let node: RunningMockNode;
  try {
    node = await startMockNode(parsed.options);
  } catch (error) {
    process.stderr.write(`chain-mock-node: ${(error as Error).message}\n`);
    process.exit(error instanceof OptionError ? 2 : 1);
  }
  // Before the banner: a harness may send SIGTERM as soon as it reads it, and a signal with no
  // listener yet would kill the process without saving the state file.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    node.core.logger.info(`received ${signal}, stopping`);
    node.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  tuneV8(node.core.logger);
  // What the loader of dist/mock-node.js did with V8's code cache (mock-node/package/codeCache.mjs).
  const codeCache = (globalThis as Record<symbol, unknown>)[Symbol.for('chain-mock-node.codeCache')];
  if (typeof codeCache === 'string') node.core.logger.debug('code cache', { status: codeCache });
  // Once V8 has compiled the WebAssembly sponge (off the main thread, encoding/keccak.ts).
  void whenKeccakSettled().then(() => node.core.logger.debug('keccak', { backend: keccakBackend() }));
  if (node.options.jsonLogs) {
    // The log never holds the key (it is scrubbed): what a test harness needs, the full dedicated
    // URL included, goes to stdout as one JSON line, as the banner does in plain mode.
    const accounts = node.accounts.map((a) => a.address);
    node.core.logger.info('listening', { url: node.url, dedicatedUrl: node.dedicatedUrl, chainId: node.chainId, token: node.tokenAddress, accounts });
    const listening = {
      url: node.url, dedicatedUrl: node.dedicatedUrl, wsUrl: node.wsUrl, dedicatedWsUrl: node.dedicatedWsUrl,
      ...(node.flashblocksWsUrl ? { flashblocksWsUrl: node.flashblocksWsUrl } : {}),
      chainId: node.chainId.toString(), token: node.tokenAddress, accounts,
    };
    process.stdout.write(JSON.stringify({ listening }) + '\n');
  } else if (!node.options.quiet) {
    process.stdout.write(banner(node) + '\n');
  }
}

// Run as a program: `node dist/mock-node.js`, npm's bin, or the single executable, whose loader
// runs this bundle as its main module (mock-node/package/codeCache.mjs).
if (require.main === module) void main();
