// The single JSON-RPC entry point: handle(body, profile) -> { status, body }. It validates the
// envelope, runs batches and notifications, applies the profile's gates (rate limit, injected
// faults, batch size, the public profile's receipts rule), and turns every failure into a
// JSON-RPC error. It never throws and never sees HTTP objects.
import { ChainError } from '../encoding/errors';
import { CATALOG, requiredCount, type MethodSpec } from '../catalog/index';
import { scrubSecrets } from '../redact';
import { rpcErrorOf } from './chainErrors';
import { buildDispatch } from './dispatch';
import { ErrorCode, RpcError } from './errors';
import { FaultInjector } from './faults';
import { forkedRequest } from './forkRequests';
import { faultControlMethods } from './methods/faultControl';
import { METHOD_TABLES } from './methods/index';
import type { MethodTable, NodeServices, ProfileName } from './methods/types';
import { expectParams } from './params';
import { RATE_LIMIT_MESSAGE, RateLimiter } from './rateLimit';

export type RpcId = string | number | null;

export interface RpcResponse {
  jsonrpc: '2.0';
  id: RpcId;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export interface HandleResult {
  /** HTTP status for the whole reply. */
  status: number;
  /** Response body; undefined when every request was a notification. */
  body: RpcResponse | RpcResponse[] | undefined;
  headers?: Record<string, string>;
  /** An injected timeout: send nothing and close the connection. */
  hangup?: boolean;
}

export const RECEIPTS_ON_PUBLIC_MESSAGE =
  'eth_getBlockReceipts is not available on the public endpoint; use a dedicated endpoint (POST /dedicated/<key>)';

export const MAX_BATCH = 1000;

export const SERVICE_UNAVAILABLE_MESSAGE = 'service temporarily unavailable';

/** Methods no limit or fault applies to, so faults can always be cleared. */
const UNGATED = new Set(['mock_setFaults', 'mock_getFaults']);

/** What the rate limit or an injected fault decided for a request, before any work was done. */
export interface GateRefusal {
  /** 429 or 503; 0 with `hangup` for an injected timeout. */
  status: number;
  headers?: Record<string, string>;
  /** An injected timeout: the request was held; close the connection without an answer. */
  hangup?: boolean;
  code: number;
  message: string;
  data?: unknown;
}

export interface RpcHandler {
  (body: unknown, profile: ProfileName): Promise<HandleResult>;
  /**
   * The profile's rate limit and injected faults for a request served beside JSON-RPC (the x402
   * facilitator's routes), under the names given (fault rules match them like method names).
   * Resolves after any injected latency; undefined when the request may go on.
   */
  gate(names: readonly string[], profile: ProfileName): Promise<GateRefusal | undefined>;
}

/** Methods added to the node's own (an embedding or a test): their catalog entries and implementations. */
export interface ExtraMethods {
  specs: readonly MethodSpec[];
  tables: readonly MethodTable[];
}

/**
 * `secrets`: strings never to put in an answer (the dedicated key). Every error message is
 * scrubbed (redact.ts) before it is answered or logged: library messages echo their inputs.
 */
export function createRpcHandler(services: NodeServices, extra: ExtraMethods = { specs: [], tables: [] }, secrets: readonly string[] = []): RpcHandler {
  const logger = services.logger;
  const faults = new FaultInjector(services.options.faults ?? {});
  const limiters = {
    public: new RateLimiter(() => services.options.limits.public.requestsPerSecond),
    dedicated: new RateLimiter(() => services.options.limits.dedicated.requestsPerSecond),
  };
  const faultMethods = faultControlMethods(faults, logger);
  const catalog = extra.specs.length ? new Map([...CATALOG, ...extra.specs.map((spec) => [spec.name, spec] as const)]) : CATALOG;
  const methods = buildDispatch([...METHOD_TABLES, faultMethods, ...extra.tables], catalog);

  /** Whether a rate limit or an injected fault can apply to a request of this profile (when not, gates() is skipped: no promise, no turn). */
  function gated(profile: ProfileName): boolean {
    return profile !== 'internal' && (services.options.limits[profile].requestsPerSecond > 0 || faults.enabled);
  }

  /** Rate limit, then injected faults; a result when they decide the reply, else undefined. */
  async function gates(body: unknown, profile: ProfileName): Promise<HandleResult | undefined> {
    if (!gated(profile)) return undefined; // the common case costs nothing
    const list = Array.isArray(body) ? body : [body];
    const refusal = await refuse(list.map(methodName), profile);
    if (!refusal) return undefined;
    if (refusal.hangup) return { status: 0, body: undefined, hangup: true };
    return { status: refusal.status, headers: refusal.headers, body: rejectAll(body, refusal.code, refusal.message, refusal.data) };
  }

  /** The rate limit and the injected faults for the named methods of one request. */
  async function refuse(methods: readonly string[], profile: ProfileName): Promise<GateRefusal | undefined> {
    if (profile === 'internal') return undefined;
    const limit = services.options.limits[profile].requestsPerSecond;
    if (limit <= 0 && !faults.enabled) return undefined;
    const names = methods.filter((name) => !UNGATED.has(name));
    if (names.length === 0) return undefined;
    if (limit > 0) {
      const rate = limiters[profile].take(names.length);
      if (!rate.ok) {
        logger.debug(`rate limited: HTTP 429 on the ${profile} endpoint`, { requests: names.length, retryAfterSeconds: rate.retryAfterSeconds });
        const data = { current_rps: rate.current, allowed_rps: limit, backoff_seconds: rate.retryAfterSeconds };
        return {
          status: 429,
          headers: { 'retry-after': String(rate.retryAfterSeconds) },
          code: ErrorCode.LimitExceeded,
          message: `${RATE_LIMIT_MESSAGE}: ${limit} requests per second allowed on the ${profile} endpoint`,
          data,
        };
      }
    }
    if (!faults.enabled) return undefined;
    const decision = faults.decide(profile, names);
    if (decision.delayMs > 0) await sleep(decision.delayMs);
    if (decision.timeoutMs > 0) {
      logger.debug(`injected fault: holding the connection ${decision.timeoutMs} ms, then closing it`, { profile, methods: names });
      await sleep(decision.timeoutMs);
      return { status: 0, hangup: true, code: ErrorCode.ResourceUnavailable, message: 'injected timeout' };
    }
    if (decision.status !== 0) {
      logger.debug(`injected fault: HTTP ${decision.status}`, { profile, methods: names });
    }
    if (decision.status === 429) {
      const data = { current_rps: null, allowed_rps: null, backoff_seconds: decision.retryAfterSeconds, injected: true };
      return {
        status: 429,
        headers: { 'retry-after': String(decision.retryAfterSeconds) },
        code: ErrorCode.LimitExceeded,
        message: `${RATE_LIMIT_MESSAGE} (injected fault)`,
        data,
      };
    }
    if (decision.status === 503) {
      const headers = decision.retryAfterSeconds > 0 ? { 'retry-after': String(decision.retryAfterSeconds) } : undefined;
      return { status: 503, headers, code: ErrorCode.ResourceUnavailable, message: `${SERVICE_UNAVAILABLE_MESSAGE} (injected fault)` };
    }
    return undefined;
  }

  // one() and call() answer synchronously when the method does (most reads, and a transaction
  // taken in without automine): a promise only where a method's answer waits for something.
  function one(request: unknown, profile: ProfileName): RpcResponse | undefined | Promise<RpcResponse | undefined> {
    if (!request || typeof request !== 'object' || Array.isArray(request)) {
      return errorResponse(null, ErrorCode.InvalidRequest, 'invalid request: expected a JSON-RPC 2.0 object');
    }
    const r = request as Record<string, unknown>;
    const hasId = 'id' in r;
    const id = r.id;
    if (hasId && !(typeof id === 'string' || typeof id === 'number' || id === null)) {
      return errorResponse(null, ErrorCode.InvalidRequest, 'invalid request: id must be a string, a number or null');
    }
    const rid = (hasId ? id : null) as RpcId;
    if (r.jsonrpc !== '2.0') return errorResponse(rid, ErrorCode.InvalidRequest, 'invalid request: jsonrpc must be "2.0"');
    if (typeof r.method !== 'string') return errorResponse(rid, ErrorCode.InvalidRequest, 'invalid request: method must be a string');
    const params = r.params === undefined ? [] : r.params;
    if (!Array.isArray(params)) return errorResponse(rid, ErrorCode.InvalidParams, 'invalid params: params must be an array (positional)');
    const response = call(r.method, params, profile, rid);
    if (hasId) return response;
    // A notification: no answer, once its work is done.
    return response instanceof Promise ? response.then(() => undefined) : undefined;
  }

  function call(method: string, params: unknown[], profile: ProfileName, id: RpcId): RpcResponse | Promise<RpcResponse> {
    // A change answered before its work was done (an automined transaction): served after it.
    const finishing = services.chain.finishing;
    if (finishing) return finishing.then(() => call(method, params, profile, id));
    const entry = methods.get(method);
    if (!entry) return errorResponse(id, ErrorCode.MethodNotFound, `the method ${method} does not exist/is not available`);
    const { spec, handler } = entry;
    if (!handler) {
      return errorResponse(id, ErrorCode.MethodNotFound, `notifications not supported: ${method} needs a WebSocket connection (ws:// on the same path)`);
    }
    if (spec.control && !services.options.control) {
      return errorResponse(id, ErrorCode.MethodNotFound, `the method ${method} is disabled (control methods are off)`);
    }
    const started = logger.enabled('debug') ? performance.now() : 0;
    let result: unknown;
    try {
      expectParams(params, requiredCount(spec), spec.params.length);
      const fork = services.chain.fork;
      result = fork
        ? forkedRequest(services.chain, fork, method, params, (given) => handler(given, { node: services, profile }))
        : handler(params, { node: services, profile });
    } catch (thrown) {
      return failed(method, profile, id, started, thrown);
    }
    if (result instanceof Promise) {
      return result.then(
        (value: unknown) => answered(method, profile, id, started, value),
        (thrown: unknown) => failed(method, profile, id, started, thrown),
      );
    }
    return answered(method, profile, id, started, result);
  }

  function answered(method: string, profile: ProfileName, id: RpcId, started: number, result: unknown): RpcResponse {
    if (started) logger.debug(method, { profile, ms: elapsed(started) });
    return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
  }

  function failed(method: string, profile: ProfileName, id: RpcId, started: number, thrown: unknown): RpcResponse {
    const error = thrown instanceof ChainError ? rpcErrorOf(thrown) : thrown;
    if (error instanceof RpcError) {
      const message = scrubSecrets(error.message, secrets);
      if (started) logger.debug(`${method} answered error ${error.code}`, { profile, ms: elapsed(started), message });
      return errorResponse(id, error.code, message, error.data);
    }
    // A bug, not bad input: always in the log, with where it happened.
    logger.error(`${method} failed with an internal error`, { profile, error: (error as Error)?.stack ?? String(error) });
    return errorResponse(id, ErrorCode.Internal, scrubSecrets(`internal error: ${(error as Error)?.message ?? String(error)}`, secrets));
  }

  async function handle(body: unknown, profile: ProfileName): Promise<HandleResult> {
    try {
      if (Array.isArray(body)) {
        if (body.length === 0) return { status: 200, body: errorResponse(null, ErrorCode.InvalidRequest, 'empty batch') };
        const maxBatch = profile === 'internal' ? MAX_BATCH : services.options.limits[profile].maxBatch;
        if (body.length > maxBatch) {
          return { status: 200, body: errorResponse(null, ErrorCode.LimitExceeded, `batch too large: ${body.length} requests, max ${maxBatch}`) };
        }
      }
      if (gated(profile)) {
        const refused = await gates(body, profile);
        if (refused) return refused;
      }
      if (Array.isArray(body)) {
        if (profile === 'public' && body.some(callsBlockReceipts)) {
          logger.debug('batch with eth_getBlockReceipts refused on the public endpoint: HTTP 403', { requests: body.length });
          return { status: 403, body: body.map((request) => receiptsRejection(request)) };
        }
        const responses: RpcResponse[] = [];
        for (const request of body) {
          const answer = one(request, profile);
          const response = answer instanceof Promise ? await answer : answer;
          if (response) responses.push(response);
        }
        return { status: 200, body: responses.length ? responses : undefined };
      }
      if (profile === 'public' && callsBlockReceipts(body)) {
        logger.debug('eth_getBlockReceipts refused on the public endpoint: HTTP 403');
        return { status: 403, body: receiptsRejection(body) };
      }
      const answer = one(body, profile);
      return { status: 200, body: answer instanceof Promise ? await answer : answer };
    } catch (error) {
      logger.error('request failed with an internal error', { profile, error: (error as Error)?.stack ?? String(error) });
      return { status: 500, body: errorResponse(null, ErrorCode.Internal, scrubSecrets(`internal error: ${(error as Error)?.message ?? String(error)}`, secrets)) };
    }
  }

  return Object.assign(handle, { gate: refuse });
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}

export function errorResponse(id: RpcId, code: number, message: string, data?: unknown): RpcResponse {
  const error: RpcResponse['error'] = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: '2.0', id, error };
}

