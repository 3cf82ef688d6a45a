// What "Send" sends and how the reply is shaped, without vscode: the request values of a segment
// (a single request or a batch) or of one batch element, the profile an endpoint is known to
// have, and the call through extension/rpc's client turned into what a JSON-RPC endpoint answers
// (with the file's own ids), or into `{ httpStatus, error }` when the HTTP request itself was
// refused. Unit-tested against the mock node.
import type { RpcClient } from '../rpc/client';
import type { Endpoint } from '../rpc/endpoints';
import { HttpStatusError, JsonRpcError, describeRpcError } from '../rpc/errors';
import type { ParsedRpcDocument } from './server/document';
import { getNodeValue } from './server/jsonc';
import type { Profile } from './server/protocol';

/** The profile of an endpoint, when known: the mock node's two, or a /dedicated/ URL path. */
export function endpointProfile(endpoint: Pick<Endpoint, 'id' | 'url'>): Profile | undefined {
  if (endpoint.id === 'ep:mock:public') return 'public';
  if (endpoint.id === 'ep:mock:dedicated') return 'dedicated';
  try {
    return /\/dedicated\//.test(new URL(endpoint.url).pathname) ? 'dedicated' : undefined;
  } catch {
    return undefined;
  }
}

export interface OutgoingRequest {
  id?: unknown;
  method: string;
  params?: unknown;
}

/** A single request, or a batch (`batch: true`) of them. */
export interface Payload {
  batch: boolean;
  requests: OutgoingRequest[];
}

/**
 * The values a Send sends: a segment (single or batch), or one element of a batch. undefined when
 * there is nothing sendable (not an object with a method string, or an empty batch).
 */
export function payloadOf(doc: ParsedRpcDocument, segmentIndex: number, element?: number): Payload | undefined {
  const segment = doc.segments[segmentIndex];
  if (!segment?.root) return undefined;
  const node = element !== undefined ? segment.root.children?.[element] : segment.root;
  if (!node) return undefined;
  const value: unknown = getNodeValue(node);
  const batch = Array.isArray(value);
  const requests = (batch ? value : [value]) as unknown[];
  const sendable = requests.length > 0 && requests.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r) && typeof (r as OutgoingRequest).method === 'string');
  return sendable ? { batch, requests: requests as OutgoingRequest[] } : undefined;
}

function reply(id: unknown, result: unknown): unknown {
  return { jsonrpc: '2.0', id: id ?? null, result };
}

/** The whole HTTP request was refused (403, 429, 5xx) or never answered. */
function httpFailure(error: unknown): unknown {
  if (error instanceof HttpStatusError) {
    return { httpStatus: error.status, ...(error.rpcError ? { error: error.rpcError } : {}), note: describeRpcError(error) };
  }
  return { error: describeRpcError(error) };
}

function errorReply(id: unknown, error: unknown): unknown {
  if (error instanceof JsonRpcError) {
    return { jsonrpc: '2.0', id: id ?? null, error: { code: error.code, message: error.rpcMessage, ...(error.data !== undefined ? { data: error.data } : {}) } };
  }
  return httpFailure(error);
}

/** Params as written (the endpoint judges them); none → []. */
function params(request: OutgoingRequest): unknown[] {
  return (request.params === undefined ? [] : request.params) as unknown[];
}

/** Sends the payload; answers the reply to show (never throws for an endpoint's refusal). */
export async function sendPayload(client: Pick<RpcClient, 'call' | 'batch'>, payload: Payload, signal?: AbortSignal): Promise<unknown> {
  const { requests } = payload;
  try {
    if (payload.batch) {
      const results = await client.batch(requests.map((r) => ({ method: r.method, params: params(r) })), signal);
      return results.map((item, i) => (item.ok ? reply(requests[i].id, item.value) : errorReply(requests[i].id, item.error)));
    }
    return reply(requests[0].id, await client.call(requests[0].method, params(requests[0]), signal));
  } catch (error) {
    return payload.batch ? httpFailure(error) : errorReply(requests[0].id, error);
  }
}
