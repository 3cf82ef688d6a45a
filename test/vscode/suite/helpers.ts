// Shared helpers for the in-VS-Code tests: the extension's API, waiting for the tree to show
// something, a request-counting proxy in front of the mock node, sending dev transactions.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ChainExplorerApi } from '../../../extension/main';
import type { ExplorerNode } from '../../../extension/explorer/treeProvider';

export const EXTENSION_ID = 'chain-rpc-explorer.chain-rpc-explorer';

export async function api(): Promise<ChainExplorerApi> {
  const extension = vscode.extensions.getExtension<ChainExplorerApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed`);
  return extension.activate();
}

/** Re-checks `probe` until it returns a value (not undefined/false) or the deadline passes. */
export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : String(last)})`);
    await sleep(50);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Children of a node, by label prefix path from the roots, e.g. ['Mock node (public)', 'latest']. */
export async function nodeAt(explorer: ChainExplorerApi, path: string[]): Promise<ExplorerNode | undefined> {
  let children = await explorer.tree.getChildren();
  let node: ExplorerNode | undefined;
  for (const label of path) {
    node = children.find((c) => c.spec.label.startsWith(label));
    if (!node) return undefined;
    children = await explorer.tree.getChildren(node);
  }
  return node;
}

export async function childrenAt(explorer: ChainExplorerApi, path: string[]): Promise<ExplorerNode[]> {
  const node = await nodeAt(explorer, path);
  return node ? explorer.tree.getChildren(node) : [];
}

export async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await response.json() as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** A loopback proxy that forwards to `target` and counts the JSON-RPC requests it sees. */
export interface CountingProxy {
  url: string;
  count: number;
  /** Requests received and not yet answered. */
  inFlight: number;
  setTarget(url: string): void;
  close(): Promise<void>;
}

export async function countingProxy(target: string): Promise<CountingProxy> {
  let upstream = target;
  const proxy: CountingProxy = {
    url: '',
    count: 0,
    inFlight: 0,
    setTarget: (url) => { upstream = url; },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
  const server = http.createServer((req, res) => {
    proxy.inFlight++;
    res.on('close', () => { proxy.inFlight--; });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      proxy.count++;
      fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
        .then(async (r) => {
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(Buffer.from(await r.arrayBuffer()));
        })
        .catch(() => { res.writeHead(502); res.end(); });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return proxy;
}

/** Opens the Chain view so the explorer counts as visible. */
export async function showExplorer(): Promise<void> {
  await vscode.commands.executeCommand('workbench.view.extension.chain');
  await vscode.commands.executeCommand('chainExplorer.rpcExplorer.focus');
}

/** A loopback port nothing listens on (taken and released). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
