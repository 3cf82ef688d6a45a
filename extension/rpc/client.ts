// A JSON-RPC 2.0 client on Node's fetch: timeouts, cancellation through AbortSignal, batches and
// typed errors (see errors.ts). No vscode import.
import {
  BadResponseError, CancelledError, HttpStatusError, JsonRpcError, NetworkError, RateLimitedError, TimeoutError,
  parseRetryAfter, type JsonRpcErrorObject, type RpcClientError,
} from './errors';

export interface RpcRequest {
  method: string;
  params: unknown[];
}

export interface RpcClientOptions {
  timeoutMs?: number;
  /** The largest answer read; a larger one is cut off and reported (default 16 MiB). */
  maxResponseBytes?: number;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

interface JsonRpcResponse {
  jsonrpc?: string;
  id?: number | string | null;
  result?: unknown;
  error?: JsonRpcErrorObject;
}

/** One item of a batch result: the value or the typed error of that call. */
export type BatchItem<T = unknown> = { ok: true; value: T } | { ok: false; error: RpcClientError };

function isErrorObject(value: unknown): value is JsonRpcErrorObject {
  return typeof value === 'object' && value !== null && typeof (value as JsonRpcErrorObject).code === 'number'
    && typeof (value as JsonRpcErrorObject).message === 'string';
}

/** The first JSON-RPC error object in a body (single or batch), if any. */
function errorInBody(body: unknown): JsonRpcErrorObject | undefined {
  const responses = Array.isArray(body) ? body : [body];
  for (const response of responses) {
    const error = (response as JsonRpcResponse | null)?.error;
    if (isErrorObject(error)) return error;
  }
  return undefined;
}

/** Network errors that mean the connection died under the request, not that the server is down. */
const STALE_CONNECTION = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** Methods that send, sign or change the node: never sent twice. */
export function isRetrySafe(method: string): boolean {
  return !/^(eth_send|eth_sign|personal_|mock_|evm_|anvil_|hardhat_)/.test(method);
}

export class RpcClient {
  private nextId = 1;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly fetchImpl: typeof fetch;
  /** Requests sent (HTTP round trips), for diagnostics. */
  requestCount = 0;

  constructor(readonly url: string, options: RpcClientOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.fetchImpl = options.fetch ?? fetch;
  }

  async call<T = unknown>(method: string, params: unknown[] = [], signal?: AbortSignal): Promise<T> {
    const id = this.nextId++;
    const body = await this.post(method, { jsonrpc: '2.0', id, method, params }, signal);
    if (Array.isArray(body) || typeof body !== 'object' || body === null) {
      throw new BadResponseError(method, 'expected a JSON-RPC response object');
    }
    return this.unwrap<T>(method, body as JsonRpcResponse);
  }

  /** Sends the calls as one batch; the results come back in the order of `requests`. */
  async batch(requests: RpcRequest[], signal?: AbortSignal): Promise<BatchItem[]> {
    if (requests.length === 0) return [];
    const label = requests.map((r) => r.method).join(',');
    const firstId = this.nextId;
    this.nextId += requests.length;
    const payload = requests.map((r, i) => ({ jsonrpc: '2.0', id: firstId + i, method: r.method, params: r.params }));
    const body = await this.post(label, payload, signal);
    if (!Array.isArray(body)) {
      // Some endpoints answer a whole batch with one error object.
      if (isErrorObject((body as JsonRpcResponse | null)?.error)) {
        const e = (body as JsonRpcResponse).error as JsonRpcErrorObject;
        return requests.map((r) => ({ ok: false, error: new JsonRpcError(r.method, e.code, e.message, e.data) }));
      }
      throw new BadResponseError(label, 'expected an array for a batch');
    }
    const byId = new Map<unknown, JsonRpcResponse>();
    for (const item of body as JsonRpcResponse[]) byId.set(item?.id, item);
    return requests.map((r, i) => {
      const response = byId.get(firstId + i);
      if (!response) return { ok: false, error: new BadResponseError(r.method, 'missing from the batch answer') };
      try {
        return { ok: true, value: this.unwrap(r.method, response) };
      } catch (error) {
        return { ok: false, error: error as RpcClientError };
      }
    });
  }

