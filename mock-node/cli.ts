// chain-mock-node: argv / config file -> options -> startMockNode; prints the banner and
// stops cleanly on SIGINT / SIGTERM.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatUnits, parseUnits } from 'ethers';
import { startMockNode, type RunningMockNode } from './node';
import { OptionError, type MockNodeOptionsInput } from './options';

const HELP = `chain-mock-node: an offline JSON-RPC node with a live 200 ms pending block and an EIP-3009 token

Usage: chain-mock-node [options]

Server
  --host <addr>              address to bind (default 127.0.0.1)
  --port <n>                 port, 0 for any free port (default 8545)
  --api-key <key>            key of the dedicated endpoint POST /dedicated/<key> (default: random)
  --max-body-bytes <n>       request body limit (default 5242880)
  --cors                     send permissive CORS headers
  --no-control               disable evm_*, anvil_* and mock_* control methods
Limits (public profile; --dedicated-... for the dedicated one; 0 = no limit)
  --max-log-range <n>        eth_getLogs block range (default 2000; dedicated 10000)
  --max-log-results <n>      eth_getLogs result cap (default 10000; dedicated 20000)
  --rate-limit <rps>         requests per second, HTTP 429 above (default 0 = off)
  --max-batch <n>            requests per batch (default 1000)
  --dedicated-max-log-range <n>, --dedicated-max-log-results <n>, --dedicated-rate-limit <rps>, --dedicated-max-batch <n>
  --ws-max-buffered-bytes <n> close a WebSocket that falls this far behind (default 4194304)
Faults and state
  --faults <file.json>       inject faults (latency, 429/503 shares, timeouts); see mock_setFaults
  --state <file.json>        load the chain from this file at start, save it atomically on exit and on mock_dumpState
Chain
  --chain-id <id>            chain id (default 31337)
  --block-time-ms <ms>       time between sealed blocks (default 2000)
  --flashblock-ms <ms>       time between flashblocks of the pending block (default 200)
  --no-auto                  manual mode: no timers; cut flashblocks with mock_flashblock, blocks with evm_mine
  --pending-identity <mode>  pending block number/hash: partial (default), zero, null
  --gas-limit <gas>          block gas limit (default 30000000)
  --base-fee <wei>           base fee of the first block (default 1000000000)
  --safe-depth <n>           blocks 'safe' trails 'latest' (default 10)
  --finalized-depth <n>      blocks 'finalized' trails 'latest' (default 30)
Accounts
  --mnemonic <words>         dev account mnemonic (default: test test ... junk)
  --accounts <n>             number of dev accounts (default 10)
  --balance <eth>            ETH per dev account (default 10000)
Token
  --token-address <addr>     address of the EIP-3009 token (default 0x3600000000000000000000000000000000000000)
  --token-balance <units>    token units per dev account, 6 decimals (default 10000)
  --token-name <name>        EIP-712 domain name (default "USD Coin")
  --token-version <v>        EIP-712 domain version (default "2")
x402 facilitator (GET /x402/supported, POST /x402/verify, POST /x402/settle; also under /dedicated/<key>)
  --no-x402                  turn the facilitator routes off
  --x402-account <n|addr>    dev account (index or address) the facilitator settles from (default: the last one)
Output
  --config <file.json>       read options from a JSON file (command-line flags win)
  --json-logs                log JSON lines
  --log-level <level>        debug (adds every JSON-RPC call and empty block), info, warn, error or off (default info)
  --quiet                    print nothing but errors
  -h, --help                 show this help
`;

