// eth_getLogs: filter by block range or block hash, addresses and topic positions. A range
// that ends at `pending` adds the pre-confirmed logs; `pending`..`pending` is those alone.
// With `blockHash` the range is ignored (the seed's rule).
import type { Chain } from '../../chain/chain';
import { BloomProbe } from '../../encoding/bloom';
import type { Hex } from '../../encoding/hex';
import { logIndexOf } from '../../chain/logIndex';
import type { BlockRecord, LogRecord } from '../../chain/types';
import { findBlock, blockNumberForTag } from '../blockResolution';
import { ErrorCode, RpcError, invalidInput, invalidParams } from '../errors';
import { parseAddress, parseBlockSelector, parseHash, type BlockSelector } from '../params';
import { FILTER_FIELDS, MAX_TOPIC_POSITIONS } from '../../catalog/index';
import { type Json, type LogJson } from '../shapes';
import { blockLogsMatching, LogListText } from '../logResults';
import { withAsciiJsonParts } from '../jsonText';
import { REUSED_BUFFER_MIN_BYTES } from '../replyBuffers';
import type { MethodTable, NodeServices, ProfileName } from './types';
import type { MockNodeOptions, PendingIdentity, ProfileLimits } from '../../options';

export interface LogFilter {
  addresses: Set<Hex> | null;
  /** Per position: null matches anything, else the set of accepted topics. */
  topics: (Set<Hex> | null)[];
}

/** The blocks a filter covers, oldest first. */
export interface LogQuery {
  filter: LogFilter;
  blockHash: Hex | null;
  from: BlockSelector;
  to: BlockSelector;
}

const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' };
const FILTER_FIELD_NAMES = new Set(FILTER_FIELDS.map((field) => field.name));

export function parseLogFilter(raw: unknown, index = 0): LogQuery {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalidParams(`invalid argument ${index}: filter must be an object`);
  const object = raw as Record<string, unknown>;
  for (const key of Object.keys(object)) if (!FILTER_FIELD_NAMES.has(key)) throw invalidParams(`invalid argument ${index}: unknown filter field ${key}`);
  let addresses: Set<Hex> | null = null;
  if (object.address !== undefined && object.address !== null) {
    const list = Array.isArray(object.address) ? object.address : [object.address];
    addresses = new Set(list.map((a) => parseAddress(a, index, 'address')));
    if (addresses.size === 0) addresses = null;
  }
  const topics: (Set<Hex> | null)[] = [];
  if (object.topics !== undefined && object.topics !== null) {
    if (!Array.isArray(object.topics)) throw invalidParams(`invalid argument ${index}: topics must be an array`);
    if (object.topics.length > MAX_TOPIC_POSITIONS) throw invalidParams(`invalid argument ${index}: at most ${MAX_TOPIC_POSITIONS} topic positions`);
    for (const position of object.topics) {
      if (position === null) topics.push(null);
      else if (Array.isArray(position)) topics.push(position.length === 0 ? null : new Set(position.map((t) => parseHash(t, index, 'topic'))));
      else topics.push(new Set([parseHash(position, index, 'topic')]));
    }
  }
  // The seed: `blockHash` "restricts logs to this block; when given, fromBlock and toBlock are
  // ignored" (geth refuses the combination with -32602; the seed wins). They are still parsed, so
  // a malformed one is an error rather than silently dropped.
  const blockHash = object.blockHash === undefined || object.blockHash === null ? null : parseHash(object.blockHash, index, 'blockHash');
  const from = object.fromBlock === undefined || object.fromBlock === null ? LATEST : parseBlockSelector(object.fromBlock, index);
  const to = object.toBlock === undefined || object.toBlock === null ? LATEST : parseBlockSelector(object.toBlock, index);
  if (from.kind === 'hash' || to.kind === 'hash') throw invalidParams(`invalid argument ${index}: fromBlock and toBlock take numbers or tags`);
  return { filter: { addresses, topics }, blockHash, from, to };
}

