// HTTP around the JSON-RPC handler. JSON-RPC POSTs on the RPC paths (`/` public,
// `/dedicated/<key>` dedicated) go straight to handle() on Node's http server; everything else
// (health, info, CORS preflight) is an Express app. mockNodeRouter() mounts the same handling
// inside a user's own Express app. Every request first meets the guards of requestGuards.ts
// (Host, Origin, Content-Type); nothing on the request path throws on what a client sends.
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type express from 'express';
import type { Router } from 'express';
import { ErrorCode } from './errors';
import { errorResponse, type HandleResult, type RpcHandler } from './handler';
import type { NodeServices, ProfileName } from './methods/types';
import type { ProfileLimitSet } from '../options';
import { jsonText } from './jsonText';
import { serveLean, type LeanRoute } from './leanHttp';
import {
  CONTENT_TYPE_MESSAGE, corsHeaders, hostAllowed, hostRefusal, isJsonContentType, originAllowed, originRefusal, safeDecode, sameKey,
  type ExposurePolicy,
} from './requestGuards';

export interface HttpOptions {
  maxBodyBytes: number;
  apiKey: string;
  /** Who may call: Host names, browser origins (CORS and WebSocket). */
  exposure: ExposurePolicy;
  /** Per-profile limits (body size per profile); maxBodyBytes applies when absent. */
  limits?: ProfileLimitSet;
  /** Routes served beside JSON-RPC on both servers (the x402 facilitator's), made on first use (they load Express). */
  routes?: () => readonly Router[];
}

/** The body limit of a profile's path. */
export function bodyLimit(http: HttpOptions, profile: ProfileName | 'unauthorized'): number {
  if (profile === 'public' || profile === 'dedicated') return http.limits?.[profile].maxBodyBytes ?? http.maxBodyBytes;
  return http.maxBodyBytes;
}

/** Which profile a path belongs to, 'unauthorized' for a dedicated path with the wrong key, or null. */
export function profileForPath(path: string, apiKey: string): ProfileName | 'unauthorized' | null {
  const clean = path.split('?')[0];
  if (clean === '/' || clean === '') return 'public';
  const match = /^\/dedicated\/([^/]+)\/?$/.exec(clean);
  if (!match) return null;
  // Malformed percent-encoding (`%E0%A4%A`, `%ZZ`) is a wrong key, never an exception.
  const key = safeDecode(match[1]);
  return key !== null && sameKey(key, apiKey) ? 'dedicated' : 'unauthorized';
}

const JSON_HEADERS = { 'content-type': 'application/json' };

function originOf(headers: IncomingHttpHeaders): string | undefined {
  const origin = headers.origin;
  return Array.isArray(origin) ? origin[0] : origin;
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

function send(res: ServerResponse, result: HandleResult, cors: Record<string, string>): void {
  if (result.hangup) {
    // An injected timeout: the request was held; now close the connection without an answer.
    res.socket?.destroy();
    return;
  }
  const body = result.body === undefined ? '' : jsonText(result.body);
  const status = result.status === 200 && result.body === undefined ? 204 : result.status;
  if (cors === NO_HEADERS && !result.headers) {
    // The common reply: two headers as a flat list, no header object to build or merge, and a
    // Content-Length so the body is not chunked.
    res.writeHead(status, ['content-type', 'application/json', 'content-length', String(Buffer.byteLength(body))]);
  } else {
    res.writeHead(status, { ...JSON_HEADERS, ...cors, ...result.headers });
  }
  res.end(body);
}

/**
 * The refusal for a request the guards turn away, or undefined to serve it. `rpcPost`: a
 * JSON-RPC POST (the Content-Type and Origin rules apply); the Host rule applies to every request.
 */
export function guardRequest(headers: IncomingHttpHeaders, exposure: ExposurePolicy, rpcPost: boolean): HandleResult | undefined {
  if (!hostAllowed(headers.host, exposure)) {
    return { status: 403, body: errorResponse(null, ErrorCode.InvalidRequest, hostRefusal(headers.host)) };
  }
  if (!rpcPost) return undefined;
  const origin = originOf(headers);
  if (!originAllowed(origin, exposure)) {
    return { status: 403, body: errorResponse(null, ErrorCode.InvalidRequest, originRefusal(origin!)) };
  }
  if (!isJsonContentType(headers['content-type'])) {
    return { status: 415, body: errorResponse(null, ErrorCode.InvalidRequest, CONTENT_TYPE_MESSAGE) };
  }
  return undefined;
}

/** Parses a request body into JSON, or the JSON-RPC parse error reply. */
export function parseBody(text: string): { ok: true; value: unknown } | { ok: false; result: HandleResult } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, result: { status: 200, body: errorResponse(null, ErrorCode.ParseError, `parse error: ${(error as Error).message}`) } };
  }
}

