// What one endpoint shows beyond the block at the tag: the recent blocks (paged, each loaded when
// expanded), Go to results (a transaction with its receipt, a block, an address), the receipts'
// status of the latest block, and the block time it observes. No vscode import.
import { hexToBigInt } from './format';
import { ChainLookups } from './chainLookups';
import { describeTarget, parseGoTo, type GoToTarget } from './goToInput';
import { mergeActivity, REORG_WINDOW } from './activity';
import { bloomMayMatch } from './logsBloom';
import type { ActivityFilter, BlockDetail, BlockJson, Found, Loaded, LogFilterSetting, ReceiptSummary } from './chainData';
import { failure } from './endpointReader';
import { describeRpcError } from '../rpc/errors';

/** Most Go to results kept per endpoint (the oldest goes). */
const MAX_FOUND = 10;
/** Blocks with more transactions than this show them without their receipts' status. */
const MAX_RECEIPTS_PER_BLOCK = 100;

export interface BrowserSettings {
  /** Blocks per page of Recent blocks. */
  recentBlocks: number;
  /** Blocks back an address's token transfers are searched. */
  addressHistoryBlocks: number;
  tokenAddress?: string;
  /** The filters Activity follows, and over how many blocks. */
  activityFilters: LogFilterSetting[];
  activityBlocks: number;
}

export type GoToOutcome = { ok: true; found: Found } | { ok: false; message: string };

const hex = (n: bigint): string => `0x${n.toString(16)}`;

export class EndpointBrowser {
  recent?: Loaded<BlockJson[]>;
  /** Pages of recent blocks shown (older pages are loaded on demand). */
  private pages = 1;
  readonly recentBlocks = new Map<string, Loaded<BlockDetail>>();
  found: Found[] = [];
  /** Log filters following the last blocks. */
  activity?: Loaded<ActivityFilter[]>;
  /** The head Activity was last read at, and its hash (to see whether new blocks continue it). */
  private activityHead?: { number: bigint; hash?: string };
  /** Receipt status per transaction of the latest block. */
  blockReceipts?: Map<string, ReceiptSummary>;
  private lastBlock?: { number: bigint; timestamp: bigint };
  /** Seconds per block seen on this endpoint (timestamps of blocks read some blocks apart). */
  blockTimeMs?: number;

  constructor(readonly lookups: ChainLookups) {}

  /** Notes a block read at `latest`: the block time, and its receipts' status. */
  async observeLatest(block: BlockJson | null, signal?: AbortSignal): Promise<void> {
    const number = hexToBigInt(block?.number);
    const timestamp = hexToBigInt(block?.timestamp);
    if (!block || number === undefined || timestamp === undefined) return;
    const last = this.lastBlock;
    if (last && number > last.number && timestamp >= last.timestamp) {
      this.blockTimeMs = Number(((timestamp - last.timestamp) * 1000n) / (number - last.number));
    }
    if (!last || number !== last.number) this.lastBlock = { number, timestamp };
    this.blockReceipts = await this.receiptsOf(block, signal);
  }

  private async receiptsOf(block: BlockJson, signal?: AbortSignal): Promise<Map<string, ReceiptSummary>> {
    const hashes = block.transactions.map((t) => (typeof t === 'string' ? t : t.hash));
    if (hashes.length > MAX_RECEIPTS_PER_BLOCK) return new Map();
    return this.lookups.receiptSummaries(hashes, signal, block.transactions);
  }

  /** Loads the first page of recent blocks (headers only), newest first, ending at `head`. */
  async loadRecent(settings: BrowserSettings, head?: bigint, signal?: AbortSignal): Promise<void> {
    try {
      const top = head ?? await this.lookups.head(signal);
      const count = BigInt(settings.recentBlocks * this.pages);
      const numbers: bigint[] = [];
      for (let n = top; n >= 0n && n > top - count; n--) numbers.push(n);
      this.recent = await this.lookups.blocks(numbers, false, signal);
    } catch (error) {
      this.recent = failure(error);
    }
  }

