// Every option of the mock node, its default and its validation, in one place.
import { LOG_LEVELS, type LogSink, type LogThreshold } from './logger';
import { parseFaultSpec } from './rpc/faults';
import { CHAIN_NAMES, presetByName, type ChainName } from './presets/chainPresets';
import { isLoopback } from './upstream/loopback';

export type PendingIdentity = 'partial' | 'zero' | 'null';
export const PENDING_IDENTITIES: readonly PendingIdentity[] = ['partial', 'zero', 'null'];
/**
 * What eth_getTransactionCount(addr, "pending") counts: `pool` (default, as geth and Anvil) the
 * sender's pre-confirmed transactions and those accepted and queued for the next flashblock, so
 * it is the nonce for the next transaction; `preconfirmed` (as Base's flashblocks RPC) only those
 * already in a flashblock.
 */
export type PendingNonce = 'pool' | 'preconfirmed';
export const PENDING_NONCES: readonly PendingNonce[] = ['pool', 'preconfirmed'];

export interface TokenOptions {
  /** Lowercase hex address of the built-in EIP-3009 token. */
  address: string;
  name: string;
  symbol: string;
  version: string;
  currency: string;
  /** Starting balance of every dev account, in base units (6 decimals). */
  balance: bigint;
}

/** Limits of one endpoint profile (0 means no limit where noted). */
export interface ProfileLimits {
  /** eth_getLogs: most blocks one query may span (fromBlock..toBlock inclusive); 0 = no limit. */
  maxLogBlockRange: number;
  /** eth_getLogs: most logs one query may return; 0 = no limit. */
  maxLogResults: number;
  /** Requests per second (a batch counts each request); 0 = no limit. */
  requestsPerSecond: number;
  /** Most requests in one batch. */
  maxBatch: number;
  /** Request body limit in bytes (HTTP 413 above it). */
  maxBodyBytes: number;
}

export interface ProfileLimitSet {
  public: ProfileLimits;
  dedicated: ProfileLimits;
}

export type ProfileLimitsInput = { public?: Partial<ProfileLimits>; dedicated?: Partial<ProfileLimits> };

/** --fork-url and its companions (Anvil's names): the chain this node forks, lazily. */
export interface ForkOptions {
  /** The upstream's JSON-RPC URL (http or https); it may hold an API key: it is shown redacted everywhere. */
  url: string;
  /** The fork block; absent: the upstream's latest less a few blocks (upstream/forkBlock.ts). */
  blockNumber?: bigint;
  /** Deadline of one read from the upstream, retries included, in ms (Anvil's --timeout). */
  timeoutMs: number;
  /** Attempts after the first when the upstream fails or rate-limits (Anvil's --retries). */
  retries: number;
  /** First pause between attempts, doubled each time, in ms (Anvil's --fork-retry-backoff). */
  retryBackoffMs: number;
  /**
   * Whether a run waits at its first misses for the upstream instead of running again once they
   * are fetched (state/missRecorder.ts). Default: when the upstream is on this machine (a loopback
   * address), where a round trip costs less than a run; a remote upstream gets every miss of a run
   * in one batch. Programmatic only (tests pin it).
   */
  waitAtMisses: boolean;
  /** Extra headers sent with every request upstream, as `Name: value` (Anvil's --fork-header); their values are secrets. */
  headers: [name: string, value: string][];
  /** The upstream's chain id, given instead of asked for (Anvil's --fork-chain-id). */
  chainId?: bigint;
  /**
   * Compute units a second the provider is assumed to allow (Anvil's --compute-units-per-second,
   * 330); Infinity with --no-rate-limit. After a rate-limit answer the wait grows by the requests
   * in flight at 17 units each against it.
   */
  computeUnitsPerSecond: number;
}

export type ForkOptionsInput = {
  url: string;
  blockNumber?: bigint | number | string;
  timeoutMs?: number;
  retries?: number;
  retryBackoffMs?: number;
  waitAtMisses?: boolean;
  headers?: string[];
  chainId?: bigint | number | string;
  computeUnitsPerSecond?: number;
  noRateLimit?: boolean;
  /** Accepted for Anvil's command lines: this node keeps no cache on disk, so there is none to turn off. */
  noStorageCaching?: boolean;
};

/** Anvil's default --compute-units-per-second (Alchemy's free tier). */
export const DEFAULT_COMPUTE_UNITS_PER_SECOND = 330;
const FORK_KEYS = ['url', 'blockNumber', 'timeoutMs', 'retries', 'retryBackoffMs', 'waitAtMisses', 'headers', 'chainId', 'computeUnitsPerSecond', 'noRateLimit', 'noStorageCaching'];
/** Headers the client writes itself: a --fork-header may not replace them. */
const OWN_HEADERS = new Set(['host', 'content-length', 'content-type', 'connection', 'transfer-encoding']);

