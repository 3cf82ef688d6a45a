// Assembles a mock node: options -> dev accounts -> genesis (accounts, native contracts) ->
// chain -> JSON-RPC handler -> HTTP server, and the handle to stop it.
import { secureRandomHex } from './secureRandom';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Chain } from './chain/chain';
import { DevAccounts, type DevAccount } from './execution/devAccounts';
import { NativeContracts } from './execution/execute';
import { Impersonation } from './execution/impersonation';
import type { NativeContract } from './execution/nativeContract';
import { createStableToken } from './execution/token/index';
import { logChainEvents } from './chainLog';
import { genesisAlloc } from './genesis/genesisAlloc';
import { createLogger, type Logger } from './logger';
import { OptionError, resolveOptions, type MockNodeOptions, type MockNodeOptionsInput } from './options';
import { openFork } from './forkStart';
import { urlSecrets } from './redact';
import { isLoopback } from './upstream/loopback';
import { createRpcHandler, type RpcHandler } from './rpc/handler';
import type { NodeServices } from './rpc/methods/types';
import { createHttpServer, createRpcRouter, type HttpOptions } from './rpc/server';
import { exposureWarning } from './rpc/requestGuards';
import { FLASHBLOCKS_PATH, WebSocketGateway } from './rpc/websocket/gateway';
import { presetByName } from './presets/chainPresets';
import { startAutosave, type Autosave } from './chain/autosave';
import { loadStateFile, saveStateFile, stateFileLocationProblem } from './chain/persistence';
import { X402Facilitator } from './x402/facilitator';
import { createX402Router, X402_PATH } from './x402/routes';
import type { Router } from 'express';

export type { DevAccount };

export interface MockNodeCore {
  services: NodeServices;
  handle: RpcHandler;
  http: HttpOptions;
  logger: Logger;
  /** The x402 facilitator, unless turned off (`x402: false`). */
  x402?: X402Facilitator;
  /** --autosave-blocks: saves the state file every N sealed blocks. */
  autosave: Autosave;
}

export interface RunningMockNode {
  /** Public profile: POST here. */
  url: string;
  /** Dedicated profile (serves eth_getBlockReceipts). */
  dedicatedUrl: string;
  /** WebSocket endpoint (public profile). */
  wsUrl: string;
  /** WebSocket endpoint of the dedicated profile. */
  dedicatedWsUrl: string;
  /** With a chain preset (--chain base): Base's flashblocks stream, one FlashblocksPayloadV1 per flashblock (JSON text; ?encoding=brotli for brotli binary frames). */
  flashblocksWsUrl?: string;
  /** With a chain preset: the chain's name ("Base", "Base Sepolia"). */
  chainLabel?: string;
  /** x402 facilitator URLs (public and dedicated profile) for x402's HTTPFacilitatorClient; absent with `x402: false`. */
  x402?: { url: string; dedicatedUrl: string; signer: string };
  host: string;
  port: number;
  apiKey: string;
  chainId: bigint;
  tokenAddress: string;
  accounts: readonly DevAccount[];
  options: MockNodeOptions;
  core: MockNodeCore;
  server: Server;
  /** The WebSocket side (eth_subscribe) on the same port and paths. */
  websocket: WebSocketGateway;
  /** Calls a method in-process (no HTTP), as the dedicated profile. */
  request(method: string, params?: unknown[]): Promise<unknown>;
  stop(): Promise<void>;
}

function nativeContractsFor(options: MockNodeOptions, accounts: DevAccounts): NativeContract[] {
  // The built-in EIP-3009 token; dev account 0 is its owner, pauser, blacklister and minter.
  return [createStableToken(options.token, accounts.addresses()[0])];
}