  /** Follows a new head: reads only the blocks not listed yet, and drops what no longer fits. */
  async followHead(settings: BrowserSettings, head: bigint, signal?: AbortSignal): Promise<void> {
    const listed = this.recent?.ok ? this.recent.value : undefined;
    const newest = hexToBigInt(listed?.[0]?.number);
    if (!listed || newest === undefined || head - newest > BigInt(settings.recentBlocks) || head < newest) {
      await this.loadRecent(settings, head, signal);
      return;
    }
    if (head === newest) return;
    const numbers: bigint[] = [];
    for (let n = head; n > newest; n--) numbers.push(n);
    const added = await this.lookups.blocks(numbers, false, signal);
    if (!added.ok) return; // shown again at the next head
    // A reorg may have replaced the listed top: keep only blocks that still chain to the new ones.
    const keep = listed.filter((b) => (hexToBigInt(b.number) ?? 0n) <= newest);
    const next = [...added.value, ...keep];
    const broken = added.value.length > 0 && keep.length > 0 && added.value[added.value.length - 1].parentHash !== keep[0].hash;
    if (broken) {
      await this.loadRecent(settings, head, signal);
      return;
    }
    this.recent = { ok: true, value: next.slice(0, settings.recentBlocks * this.pages) };
  }

  /** Reads every filter's matches over the last `activityBlocks` blocks, up to the head's block. */
  async loadActivity(settings: BrowserSettings, signal?: AbortSignal): Promise<void> {
    try {
      const top = await this.lookups.header('latest', signal);
      const head = hexToBigInt(top?.number);
      if (!top || head === undefined) throw new Error('the endpoint has no latest block');
      const from = this.windowStart(head, settings);
      const filters: ActivityFilter[] = [];
      for (const filter of settings.activityFilters) {
        const fresh = await this.lookups.logsInRange(activityQuery(filter), from, head, { requests: 0 }, signal);
        filters.push({ filter, logs: mergeActivity([], fresh, from, from) });
      }
      this.activity = { ok: true, value: filters };
      this.activityHead = { number: head, hash: typeof top.hash === 'string' ? top.hash : undefined };
    } catch (error) {
      this.activity = failure(error);
    }
  }

  /**
   * Follows a new head, reading logs only where there may be new ones. When the new blocks
   * continue the chain Activity last read (each one's parentHash is the hash before it), only the
   * new blocks whose logsBloom may hold a match of a filter are read: most heads bring none, and
   * cost one header read, or nothing when the caller passes the head's block (`headBlock`, read
   * anyway at latest). Otherwise (a reorg, a gap of more than REORG_WINDOW blocks, a head whose
   * hash is not known) the last REORG_WINDOW blocks and the new ones are read again, so logs a
   * reorg dropped turn into removed replays. Nothing changed: `activity` stays the same object.
   */
  async followActivity(settings: BrowserSettings, head: bigint, signal?: AbortSignal, headBlock?: BlockJson): Promise<void> {
    const current = this.activity?.ok ? this.activity.value : undefined;
    const last = this.activityHead;
    const names = settings.activityFilters.map((f) => f.name).join('\n');
    if (!current || last === undefined || current.map((f) => f.filter.name).join('\n') !== names) {
      await this.loadActivity(settings, signal);
      return;
    }
    if (head <= last.number) return; // an older head (a reorg to a shorter chain) shows at the next one
    const keepFrom = this.windowStart(head, settings);
    try {
      const added = await this.blocksAfter(last, head, signal, headBlock);
      const next: ActivityFilter[] = [];
      for (const entry of current) {
        const query = activityQuery(entry.filter);
        let logs = entry.logs;
        if (added) {
          // The chain continues: new logs can only be in the new blocks the bloom does not rule out.
          const candidates = added.filter((b) => bloomMayMatch(b.logsBloom, query)).map((b) => hexToBigInt(b.number)!);
          if (candidates.length > 0) {
            const from = candidates[0];
            const fresh = await this.lookups.logsInRange(query, from, candidates[candidates.length - 1], { requests: 0 }, signal);
            logs = mergeActivity(entry.logs, fresh, from, keepFrom);
          } else if (entry.logs.some((log) => (hexToBigInt(log.blockNumber) ?? 0n) < keepFrom)) {
            logs = mergeActivity(entry.logs, [], head + 1n, keepFrom); // only the oldest go
          }
        } else {
          const reread = last.number - REORG_WINDOW + 1n > keepFrom ? last.number - REORG_WINDOW + 1n : keepFrom;
          const fresh = await this.lookups.logsInRange(query, reread, head, { requests: 0 }, signal);
          logs = mergeActivity(entry.logs, fresh, reread, keepFrom);
        }
        next.push(logs === entry.logs ? entry : { filter: entry.filter, logs });
      }
      if (next.some((entry, i) => entry !== current[i])) this.activity = { ok: true, value: next };
      const top = added?.[added.length - 1] ?? (hexToBigInt(headBlock?.number) === head ? headBlock : await this.lookups.header(hex(head), signal));
      this.activityHead = { number: head, hash: typeof top?.hash === 'string' ? top.hash : undefined };
    } catch {
      // Kept as it was; read again at the next head.
    }
  }