export function logMatches(log: Pick<LogRecord, 'address' | 'topics'>, filter: LogFilter): boolean {
  if (filter.addresses && !filter.addresses.has(log.address)) return false;
  for (let i = 0; i < filter.topics.length; i++) {
    const accepted = filter.topics[i];
    if (accepted === null) continue;
    const topic = log.topics[i];
    if (topic === undefined || !accepted.has(topic)) return false;
  }
  return true;
}

/** Resolved numeric range; `includePending` adds the pending block's logs after the sealed range. */
export interface ResolvedRange {
  from: bigint;
  to: bigint;
  includePending: boolean;
}

export function resolveRange(chain: Chain, query: LogQuery): ResolvedRange {
  const number = (s: BlockSelector) => (s.kind === 'tag' ? blockNumberForTag(chain, s.tag) : s.kind === 'number' ? s.number : 0n);
  const toIsPending = query.to.kind === 'tag' && query.to.tag === 'pending';
  const fromIsPending = query.from.kind === 'tag' && query.from.tag === 'pending';
  if (fromIsPending && !toIsPending) throw invalidParams('invalid block range params');
  if (fromIsPending && toIsPending) return { from: chain.head + 1n, to: chain.head, includePending: true };
  const from = number(query.from);
  const to = toIsPending ? chain.head : number(query.to);
  // geth's answers, which the execution-apis conformance tests check (tests/eth_getLogs).
  if (to > chain.head) throw invalidParams('block range extends beyond current head block');
  if (from > to && !(toIsPending && from === chain.head + 1n)) throw invalidParams('invalid block range params');
  return { from, to, includePending: toIsPending };
}

/** The filter's bloom probe: blocks whose logsBloom cannot hold a match are skipped unread. */
function bloomProbe(filter: LogFilter): BloomProbe {
  const groups = [filter.addresses, ...filter.topics].filter((set): set is Set<Hex> => set !== null).map((set) => [...set]);
  return new BloomProbe(groups);
}

/**
 * The logs a query answers, gathered block by block from the blocks' log objects
 * (logResults.ts); the result carries its JSON text as a LogListText, written from those objects
 * into the reply when it is sent.
 */
class LogsResult {
  readonly logs: LogJson[] = [];
  private probe: BloomProbe | undefined; // made at the first block with logs: a query that reads none hashes nothing
  private readonly wanted = (log: LogRecord): boolean => logMatches(log, this.filter);

  constructor(
    private readonly filter: LogFilter,
    private readonly identity: PendingIdentity,
  ) {}

  get length(): number {
    return this.logs.length;
  }

  /** The logs of `block` the filter matches, at most `room` of them; false when more would match. */
  add(block: BlockRecord, room = Infinity): boolean {
    // The bloom first: a sealed block's logs are read from its bytes only when it may match.
    if (!(this.probe ??= bloomProbe(this.filter)).mayMatch(block.header.logsBloom)) return true;
    const rendered = blockLogsMatching(block, this.identity, this.wanted);
    if (rendered === undefined) return true;
    const logs = rendered.logs;
    let matched = 0;
    for (let i = 0; i < logs.length; i++) {
      if (!logMatches(logs[i], this.filter)) continue;
      if (matched === room) return false;
      matched++;
    }
    if (matched === logs.length) {
      for (let i = 0; i < logs.length; i++) this.logs.push(logs[i]);
    } else {
      for (let i = 0; i < logs.length; i++) if (logMatches(logs[i], this.filter)) this.logs.push(logs[i]);
    }
    return true;
  }

  /**
   * The result, carrying its JSON text: a short one made now, as one string (the reply adds its
   * head to it), a long one written as the reply is sent.
   */
  result(): Json[] {
    if (this.logs.length === 0) return withAsciiJsonParts(this.logs, ['[]']);
    const text = new LogListText(this.logs);
    return withAsciiJsonParts(this.logs, [text.length < REUSED_BUFFER_MIN_BYTES ? text.toString() : text]);
  }
}

