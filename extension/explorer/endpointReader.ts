// Reads what the explorer shows from one endpoint, batching where the endpoint allows it.
// eth_getBlockReceipts is always sent on its own: a public endpoint answers any request that
// contains it with HTTP 403, which would sink the whole batch. No vscode import.
import {
  BadResponseError, describeRpcError, HttpStatusError, JsonRpcError, NetworkError, RateLimitedError, TimeoutError, type RpcClientError,
} from '../rpc/errors';
import type { BatchItem, RpcClient, RpcRequest } from '../rpc/client';
import { encodeBalanceOf, tokenReads } from './tokenCalls';
import type { AccountData, BlockJson, FilterLogs, Loaded, LogFilterSetting, Overview, ReceiptJson, SlotData, SlotSetting, TokenData } from './chainData';

/** The block's tag parameter for follow-up reads: its own number when sealed, else the tag. */
export function blockParam(tag: 'latest' | 'pending', block: BlockJson | null | undefined): string {
  return tag === 'latest' && block && typeof block.number === 'string' ? block.number : tag;
}

/** Longest error text shown in a tree node: an endpoint's error message can be of any size. */
const MAX_ERROR_TEXT = 300;

export function failure<T>(error: unknown): Loaded<T> {
  const text = describeRpcError(error).replace(/[^\x20-\x7e\u00a0-\uffff]/g, ' ');
  return {
    ok: false,
    error: text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}…` : text,
    needsDedicated: error instanceof HttpStatusError && error.needsDedicatedEndpoint ? true : undefined,
  };
}

export function value<T>(item: BatchItem | undefined): T | undefined {
  return item && item.ok ? (item.value as T) : undefined;
}

export function firstError(items: BatchItem[]): unknown {
  const bad = items.find((i) => !i.ok);
  return bad && !bad.ok ? bad.error : undefined;
}

/**
 * Failures that say nothing works at this endpoint right now (no answer, a timeout, an answer that
 * is not JSON-RPC, an HTTP error other than a rate limit), as opposed to one call being refused:
 * asking it the remaining calls of the same read would only repeat the failure.
 */
export function endpointUnusable(error: unknown): boolean {
  if (error instanceof RateLimitedError) return false;
  if (error instanceof HttpStatusError) return !error.needsDedicatedEndpoint;
  return error instanceof TimeoutError || error instanceof NetworkError || error instanceof BadResponseError;
}

/** Answers that mean "this endpoint does not take batches" (rather than "this call failed"). */
function batchRefused(error: unknown): boolean {
  if (error instanceof RateLimitedError) return false;
  if (error instanceof HttpStatusError) return [400, 405, 413, 415, 422, 501].includes(error.status);
  return error instanceof BadResponseError;
}

export class EndpointReader {
  /** Set once the endpoint refused a batch: from then on, one call at a time. */
  batchesRefused = false;

  constructor(readonly client: RpcClient) {}

  /** A batch, or the same calls one by one where the endpoint does not take batches. */
  async batch(calls: RpcRequest[], signal?: AbortSignal): Promise<BatchItem[]> {
    if (!this.batchesRefused && calls.length > 1) {
      try {
        const items = await this.client.batch(calls, signal);
        // Some endpoints answer a whole batch with one "invalid request" error.
        const allInvalid = items.every((i) => !i.ok && i.error instanceof JsonRpcError && i.error.code === -32600);
        if (!allInvalid) return items;
      } catch (error) {
        if (!batchRefused(error)) throw error;
      }
      this.batchesRefused = true;
    }
    const items: BatchItem[] = [];
    for (const call of calls) {
      try {
        items.push({ ok: true, value: await this.client.call(call.method, call.params, signal) });
      } catch (error) {
        items.push({ ok: false, error: error as RpcClientError });
        // A broken endpoint fails every call alike: do not wait for each of the rest.
        if (endpointUnusable(error)) {
          while (items.length < calls.length) items.push({ ok: false, error: error as RpcClientError });
        }
      }
    }
    return items;
  }

  async overview(withSafeFinalized: boolean, signal?: AbortSignal): Promise<Loaded<Overview>> {
    try {
      const calls = [
        { method: 'eth_chainId', params: [] },
        { method: 'web3_clientVersion', params: [] },
        { method: 'eth_blockNumber', params: [] },
        ...(withSafeFinalized
          ? [{ method: 'eth_getBlockByNumber', params: ['safe', false] }, { method: 'eth_getBlockByNumber', params: ['finalized', false] }]
          : []),
      ];
      const items = await this.batch(calls, signal);
      const chainId = value<string>(items[0]);
      const head = value<string>(items[2]);
      if (chainId === undefined || head === undefined) {
        return failure(firstError(items) ?? new Error('no chain id'));
      }
      const overview: Overview = { chainId, head, clientVersion: value<string>(items[1]) ?? '(no client version)' };
      if (withSafeFinalized) {
        overview.safe = value<{ number: string } | null>(items[3])?.number ?? null;
        overview.finalized = value<{ number: string } | null>(items[4])?.number ?? null;
      }
      return { ok: true, value: overview };
    } catch (error) {
      return failure(error);
    }
  }

  /** The block at the tag and the head, in one round trip. */
  async block(tag: 'latest' | 'pending', signal?: AbortSignal): Promise<{ block: Loaded<BlockJson | null>; head?: string; error?: unknown }> {
    try {
      const items = await this.batch([
        { method: 'eth_getBlockByNumber', params: [tag, true] },
        { method: 'eth_blockNumber', params: [] },
      ], signal);
      const head = value<string>(items[1]);
      if (!items[0].ok) return { block: failure(items[0].error), head, error: items[0].error };
      return { block: { ok: true, value: items[0].value as BlockJson | null }, head };
    } catch (error) {
      return { block: failure(error), error };
    }
  }

  async receipts(tag: 'latest' | 'pending', block: BlockJson | null | undefined, signal?: AbortSignal): Promise<Loaded<ReceiptJson[]>> {
    try {
      const receipts = await this.client.call<ReceiptJson[] | null>('eth_getBlockReceipts', [blockParam(tag, block)], signal);
      return { ok: true, value: receipts ?? [] };
    } catch (error) {
      return failure(error);
    }
  }

  async logs(filters: LogFilterSetting[], tag: 'latest' | 'pending', block: BlockJson | null | undefined, signal?: AbortSignal): Promise<Loaded<FilterLogs[]>> {
    if (filters.length === 0) return { ok: true, value: [] };
    const param = blockParam(tag, block);
    try {
      const items = await this.batch(filters.map((f) => ({
        method: 'eth_getLogs',
        params: [{ fromBlock: param, toBlock: param, ...(f.address ? { address: f.address } : {}), ...(f.topics ? { topics: f.topics } : {}) }],
      })), signal);
      const bad = items.find((i) => !i.ok);
      if (bad && !bad.ok) return failure(bad.error);
      return { ok: true, value: filters.map((filter, i) => ({ filter, logs: (value<Record<string, unknown>[]>(items[i]) ?? []) })) };
    } catch (error) {
      return failure(error);
    }
  }

  async accounts(addresses: string[], tag: 'latest' | 'pending', token: string | undefined, signal?: AbortSignal): Promise<Loaded<AccountData[]>> {
    if (addresses.length === 0) return { ok: true, value: [] };
    const perAccount = token ? 4 : 3;
    try {
      const calls = addresses.flatMap((a) => [
        { method: 'eth_getTransactionCount', params: [a, 'latest'] },
        { method: 'eth_getTransactionCount', params: [a, 'pending'] },
        { method: 'eth_getBalance', params: [a, tag] },
        ...(token ? [{ method: 'eth_call', params: [{ to: token, data: encodeBalanceOf(a) }, tag] }] : []),
      ]);
      const items = await this.batch(calls, signal);
      const bad = items.slice(0, 3).find((i) => !i.ok);
      if (bad && !bad.ok) return failure(bad.error);
      return {
        ok: true,
        value: addresses.map((address, i) => {
          const at = i * perAccount;
          const tokenHex = token ? value<string>(items[at + 3]) : undefined;
          let tokenBalance: string | undefined;
          if (tokenHex && tokenHex.length > 2) {
            try {
              tokenBalance = `0x${(tokenReads.decodeFunctionResult('balanceOf', tokenHex)[0] as bigint).toString(16)}`;
            } catch { /* not a token at that address */ }
          }
          return {
            address,
            nonceLatest: value<string>(items[at]) ?? '0x0',
            noncePending: value<string>(items[at + 1]) ?? '0x0',
            balance: value<string>(items[at + 2]) ?? '0x0',
            tokenBalance,
          };
        }),
      };
    } catch (error) {
      return failure(error);
    }
  }

  async storage(slots: SlotSetting[], tag: 'latest' | 'pending', signal?: AbortSignal): Promise<Loaded<SlotData[]>> {
    if (slots.length === 0) return { ok: true, value: [] };
    try {
      const items = await this.batch(slots.map((s) => ({ method: 'eth_getStorageAt', params: [s.address, s.slot, tag] })), signal);
      const bad = items.find((i) => !i.ok);
      if (bad && !bad.ok) return failure(bad.error);
      return { ok: true, value: slots.map((s, i) => ({ ...s, value: value<string>(items[i]) ?? '0x' })) };
    } catch (error) {
      return failure(error);
    }
  }

  async token(address: string, tag: 'latest' | 'pending', signal?: AbortSignal): Promise<Loaded<TokenData>> {
    const names = ['name', 'symbol', 'version', 'decimals', 'totalSupply', 'paused'] as const;
    try {
      const items = await this.batch(
        names.map((n) => ({ method: 'eth_call', params: [{ to: address, data: tokenReads.encodeFunctionData(n, []) }, tag] })),
        signal,
      );
      const decoded = names.map((n, i) => {
        const raw = value<string>(items[i]);
        if (!raw || raw === '0x') return undefined;
        try {
          return tokenReads.decodeFunctionResult(n, raw)[0] as unknown;
        } catch {
          return undefined;
        }
      });
      if (decoded.every((d) => d === undefined)) {
        const bad = items.find((i) => !i.ok);
        return failure(bad && !bad.ok ? bad.error : new Error(`no token answers at ${address}`));
      }
      return {
        ok: true,
        value: {
          address,
          name: decoded[0] as string | undefined,
          symbol: decoded[1] as string | undefined,
          version: decoded[2] as string | undefined,
          decimals: decoded[3] === undefined ? undefined : Number(decoded[3] as bigint),
          totalSupply: decoded[4] === undefined ? undefined : `0x${(decoded[4] as bigint).toString(16)}`,
          paused: decoded[5] as boolean | undefined,
        },
      };
    } catch (error) {
      return failure(error);
    }
  }
}