  /**
   * The blocks (headers) after `last` up to `head`, when they continue the chain `last` was on;
   * undefined when they do not, or that cannot be known (a gap longer than REORG_WINDOW, no hash).
   */
  private async blocksAfter(last: { number: bigint; hash?: string }, head: bigint, signal?: AbortSignal, headBlock?: BlockJson): Promise<BlockJson[] | undefined> {
    if (last.hash === undefined || head - last.number > REORG_WINDOW) return undefined;
    let blocks: BlockJson[];
    if (head === last.number + 1n && headBlock && hexToBigInt(headBlock.number) === head) {
      blocks = [headBlock];
    } else {
      const numbers: bigint[] = [];
      for (let n = last.number + 1n; n <= head; n++) numbers.push(n);
      const read = await this.lookups.blocks(numbers, false, signal);
      if (!read.ok || read.value.length !== numbers.length) return undefined;
      blocks = read.value;
    }
    let parent = last.hash;
    for (const block of blocks) {
      if (block.parentHash !== parent || typeof block.hash !== 'string') return undefined;
      parent = block.hash;
    }
    return blocks;
  }

  /**
   * Follows a new head in the Go to results: an address is read again at the new head (balances,
   * nonces; its token transfers of the new blocks and of the last REORG_WINDOW before), and a transaction not sealed when it was read (no
   * receipt, or only a pre-confirmed one above the head) is read again. Blocks do not change.
   * A result that cannot be read now is kept as it was and read again at the next head.
   */
  async followFound(settings: BrowserSettings, head: bigint, signal?: AbortSignal): Promise<void> {
    const next: Found[] = [];
    for (const found of this.found) {
      next.push(await this.refreshFound(found, settings, head, signal).catch(() => found));
      if (signal?.aborted) return;
    }
    this.found = next;
  }

  private async refreshFound(found: Found, settings: BrowserSettings, head: bigint, signal?: AbortSignal): Promise<Found> {
    switch (found.kind) {
      case 'address': {
        if ((hexToBigInt(found.data.head) ?? 0n) >= head) return found;
        const data = await this.lookups.address(found.key, { token: settings.tokenAddress, historyBlocks: settings.addressHistoryBlocks }, signal, found.data);
        return { ...found, data };
      }
      case 'transaction': {
        const sealedAt = hexToBigInt(found.found.receipt?.blockNumber);
        if (sealedAt !== undefined && sealedAt <= head) return found;
        const tx = await this.lookups.transaction(found.key, signal);
        return tx ? { ...found, found: tx } : found;
      }
      case 'block':
        return found;
    }
  }

  private windowStart(head: bigint, settings: BrowserSettings): bigint {
    const from = head - BigInt(Math.max(1, settings.activityBlocks)) + 1n;
    return from > 0n ? from : 0n;
  }

