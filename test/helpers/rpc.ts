// Test helpers: start a node in-process and talk to it over real HTTP with plain JSON-RPC.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { mockNodeRouter, startMockNode, type MockNodeOptionsInput, type RunningMockNode } from '../../mock-node/index';

export interface RpcReply {
  status: number;
  body: any;
}

export async function post(url: string, body: unknown): Promise<RpcReply> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

let nextId = 1;

/** Calls one method; returns the result or throws an error carrying the JSON-RPC code. */
export async function rpc<T = any>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const reply = await post(url, { jsonrpc: '2.0', id: nextId++, method, params });
  if (reply.body?.error) {
    throw Object.assign(new Error(reply.body.error.message), { code: reply.body.error.code, data: reply.body.error.data, status: reply.status });
  }
  if (reply.status !== 200) throw Object.assign(new Error(`HTTP ${reply.status}`), { status: reply.status });
  return reply.body.result as T;
}

/** Calls one method expecting a JSON-RPC error; returns the error object. */
export async function rpcError(url: string, method: string, params: unknown[] = []): Promise<{ code: number; message: string; data?: unknown; status: number }> {
  const reply = await post(url, { jsonrpc: '2.0', id: nextId++, method, params });
  if (!reply.body?.error) throw new Error(`expected an error from ${method}, got ${JSON.stringify(reply.body)}`);
  return { ...reply.body.error, status: reply.status };
}

/** A manual-mode node (no timers) unless the options say otherwise. */
export function startTestNode(options: MockNodeOptionsInput = {}): Promise<RunningMockNode> {
  return startMockNode({ port: 0, auto: false, quiet: true, ...options });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What a test needs of a node, whichever way it is served. */
export interface TestNode {
  url: string;
  dedicatedUrl: string;
  accounts: RunningMockNode['accounts'];
  chainId: bigint;
  tokenAddress: string;
  stop(): Promise<void>;
}

export type Transport = 'http' | 'router';
export const TRANSPORTS: Transport[] = ['http', 'router'];

/**
 * A manual-mode node served either by the CLI's own server (raw http fast path + Express) or
 * by mockNodeRouter() mounted under /rpc in a user's Express app: both paths run the same tests.
 */
export async function startTestNodeVia(transport: Transport, options: MockNodeOptionsInput = {}): Promise<TestNode> {
  if (transport === 'http') return startTestNode(options);
  const { router, core, stop } = await mockNodeRouter({ auto: false, quiet: true, ...options });
  const app = express();
  app.use('/rpc', router);
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}/rpc/`;
  return {
    url: base,
    dedicatedUrl: `${base}dedicated/${core.http.apiKey}`,
    accounts: core.services.accounts.list,
    chainId: core.services.options.chainId,
    tokenAddress: core.services.options.token.address,
    stop: () =>
      stop().then(() => new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