const flags = {
  host: { type: 'string' },
  port: { type: 'string' },
  'api-key': { type: 'string' },
  'max-body-bytes': { type: 'string' },
  cors: { type: 'boolean' },
  'no-control': { type: 'boolean' },
  'max-log-range': { type: 'string' },
  'max-log-results': { type: 'string' },
  'rate-limit': { type: 'string' },
  'max-batch': { type: 'string' },
  'dedicated-max-log-range': { type: 'string' },
  'dedicated-max-log-results': { type: 'string' },
  'dedicated-rate-limit': { type: 'string' },
  'dedicated-max-batch': { type: 'string' },
  'ws-max-buffered-bytes': { type: 'string' },
  faults: { type: 'string' },
  state: { type: 'string' },
  'chain-id': { type: 'string' },
  'block-time-ms': { type: 'string' },
  'flashblock-ms': { type: 'string' },
  'no-auto': { type: 'boolean' },
  'pending-identity': { type: 'string' },
  'gas-limit': { type: 'string' },
  'base-fee': { type: 'string' },
  'safe-depth': { type: 'string' },
  'finalized-depth': { type: 'string' },
  mnemonic: { type: 'string' },
  accounts: { type: 'string' },
  balance: { type: 'string' },
  'token-address': { type: 'string' },
  'token-balance': { type: 'string' },
  'token-name': { type: 'string' },
  'token-version': { type: 'string' },
  'no-x402': { type: 'boolean' },
  'x402-account': { type: 'string' },
  config: { type: 'string' },
  'json-logs': { type: 'boolean' },
  'log-level': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

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

export function parseCommandLine(argv: string[]): { help: boolean; options: MockNodeOptionsInput } {
  const { values } = parseArgs({ args: argv, options: flags, strict: true, allowPositionals: false });
  if (values.help) return { help: true, options: {} };
  let options: MockNodeOptionsInput = {};
  if (values.config) {
    try {
      options = JSON.parse(readFileSync(values.config, 'utf8')) as MockNodeOptionsInput;
    } catch (error) {
      throw new OptionError(`--config ${values.config}: ${(error as Error).message}`);
    }
  }
  const token = { ...(options.token ?? {}) };
  const set = <K extends keyof MockNodeOptionsInput>(key: K, value: MockNodeOptionsInput[K] | undefined) => {
    if (value !== undefined) options[key] = value;
  };
  set('host', values.host);
  set('port', values.port === undefined ? undefined : integer('port', values.port));
  set('apiKey', values['api-key']);
  set('maxBodyBytes', values['max-body-bytes'] === undefined ? undefined : integer('max-body-bytes', values['max-body-bytes']));
  if (values.cors) options.cors = true;
  if (values['no-control']) options.control = false;
  set('chainId', values['chain-id']);
  set('blockTimeMs', values['block-time-ms'] === undefined ? undefined : integer('block-time-ms', values['block-time-ms']));
  set('flashblockMs', values['flashblock-ms'] === undefined ? undefined : integer('flashblock-ms', values['flashblock-ms']));
  if (values['no-auto']) options.auto = false;
  set('pendingIdentity', values['pending-identity'] as MockNodeOptionsInput['pendingIdentity']);
  set('gasLimit', values['gas-limit']);
  set('initialBaseFee', values['base-fee']);
  set('safeDepth', values['safe-depth'] === undefined ? undefined : integer('safe-depth', values['safe-depth']));
  set('finalizedDepth', values['finalized-depth'] === undefined ? undefined : integer('finalized-depth', values['finalized-depth']));
  set('mnemonic', values.mnemonic);
  set('accounts', values.accounts === undefined ? undefined : integer('accounts', values.accounts));
  set('balance', values.balance === undefined ? undefined : amount('balance', values.balance, 18));
  if (values['token-address'] !== undefined) token.address = values['token-address'];
  if (values['token-balance'] !== undefined) token.balance = amount('token-balance', values['token-balance'], 6);
  if (values['token-name'] !== undefined) token.name = values['token-name'];
  if (values['token-version'] !== undefined) token.version = values['token-version'];
  if (Object.keys(token).length) options.token = token;
  const limits = { public: { ...(options.limits?.public ?? {}) }, dedicated: { ...(options.limits?.dedicated ?? {}) } };
  const limitFlags = [
    ['max-log-range', 'maxLogBlockRange'],
    ['max-log-results', 'maxLogResults'],
    ['rate-limit', 'requestsPerSecond'],
    ['max-batch', 'maxBatch'],
  ] as const;
  for (const [flag, key] of limitFlags) {
    const publicValue = values[flag];
    if (publicValue !== undefined) limits.public[key] = integer(flag, publicValue);
    const dedicatedValue = values[`dedicated-${flag}`];
    if (dedicatedValue !== undefined) limits.dedicated[key] = integer(`dedicated-${flag}`, dedicatedValue);
  }
  if (Object.keys(limits.public).length || Object.keys(limits.dedicated).length) options.limits = limits;
  set('wsMaxBufferedBytes', values['ws-max-buffered-bytes'] === undefined ? undefined : integer('ws-max-buffered-bytes', values['ws-max-buffered-bytes']));
  if (values.faults !== undefined) {
    try {
      options.faults = JSON.parse(readFileSync(values.faults, 'utf8')) as unknown;
    } catch (error) {
      throw new OptionError(`--faults ${values.faults}: ${(error as Error).message}`);
    }
  }
  set('stateFile', values.state);
  if (values['no-x402']) options.x402 = false;
  const x402Account = values['x402-account'];
  if (x402Account !== undefined) options.x402Account = /^\d+$/.test(x402Account) ? Number(x402Account) : x402Account;
  if (values['json-logs']) options.jsonLogs = true;
  if (values.quiet) options.quiet = true;
  if (values['log-level'] !== undefined) options.logLevel = values['log-level'] as MockNodeOptionsInput['logLevel'];
  return { help: false, options };
}

export function banner(node: RunningMockNode): string {
  const o = node.options;
  const lines = [
    'chain-mock-node is running',
    '',
    `  JSON-RPC (public)     ${node.url}`,
    `  JSON-RPC (dedicated)  ${node.dedicatedUrl}`,
    `  WebSocket             ${node.wsUrl} (and ${node.dedicatedUrl.replace(/^http/, 'ws')})`,
    `  Health                ${node.url}health`,
    `  Chain id              ${o.chainId} (0x${o.chainId.toString(16)})`,
    `  Blocks                ${o.auto ? `every ${o.blockTimeMs} ms, pending refreshed every ${o.flashblockMs} ms` : 'manual (evm_mine / mock_flashblock)'}`,
    `  Pending identity      ${o.pendingIdentity}`,
    `  Token                 ${o.token.name} (${o.token.symbol}) at ${o.token.address}`,
    ...(node.x402 ? [`  x402 facilitator      ${node.x402.url} (settles from ${node.x402.signer})`] : []),
    ...(o.stateFile ? [`  State file            ${o.stateFile} (loaded at start, saved on exit and on mock_dumpState)`] : []),
    '',
    'Dev accounts (test keys: never use them on a real network)',
    ...node.accounts.map((a, i) => `  (${i}) ${a.address}  ${a.privateKey}`),
    '',
    `  Each holds ${formatUnits(o.balance, 18)} ETH and ${formatUnits(o.token.balance, 6)} ${o.token.symbol}.`,
    `  Mnemonic: ${o.mnemonic}`,
    '',
    'Ctrl+C stops the node.',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`chain-mock-node: ${(error as Error).message}\nRun chain-mock-node --help for the options.\n`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(HELP);
    return;
  }
  let node: RunningMockNode;
  try {
    node = await startMockNode(parsed.options);
  } catch (error) {
    process.stderr.write(`chain-mock-node: ${(error as Error).message}\n`);
    process.exit(error instanceof OptionError ? 2 : 1);
  }
  if (node.options.jsonLogs) {
    node.core.logger.info('listening', { url: node.url, dedicatedUrl: node.dedicatedUrl, chainId: node.chainId, token: node.tokenAddress, accounts: node.accounts.map((a) => a.address) });
  } else if (!node.options.quiet) {
    process.stdout.write(banner(node) + '\n');
  }
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
}

if (require.main === module) void main();
