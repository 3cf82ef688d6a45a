// HTTP for the x402 facilitator, on both profiles: `/x402/{supported,verify,settle}` (public) and
// `/dedicated/<key>/x402/{…}` (dedicated), so a facilitator URL is the endpoint's URL plus `/x402`.
// The profile's rate limit and injected faults apply under the names `x402/supported`,
// `x402/verify` and `x402/settle` (e.g. `mock_setFaults({ "*": { "x402/settle": { "latencyMs": 800 } } })`).
// verify and settle meet the same web-page rules as JSON-RPC POSTs (requestGuards.ts): an Origin
// that is not allowed is 403 and a body that is not application/json is 415, so a page cannot make
// the node settle a payment; the Host rule is the server's, before any route.
import type { ErrorRequestHandler, Request, Response, Router } from 'express';
import type { RpcHandler } from '../rpc/handler';
import { CONTENT_TYPE_MESSAGE, isJsonContentType, originAllowed, originRefusal, sameKey, type ExposurePolicy } from '../rpc/requestGuards';
import type { ProfileName } from '../rpc/methods/types';
import type { X402Facilitator } from './facilitator';
import { Reason } from './wire/protocol';

export const X402_PATH = '/x402';

type Operation = 'supported' | 'verify' | 'settle';

export interface X402RouteOptions {
  apiKey: string;
  maxBodyBytes: number;
  /** Which browser origins may call (the node's --allow-origin / --cors). */
  exposure: ExposurePolicy;
}

/** A verify or settle answer for a body that could not be read (HTTP 400 / 413). */
function unreadable(operation: Operation, message: string): object {
  return operation === 'settle'
    ? { success: false, errorReason: Reason.invalidPayload, errorMessage: message, transaction: '', network: '' }
    : { isValid: false, invalidReason: Reason.invalidPayload, invalidMessage: message };
}

export function createX402Router(facilitator: X402Facilitator, handle: RpcHandler, options: X402RouteOptions): Router {
  // Express is loaded here, on the first request that is not a JSON-RPC POST, not at start-up.
  const express = require('express') as typeof import('express');
  const router = express.Router();
  const readText = express.text({ type: () => true, limit: options.maxBodyBytes });

  const serve = (operation: Operation) => async (req: Request, res: Response) => {
    if (operation !== 'supported') {
      const origin = [req.headers.origin].flat()[0];
      if (!originAllowed(origin, options.exposure)) {
        res.status(403).json(unreadable(operation, originRefusal(origin!)));
        return;
      }
      if (!isJsonContentType(req.headers['content-type'])) {
        res.status(415).json(unreadable(operation, CONTENT_TYPE_MESSAGE));
        return;
      }
    }
    const key = req.params.key;
    if (key !== undefined && (typeof key !== 'string' || !sameKey(key, options.apiKey))) {
      res.status(401).json({ error: 'unauthorized: unknown key for the dedicated endpoint' });
      return;
    }
    const profile: ProfileName = key === undefined ? 'public' : 'dedicated';
    const refusal = await handle.gate([`x402/${operation}`], profile);
    if (refusal?.hangup) {
      res.socket?.destroy();
      return;
    }
    if (refusal) {
      res.status(refusal.status).set(refusal.headers ?? {}).json({ error: refusal.message, ...(refusal.data !== undefined ? { data: refusal.data } : {}) });
      return;
    }
    if (operation === 'supported') {
      const reply = await facilitator.supported();
      res.status(reply.status).json(reply.body);
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(typeof req.body === 'string' ? req.body : '');
    } catch (error) {
      res.status(400).json(unreadable(operation, `the body is not JSON: ${(error as Error).message}`));
      return;
    }
    const reply = operation === 'verify' ? await facilitator.verify(body) : await facilitator.settle(body);
    res.status(reply.status).json(reply.body);
  };

  for (const base of [X402_PATH, `/dedicated/:key${X402_PATH}`]) {
    router.get(`${base}/supported`, serve('supported'));
    router.post(`${base}/verify`, readText, serve('verify'));
    router.post(`${base}/settle`, readText, serve('settle'));
  }
  router.use(((error, req, res, next) => {
    if (!error) return next();
    // Malformed percent-encoding in the dedicated key (`/dedicated/%ZZ/x402/…`) is a wrong key.
    if (error instanceof URIError) {
      res.status(401).json({ error: 'unauthorized: unknown key for the dedicated endpoint' });
      return;
    }
    const operation: Operation = req.path.endsWith('/settle') ? 'settle' : 'verify';
    const tooLarge = (error as { status?: number }).status === 413;
    res.status(tooLarge ? 413 : 400).json(unreadable(operation, tooLarge ? `request body too large: limit ${options.maxBodyBytes} bytes` : 'could not read the request body'));
  }) as ErrorRequestHandler);
  return router;
}