/** `Name: value` lines as header pairs; an OptionError for a line that is not one (or would break the request). */
function forkHeaders(lines: unknown): [string, string][] {
  if (!Array.isArray(lines) || lines.some((line) => typeof line !== 'string')) throw new OptionError('fork.headers (--fork-header) must be a list of "Name: value" strings');
  return (lines as string[]).map((line) => {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    const value = colon > 0 ? line.slice(colon + 1).trim() : '';
    // The value is never quoted back: it may be a key.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n\0]/.test(value)) throw new OptionError(`--fork-header takes "Name: value" (one line, a token for the name), got one that is not${name ? ` (header ${name})` : ''}`);
    if (OWN_HEADERS.has(name.toLowerCase())) throw new OptionError(`--fork-header cannot set ${name}: the client writes it`);
    return [name, value];
  });
}

/** Anvil's `URL@BLOCK` form of --fork-url: the URL and the block, when the text after the last @ is a block number. */
function splitForkUrl(url: string): { url: string; blockNumber?: bigint } {
  const at = /^(https?:\/\/.+)@(\d+)$/i.exec(url);
  return at ? { url: at[1], blockNumber: BigInt(at[2]) } : { url };
}

export const DEFAULT_FORK_TIMING = { timeoutMs: 10_000, retries: 5, retryBackoffMs: 200 } as const;

export interface MockNodeOptions {
  /**
   * --chain: a chain preset (base, base-sepolia): its chain id and USDC (address, EIP-712 domain)
   * unless given too, and its block rules (OP Stack deposits, L1 fees, predeploys). None: a plain chain.
   */
  chain?: ChainName;
  host: string;
  /** 0 picks a free port. */
  port: number;
  chainId: bigint;
  blockTimeMs: number;
  flashblockMs: number;
  /** false: no timers; flashblocks and blocks are cut by control methods only. */
  auto: boolean;
  pendingIdentity: PendingIdentity;
  pendingNonce: PendingNonce;
  mnemonic: string;
  accounts: number;
  /** Starting ETH balance of every dev account, in wei. */
  balance: bigint;
  gasLimit: bigint;
  initialBaseFee: bigint;
  minBaseFee: bigint;
  baseFeeElasticity: bigint;
  baseFeeDenominator: bigint;
  /** How far `safe` and `finalized` trail `latest`, in blocks. */
  safeDepth: number;
  finalizedDepth: number;
  /** Genesis timestamp in Unix seconds; defaults to now. */
  genesisTimestamp?: number;
  /** Allow evm_*, anvil_* and mock_* control methods. */
  control: boolean;
  /** Key of the dedicated endpoint (POST /dedicated/<key>); generated at start when absent. */
  apiKey?: string;
  /** Request body limit in bytes. */
  maxBodyBytes: number;
  /** Any browser origin may call (CORS `*`, WebSocket upgrades from any Origin): allowOrigins ['*']. */
  cors: boolean;
  /** Browser origins allowed to call over HTTP (CORS) and WebSocket; none by default, '*' for any. */
  allowOrigins: string[];
  /** Host names answered besides loopback names, IP literals and the bound host; '*' for any. */
  allowHosts: string[];
  /** Print logs as JSON lines. */
  jsonLogs: boolean;
  /** Only errors in the log (same as logLevel 'error'). */
  quiet: boolean;
  /** Lowest level logged: 'debug' adds one line per JSON-RPC call and per empty sealed block. */
  logLevel: LogThreshold;
  /** In-process hosts: receives log entries instead of stderr (the extension's output channel). */
  logSink?: LogSink;
  token: TokenOptions;
  /** Limits per endpoint profile. */
  limits: ProfileLimitSet;
  /** Faults to inject from the start (same shape as mock_setFaults takes; validated by rpc/faults). */
  faults?: unknown;
  /** --state: chain state file, loaded at start and written atomically on exit and on mock_dumpState. */
  stateFile?: string;
  /** With stateFile: also write it every this many sealed blocks (0: only on exit and mock_dumpState). */
  autosaveBlocks: number;
  /**
   * Sealed blocks kept with their transactions, receipts, logs and state (the newest ones); older
   * blocks are pruned and a read of one answers 4444 "pruned history unavailable". 0 keeps every block.
   */
  historyBlocks: number;
  /** Most transactions waiting in the queue from one sender (geth: "account limit exceeded"). */
  maxQueuedPerSender: number;
  /** Most transactions waiting in the queue in all (geth: "txpool is full"). */
  maxQueued: number;
  /** Most polling filters (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter) at once. */
  maxFilters: number;
  /** WebSocket: a socket with more than this many bytes waiting to be sent is closed (slow consumer). */
  wsMaxBufferedBytes: number;
  /** The x402 facilitator routes (GET /x402/supported, POST /x402/verify, POST /x402/settle) on both profiles. */
  x402: boolean;
  /** The dev account the x402 facilitator settles from: its index or its address (default: the last dev account). */
  x402Account?: number | string;
  /** WebSocket: most open connections; more are closed at once with 1013. */
  wsMaxConnections: number;
  /** WebSocket: most bytes waiting to be sent over all sockets together; the largest is closed above it (1013). */
  wsMaxTotalBufferedBytes: number;
  /** --fork-url: fork this chain (absent: a chain of our own from genesis). */
  fork?: ForkOptions;
}

