// The fork's upstream: another node's JSON-RPC over HTTP(S). Every request has a deadline, is
// retried with backoff when the upstream is unreachable, times out or answers a rate limit (HTTP
// 429, JSON-RPC -32005; a Retry-After header is honoured within the deadline), and fails with an
// UpstreamError that names the upstream by its redacted URL, never by the URL itself (it may
// carry an API key). Batches go as one JSON-RPC batch, split into chunks the upstream accepts.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions, type ClientRequest } from 'node:http';
import type { Hex } from '../encoding/hex';

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
}

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

/** One answer over HTTP: its status, its Retry-After header and its body. */
interface HttpAnswer {
  status: number;
  retryAfter: string | null;
  text: string;
}

/**
 * node:http with kept-alive connections rather than fetch(): a fork's first read of a slot waits
 * for one small request, and fetch() costs a millisecond or more on top of it.
 */
type Send = (url: URL, options: RequestOptions) => ClientRequest;

/** http, or https loaded only for an https upstream (node:https brings node:crypto, which the node's start leaves out). */
async function transport(url: URL): Promise<{ send: Send; agent: HttpAgent }> {
  if (url.protocol !== 'https:') return { send: httpRequest, agent: new HttpAgent({ keepAlive: true, maxSockets: 16 }) };
  const https = await import('node:https');
  return { send: https.request, agent: new https.Agent({ keepAlive: true, maxSockets: 16 }) };
}

function postOnce(url: URL, send: Send, agent: HttpAgent, body: string, timeoutMs: number): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = send(url, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(url.username || url.password ? { authorization: `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}` } : {}) },
    });
    const timer = setTimeout(() => request.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })), timeoutMs);
    request.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.once('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      response.once('end', () => {
        clearTimeout(timer);
        const retryAfter = response.headers['retry-after'];
        resolve({ status: response.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : null, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    request.end(body);
  });
}

export class UpstreamClient {
  private nextId = 1;
  private readonly target: URL;
  private connection: Promise<{ send: Send; agent: HttpAgent }> | undefined;
  /** Requests sent (one per HTTP request, a batch counts once): tests and the bench read it. */
  requestsSent = 0;
  constructor(readonly settings: UpstreamSettings) {
    this.target = new URL(settings.url);
  }

  /** Closes the kept-alive connections (the node stopped, or forked elsewhere). */
  close(): void {
    void this.connection?.then(({ agent }) => agent.destroy());
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
        const { send, agent } = await (this.connection ??= transport(this.target));
        const response = await postOnce(this.target, send, agent, body, remaining);
        const text = response.text;
        if (response.status === 429) {
          lastProblem = 'HTTP 429 (rate limited)';
          waitMs = Math.max(backoff, retryAfterMs(response.retryAfter));
        } else if (response.status >= 500) {
          lastProblem = `HTTP ${response.status}`;
        } else {
          const parsed = parseJson(text);
          if (parsed === undefined) {
            if (response.status < 200 || response.status >= 300) throw new UpstreamError(`the fork's upstream ${shownUrl} answered ${what} with HTTP ${response.status}`);
            lastProblem = 'an answer that is not JSON';
          } else if (isRateLimit(parsed)) {
            lastProblem = 'JSON-RPC -32005 (rate limited)';
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
