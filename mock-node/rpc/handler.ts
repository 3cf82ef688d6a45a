// The single JSON-RPC entry point: handle(body, profile) -> { status, body }. It validates the
// envelope, runs batches and notifications, applies the public profile's receipts rule, and
// turns every failure into a JSON-RPC error. It never throws and never sees HTTP objects.
import { ErrorCode, RpcError } from './errors';
import { blockMethods } from './methods/blocks';
import { chainInfoMethods } from './methods/chainInfo';
import { CONTROL_PREFIXES, controlMethods } from './methods/control';
import { logMethods } from './methods/logs';
import { stateMethods } from './methods/state';
import { transactionMethods } from './methods/transactions';
import type { MethodHandler, MethodTable, NodeServices, ProfileName } from './methods/types';

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
}

export const RECEIPTS_ON_PUBLIC_MESSAGE =
  'eth_getBlockReceipts is not available on the public endpoint; use a dedicated endpoint (POST /dedicated/<key>)';

export const MAX_BATCH = 1000;

export type RpcHandler = (body: unknown, profile: ProfileName) => Promise<HandleResult>;

export function createRpcHandler(services: NodeServices, extraTables: MethodTable[] = []): RpcHandler {
  const methods = new Map<string, MethodHandler>();
  for (const table of [chainInfoMethods, blockMethods, logMethods, stateMethods, transactionMethods, controlMethods, ...extraTables]) {
    for (const [name, handler] of Object.entries(table)) methods.set(name, handler);
  }

  async function one(request: unknown, profile: ProfileName): Promise<RpcResponse | undefined> {
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
    const response = await call(r.method, params, profile, rid);
    return hasId ? response : undefined;
  }

  async function call(method: string, params: unknown[], profile: ProfileName, id: RpcId): Promise<RpcResponse> {
    const handler = methods.get(method);
    if (!handler) return errorResponse(id, ErrorCode.MethodNotFound, `the method ${method} does not exist/is not available`);
    if (!services.options.control && CONTROL_PREFIXES.some((prefix) => method.startsWith(prefix))) {
      return errorResponse(id, ErrorCode.MethodNotFound, `the method ${method} is disabled (control methods are off)`);
    }
    try {
      const result = await handler(params, { node: services, profile });
      return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
    } catch (error) {
      if (error instanceof RpcError) return errorResponse(id, error.code, error.message, error.data);
      return errorResponse(id, ErrorCode.Internal, `internal error: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  return async function handle(body: unknown, profile: ProfileName): Promise<HandleResult> {
    try {
      if (Array.isArray(body)) {
        if (body.length === 0) return { status: 200, body: errorResponse(null, ErrorCode.InvalidRequest, 'empty batch') };
        if (body.length > MAX_BATCH) {
          return { status: 200, body: errorResponse(null, ErrorCode.LimitExceeded, `batch too large: ${body.length} requests, max ${MAX_BATCH}`) };
        }
        if (profile === 'public' && body.some(callsBlockReceipts)) {
          return { status: 403, body: body.map((request) => receiptsRejection(request)) };
        }
        const responses: RpcResponse[] = [];
        for (const request of body) {
          const response = await one(request, profile);
          if (response) responses.push(response);
        }
        return { status: 200, body: responses.length ? responses : undefined };
      }
      if (profile === 'public' && callsBlockReceipts(body)) return { status: 403, body: receiptsRejection(body) };
      return { status: 200, body: await one(body, profile) };
    } catch (error) {
      return { status: 500, body: errorResponse(null, ErrorCode.Internal, `internal error: ${(error as Error)?.message ?? String(error)}`) };
    }
  };
}

export function errorResponse(id: RpcId, code: number, message: string, data?: unknown): RpcResponse {
  const error: RpcResponse['error'] = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: '2.0', id, error };
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