export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk';
const WEI_PER_ETH = 10n ** 18n;

export function defaultOptions(): MockNodeOptions {
  return {
    host: '127.0.0.1',
    port: 8545,
    chainId: 31337n,
    blockTimeMs: 2000,
    flashblockMs: 200,
    auto: true,
    pendingIdentity: 'partial',
    pendingNonce: 'pool',
    mnemonic: DEFAULT_MNEMONIC,
    accounts: 10,
    balance: 10_000n * WEI_PER_ETH,
    gasLimit: 30_000_000n,
    initialBaseFee: 1_000_000_000n,
    minBaseFee: 1_000_000n,
    baseFeeElasticity: 2n,
    baseFeeDenominator: 8n,
    safeDepth: 10,
    finalizedDepth: 30,
    control: true,
    maxBodyBytes: 5 * 1024 * 1024,
    cors: false,
    allowOrigins: [],
    allowHosts: [],
    jsonLogs: false,
    quiet: false,
    logLevel: 'info',
    token: {
      address: '0x3600000000000000000000000000000000000000',
      name: 'USD Coin',
      symbol: 'USDC',
      version: '2',
      currency: 'USD',
      balance: 10_000_000_000n,
    },
    limits: {
      public: { maxLogBlockRange: 2000, maxLogResults: 10_000, requestsPerSecond: 0, maxBatch: 1000, maxBodyBytes: 5 * 1024 * 1024 },
      dedicated: { maxLogBlockRange: 10_000, maxLogResults: 20_000, requestsPerSecond: 0, maxBatch: 1000, maxBodyBytes: 5 * 1024 * 1024 },
    },
    autosaveBlocks: 0,
    historyBlocks: 0,
    maxQueuedPerSender: 1024,
    maxQueued: 8192,
    maxFilters: 1000,
    wsMaxBufferedBytes: 4 * 1024 * 1024,
    x402: true,
    wsMaxConnections: 1000,
    wsMaxTotalBufferedBytes: 64 * 1024 * 1024,
  };
}

/** What a caller may pass: any subset, with numbers accepted where bigints are stored. */
export type MockNodeOptionsInput = {
  [K in keyof MockNodeOptions]?: K extends 'fork' ? ForkOptionsInput : MockNodeOptions[K] extends bigint
    ? bigint | number | string
    : MockNodeOptions[K] extends TokenOptions
      ? { [T in keyof TokenOptions]?: TokenOptions[T] extends bigint ? bigint | number | string : TokenOptions[T] }
      : MockNodeOptions[K] extends ProfileLimitSet
        ? ProfileLimitsInput
        : MockNodeOptions[K];
};

export class OptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OptionError';
  }
}

function toBigInt(name: string, value: bigint | number | string): bigint {
  try {
    const result = BigInt(value);
    if (result < 0n) throw new Error('negative');
    return result;
  } catch {
    throw new OptionError(`${name} must be a non-negative integer, got ${JSON.stringify(String(value))}`);
  }
}

function checkInteger(name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new OptionError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
}

function checkNames(name: string, value: unknown, pattern: RegExp, example: string): string[] {
  if (!Array.isArray(value)) throw new OptionError(`${name} must be a list of strings`);
  for (const item of value) {
    if (typeof item !== 'string' || !pattern.test(item)) throw new OptionError(`${name}: ${JSON.stringify(item)} is not ${example}`);
  }
  return [...value] as string[];
}

function checkAddress(name: string, value: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) throw new OptionError(`${name} must be a 20-byte hex address, got ${value}`);
  return value.toLowerCase();
}