/** Builds the chain and the handler without any server (tests, routers, the CLI all start here). */
export async function createMockNodeCore(input: MockNodeOptionsInput = {}): Promise<MockNodeCore> {
  const resolved = resolveOptions(input);
  const threshold = resolved.quiet && resolved.logLevel !== 'off' ? 'error' : resolved.logLevel;
  const apiKey = resolved.apiKey ?? secureRandomHex(12);
  // A fork URL may carry an API key: every log line and error answer is scrubbed of it.
  const secrets = [apiKey, ...(resolved.fork ? [...urlSecrets(resolved.fork.url), ...resolved.fork.headers.map(([, value]) => value).filter((value) => value.length >= 4)] : [])];
  const logger = createLogger({ json: resolved.jsonLogs, threshold, sink: resolved.logSink, secrets });
  const accounts = new DevAccounts(resolved.mnemonic, resolved.accounts);
  const opened = resolved.fork ? await openFork(resolved, input, accounts, resolved.fork) : undefined;
  const options = opened?.options ?? resolved;
  const contracts = opened?.contracts ?? new NativeContracts(nativeContractsFor(options, accounts));
  const alloc = opened?.alloc ?? genesisAlloc(options, accounts, contracts);
  const chain = await Chain.create(options, contracts, alloc, logger, opened?.fork);
  if (opened) {
    const { header, hash } = opened.fork;
    logger.info(`forked ${opened.fork.client.settings.shownUrl} at block ${header.number} (${hash})`, { chainId: options.chainId, token: contracts.get(options.token.address) ? 'built-in, placed' : "the upstream's contract" });
  }
  if (options.stateFile) {
    // A path that cannot be written fails now, not silently at exit.
    const problem = stateFileLocationProblem(options.stateFile);
    if (problem) throw new OptionError(`--state ${options.stateFile}: ${problem}`);
    const loaded = await loadStateFile(chain, options, options.stateFile);
    if (loaded) logger.info(`loaded ${options.stateFile}`, { blocks: loaded.blocks, queued: loaded.queued });
  }
  logChainEvents(chain, logger);
  const refork = opened ? reforkWith(options, chain, accounts, contracts) : undefined;
  const services: NodeServices = { options, chain, accounts, contracts, logger, impersonation: new Impersonation(), refork };
  const handle = createRpcHandler(services, undefined, secrets);
  const exposure = { bindHost: options.host, allowHosts: options.allowHosts, allowOrigins: options.cors ? ['*'] : options.allowOrigins };
  const x402 = options.x402 ? new X402Facilitator(services, handle, options.x402Account) : undefined;
  let x402Routes: Router[] | undefined;
  const routes = x402 ? () => (x402Routes ??= [createX402Router(x402, handle, { apiKey, maxBodyBytes: options.maxBodyBytes, exposure })]) : undefined;
  const http: HttpOptions = { maxBodyBytes: options.maxBodyBytes, apiKey, exposure, limits: options.limits, routes };
  return { services, handle, http, logger, x402, autosave: startAutosave(chain, options, logger) };
}

/**
 * anvil_reset({ forking }) on a forked node: the chain starts again from another fork block (or
 * another upstream of the same chain). The token keeps its place: a fork where the token's address
 * would change from empty to taken (or back) is refused, since the node's contracts are fixed at start.
 */
function reforkWith(options: MockNodeOptions, chain: Chain, accounts: DevAccounts, contracts: NativeContracts): NonNullable<NodeServices['refork']> {
  return async ({ url, blockNumber }) => {
    const current = options.fork!;
    // Another upstream: waiting at misses is its own default (ForkOptions.waitAtMisses).
    const fork = { ...current, url: url ?? current.url, blockNumber, waitAtMisses: url === undefined ? current.waitAtMisses : isLoopback(new URL(url).hostname) };
    const opened = await openFork({ ...options, fork }, { chainId: options.chainId, token: options.token }, accounts, fork);
    const placed = opened.contracts.get(options.token.address) !== undefined;
    if (placed !== (contracts.get(options.token.address) !== undefined)) {
      throw new OptionError(`the token's address ${options.token.address} is ${placed ? 'empty' : 'taken'} at the new fork block but was not at start: restart the node with --fork-url to fork there`);
    }
    const previous = chain.fork;
    await chain.refork(opened.fork, opened.alloc);
    previous?.client.close();
  };
}

export interface MockNodeRouter {
  /** Mount it anywhere: `app.use('/rpc', router)` serves `/rpc/` and `/rpc/dedicated/<key>`. */
  router: Router;
  core: MockNodeCore;
  /**
   * Adds eth_subscribe and JSON-RPC over WebSocket on the same paths of your server (the one
   * `app.listen()` returned), under the path the router is mounted at. Upgrades to other paths
   * are left to your own handlers. Call it once per server.
   */
  attachWebSocket(server: Server, mountPath?: string): WebSocketGateway;
  /** Stops the timers and the WebSocket side, and writes the state file (`stateFile`) when set. */
  stop(): Promise<void>;
}