/** The answer to a request body (handle's promise itself, not one wrapped around it). */
export function answerRpc(handle: RpcHandler, profile: ProfileName | 'unauthorized', text: string | null, maxBodyBytes: number): Promise<HandleResult> {
  if (profile === 'unauthorized') {
    return Promise.resolve({ status: 401, body: errorResponse(null, ErrorCode.InvalidRequest, 'unauthorized: unknown key for the dedicated endpoint') });
  }
  if (text === null) {
    return Promise.resolve({ status: 413, body: errorResponse(null, ErrorCode.LimitExceeded, `request body too large: limit ${maxBodyBytes} bytes`) });
  }
  const parsed = parseBody(text);
  return parsed.ok ? handle(parsed.value, profile) : Promise.resolve(parsed.result);
}

/**
 * Express, loaded on first use: the JSON-RPC fast path never needs it, and loading it (with
 * body-parser and its MIME database) is a fifth of the CLI's start-up.
 */
function loadExpress(): typeof express {
  return require('express') as typeof express;
}

export function createExpressApp(services: NodeServices, http: HttpOptions): express.Express {
  const app = loadExpress()();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    const refused = guardRequest(req.headers, http.exposure, false);
    if (refused) {
      send(res, refused, {});
      return;
    }
    const cors = corsHeaders(originOf(req.headers), http.exposure);
    if (Object.keys(cors).length === 0) return next();
    res.set(cors);
    if (req.method === 'OPTIONS') res.status(204).end();
    else next();
  });
  app.get('/health', (_req, res) => {
    const pending = services.chain.pending;
    res.json({
      status: 'ok',
      chainId: services.options.chainId.toString(),
      latest: Number(services.chain.head),
      pending: { number: Number(pending.header.number), flashblockIndex: pending.flashblockIndex, transactions: pending.transactions.length },
    });
  });
  app.get('/', (_req, res) => {
    res.json({
      name: 'chain-mock-node',
      rpc: { public: 'POST /', dedicated: 'POST /dedicated/<key>' },
      chainId: services.options.chainId.toString(),
      token: services.options.token.address,
    });
  });
  for (const routes of http.routes?.() ?? []) app.use(routes);
  app.use((req, res) => {
    res.status(404).json({ error: `no route for ${req.method} ${req.path}; JSON-RPC is POST / or POST /dedicated/<key>` });
  });
  return app;
}

/** CORS headers for a request, or the shared empty set (the common case: no CORS configured). */
function corsFor(headers: IncomingHttpHeaders, exposure: ExposurePolicy): Record<string, string> {
  if (exposure.allowOrigins.length === 0 && headers.origin === undefined) return NO_HEADERS;
  const cors = corsHeaders(originOf(headers), exposure);
  return Object.keys(cors).length === 0 ? NO_HEADERS : cors;
}

/**
 * The guards' verdicts by Host and Content-Type header values: a client sends the same few values
 * on every request, so each distinct pair is judged once (the verdict is a pure function of the
 * headers and the node's fixed exposure). Requests with an Origin are judged every time.
 */
class GuardCache {
  private readonly verdicts = new Map<string, HandleResult | null>();

  constructor(private readonly exposure: ExposurePolicy) {}

  check(headers: IncomingHttpHeaders): HandleResult | undefined {
    if (headers.origin !== undefined) return guardRequest(headers, this.exposure, true);
    const host = headers.host;
    const type = headers['content-type'];
    const key = `${host ?? '\u0000'}\u0001${type ?? '\u0000'}`;
    let verdict = this.verdicts.get(key);
    if (verdict === undefined) {
      verdict = guardRequest(headers, this.exposure, true) ?? null;
      if (this.verdicts.size >= 256) this.verdicts.clear();
      this.verdicts.set(key, verdict);
    }
    return verdict ?? undefined;
  }
}

/** The profile of a JSON-RPC POST's path (`/` first, the common case), or null for any other request. */
function rpcProfile(req: IncomingMessage, apiKey: string): ProfileName | 'unauthorized' | null {
  if (req.method !== 'POST') return null;
  const url = req.url ?? '/';
  return url === '/' ? 'public' : profileForPath(url, apiKey);
}

/**
 * The CLI's server. JSON-RPC POSTs on `/` and `/dedicated/<key>` are answered on the raw socket
 * (leanHttp.ts) when they are the plain case, else on Node's http server, with the same guards,
 * body limits, profiles, rate limits and faults as always (the last two inside handle()); every
 * other request goes to the Express app, which is only loaded when the first such request comes.
 */
export function createHttpServer(services: NodeServices, handle: RpcHandler, http: HttpOptions): Server {
  let app: express.Express | undefined;
  const guards = new GuardCache(http.exposure);
  // Required here, not imported: only the node's own server needs node:http (mockNodeRouter()
  // mounts in the caller's app), so the library entry does not load it for the router alone.
  const { createServer } = require('node:http') as typeof import('node:http');
  const server = createServer((req, res) => {
    const profile = rpcProfile(req, http.apiKey);
    if (profile === null) {
      app ??= createExpressApp(services, http);
      app(req, res);
      return;
    }
    const cors = corsFor(req.headers, http.exposure);
    const refused = guards.check(req.headers);
    if (refused) {
      refuse(req, res, refused, cors);
      return;
    }
    const limit = bodyLimit(http, profile);
    const failed = () => {
      if (!res.headersSent) send(res, { status: 400, body: errorResponse(null, ErrorCode.InvalidRequest, 'could not read the request body') }, cors);
    };
    readBodyThen(req, limit, (text) => {
      answerRpc(handle, profile, text, limit).then((result) => send(res, result, cors), failed);
    }, failed);
  });
  serveLean(server, leanRoute(handle, http, guards, () => services.chain.finishing !== undefined));
  return server;
}

