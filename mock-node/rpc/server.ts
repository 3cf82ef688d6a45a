// HTTP around the JSON-RPC handler. JSON-RPC POSTs on the RPC paths (`/` public,
// `/dedicated/<key>` dedicated) go straight to handle() on Node's http server; everything else
// (health, info, CORS preflight) is an Express app. mockNodeRouter() mounts the same handling
// inside a user's own Express app.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type express from 'express';
import type { Router } from 'express';
import { ErrorCode } from './errors';
import { errorResponse, type HandleResult, type RpcHandler } from './handler';
import type { NodeServices, ProfileName } from './methods/types';
import type { ProfileLimitSet } from '../options';

export interface HttpOptions {
  maxBodyBytes: number;
  cors: boolean;
  apiKey: string;
  /** Per-profile limits (body size per profile); maxBodyBytes applies when absent. */
  limits?: ProfileLimitSet;
  /** Routes served beside JSON-RPC on both servers (the x402 facilitator's). */
  routes?: Router[];
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
  if (match) return decodeURIComponent(match[1]) === apiKey ? 'dedicated' : 'unauthorized';
  return null;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'content-type, authorization',
};

function send(res: ServerResponse, result: HandleResult, cors: boolean): void {
  if (result.hangup) {
    // An injected timeout: the request was held; now close the connection without an answer.
    res.socket?.destroy();
    return;
  }
  const headers: Record<string, string> = { ...JSON_HEADERS, ...(cors ? CORS_HEADERS : {}), ...result.headers };
  const body = result.body === undefined ? '' : JSON.stringify(result.body);
  res.writeHead(result.status === 200 && result.body === undefined ? 204 : result.status, headers);
  res.end(body);
}

/** Parses a request body into JSON, or the JSON-RPC parse error reply. */
export function parseBody(text: string): { ok: true; value: unknown } | { ok: false; result: HandleResult } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, result: { status: 200, body: errorResponse(null, ErrorCode.ParseError, `parse error: ${(error as Error).message}`) } };
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function answerRpc(handle: RpcHandler, profile: ProfileName | 'unauthorized', text: string | null, maxBodyBytes: number): Promise<HandleResult> {
  if (profile === 'unauthorized') {
    return { status: 401, body: errorResponse(null, ErrorCode.InvalidRequest, 'unauthorized: unknown key for the dedicated endpoint') };
  }
  if (text === null) {
    return { status: 413, body: errorResponse(null, ErrorCode.LimitExceeded, `request body too large: limit ${maxBodyBytes} bytes`) };
  }
  const parsed = parseBody(text);
  return parsed.ok ? handle(parsed.value, profile) : parsed.result;
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
  if (http.cors) {
    app.use((req, res, next) => {
      res.set(CORS_HEADERS);
      if (req.method === 'OPTIONS') res.status(204).end();
      else next();
    });
  }
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
  for (const routes of http.routes ?? []) app.use(routes);
  app.use((req, res) => {
    res.status(404).json({ error: `no route for ${req.method} ${req.path}; JSON-RPC is POST / or POST /dedicated/<key>` });
  });
  return app;
}

/** The CLI's server: the JSON-RPC fast path on raw http, Express for the rest. */
export function createHttpServer(services: NodeServices, handle: RpcHandler, http: HttpOptions): Server {
  let app: express.Express | undefined;
  return createServer((req, res) => {
    const profile = req.method === 'POST' ? profileForPath(req.url ?? '/', http.apiKey) : null;
    if (profile === null) {
      app ??= createExpressApp(services, http);
      app(req, res);
      return;
    }
    const limit = bodyLimit(http, profile);
    readBody(req, limit)
      .then((text) => answerRpc(handle, profile, text, limit))
      .then((result) => send(res, result, http.cors))
      .catch(() => {
        if (!res.headersSent) send(res, { status: 400, body: errorResponse(null, ErrorCode.InvalidRequest, 'could not read the request body') }, http.cors);
      });
  });
}

/** An Express router serving the node's JSON-RPC paths, to mount inside another app. */
export function createRpcRouter(handle: RpcHandler, http: HttpOptions): Router {
  const express = loadExpress();
  const router = express.Router();
  const largest = Math.max(http.maxBodyBytes, http.limits?.public.maxBodyBytes ?? 0, http.limits?.dedicated.maxBodyBytes ?? 0);
  const bodyParser = express.text({ type: () => true, limit: largest });
  const serve = (profile: (req: express.Request) => ProfileName | 'unauthorized') => (req: express.Request, res: express.Response) => {
    const text = typeof req.body === 'string' ? req.body : '';
    const which = profile(req);
    const limit = bodyLimit(http, which);
    answerRpc(handle, which, Buffer.byteLength(text) > limit ? null : text, limit).then((result) => send(res, result, http.cors));
  };
  for (const routes of http.routes ?? []) router.use(routes);
  router.post('/', bodyParser, serve(() => 'public'));
  router.post('/dedicated/:key', bodyParser, serve((req) => (req.params.key === http.apiKey ? 'dedicated' : 'unauthorized')));
  router.use(((error, _req, res, next) => {
    if (!error) return next();
    const status = (error as { status?: number }).status === 413 ? 413 : 400;
    const code = status === 413 ? ErrorCode.LimitExceeded : ErrorCode.ParseError;
    send(res, { status, body: errorResponse(null, code, status === 413 ? `request body too large: limit ${http.maxBodyBytes} bytes` : 'could not read the request body') }, http.cors);
  }) as express.ErrorRequestHandler);
  return router;
}