export function collectLogs(blocks: Iterable<BlockRecord>, filter: LogFilter, identity: PendingIdentity): Json[] {
  const result = new LogsResult(filter, identity);
  for (const block of blocks) result.add(block);
  return result.result();
}

/**
 * The blocks of a range that may hold a log the filter matches, in order: the sealed blocks the
 * log index (chain/logIndex.ts) names for the filter's addresses and topics, then the pending
 * block when the range includes it. A filter that matches nothing reads no block.
 */
export function* blocksInRange(chain: Chain, range: ResolvedRange, filter: LogFilter): Generator<BlockRecord> {
  const from = Number(range.from);
  const to = Math.min(Number(range.to), Number(chain.head));
  if (from <= to) {
    chain.blockByNumber(BigInt(from)); // a range starting in pruned history: the block-pruned error
    const parts = [filter.addresses, ...filter.topics].filter((set): set is Set<Hex> => set !== null);
    for (const n of logIndexOf(chain).candidates(parts, from, to)) {
      const block = chain.blockByNumber(BigInt(n));
      if (block) yield block;
    }
  }
  if (range.includePending) yield chain.pending;
}

/** The limits of a profile; none for in-process calls. */
export function limitsFor(options: MockNodeOptions, profile: ProfileName): ProfileLimits | undefined {
  return profile === 'internal' ? undefined : options.limits[profile];
}

/** -32005 `query exceeds max block range N` when a range spans more blocks than the profile allows. */
export function checkBlockRange(range: ResolvedRange, head: bigint, limit: number): void {
  if (limit <= 0) return;
  const from = range.from;
  const to = range.includePending ? head + 1n : range.to;
  const span = to - from + 1n;
  if (span > BigInt(limit)) {
    throw new RpcError(ErrorCode.LimitExceeded, `query exceeds max block range ${limit}`, { limit, from: Number(from), to: Number(to) });
  }
}

/**
 * Like collectLogs, but stops at `cap` results: -32602 `query exceeds max results N, retry with
 * the range A-B`, where A-B is the longest range from the query's start that fits.
 */
export function collectLogsCapped(blocks: Iterable<BlockRecord>, filter: LogFilter, identity: PendingIdentity, cap: number, from?: bigint): Json[] {
  if (cap <= 0) return collectLogs(blocks, filter, identity);
  const result = new LogsResult(filter, identity);
  // The query's first block (blocks the log index rules out are not yielded).
  let first: bigint | undefined = from;
  for (const block of blocks) {
    const number = block.header.number;
    first ??= number;
    if (!result.add(block, cap - result.length)) {
      // Every block before this one fits (read, or ruled out by the index): the range is contiguous.
      const retryTo = number > first ? number - 1n : first;
      throw new RpcError(ErrorCode.InvalidParams, `query exceeds max results ${cap}, retry with the range ${first}-${retryTo}`, {
        limit: cap,
        retryFrom: Number(first),
        retryTo: Number(retryTo),
      });
    }
  }
  return result.result();
}

/** eth_getLogs over a parsed query, with the profile's limits (eth_getFilterLogs answers the same). */
export function queryLogs(node: NodeServices, profile: ProfileName, query: LogQuery): Json[] {
  const identity = node.options.pendingIdentity;
  const limits = limitsFor(node.options, profile);
  const cap = limits?.maxLogResults ?? 0;
  if (query.blockHash) {
    const block = findBlock(node.chain, { kind: 'hash', hash: query.blockHash, requireCanonical: false });
    if (!block) throw invalidInput('unknown block');
    return collectLogsCapped([block], query.filter, identity, cap);
  }
  const range = resolveRange(node.chain, query);
  if (limits) checkBlockRange(range, node.chain.head, limits.maxLogBlockRange);
  return collectLogsCapped(blocksInRange(node.chain, range, query.filter), query.filter, identity, cap, range.from);
}

export const logMethods: MethodTable = {
  eth_getLogs: (params, { node, profile }) => queryLogs(node, profile, parseLogFilter(params[0])),
};