/** What the raw-socket path needs to know of the node's HTTP rules (the same as Node's path's). */
function leanRoute(handle: RpcHandler, http: HttpOptions, guards: GuardCache, replyAtOnce: () => boolean): LeanRoute {
  const profiles = new Map<string, ProfileName | null>();
  const cors = corsFor({}, http.exposure);
  let lastHost: string | undefined = '\u0000';
  let lastType: string | undefined = '\u0000';
  let lastAllowed = false;
  return {
    profileFor(target) {
      if (target === '/') return 'public';
      let profile = profiles.get(target);
      if (profile === undefined) {
        const found = profileForPath(target, http.apiKey);
        // A wrong key is refused on Node's path (401, and the connection's requests after it there).
        profile = found === 'unauthorized' ? null : found;
        if (profiles.size >= 64) profiles.clear();
        profiles.set(target, profile);
      }
      return profile;
    },
    allowed(host, contentType) {
      // A client sends the same two values on every request: the last verdict answers most.
      if (host !== lastHost || contentType !== lastType) {
        lastHost = host;
        lastType = contentType;
        lastAllowed = guards.check({ host, 'content-type': contentType }) === undefined;
      }
      return lastAllowed;
    },
    bodyLimit: (profile) => bodyLimit(http, profile),
    headers: cors === NO_HEADERS ? undefined : cors,
    answer: (profile, text) => answerRpc(handle, profile, text, Number.POSITIVE_INFINITY),
    replyAtOnce,
  };
}

/** Reads a body up to `limit` bytes (null past it) without a promise per request. */
function readBodyThen(req: IncomingMessage, limit: number, done: (text: string | null) => void, failed: () => void): void {
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      first = undefined;
      more = undefined;
      return;
    }
    if (first === undefined) first = chunk;
    else (more ??= [first]).push(chunk);
  });
  req.on('end', () => {
    if (size > limit) done(null);
    else done(more ? Buffer.concat(more).toString('utf8') : (first?.toString('utf8') ?? ''));
  });
  req.on('error', failed);
}

/** Answers a refused request without reading its body (the connection closes after the answer). */
function refuse(req: IncomingMessage, res: ServerResponse, result: HandleResult, cors: Record<string, string>): void {
  res.shouldKeepAlive = false;
  send(res, { ...result, headers: { ...result.headers, connection: 'close' } }, cors);
  req.resume();
}

/** An Express router serving the node's JSON-RPC paths, to mount inside another app. */
export function createRpcRouter(handle: RpcHandler, http: HttpOptions): Router {
  const express = loadExpress();
  const router = express.Router();
  const largest = Math.max(http.maxBodyBytes, http.limits?.public.maxBodyBytes ?? 0, http.limits?.dedicated.maxBodyBytes ?? 0);
  const bodyParser = express.text({ type: () => true, limit: largest });
  const cors = (req: express.Request) => corsHeaders(originOf(req.headers), http.exposure);
  router.use((req, res, next) => {
    const rpcPost = req.method === 'POST' && profileForPath(req.path, http.apiKey) !== null;
    const refused = guardRequest(req.headers, http.exposure, rpcPost);
    if (refused) return send(res, refused, cors(req));
    const headers = cors(req);
    if (req.method === 'OPTIONS' && Object.keys(headers).length > 0 && profileForPath(req.path, http.apiKey) !== null) {
      res.set(headers).status(204).end();
      return;
    }
    next();
  });
  for (const routes of http.routes?.() ?? []) router.use(routes);
  router.post(/^\/(?:dedicated\/[^/]+\/?)?$/, bodyParser, (req, res) => {
    // req.path is not percent-decoded: profileForPath decodes the key itself, without throwing.
    const which = profileForPath(req.path, http.apiKey) ?? 'unauthorized';
    const text = typeof req.body === 'string' ? req.body : '';
    const limit = bodyLimit(http, which);
    answerRpc(handle, which, Buffer.byteLength(text) > limit ? null : text, limit).then((result) => send(res, result, cors(req)));
  });
  router.use(((error, req, res, next) => {
    if (!error) return next();
    const status = (error as { status?: number }).status === 413 ? 413 : 400;
    const code = status === 413 ? ErrorCode.LimitExceeded : ErrorCode.ParseError;
    send(res, { status, body: errorResponse(null, code, status === 413 ? `request body too large: limit ${http.maxBodyBytes} bytes` : 'could not read the request body') }, cors(req));
  }) as express.ErrorRequestHandler);
  return router;
}