/** An Express router that serves a fresh mock node's JSON-RPC paths (`/` and `/dedicated/<key>`). */
export async function mockNodeRouter(input: MockNodeOptionsInput = {}): Promise<MockNodeRouter> {
  const core = await createMockNodeCore({ quiet: true, ...input });
  const { services } = core;
  services.chain.startTimers();
  const gateways: WebSocketGateway[] = [];
  const attached = new WeakSet<Server>();
  let stopped: Promise<void> | undefined;
  return {
    router: createRpcRouter(core.handle, core.http),
    core,
    attachWebSocket(server, mountPath = '') {
      const basePath = mountPath.replace(/\/+$/, '');
      if (basePath !== '' && !basePath.startsWith('/')) throw new OptionError(`mountPath must start with /, got ${mountPath}`);
      if (attached.has(server)) throw new OptionError('attachWebSocket: this server already has the node\'s WebSocket side');
      attached.add(server);
      const gateway = new WebSocketGateway(server, { ...services, handle: core.handle, http: core.http, logger: core.logger }, basePath);
      gateways.push(gateway);
      return gateway;
    },
    stop() {
      stopped ??= (async () => {
        services.chain.stopTimers();
        for (const gateway of gateways.splice(0)) gateway.close();
        await saveStateOnStop(core);
      })();
      return stopped;
    },
  };
}

/** Writes the state file, when the node has one, and logs what was saved, or why it could not be. */
async function saveStateOnStop(core: MockNodeCore): Promise<void> {
  core.services.chain.fork?.client.close();
  await core.autosave.stop();
  const stateFile = core.services.options.stateFile;
  if (!stateFile) return;
  try {
    const saved = await saveStateFile(core.services.chain, core.services.options, stateFile);
    core.logger.info(`saved ${stateFile}`, { blocks: saved.blocks, queued: saved.queued, bytes: saved.bytes });
  } catch (error) {
    core.logger.error(`could not save the state file ${stateFile}: ${(error as Error).message}`);
    throw error;
  }
}

/** Starts a mock node with its HTTP server; resolves once it listens. */
export async function startMockNode(input: MockNodeOptionsInput = {}): Promise<RunningMockNode> {
  const core = await createMockNodeCore(input);
  const { services, http } = core;
  const warning = exposureWarning(services.options.host);
  if (warning) core.logger.warn(warning);
  const server = createHttpServer(services, core.handle, http);
  const websocket = new WebSocketGateway(server, { ...services, handle: core.handle, http, logger: core.logger });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A deep accept queue (the kernel caps it at somaxconn): a client that opens hundreds of
    // connections at once waits for them instead of some being reset.
    server.listen({ port: services.options.port, host: services.options.host, backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = services.options.host;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  services.chain.startTimers();
  let stopped: Promise<void> | undefined;
  let nextId = 1;
  return {
    url: `http://${hostInUrl}:${port}/`,
    dedicatedUrl: `http://${hostInUrl}:${port}/dedicated/${http.apiKey}`,
    wsUrl: `ws://${hostInUrl}:${port}/`,
    dedicatedWsUrl: `ws://${hostInUrl}:${port}/dedicated/${http.apiKey}`,
    ...(services.options.chain ? { chainLabel: presetByName(services.options.chain)!.label } : {}),
    ...(websocket.flashblocks ? { flashblocksWsUrl: `ws://${hostInUrl}:${port}${FLASHBLOCKS_PATH}` } : {}),
    ...(core.x402
      ? { x402: { url: `http://${hostInUrl}:${port}${X402_PATH}`, dedicatedUrl: `http://${hostInUrl}:${port}/dedicated/${http.apiKey}${X402_PATH}`, signer: core.x402.signer.address } }
      : {}),
    host,
    port,
    apiKey: http.apiKey,
    chainId: services.options.chainId,
    tokenAddress: services.options.token.address,
    accounts: services.accounts.list,
    options: services.options,
    core,
    server,
    websocket,
    async request(method, params = []) {
      const result = await core.handle({ jsonrpc: '2.0', id: nextId++, method, params }, 'dedicated');
      const body = result.body as { result?: unknown; error?: { code: number; message: string; data?: unknown } } | undefined;
      if (!body) throw Object.assign(new Error(`${method}: no answer (injected timeout)`), { code: 'ETIMEDOUT' });
      if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code, data: body.error.data });
      return body.result;
    },
    stop() {
      stopped ??= (async () => {
        services.chain.stopTimers();
        websocket.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await saveStateOnStop(core);
      })();
      return stopped;
    },
  };
}