/** Merges input over the defaults and validates everything; throws OptionError with a clear message. */
export function resolveOptions(input: MockNodeOptionsInput = {}): MockNodeOptions {
  const defaults = defaultOptions();
  const bigintKeys = [
    'chainId', 'balance', 'gasLimit', 'initialBaseFee', 'minBaseFee', 'baseFeeElasticity', 'baseFeeDenominator',
  ] as const;
  const merged = { ...defaults } as MockNodeOptions;
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || key === 'token' || key === 'limits' || key === 'fork') continue;
    if (!(key in defaults) && !OPTIONAL_KEYS.includes(key)) throw new OptionError(`unknown option ${key}`);
    (merged as unknown as Record<string, unknown>)[key] = value;
  }
  for (const key of bigintKeys) merged[key] = toBigInt(key, merged[key] as bigint | number | string);

  if (merged.chain !== undefined) {
    const preset = typeof merged.chain === 'string' ? presetByName(merged.chain) : undefined;
    if (!preset) throw new OptionError(`chain must be one of ${CHAIN_NAMES.join(', ')}, got ${JSON.stringify(merged.chain)}`);
    if (input.chainId === undefined) merged.chainId = preset.chainId;
  }
  const tokenInput = input.token ?? {};
  const token: TokenOptions = { ...defaults.token, ...presetToken(merged.chain) };
  for (const [key, value] of Object.entries(tokenInput)) {
    if (value === undefined) continue;
    if (!(key in defaults.token)) throw new OptionError(`unknown token option ${key}`);
    (token as unknown as Record<string, unknown>)[key] = value;
  }
  token.balance = toBigInt('token.balance', token.balance as bigint | number | string);
  token.address = checkAddress('token.address', token.address);
  merged.token = token;

  checkInteger('port', merged.port, 0, 65535);
  checkInteger('accounts', merged.accounts, 1, 1000);
  checkInteger('blockTimeMs', merged.blockTimeMs, 1);
  checkInteger('flashblockMs', merged.flashblockMs, 0);
  checkInteger('safeDepth', merged.safeDepth, 0);
  checkInteger('finalizedDepth', merged.finalizedDepth, 0);
  checkInteger('maxBodyBytes', merged.maxBodyBytes, 1024);
  if (merged.chainId === 0n) throw new OptionError('chainId must be positive');
  if (merged.baseFeeElasticity === 0n || merged.baseFeeDenominator === 0n) {
    throw new OptionError('baseFeeElasticity and baseFeeDenominator must be positive');
  }
  if (merged.flashblockMs === 0) merged.auto = false;
  if (merged.auto && merged.flashblockMs > merged.blockTimeMs) {
    throw new OptionError(`flashblockMs (${merged.flashblockMs}) must not exceed blockTimeMs (${merged.blockTimeMs})`);
  }
  if (!PENDING_IDENTITIES.includes(merged.pendingIdentity)) {
    throw new OptionError(`pendingIdentity must be one of ${PENDING_IDENTITIES.join(', ')}, got ${merged.pendingIdentity}`);
  }
  if (!PENDING_NONCES.includes(merged.pendingNonce)) {
    throw new OptionError(`pendingNonce must be one of ${PENDING_NONCES.join(', ')}, got ${merged.pendingNonce}`);
  }
  if (merged.finalizedDepth < merged.safeDepth) throw new OptionError('finalizedDepth must be at least safeDepth');
  if (merged.apiKey !== undefined && !/^[A-Za-z0-9_-]{1,128}$/.test(merged.apiKey)) {
    throw new OptionError('apiKey must be 1 to 128 characters of A-Z, a-z, 0-9, _ or -');
  }
  if (merged.genesisTimestamp !== undefined) checkInteger('genesisTimestamp', merged.genesisTimestamp, 0);
  merged.limits = resolveLimits(input.limits, defaults.limits, merged.maxBodyBytes);
  checkInteger('wsMaxBufferedBytes', merged.wsMaxBufferedBytes, 1024);
  checkInteger('wsMaxConnections', merged.wsMaxConnections, 1);
  checkInteger('wsMaxTotalBufferedBytes', merged.wsMaxTotalBufferedBytes, 1024);
  merged.allowOrigins = checkNames('allowOrigins', merged.allowOrigins, /^(\*|[a-z][a-z0-9+.-]*:\/\/[^/\s]+\/?|null)$/i, 'an origin such as http://localhost:3000, or *');
  merged.allowHosts = checkNames('allowHosts', merged.allowHosts, /^(\*|[a-z0-9_.-]+|\[[0-9a-f:.]+\])$/i, 'a host name such as devbox.lan, or *');
  if (merged.faults !== undefined) {
    try {
      parseFaultSpec(merged.faults);
    } catch (error) {
      throw new OptionError((error as Error).message);
    }
  }
  if (merged.logLevel !== 'off' && !LOG_LEVELS.includes(merged.logLevel)) {
    throw new OptionError(`logLevel must be one of ${LOG_LEVELS.join(', ')} or off, got ${String(merged.logLevel)}`);
  }
  if (merged.logSink !== undefined && typeof merged.logSink !== 'function') throw new OptionError('logSink must be a function');
  if (merged.stateFile !== undefined && (typeof merged.stateFile !== 'string' || merged.stateFile === '')) {
    throw new OptionError('stateFile must be a file path');
  }
  if (typeof merged.x402 !== 'boolean') throw new OptionError('x402 must be true or false');
  if (merged.x402Account !== undefined) {
    const account = merged.x402Account;
    const byIndex = typeof account === 'number' && Number.isInteger(account) && account >= 0 && account < merged.accounts;
    const byAddress = typeof account === 'string' && /^0x[0-9a-fA-F]{40}$/.test(account);
    if (!byIndex && !byAddress) {
      throw new OptionError(`x402Account must be a dev account index from 0 to ${merged.accounts - 1} or a dev account's address, got ${JSON.stringify(account)}`);
    }
  }
  checkInteger('autosaveBlocks', merged.autosaveBlocks, 0);
  checkInteger('historyBlocks', merged.historyBlocks, 0);
  if (merged.historyBlocks > 0 && merged.historyBlocks <= merged.finalizedDepth) {
    throw new OptionError(
      `historyBlocks (${merged.historyBlocks}) must be 0 (keep every block) or more than finalizedDepth (${merged.finalizedDepth}), so 'safe' and 'finalized' stay readable and a reorg finds its blocks`,
    );
  }
  checkInteger('maxQueuedPerSender', merged.maxQueuedPerSender, 1);
  checkInteger('maxQueued', merged.maxQueued, 1);
  checkInteger('maxFilters', merged.maxFilters, 1);
  if (merged.autosaveBlocks > 0 && merged.stateFile === undefined) throw new OptionError('autosaveBlocks needs a state file (--state)');
  merged.fork = resolveFork(input.fork);
  if (merged.fork && merged.stateFile !== undefined) {
    throw new OptionError(
      "--state cannot be used with --fork-url: a saved fork would need the upstream's state it fetched and the upstream itself to reload, and this node does not save those; it refuses rather than reload half a state",
    );
  }
  return merged;
}

