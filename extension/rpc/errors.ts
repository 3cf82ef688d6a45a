// Typed errors of the JSON-RPC client. No vscode import: unit-tested with plain mocha.

export type RpcErrorKind = 'http' | 'rate-limited' | 'rpc' | 'network' | 'timeout' | 'cancelled' | 'bad-response';

export abstract class RpcClientError extends Error {
  abstract readonly kind: RpcErrorKind;
  constructor(message: string, readonly method: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A JSON-RPC error object from the endpoint: `{ code, message, data? }`. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** The endpoint answered with a JSON-RPC error (HTTP 200, or alongside an HTTP error). */
export class JsonRpcError extends RpcClientError {
  readonly kind = 'rpc' as const;
  constructor(method: string, readonly code: number, readonly rpcMessage: string, readonly data?: unknown) {
    super(`${method}: ${rpcMessage} (code ${code})`, method);
  }
}

/** A non-2xx HTTP status; `rpcError` holds the JSON-RPC error body when the endpoint sent one. */
export class HttpStatusError extends RpcClientError {
  readonly kind: RpcErrorKind = 'http';
  constructor(method: string, readonly status: number, readonly rpcError?: JsonRpcErrorObject, message?: string) {
    super(message ?? `${method}: HTTP ${status}${rpcError ? `: ${rpcError.message}` : ''}`, method);
  }

  /** The public-profile rule: eth_getBlockReceipts needs a dedicated endpoint. */
  get needsDedicatedEndpoint(): boolean {
    return this.status === 403 && this.method === 'eth_getBlockReceipts';
  }
}

/** HTTP 429; `retryAfterMs` from the Retry-After header (seconds or an HTTP date), when given. */
export class RateLimitedError extends HttpStatusError {
  override readonly kind = 'rate-limited' as const;
  constructor(method: string, readonly retryAfterMs: number | undefined, rpcError?: JsonRpcErrorObject) {
    super(
      method,
      429,
      rpcError,
      `${method}: rate limited (HTTP 429)${retryAfterMs !== undefined ? `, retry after ${Math.ceil(retryAfterMs / 1000)} s` : ''}`,
    );
  }
}

/** No answer at all: connection refused, DNS, reset. */
export class NetworkError extends RpcClientError {
  readonly kind = 'network' as const;
  constructor(method: string, readonly causeMessage: string) {
    super(`${method}: network error: ${causeMessage}`, method);
  }
}

export class TimeoutError extends RpcClientError {
  readonly kind = 'timeout' as const;
  constructor(method: string, readonly timeoutMs: number) {
    super(`${method}: no answer within ${timeoutMs} ms`, method);
  }
}

export class CancelledError extends RpcClientError {
  readonly kind = 'cancelled' as const;
  constructor(method: string) {
    super(`${method}: cancelled`, method);
  }
}

/** The endpoint answered 2xx with something that is not a JSON-RPC response. */
export class BadResponseError extends RpcClientError {
  readonly kind = 'bad-response' as const;
  constructor(method: string, detail: string) {
    super(`${method}: bad response: ${detail}`, method);
  }
}

/** Parses a Retry-After header: delta seconds or an HTTP date (relative to `now`). */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** A short sentence for a tree node or a notification. */
export function describeRpcError(error: unknown): string {
  if (error instanceof HttpStatusError && error.needsDedicatedEndpoint) {
    return 'public endpoint: needs a dedicated endpoint (HTTP 403)';
  }
  if (error instanceof RateLimitedError) {
    return error.retryAfterMs !== undefined
      ? `rate limited (HTTP 429), retry after ${Math.ceil(error.retryAfterMs / 1000)} s`
      : 'rate limited (HTTP 429)';
  }
  if (error instanceof HttpStatusError) {
    return `HTTP ${error.status}${error.rpcError ? `: ${error.rpcError.message} (code ${error.rpcError.code})` : ''}`;
  }
  if (error instanceof JsonRpcError) return `${error.rpcMessage} (code ${error.code})`;
  if (error instanceof NetworkError) return `endpoint unreachable: ${error.causeMessage}`;
  if (error instanceof TimeoutError) return `timed out after ${error.timeoutMs} ms`;
  if (error instanceof CancelledError) return 'cancelled';
  if (error instanceof RpcClientError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
