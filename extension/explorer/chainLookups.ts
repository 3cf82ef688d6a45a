// Reads behind Go to…, the recent blocks and the address node: blocks by number or hash, a
// transaction with its receipt, an address's balances, code and token transfers. Log ranges stay
// within what the endpoint accepts: a range it refuses with -32005 is read again in halves.
// No vscode import.
import { feeBreakdown } from './opStackDisplay';
import { JsonRpcError } from '../rpc/errors';
import { failure, firstError, value, type EndpointReader } from './endpointReader';
import type {
  AddressData, BlockJson, Loaded, ReceiptJson, ReceiptSummary, TransactionFound, TransactionJson, TransferHistory,
} from './chainData';
import { encodeBalanceOf, decodeUint256, TRANSFER_TOPIC } from './tokenCalls';
import { REORG_WINDOW } from './activity';
import { inputOf, revertReason } from './decoding';

const hex = (n: bigint): string => `0x${n.toString(16)}`;
const pad32 = (address: string): string => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;

/** The error an endpoint gives for a log range it will not serve in one call. */
export function isRangeRefusal(error: unknown): boolean {
  return error instanceof JsonRpcError && error.code === -32005;
}

export class ChainLookups {
  constructor(readonly reader: EndpointReader) {}

  async head(signal?: AbortSignal): Promise<bigint> {
    return BigInt(await this.reader.client.call<string>('eth_blockNumber', [], signal));
  }