/** The fork options, checked; undefined when there is no fork. */
export function resolveFork(input: ForkOptionsInput | undefined): ForkOptions | undefined {
  if (input === undefined || input === null) return undefined;
  if (typeof input !== 'object' || Array.isArray(input)) throw new OptionError(`fork must be an object { ${FORK_KEYS.map((key) => (key === 'url' ? key : `${key}?`)).join(', ')} }`);
  for (const key of Object.keys(input)) {
    if (!FORK_KEYS.includes(key)) throw new OptionError(`unknown fork option ${key}`);
  }
  if (typeof input.url !== 'string' || !/^https?:\/\/[^\s]+$/i.test(input.url)) throw new OptionError('fork.url (--fork-url) must be an http:// or https:// URL');
  const { url, blockNumber: blockInUrl } = splitForkUrl(input.url);
  try {
    new URL(url);
  } catch {
    throw new OptionError('fork.url (--fork-url) is not a valid URL');
  }
  if (input.waitAtMisses !== undefined && typeof input.waitAtMisses !== 'boolean') throw new OptionError('fork.waitAtMisses must be true or false');
  const fork: ForkOptions = {
    url,
    ...DEFAULT_FORK_TIMING,
    waitAtMisses: input.waitAtMisses ?? isLoopback(new URL(url).hostname),
    headers: input.headers === undefined ? [] : forkHeaders(input.headers),
    computeUnitsPerSecond: input.noRateLimit === true ? Infinity : (input.computeUnitsPerSecond ?? DEFAULT_COMPUTE_UNITS_PER_SECOND),
  };
  if (input.blockNumber !== undefined && input.blockNumber !== null) fork.blockNumber = toBigInt('fork.blockNumber (--fork-block-number)', input.blockNumber);
  if (blockInUrl !== undefined) {
    if (fork.blockNumber !== undefined && fork.blockNumber !== blockInUrl) throw new OptionError(`--fork-url names block ${blockInUrl} and --fork-block-number ${fork.blockNumber}: give one`);
    fork.blockNumber = blockInUrl;
  }
  if (input.chainId !== undefined && input.chainId !== null) {
    fork.chainId = toBigInt('fork.chainId (--fork-chain-id)', input.chainId);
    if (fork.chainId === 0n) throw new OptionError('fork.chainId (--fork-chain-id) must be positive');
  }
  if (input.noRateLimit !== undefined && typeof input.noRateLimit !== 'boolean') throw new OptionError('fork.noRateLimit (--no-rate-limit) must be true or false');
  if (input.noStorageCaching !== undefined && typeof input.noStorageCaching !== 'boolean') throw new OptionError('fork.noStorageCaching (--no-storage-caching) must be true or false');
  if (input.noRateLimit !== true) checkInteger('fork.computeUnitsPerSecond (--compute-units-per-second)', fork.computeUnitsPerSecond, 1, 1_000_000_000);
  if (input.timeoutMs !== undefined) fork.timeoutMs = input.timeoutMs;
  if (input.retries !== undefined) fork.retries = input.retries;
  if (input.retryBackoffMs !== undefined) fork.retryBackoffMs = input.retryBackoffMs;
  checkInteger('fork.timeoutMs (--timeout)', fork.timeoutMs, 100, 600_000);
  checkInteger('fork.retries (--retries)', fork.retries, 0, 100);
  checkInteger('fork.retryBackoffMs (--fork-retry-backoff)', fork.retryBackoffMs, 0, 60_000);
  return fork;
}

/** The token fields a chain preset sets (its USDC), under what the caller gives. */
function presetToken(chain: ChainName | undefined): Partial<TokenOptions> {
  const preset = chain === undefined ? undefined : presetByName(chain);
  if (!preset) return {};
  const { address, name, version, symbol } = preset.token;
  return { address, name, version, symbol };
}