function methodName(request: unknown): string {
  const method = request && typeof request === 'object' ? (request as { method?: unknown }).method : undefined;
  return typeof method === 'string' ? method : '';
}

function requestId(request: unknown): RpcId {
  if (!request || typeof request !== 'object' || !('id' in request)) return null;
  const id = (request as { id: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The same error for every request of a body (one object, or one per batch entry). */
function rejectAll(body: unknown, code: number, message: string, data?: unknown): RpcResponse | RpcResponse[] {
  if (Array.isArray(body)) return body.map((request) => errorResponse(requestId(request), code, message, data));
  return errorResponse(requestId(body), code, message, data);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function callsBlockReceipts(request: unknown): boolean {
  return !!request && typeof request === 'object' && (request as { method?: unknown }).method === 'eth_getBlockReceipts';
}

function receiptsRejection(request: unknown): RpcResponse {
  const id = request && typeof request === 'object' && 'id' in request ? ((request as { id: RpcId }).id ?? null) : null;
  const message = callsBlockReceipts(request)
    ? RECEIPTS_ON_PUBLIC_MESSAGE
    : `batch rejected: it calls eth_getBlockReceipts, which is not available on the public endpoint; use a dedicated endpoint`;
  return errorResponse(id, ErrorCode.MethodNotSupported, message);
}
