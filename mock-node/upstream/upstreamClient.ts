// The fork's upstream: another node's JSON-RPC over HTTP(S). Every request has a deadline, is
// retried with backoff when the upstream is unreachable, times out or answers a rate limit (HTTP
// 429, JSON-RPC -32005; a Retry-After header is honoured within the deadline), and fails with an
// UpstreamError that names the upstream by its redacted URL, never by the URL itself (it may
// carry an API key). Batches go as one JSON-RPC batch, split into chunks the upstream accepts.
import type { Hex } from '../encoding/hex';
import { KeptAliveHttp, type HttpAnswer } from './keptAliveHttp';

export interface UpstreamSettings {
  /** The upstream's URL (may hold an API key in its path, query or user info). */
  url: string;
  /** The redacted form every message uses. */
  shownUrl: string;
  /** Deadline of one read, retries included (Anvil's --timeout). */
  timeoutMs: number;
  /** Attempts after the first (Anvil's --retries). */
  retries: number;
  /** First backoff between attempts; it doubles each time (Anvil's --fork-retry-backoff). */
  retryBackoffMs: number;
  /** A run may wait at a miss for this upstream (it is near: ForkOptions.waitAtMisses). */
  waitAtMisses: boolean;
  /** Sent with every request (--fork-header); the values are secrets. */
  headers?: readonly (readonly [string, string])[];
  /** The provider's assumed compute units a second (--compute-units-per-second; Infinity: --no-rate-limit). */
  computeUnitsPerSecond?: number;
}

/** What a request is taken to cost in compute units when the wait after a rate limit is worked out (alloy's default average, as Anvil counts). */
const REQUEST_COMPUTE_UNITS = 17;

/** A request of a batch. */
export interface UpstreamCall {
  method: string;
  params: unknown[];
}

/** A read the upstream could not answer: unreachable, too slow, rate limited past the deadline, or an error answer. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    /** The upstream's own JSON-RPC error, when it answered one (a revert of an eth_call at an old block ...). */
    readonly rpcError?: { code: number; message: string; data?: unknown },
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

/** Most requests in one JSON-RPC batch (public endpoints refuse larger ones). */
const MAX_BATCH = 100;
/** A rate-limit answer. */
const LIMIT_EXCEEDED = -32005;

interface RpcAnswer {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export class UpstreamClient {
  private nextId = 1;
  private readonly target: URL;
  private connection: Promise<KeptAliveHttp> | undefined;
  /** Requests sent (one per HTTP request, a batch counts once): tests and the bench read it. */
  requestsSent = 0;
  /** Requests waiting for their answer now (with this one, what a rate-limited provider is working through). */
  private inFlight = 0;

  constructor(readonly settings: UpstreamSettings) {
    this.target = new URL(settings.url);
  }

  /** Closes the kept-alive connections (the node stopped, or forked elsewhere). */
  close(): void {
    void this.connection?.then((connections) => connections.close());
  }

  /**
   * After a rate limit, the time the provider's compute budget takes to cover the requests in
   * flight and this one again (REQUEST_COMPUTE_UNITS each against computeUnitsPerSecond), as
   * Anvil adds to its backoff; 0 with --no-rate-limit.
   */
  private computeBudgetWaitMs(): number {
    const perSecond = this.settings.computeUnitsPerSecond ?? Infinity;
    return Number.isFinite(perSecond) ? Math.ceil((1000 * REQUEST_COMPUTE_UNITS * (this.inFlight + 1)) / perSecond) : 0;
  }

  /** One call; its result, or an UpstreamError. */
  async call(method: string, params: unknown[]): Promise<unknown> {
    const [answer] = await this.batch([{ method, params }]);
    return answer;
  }

  /** Several calls, answered in order; any error answer fails the whole read. */
  async batch(calls: readonly UpstreamCall[]): Promise<unknown[]> {
    const results: unknown[] = [];
    for (let start = 0; start < calls.length; start += MAX_BATCH) {
      const chunk = calls.slice(start, start + MAX_BATCH);
      results.push(...(await this.sendChunk(chunk)));
    }
    return results;
  }