const OPTIONAL_KEYS = ['chain', 'genesisTimestamp', 'apiKey', 'faults', 'stateFile', 'logSink', 'x402Account', 'fork'];

function resolveLimits(input: ProfileLimitsInput | undefined, defaults: ProfileLimitSet, maxBodyBytes: number): ProfileLimitSet {
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) throw new OptionError('limits must be an object');
  const result = {} as ProfileLimitSet;
  for (const [key, value] of Object.entries(input ?? {})) {
    if (key !== 'public' && key !== 'dedicated') throw new OptionError(`unknown limits profile ${key} (public or dedicated)`);
    if (value !== undefined && (typeof value !== 'object' || value === null)) throw new OptionError(`limits.${key} must be an object`);
  }
  for (const profile of ['public', 'dedicated'] as const) {
    const given = input?.[profile] ?? {};
    const limits: ProfileLimits = { ...defaults[profile], maxBodyBytes };
    for (const [key, value] of Object.entries(given)) {
      if (value === undefined) continue;
      if (!(key in limits)) throw new OptionError(`unknown limit limits.${profile}.${key}`);
      (limits as unknown as Record<string, unknown>)[key] = value;
    }
    checkInteger(`limits.${profile}.maxLogBlockRange`, limits.maxLogBlockRange, 0);
    checkInteger(`limits.${profile}.maxLogResults`, limits.maxLogResults, 0);
    checkInteger(`limits.${profile}.requestsPerSecond`, limits.requestsPerSecond, 0);
    checkInteger(`limits.${profile}.maxBatch`, limits.maxBatch, 1);
    checkInteger(`limits.${profile}.maxBodyBytes`, limits.maxBodyBytes, 1024);
    result[profile] = limits;
  }
  return result;
}

/**
 * How a command-line value becomes an option: a whole number, text, an amount in ETH (18 decimals)
 * or in token units (6 decimals), the parsed contents of a JSON file, or a switch that sets the
 * option to true (`on`) or false (`off`).
 */
/** `accountRef`: a dev account's index (digits) or its address. */
/** `list`: repeatable, each value may hold several comma-separated items; the option gets them all. */
export type CliValueKind = 'integer' | 'text' | 'eth' | 'tokenUnits' | 'jsonFile' | 'accountRef' | 'list' | 'repeatable' | 'on' | 'off';

/** One command-line flag: the option it sets (a dotted path into MockNodeOptionsInput), its help and how its value is read. */
export interface CliFlag {
  flag: string;
  section: 'Server' | 'Limits' | 'Faults and state' | 'Fork' | 'Chain' | 'Accounts' | 'Token' | 'x402 facilitator' | 'Output';
  target: string;
  kind: CliValueKind;
  /** The value's placeholder in --help. */
  arg?: string;
  help: string;
  /** What --help says the default is, when the default value alone does not say it well. */
  shownDefault?: string;
}

const limitFlags = (flag: string, key: keyof ProfileLimits, arg: string, help: string): CliFlag[] => [
  { flag, section: 'Limits', target: `limits.public.${key}`, kind: 'integer', arg, help: `public endpoint: ${help}` },
  { flag: `dedicated-${flag}`, section: 'Limits', target: `limits.dedicated.${key}`, kind: 'integer', arg, help: `dedicated endpoint: ${help}` },
];