  /** Blocks by number, in the order asked; a block the endpoint does not have is left out. */
  async blocks(numbers: bigint[], full: boolean, signal?: AbortSignal): Promise<Loaded<BlockJson[]>> {
    try {
      const items = await this.reader.batch(numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: [hex(n), full] })), signal);
      const bad = items.find((i) => !i.ok);
      if (bad && !bad.ok) return failure(bad.error);
      return { ok: true, value: items.map((i) => value<BlockJson | null>(i)).filter((b): b is BlockJson => !!b) };
    } catch (error) {
      return failure(error);
    }
  }

  /** A block's header and transaction hashes (no transaction bodies); null when there is none. */
  async header(tag: string, signal?: AbortSignal): Promise<BlockJson | null> {
    return this.reader.client.call<BlockJson | null>('eth_getBlockByNumber', [tag, false], signal);
  }

  async blockByHash(hash: string, signal?: AbortSignal): Promise<BlockJson | null> {
    return this.reader.client.call<BlockJson | null>('eth_getBlockByHash', [hash, true], signal);
  }

  async blockAt(tag: string, signal?: AbortSignal): Promise<BlockJson | null> {
    return this.reader.client.call<BlockJson | null>('eth_getBlockByNumber', [tag, true], signal);
  }

  /** A transaction and its receipt in one round trip; null when the endpoint does not know it. */
  async transaction(hash: string, signal?: AbortSignal): Promise<TransactionFound | null> {
    const items = await this.reader.batch([
      { method: 'eth_getTransactionByHash', params: [hash] },
      { method: 'eth_getTransactionReceipt', params: [hash] },
    ], signal);
    if (!items[0].ok) throw items[0].error;
    const tx = items[0].value as TransactionJson | null;
    if (!tx) return null;
    const receipt = items[1].ok ? (items[1].value as ReceiptJson | null) : undefined;
    const revertReason = receipt && receipt.status === '0x0' ? await this.revertReason(tx, signal) : undefined;
    return revertReason === undefined ? { tx, receipt } : { tx, receipt, revertReason };
  }

  /**
   * Why a failed transaction reverted: the same call replayed with eth_call on the state before its
   * block (other transactions of the block before it are not replayed, so it can differ).
   */
  async revertReason(tx: TransactionJson, signal?: AbortSignal): Promise<string | undefined> {
    if (typeof tx.blockNumber !== 'string') return undefined;
    const parent = BigInt(tx.blockNumber) === 0n ? 'earliest' : `0x${(BigInt(tx.blockNumber) - 1n).toString(16)}`;
    // A deployment (no `to`) is replayed as one: eth_call without `to` runs the creation code.
    const call = { from: tx.from, ...(typeof tx.to === 'string' ? { to: tx.to } : {}), data: inputOf(tx), value: tx.value ?? '0x0', gas: tx.gas };
    try {
      await this.reader.client.call<string>('eth_call', [call, parent], signal);
      return 'reverted (the replay before its block succeeds: it depended on the block\'s earlier transactions)';
    } catch (error) {
      if (error instanceof JsonRpcError) return revertReason(error.data) ?? error.rpcMessage;
      return undefined;
    }
  }

  /**
   * Receipt status and gas per transaction hash, by eth_getTransactionReceipt (public endpoints
   * serve it, unlike eth_getBlockReceipts), the address a deployment created, and, given the
   * block's full transactions, why each failed one reverted. Hashes without an answer are left out.
   */
  async receiptSummaries(hashes: string[], signal?: AbortSignal, transactions?: readonly (TransactionJson | string)[]): Promise<Map<string, ReceiptSummary>> {
    const summaries = new Map<string, ReceiptSummary>();
    if (hashes.length === 0) return summaries;
    try {
      const items = await this.reader.batch(hashes.map((h) => ({ method: 'eth_getTransactionReceipt', params: [h] })), signal);
      hashes.forEach((h, i) => {
        const receipt = value<ReceiptJson | null>(items[i]);
        if (!receipt) return;
        const summary: ReceiptSummary = { status: receipt.status, gasUsed: receipt.gasUsed };
        if (typeof receipt.contractAddress === 'string') summary.contractAddress = receipt.contractAddress;
        const fees = feeBreakdown(receipt as Record<string, unknown>);
        if (fees) summary.fees = fees;
        summaries.set(h, summary);
      });
    } catch { /* shown without status */ }
    for (const tx of transactions ?? []) {
      if (typeof tx === 'string') continue;
      const summary = summaries.get(tx.hash);
      if (summary?.status !== '0x0') continue;
      const reason = await this.sealedRevertReason(tx, signal);
      if (reason !== undefined) summary.revertReason = reason;
    }
    return summaries;
  }

  /** Revert reasons of sealed transactions by hash: a block that is read again replays nothing. */
  private readonly reasons = new Map<string, string | undefined>();

  private async sealedRevertReason(tx: TransactionJson, signal?: AbortSignal): Promise<string | undefined> {
    const key = `${tx.hash}:${String(tx.blockHash)}`;
    if (this.reasons.has(key)) return this.reasons.get(key);
    const reason = await this.revertReason(tx, signal);
    if (signal?.aborted) return reason;
    if (this.reasons.size >= 512) this.reasons.delete(this.reasons.keys().next().value as string);
    this.reasons.set(key, reason);
    return reason;
  }

  /**
   * Balances and nonces at latest and pending, code, token balance and recent token transfers.
   * With `previous` (the same address read at an earlier head), only the transfers of the blocks
   * since then, and of the last REORG_WINDOW blocks before (a reorg may have changed them), are read.
   */
  async address(address: string, options: { token?: string; historyBlocks: number }, signal?: AbortSignal, previous?: AddressData): Promise<AddressData> {
    const items = await this.reader.batch([
      { method: 'eth_blockNumber', params: [] },
      { method: 'eth_getBalance', params: [address, 'latest'] },
      { method: 'eth_getBalance', params: [address, 'pending'] },
      { method: 'eth_getTransactionCount', params: [address, 'latest'] },
      { method: 'eth_getTransactionCount', params: [address, 'pending'] },
      { method: 'eth_getCode', params: [address, 'latest'] },
      ...(options.token ? [{ method: 'eth_call', params: [{ to: options.token, data: encodeBalanceOf(address) }, 'latest'] }] : []),
    ], signal);
    const error = firstError(items.slice(0, 6));
    if (error) throw error;
    const head = BigInt(value<string>(items[0]) ?? '0x0');
    const tokenRaw = options.token ? value<string>(items[6]) : undefined;
    const tokenBalance = tokenRaw ? decodeUint256(tokenRaw) : undefined;
    return {
      address,
      head: hex(head),
      balanceLatest: value<string>(items[1]) ?? '0x0',
      balancePending: value<string>(items[2]) ?? '0x0',
      nonceLatest: value<string>(items[3]) ?? '0x0',
      noncePending: value<string>(items[4]) ?? '0x0',
      code: value<string>(items[5]) ?? '0x',
      tokenBalance: tokenBalance === undefined ? undefined : hex(tokenBalance),
      transfers: await this.transfers(address, head, options.historyBlocks, signal, previous?.transfers.ok ? previous.transfers.value : undefined),
    };
  }

  /**
   * ERC-20 `Transfer` logs from or to the address over the last `blocks` blocks, newest first.
   * `previous`: the history read at an earlier head; its logs below the re-read range are kept.
   */
  async transfers(address: string, head: bigint, blocks: number, signal?: AbortSignal, previous?: TransferHistory): Promise<Loaded<TransferHistory>> {
    const from = head - BigInt(Math.max(1, blocks)) + 1n > 0n ? head - BigInt(Math.max(1, blocks)) + 1n : 0n;
    const previousTo = previous ? BigInt(previous.toBlock) : undefined;
    const reread = previousTo !== undefined && previousTo <= head && previousTo - REORG_WINDOW + 1n > from ? previousTo - REORG_WINDOW + 1n : from;
    const kept = reread > from && previous
      ? previous.logs.filter((l) => {
        const n = BigInt(String(l.blockNumber));
        return n >= from && n < reread;
      })
      : [];
    try {
      const counter = { requests: 0 };
      const out = await this.logsInRange({ topics: [TRANSFER_TOPIC, pad32(address)] }, reread, head, counter, signal);
      const incoming = await this.logsInRange({ topics: [TRANSFER_TOPIC, null, pad32(address)] }, reread, head, counter, signal);
      const seen = new Set<string>();
      const logs = [...out, ...incoming, ...kept]
        .filter((l) => {
          const key = `${String(l.transactionHash)}:${String(l.logIndex)}`;
          if (seen.has(key)) return false; // a transfer to oneself is in both lists
          seen.add(key);
          return true;
        })
        .sort((a, b) => compareLogs(b, a));
      return { ok: true, value: { fromBlock: hex(from), toBlock: hex(head), logs, requests: counter.requests } };
    } catch (error) {
      return failure(error);
    }
  }

  /**
   * eth_getLogs over [from, to]; a range the endpoint refuses with -32005 is read as two halves,
   * down to single blocks. At most 64 calls, so a hostile endpoint cannot keep it busy.
   */
  async logsInRange(
    filter: { address?: string | string[]; topics?: (string | null)[] }, from: bigint, to: bigint,
    counter: { requests: number }, signal?: AbortSignal,
  ): Promise<Record<string, unknown>[]> {
    if (counter.requests >= 64) throw new Error('the endpoint refused every smaller log range (64 eth_getLogs calls)');
    counter.requests++;
    try {
      return await this.reader.client.call<Record<string, unknown>[]>('eth_getLogs', [{ ...filter, fromBlock: hex(from), toBlock: hex(to) }], signal) ?? [];
    } catch (error) {
      if (!isRangeRefusal(error) || from >= to) throw error;
      const middle = from + (to - from) / 2n;
      const older = await this.logsInRange(filter, from, middle, counter, signal);
      const newer = await this.logsInRange(filter, middle + 1n, to, counter, signal);
      return [...older, ...newer];
    }
  }
}

/** Orders logs by block, then log index. */
export function compareLogs(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const n = (v: unknown): bigint => (typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v) ? BigInt(v) : -1n);
  const byBlock = n(a.blockNumber) - n(b.blockNumber);
  if (byBlock !== 0n) return byBlock < 0n ? -1 : 1;
  const byIndex = n(a.logIndex) - n(b.logIndex);
  return byIndex === 0n ? 0 : byIndex < 0n ? -1 : 1;
}