  private async sendChunk(calls: readonly UpstreamCall[]): Promise<unknown[]> {
    const ids = calls.map(() => this.nextId++);
    const body = JSON.stringify(calls.length === 1
      ? { jsonrpc: '2.0', id: ids[0], method: calls[0].method, params: calls[0].params }
      : calls.map((call, i) => ({ jsonrpc: '2.0', id: ids[i], method: call.method, params: call.params })));
    const answers = await this.post(body, calls.map((call) => call.method).join(', '));
    const byId = new Map<unknown, RpcAnswer>();
    for (const answer of Array.isArray(answers) ? answers : [answers]) {
      if (answer && typeof answer === 'object') byId.set((answer as RpcAnswer).id, answer as RpcAnswer);
    }
    return ids.map((id, i) => {
      const answer = byId.get(id);
      if (!answer) throw new UpstreamError(`the fork's upstream ${this.settings.shownUrl} gave no answer to ${calls[i].method}`);
      if (answer.error) {
        const { code, message, data } = answer.error;
        throw new UpstreamError(`the fork's upstream ${this.settings.shownUrl} answered ${calls[i].method} with error ${code}: ${String(message)}`, { code, message: String(message), data });
      }
      return answer.result;
    });
  }

  /** POSTs a body until it gets an answer that is not a rate limit, within the deadline. */
  private async post(body: string, what: string): Promise<unknown> {
    const { shownUrl, timeoutMs, retries, retryBackoffMs } = this.settings;
    const deadline = Date.now() + timeoutMs;
    let backoff = retryBackoffMs;
    let lastProblem = 'no attempt';
    for (let attempt = 0; attempt <= retries; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      let waitMs = backoff;
      try {
        this.requestsSent++;
        const connections = await (this.connection ??= connectionsTo(this.target, this.settings.headers ?? []));
        this.inFlight++;
        let response: HttpAnswer;
        try {
          response = await connections.post(body, remaining);
        } finally {
          this.inFlight--;
        }
        const text = response.text;
        if (response.status === 429) {
          lastProblem = 'HTTP 429 (rate limited)';
          waitMs = Math.max(backoff, retryAfterMs(response.retryAfter)) + this.computeBudgetWaitMs();
        } else if (response.status >= 500) {
          lastProblem = `HTTP ${response.status}`;
        } else {
          const parsed = parseJson(text);
          if (parsed === undefined) {
            if (response.status < 200 || response.status >= 300) throw new UpstreamError(`the fork's upstream ${shownUrl} answered ${what} with HTTP ${response.status}`);
            lastProblem = 'an answer that is not JSON';
          } else if (isRateLimit(parsed)) {
            lastProblem = 'JSON-RPC -32005 (rate limited)';
            waitMs = backoff + this.computeBudgetWaitMs();
          } else {
            return parsed;
          }
        }
      } catch (error) {
        if (error instanceof UpstreamError) throw error;
        const name = (error as Error)?.name;
        lastProblem = name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${timeoutMs} ms` : `unreachable (${causeOf(error)})`;
      }
      if (attempt === retries) break;
      const pause = Math.min(waitMs, deadline - Date.now());
      if (pause <= 0) break;
      await new Promise((resolve) => setTimeout(resolve, pause));
      backoff *= 2;
    }
    throw new UpstreamError(`the fork's upstream ${shownUrl} did not answer ${what}: ${lastProblem}`);
  }
}

/** Kept-alive connections to the upstream; node:tls is loaded only for an https upstream (the node's start leaves node:crypto out). */
async function connectionsTo(url: URL, headers: readonly (readonly [string, string])[]): Promise<KeptAliveHttp> {
  return url.protocol === 'https:' ? KeptAliveHttp.forHttps(url, headers) : KeptAliveHttp.forHttp(url, headers);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A JSON-RPC answer (or every answer of a batch) that is a rate limit. */
function isRateLimit(parsed: unknown): boolean {
  const answers = Array.isArray(parsed) ? parsed : [parsed];
  return answers.length > 0 && answers.some((answer) => (answer as RpcAnswer | null)?.error?.code === LIMIT_EXCEEDED);
}

function retryAfterMs(header: string | null): number {
  const seconds = header === null ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 0;
}

/** The network error's code (ECONNREFUSED ...), never its message (which may quote the URL). */
function causeOf(error: unknown): string {
  const code = (error as { code?: unknown })?.code ?? (error as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === 'string' ? code : 'network error';
}

/** A hex quantity as a bigint; an UpstreamError when the upstream answered something else. */
export function upstreamQuantity(value: unknown, shownUrl: string, what: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) throw new UpstreamError(`the fork's upstream ${shownUrl} answered ${what} with ${JSON.stringify(value)?.slice(0, 80)}, not a hex quantity`);
  return BigInt(value);
}

/** Hex data; an UpstreamError otherwise. */
export function upstreamData(value: unknown, shownUrl: string, what: string): Hex {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw new UpstreamError(`the fork's upstream ${shownUrl} answered ${what} with something that is not hex data`);
  return value.toLowerCase() as Hex;
}