/** Every command-line flag of chain-mock-node; --help, parsing and the options they give come from here. */
export const CLI_FLAGS: readonly CliFlag[] = [
  { flag: 'host', section: 'Server', target: 'host', kind: 'text', arg: '<addr>', help: 'address to bind; beyond loopback every dev key is usable by anyone who reaches it' },
  { flag: 'allow-host', section: 'Server', target: 'allowHosts', kind: 'list', arg: '<name>', help: 'also answer requests whose Host is this name (repeatable; * for any); loopback names, IP addresses and the --host name always are', shownDefault: 'none' },
  { flag: 'port', section: 'Server', target: 'port', kind: 'integer', arg: '<n>', help: 'port, 0 for any free port' },
  { flag: 'api-key', section: 'Server', target: 'apiKey', kind: 'text', arg: '<key>', help: 'key of the dedicated endpoint POST /dedicated/<key>', shownDefault: 'random' },
  { flag: 'max-body-bytes', section: 'Server', target: 'maxBodyBytes', kind: 'integer', arg: '<n>', help: 'request body limit' },
  { flag: 'allow-origin', section: 'Server', target: 'allowOrigins', kind: 'list', arg: '<origin>', help: 'let web pages from this origin call over HTTP (CORS) and WebSocket (repeatable; * for any)', shownDefault: 'none' },
  { flag: 'cors', section: 'Server', target: 'cors', kind: 'on', help: "let any web page call (same as --allow-origin '*')" },
  { flag: 'no-control', section: 'Server', target: 'control', kind: 'off', help: 'disable evm_*, anvil_* and mock_* control methods' },
  ...limitFlags('max-log-range', 'maxLogBlockRange', '<n>', 'eth_getLogs block range, 0 = no limit'),
  ...limitFlags('max-log-results', 'maxLogResults', '<n>', 'eth_getLogs result cap, 0 = no limit'),
  ...limitFlags('rate-limit', 'requestsPerSecond', '<rps>', 'requests per second, HTTP 429 above, 0 = off'),
  ...limitFlags('max-batch', 'maxBatch', '<n>', 'requests per batch'),
  { flag: 'max-queued-per-sender', section: 'Limits', target: 'maxQueuedPerSender', kind: 'integer', arg: '<n>', help: 'transactions waiting from one sender ("account limit exceeded" above)' },
  { flag: 'max-queued', section: 'Limits', target: 'maxQueued', kind: 'integer', arg: '<n>', help: 'transactions waiting in all ("txpool is full" above)' },
  { flag: 'max-filters', section: 'Limits', target: 'maxFilters', kind: 'integer', arg: '<n>', help: 'polling filters (eth_newFilter and the like) kept at once; -32005 above' },
  { flag: 'ws-max-buffered-bytes', section: 'Limits', target: 'wsMaxBufferedBytes', kind: 'integer', arg: '<n>', help: 'close a WebSocket that falls this far behind' },
  { flag: 'ws-max-connections', section: 'Limits', target: 'wsMaxConnections', kind: 'integer', arg: '<n>', help: 'most WebSocket connections; more are closed with 1013' },
  { flag: 'ws-max-total-buffered-bytes', section: 'Limits', target: 'wsMaxTotalBufferedBytes', kind: 'integer', arg: '<n>', help: 'most bytes waiting on all WebSockets together; the largest are closed with 1013 above it' },
  { flag: 'faults', section: 'Faults and state', target: 'faults', kind: 'jsonFile', arg: '<file.json>', help: 'inject faults (latency, 429/503 shares, timeouts); see mock_setFaults' },
  { flag: 'state', section: 'Faults and state', target: 'stateFile', kind: 'text', arg: '<file.json>', help: 'load the chain from this file at start, save it atomically on exit and on mock_dumpState' },
  { flag: 'autosave-blocks', section: 'Faults and state', target: 'autosaveBlocks', kind: 'integer', arg: '<n>', help: 'with --state, also save it every n sealed blocks (a crash loses at most n blocks); 0 = only on exit and mock_dumpState' },
  { flag: 'fork-url', section: 'Fork', target: 'fork.url', kind: 'text', arg: '<url>', help: "fork this chain: its state at the fork block is fetched lazily, our blocks follow on top (the chain id is the upstream's; an API key in the URL is never shown)", shownDefault: 'no fork' },
  { flag: 'fork-block-number', section: 'Fork', target: 'fork.blockNumber', kind: 'text', arg: '<n>', help: "with --fork-url: the fork block", shownDefault: "the upstream's latest less 5" },
  { flag: 'timeout', section: 'Fork', target: 'fork.timeoutMs', kind: 'integer', arg: '<ms>', help: 'with --fork-url: deadline of one read from the upstream, retries included', shownDefault: String(DEFAULT_FORK_TIMING.timeoutMs) },
  { flag: 'retries', section: 'Fork', target: 'fork.retries', kind: 'integer', arg: '<n>', help: 'with --fork-url: attempts after the first when the upstream fails or answers a rate limit (429, -32005)', shownDefault: String(DEFAULT_FORK_TIMING.retries) },
  { flag: 'fork-header', section: 'Fork', target: 'fork.headers', kind: 'repeatable', arg: '<"Name: value">', help: 'with --fork-url: a header sent with every request upstream (repeatable); its value is never shown', shownDefault: 'none' },
  { flag: 'fork-chain-id', section: 'Fork', target: 'fork.chainId', kind: 'text', arg: '<id>', help: "with --fork-url: the upstream's chain id, taken as given instead of asked for" },
  { flag: 'compute-units-per-second', section: 'Fork', target: 'fork.computeUnitsPerSecond', kind: 'integer', arg: '<n>', help: 'with --fork-url: compute units a second the provider allows; after a rate limit the wait grows by 17 units a request in flight', shownDefault: String(DEFAULT_COMPUTE_UNITS_PER_SECOND) },
  { flag: 'no-rate-limit', section: 'Fork', target: 'fork.noRateLimit', kind: 'on', help: 'with --fork-url: no wait for compute units after a rate limit (Retry-After and the backoff still apply)' },
  { flag: 'no-storage-caching', section: 'Fork', target: 'fork.noStorageCaching', kind: 'on', help: "with --fork-url: accepted for Anvil's command lines; this node keeps no cache on disk" },
  { flag: 'fork-retry-backoff', section: 'Fork', target: 'fork.retryBackoffMs', kind: 'integer', arg: '<ms>', help: "with --fork-url: first pause between attempts, doubled each time (a Retry-After header is honoured)", shownDefault: String(DEFAULT_FORK_TIMING.retryBackoffMs) },
  { flag: 'history-blocks', section: 'Chain', target: 'historyBlocks', kind: 'integer', arg: '<n>', help: "keep only the newest n sealed blocks (transactions, receipts, logs, state); a read of an older one answers 4444 'pruned history unavailable'; 0 = keep every block", shownDefault: '0 (keep every block)' },
  { flag: 'chain', section: 'Chain', target: 'chain', kind: 'text', arg: '<name>', help: `imitate a chain: ${CHAIN_NAMES.join(', ')} (chain id, USDC's address and domain, OP Stack deposits and L1 fees, predeploys, the flashblocks stream)`, shownDefault: 'none (a plain chain)' },
  { flag: 'chain-id', section: 'Chain', target: 'chainId', kind: 'text', arg: '<id>', help: 'chain id' },
  { flag: 'block-time-ms', section: 'Chain', target: 'blockTimeMs', kind: 'integer', arg: '<ms>', help: 'time between sealed blocks' },
  { flag: 'flashblock-ms', section: 'Chain', target: 'flashblockMs', kind: 'integer', arg: '<ms>', help: 'time between flashblocks of the pending block' },
  { flag: 'no-auto', section: 'Chain', target: 'auto', kind: 'off', help: 'manual mode: no timers; cut flashblocks with mock_flashblock, blocks with evm_mine' },
  { flag: 'pending-identity', section: 'Chain', target: 'pendingIdentity', kind: 'text', arg: '<mode>', help: `pending block number/hash: ${PENDING_IDENTITIES.join(', ')}` },
  { flag: 'pending-nonce', section: 'Chain', target: 'pendingNonce', kind: 'text', arg: '<mode>', help: 'eth_getTransactionCount "pending": pool (queued transactions too, as geth and Anvil), preconfirmed (flashblocks only, as Base)' },
  { flag: 'gas-limit', section: 'Chain', target: 'gasLimit', kind: 'text', arg: '<gas>', help: 'block gas limit' },
  { flag: 'base-fee', section: 'Chain', target: 'initialBaseFee', kind: 'text', arg: '<wei>', help: 'base fee of the first block' },
  { flag: 'safe-depth', section: 'Chain', target: 'safeDepth', kind: 'integer', arg: '<n>', help: "blocks 'safe' trails 'latest'" },
  { flag: 'finalized-depth', section: 'Chain', target: 'finalizedDepth', kind: 'integer', arg: '<n>', help: "blocks 'finalized' trails 'latest'" },
  { flag: 'mnemonic', section: 'Accounts', target: 'mnemonic', kind: 'text', arg: '<words>', help: 'dev account mnemonic', shownDefault: 'test test ... junk' },
  { flag: 'accounts', section: 'Accounts', target: 'accounts', kind: 'integer', arg: '<n>', help: 'number of dev accounts' },
  { flag: 'balance', section: 'Accounts', target: 'balance', kind: 'eth', arg: '<eth>', help: 'ETH per dev account' },
  { flag: 'token-address', section: 'Token', target: 'token.address', kind: 'text', arg: '<addr>', help: 'address of the EIP-3009 token' },
  { flag: 'token-balance', section: 'Token', target: 'token.balance', kind: 'tokenUnits', arg: '<units>', help: 'token units per dev account, 6 decimals' },
  { flag: 'token-name', section: 'Token', target: 'token.name', kind: 'text', arg: '<name>', help: 'EIP-712 domain name' },
  { flag: 'token-version', section: 'Token', target: 'token.version', kind: 'text', arg: '<v>', help: 'EIP-712 domain version' },
  { flag: 'no-x402', section: 'x402 facilitator', target: 'x402', kind: 'off', help: 'turn the facilitator routes off (GET /x402/supported, POST /x402/verify, POST /x402/settle; also under /dedicated/<key>)' },
  { flag: 'x402-account', section: 'x402 facilitator', target: 'x402Account', kind: 'accountRef', arg: '<n|addr>', help: 'dev account (index or address) the facilitator settles from', shownDefault: 'the last one' },
  { flag: 'json-logs', section: 'Output', target: 'jsonLogs', kind: 'on', help: 'log JSON lines' },
  { flag: 'log-level', section: 'Output', target: 'logLevel', kind: 'text', arg: '<level>', help: `lowest level logged: ${LOG_LEVELS.join(', ')} or off (debug adds every JSON-RPC call and empty block)` },
  { flag: 'quiet', section: 'Output', target: 'quiet', kind: 'on', help: 'print nothing but errors' },
];

/** The default of an option given by its dotted path, as --help shows it. */
export function defaultAt(target: string): unknown {
  return target.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], defaultOptions());
}

/** Number of flashblocks in one block: indices 0 .. count-1. */
export function flashblocksPerBlock(options: Pick<MockNodeOptions, 'blockTimeMs' | 'flashblockMs'>): number {
  if (options.flashblockMs <= 0) return 1;
  return Math.max(1, Math.floor(options.blockTimeMs / options.flashblockMs));
}