  private unwrap<T>(method: string, response: JsonRpcResponse): T {
    if (response.error !== undefined) {
      if (!isErrorObject(response.error)) throw new BadResponseError(method, 'malformed error object');
      throw new JsonRpcError(method, response.error.code, response.error.message, response.error.data);
    }
    if (!('result' in response)) throw new BadResponseError(method, 'neither result nor error');
    return response.result as T;
  }

  /**
   * Posts once; a read whose pooled keep-alive connection the server had just closed (a race
   * every HTTP client meets) is sent once more. Calls that send or sign are never repeated.
   */
  private async post(method: string, payload: unknown, outerSignal?: AbortSignal): Promise<unknown> {
    try {
      return await this.postOnce(method, payload, outerSignal);
    } catch (error) {
      const methods = method.split(',');
      if (!(error instanceof NetworkError) || !STALE_CONNECTION.has(error.causeMessage) || !methods.every(isRetrySafe)) throw error;
      return this.postOnce(method, payload, outerSignal);
    }
  }

  private async postOnce(method: string, payload: unknown, outerSignal?: AbortSignal): Promise<unknown> {
    if (outerSignal?.aborted) throw new CancelledError(method);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; controller.abort(); }, this.timeoutMs);
    const onOuterAbort = (): void => controller.abort();
    outerSignal?.addEventListener('abort', onOuterAbort, { once: true });
    this.requestCount++;
    try {
      let response: Response;
      try {
        response = await this.fetchImpl(this.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(payload),
          signal: controller.signal,
        });
      } catch (error) {
        throw this.abortOrNetwork(method, error, timedOut);
      }
      let text: string;
      try {
        text = await this.readBounded(method, response, controller);
      } catch (error) {
        if (error instanceof BadResponseError) throw error;
        throw this.abortOrNetwork(method, error, timedOut);
      }
      let body: unknown;
      let parsed = true;
      try {
        body = text.length > 0 ? JSON.parse(text) : undefined;
      } catch {
        parsed = false;
      }
      if (response.status === 429) {
        throw new RateLimitedError(method, parseRetryAfter(response.headers.get('retry-after')), parsed ? errorInBody(body) : undefined);
      }
      if (!response.ok) throw new HttpStatusError(method, response.status, parsed ? errorInBody(body) : undefined);
      if (!parsed) throw new BadResponseError(method, notJson(text, response.headers.get('content-type')));
      return body;
    } finally {
      clearTimeout(timer);
      outerSignal?.removeEventListener('abort', onOuterAbort);
    }
  }

  /**
   * The body as text, at most maxResponseBytes of it: an endpoint answering 100 MB (or without
   * end) is cut off and reported instead of filling the extension host's memory.
   */
  private async readBounded(method: string, response: Response, controller: AbortController): Promise<string> {
    const limit = this.maxResponseBytes;
    const tooLarge = (): BadResponseError => {
      controller.abort();
      return new BadResponseError(method, `the answer is larger than ${limit} bytes; not read`);
    };
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > limit) throw tooLarge();
    if (!response.body) return '';
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        void reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    return new TextDecoder().decode(bytes);
  }

  private abortOrNetwork(method: string, error: unknown, timedOut: boolean): RpcClientError {
    if (timedOut) return new TimeoutError(method, this.timeoutMs);
    if (controllerAborted(error)) return new CancelledError(method);
    const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
    return new NetworkError(method, cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error)));
  }
}

function controllerAborted(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** What a body that is not JSON looks like, in a few words (an HTML page is named as such). */
function notJson(text: string, contentType: string | null): string {
  const start = text.trimStart();
  if (/html/i.test(contentType ?? '') || /^<(!doctype|html|head|body|\?xml)/i.test(start)) {
    return 'an HTML page, not JSON-RPC (is the URL an RPC endpoint?)';
  }
  if (start === '') return 'an empty answer, not JSON-RPC';
  // Printable characters only, so a hostile answer cannot draw in the tree or the log.
  const shown = start.slice(0, 60).replace(/[^\x20-\x7e]/g, ' ').replace(/\s+/g, ' ');
  return `not JSON (${shown}${start.length > 60 ? '…' : ''})`;
}