  /** Adds a page of blocks older than the oldest listed. */
  async loadOlder(settings: BrowserSettings, signal?: AbortSignal): Promise<void> {
    const listed = this.recent?.ok ? this.recent.value : [];
    const oldest = hexToBigInt(listed[listed.length - 1]?.number);
    if (oldest === undefined || oldest === 0n) return;
    const numbers: bigint[] = [];
    for (let n = oldest - 1n; n >= 0n && n > oldest - 1n - BigInt(settings.recentBlocks); n--) numbers.push(n);
    const older = await this.lookups.blocks(numbers, false, signal);
    if (!older.ok) {
      this.recent = older;
      return;
    }
    this.pages++;
    this.recent = { ok: true, value: [...listed, ...older.value] };
  }

  /** Loads one recent block in full, with its receipts' status (its key: `block:0x…`). */
  async loadBlock(key: string, signal?: AbortSignal): Promise<void> {
    const number = BigInt(key.slice('block:'.length));
    const loaded = await this.lookups.blocks([number], true, signal);
    if (!loaded.ok) {
      this.recentBlocks.set(key, loaded);
      return;
    }
    const block = loaded.value[0];
    if (!block) {
      this.recentBlocks.set(key, { ok: false, error: `the endpoint no longer has block #${number}` });
      return;
    }
    this.recentBlocks.set(key, { ok: true, value: { block, receipts: await this.receiptsOf(block, signal) } });
  }

  /** Resolves what the user typed and keeps it as the newest Go to result. */
  async goTo(text: string, settings: BrowserSettings, signal?: AbortSignal): Promise<GoToOutcome> {
    const parsed = parseGoTo(text);
    if (!parsed.ok) return { ok: false, message: parsed.error };
    let outcome: GoToOutcome;
    try {
      outcome = await this.resolve(parsed.target, settings, signal);
    } catch (error) {
      return { ok: false, message: `${describeTarget(parsed.target)}: ${describeRpcError(error)}` };
    }
    if (outcome.ok) {
      const found = outcome.found;
      this.found = [found, ...this.found.filter((f) => f.kind !== found.kind || f.key !== found.key)].slice(0, MAX_FOUND);
    }
    return outcome;
  }

  private async resolve(target: GoToTarget, settings: BrowserSettings, signal?: AbortSignal): Promise<GoToOutcome> {
    switch (target.kind) {
      case 'address': {
        const data = await this.lookups.address(target.address, { token: settings.tokenAddress, historyBlocks: settings.addressHistoryBlocks }, signal);
        return { ok: true, found: { kind: 'address', key: target.address, data } };
      }
      case 'hash': {
        const tx = await this.lookups.transaction(target.hash, signal);
        if (tx) return { ok: true, found: { kind: 'transaction', key: target.hash, found: tx } };
        const block = await this.lookups.blockByHash(target.hash, signal);
        if (block) return this.blockFound(block, signal);
        return { ok: false, message: `the endpoint knows no transaction and no block with hash ${target.hash}` };
      }
      case 'block': {
        const loaded = await this.lookups.blocks([target.number], true, signal);
        if (!loaded.ok) return { ok: false, message: `block #${target.number}: ${loaded.error}` };
        if (loaded.value[0]) return this.blockFound(loaded.value[0], signal);
        const head = await this.lookups.head(signal);
        return { ok: false, message: `the endpoint has no block #${target.number} (its head is #${head})` };
      }
      case 'tag': {
        const block = await this.lookups.blockAt(target.tag, signal);
        if (block) return this.blockFound(block, signal);
        return { ok: false, message: `the endpoint has no ${target.tag} block` };
      }
    }
  }

  private async blockFound(block: BlockJson, signal?: AbortSignal): Promise<GoToOutcome> {
    const key = typeof block.hash === 'string' ? block.hash : hex(hexToBigInt(block.number) ?? 0n);
    return { ok: true, found: { kind: 'block', key, detail: { block, receipts: await this.receiptsOf(block, signal) } } };
  }
}

function activityQuery(filter: LogFilterSetting): { address?: string | string[]; topics?: (string | null)[] } {
  return {
    ...(filter.address ? { address: filter.address } : {}),
    ...(filter.topics ? { topics: filter.topics as (string | null)[] } : {}),
  };
}
