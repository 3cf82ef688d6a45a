// What a web page must not be able to do to a node on loopback: the checks every HTTP request and
// WebSocket upgrade meets before any JSON-RPC work. Pure functions of the request's headers and
// the node's exposure options; the HTTP server, the mountable router and the WebSocket gateway
// all use them.
//
// - Host: a browser sends the name it resolved, so a page that re-binds its own DNS name to
//   127.0.0.1 (DNS rebinding) sends its own name. Names are accepted only when loopback
//   (`localhost`, `*.localhost`), the address the node is bound to, or allowed by --allow-host;
//   IP literals are always accepted (a re-bound page can never send one for our address).
// - Content-Type: a page can POST `text/plain` cross-origin without a CORS preflight; only
//   `application/json` (and geth's two aliases) is JSON-RPC here, so such a POST is refused.
// - Origin: browsers always send it on cross-origin POSTs and on every WebSocket upgrade; tools
//   (curl, ethers, viem, Python) send none. A request with an Origin is served only when that
//   origin is a loopback page (a developer's own dApp on http://localhost:5173, as Vite's dev
//   server allows since its 2025 CORS change) or allowed (--allow-origin, or --cors for any).
import { isIP } from 'node:net';

export interface ExposurePolicy {
  /** The address the node listens on (the mountable router: undefined). */
  bindHost?: string;
  /** Extra Host names to accept; '*' accepts any. */
  allowHosts: readonly string[];
  /** Origins (scheme://host[:port]) browsers may call from; '*' any. */
  allowOrigins: readonly string[];
}

/** geth's accepted media types for JSON-RPC over HTTP. */
const JSON_MEDIA_TYPES = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest']);

export const CONTENT_TYPE_MESSAGE = 'invalid content type, only application/json is supported';

/** Whether a Content-Type header names JSON (parameters such as charset are ignored). */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const media = header.split(';')[0].trim().toLowerCase();
  return JSON_MEDIA_TYPES.has(media);
}

/** The host name of a Host header, lowercase, without port, brackets or a trailing dot; null when malformed. */
export function hostName(header: string): string | null {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0) return null;
    const rest = value.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return null;
    return value.slice(1, end);
  }
  const match = /^([^:]*)(?::\d{1,5})?$/.exec(value);
  if (!match || match[1] === '') return null;
  return match[1].replace(/\.$/, '');
}

const WILDCARD_BIND = new Set(['0.0.0.0', '::', '']);

/** Whether the Host header is one the node answers to (see the module comment). */
export function hostAllowed(header: string | undefined, policy: ExposurePolicy): boolean {
  if (header === undefined) return true; // HTTP/1.0 tools; no browser omits Host
  if (policy.allowHosts.includes('*')) return true;
  const name = hostName(header);
  if (name === null) return false;
  if (isIP(name) !== 0) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const bind = policy.bindHost?.toLowerCase();
  if (bind !== undefined && !WILDCARD_BIND.has(bind) && name === bind) return true;
  return policy.allowHosts.some((allowed) => allowed.toLowerCase().replace(/\.$/, '') === name);
}

export function hostRefusal(header: string | undefined): string {
  const name = header === undefined ? '' : (hostName(header) ?? header);
  return `invalid host specified: ${JSON.stringify(name.slice(0, 100))} is not a loopback name; start the node with --allow-host ${/^[a-z0-9.-]+$/i.test(name) ? name : '<name>'} to answer to it`;
}

/**
 * A page served from this machine: http(s) on `localhost`, `*.localhost`, `127.0.0.1` or `[::1]`,
 * any port (Vite's default CORS rule). A DNS-rebound page keeps its own name as its origin.
 */
const LOOPBACK_ORIGIN = /^https?:\/\/(?:(?:[a-z0-9-]+\.)*localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/i;

export function isLoopbackOrigin(origin: string): boolean {
  return LOOPBACK_ORIGIN.test(origin.trim().replace(/\/+$/, ''));
}

/** Whether a request with this Origin header may be served (no Origin: not a browser, served). */
export function originAllowed(origin: string | undefined, policy: ExposurePolicy): boolean {
  if (origin === undefined) return true;
  if (policy.allowOrigins.includes('*')) return true;
  if (isLoopbackOrigin(origin)) return true;
  const normalized = origin.trim().toLowerCase().replace(/\/+$/, '');
  return policy.allowOrigins.some((allowed) => allowed.toLowerCase().replace(/\/+$/, '') === normalized);
}

export function originRefusal(origin: string): string {
  return `origin ${JSON.stringify(origin.slice(0, 200))} is not allowed; start the node with --allow-origin <origin> (or --cors for any origin)`;
}

/** CORS headers for a request from `origin`: none unless that origin is allowed (a loopback page always is). */
export function corsHeaders(origin: string | undefined, policy: ExposurePolicy): Record<string, string> {
  if (policy.allowOrigins.length === 0 && (origin === undefined || !isLoopbackOrigin(origin))) return {};
  const any = policy.allowOrigins.includes('*');
  if (!any && (origin === undefined || !originAllowed(origin, policy))) return {};
  return {
    'access-control-allow-origin': any ? '*' : origin!,
    'access-control-allow-methods': 'POST, GET, OPTIONS',
    'access-control-allow-headers': 'content-type, authorization',
    ...(any ? {} : { vary: 'Origin' }),
  };
}

/** Whether the node listens beyond loopback (every dev key is then usable by anyone who reaches it). */
export function exposedBeyondLoopback(bindHost: string): boolean {
  const host = bindHost.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1') return false;
  if (isIP(host) === 4) return !host.startsWith('127.');
  return true;
}

/** The warning printed at start when the node listens beyond loopback; undefined on loopback. */
export function exposureWarning(bindHost: string): string | undefined {
  if (!exposedBeyondLoopback(bindHost)) return undefined;
  return (
    `listening on ${bindHost}, beyond loopback: the dev accounts' keys are public (the test mnemonic), ` +
    'so anyone who can reach this port can send transactions and signatures from them, and the control methods can rewrite the chain. ' +
    'Use it only on a network you trust; --no-control turns the control methods off.'
  );
}

/** Compares a presented key with the expected one in time that does not depend on where they differ. */
export function sameKey(presented: string, expected: string): boolean {
  // Required here, not at the top: node:crypto is a dozen modules, and only a dedicated-path
  // request with a key ever needs it (see ../secureRandom.ts).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createHash, timingSafeEqual } = require('node:crypto') as typeof import('node:crypto');
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** decodeURIComponent that answers null for malformed percent-encoding instead of throwing. */
export function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
