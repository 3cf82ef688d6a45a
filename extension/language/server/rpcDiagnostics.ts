// Diagnostics of a `.jsonrpc` document: the envelope of each request, the method, the number and
// kinds of its positional params, and the endpoint rules of SPEC 2.3 (eth_getBlockReceipts on a
// public endpoint, eth_getLogs over 2,000 blocks). Pure: text in, problems out.
import type { Node } from './jsonc';
import { properties, property, rawText, type Fix, type ParsedRpcDocument, type Problem, type Severity } from './document';
import {
  BLOCK_OBJECT_FIELDS, BLOCK_TAGS, CATALOG, FILTER_FIELDS, MAX_TOPIC_POSITIONS, TRANSACTION_FIELDS, methodSpec, requiredCount,
  type ParamKind, type ParamSpec,
} from '../../../mock-node/catalog/index';
import { OTHER_KNOWN_METHODS, closest } from './methods';
import { getAddress } from 'ethers';
import {
  addressProblem, blockStringFix, blockStringProblem, dataProblem, hashProblem, quantityFix, quantityProblem, messageProblem, signedTransactionProblem, slotProblem,
} from './values';

export type Profile = 'public' | 'dedicated';

/** An endpoint the extension knows (names only: URLs may hold keys and never reach the server). */
export interface KnownEndpoint {
  id: string;
  name: string;
  profile?: Profile;
}

export interface ProfileContext {
  endpoints?: KnownEndpoint[];
  /** The endpoint last picked for this document by Send, if any. */
  chosenEndpointId?: string;
}

export interface ResolvedProfile {
  profile?: Profile;
  /** Why: for messages. */
  because?: string;
  endpointName?: string;
}

/** The seed's recommended maximum, the public profile's limit. */
export const MAX_LOG_RANGE = 2000n;

/**
 * Which profile the file targets: `// @profile`, else the `// @endpoint` it names (a known
 * endpoint's profile, or a URL with a /dedicated/ path), else the endpoint Send last used for it.
 */
export function resolveProfile(doc: ParsedRpcDocument, context: ProfileContext = {}): ResolvedProfile {
  const { profile, endpoint } = doc.directives;
  if (profile) return { profile: profile.value as Profile, because: `// @profile ${profile.value}` };
  if (endpoint) {
    const value = endpoint.value;
    const known = context.endpoints?.find((e) => e.name.toLowerCase() === value.toLowerCase() || e.id === value);
    if (known) return { profile: known.profile, because: `// @endpoint ${value}`, endpointName: known.name };
    if (/^https?:\/\//i.test(value)) return { profile: /\/dedicated\//.test(value) ? 'dedicated' : undefined, because: `// @endpoint ${value}` };
    return { because: `// @endpoint ${value}` };
  }
  if (context.chosenEndpointId) {
    const known = context.endpoints?.find((e) => e.id === context.chosenEndpointId);
    if (known) return { profile: known.profile, because: `the endpoint chosen for Send (${known.name})`, endpointName: known.name };
  }
  return {};
}

/** A fix that replaces a whole node with the JSON of `value`. */
function replaceWith(node: { offset: number; length: number }, value: unknown, title?: string): Fix {
  const newText = JSON.stringify(value);
  return { title: title ?? `Change to ${newText}`, offset: node.offset, length: node.length, newText };
}

class Collector {
  readonly problems: Problem[] = [];
  constructor(readonly text: string) {}
  add(node: { offset: number; length: number }, severity: Severity, code: string, message: string, fix?: Fix): void {
    this.problems.push({ offset: node.offset, length: Math.max(1, node.length), severity, code, message, ...(fix ? { fix } : {}) });
  }
  error(node: { offset: number; length: number }, code: string, message: string, fix?: Fix): void {
    this.add(node, 'error', code, message, fix);
  }
}

/** The `{` of an object: where a missing-member problem goes. */
function brace(node: Node): { offset: number; length: number } {
  return { offset: node.offset, length: 1 };
}

const ENVELOPE_KEYS = ['jsonrpc', 'id', 'method', 'params'];
const ALL_METHODS = [...CATALOG.keys(), ...OTHER_KNOWN_METHODS];

export function analyzeRpcDocument(doc: ParsedRpcDocument, context: ProfileContext = {}): Problem[] {
  const c = new Collector(doc.text);
  c.problems.push(...doc.syntaxProblems, ...doc.directiveProblems);
  const profile = resolveProfile(doc, context);
  if (doc.directives.endpoint && context.endpoints && !profile.endpointName && !/^https?:\/\//i.test(doc.directives.endpoint.value)) {
    const names = context.endpoints.map((e) => e.name);
    c.add(doc.directives.endpoint, 'warning', 'directive-endpoint',
      `no endpoint named "${doc.directives.endpoint.value}"${names.length ? `: known are ${names.join(', ')}` : ' (none is configured; start the mock node or add one)'}`);
  }
  for (const segment of doc.segments) {
    if (!segment.root) continue;
    if (segment.batch && (segment.root.children ?? []).length === 0) c.error(segment.root, 'batch-empty', 'an empty batch: nodes answer -32600 invalid request');
    if (segment.batch) {
      // Replies to a batch may come in any order: only the ids pair them with the requests.
      const seenIds = new Map<string, Node>();
      for (const element of segment.root.children ?? []) {
        const id = property(element, 'id');
        if (!id || (id.type !== 'number' && id.type !== 'string')) continue;
        const key = `${id.type}:${rawText(doc.text, id)}`;
        if (seenIds.has(key)) c.add(id, 'warning', 'id-duplicate', `id ${rawText(doc.text, id)} is used twice in this batch: replies come in any order and only the id pairs them with requests`);
        else seenIds.set(key, id);
      }
    }
  }
  for (const request of doc.requests) analyzeRequest(c, request.node, profile, request.element !== undefined);
  return c.problems;
}

function analyzeRequest(c: Collector, node: Node, profile: ResolvedProfile, inBatch: boolean): void {
  if (node.type !== 'object') {
    c.error(node, 'request-shape', 'a request is a JSON object {"jsonrpc": "2.0", "id": 1, "method": "…", "params": […]} (an array of them is a batch)');
    return;
  }
  for (const { key, name } of properties(node)) {
    if (!ENVELOPE_KEYS.includes(name)) c.add(key, 'warning', 'request-unknown-member', `"${name}" is not part of a JSON-RPC 2.0 request (jsonrpc, id, method, params)`);
  }
  const jsonrpc = property(node, 'jsonrpc');
  if (!jsonrpc) {
    c.add(brace(node), 'warning', 'jsonrpc-missing', 'missing "jsonrpc": "2.0" (Send adds it; strict endpoints answer -32600)',
      { title: 'Add "jsonrpc": "2.0"', offset: node.offset + 1, length: 0, newText: ' "jsonrpc": "2.0",' });
  } else if (jsonrpc.value !== '2.0') c.error(jsonrpc, 'jsonrpc-version', '"jsonrpc" must be the string "2.0"', replaceWith(jsonrpc, '2.0'));
  const id = property(node, 'id');
  if (id && id.type !== 'number' && id.type !== 'string' && id.type !== 'null') c.error(id, 'id-type', '"id" must be a number or a string');
  const method = property(node, 'method');
  if (!method) {
    c.error(brace(node), 'method-missing', 'missing "method"');
    return;
  }
  if (method.type !== 'string') {
    c.error(method, 'method-type', '"method" must be a string');
    return;
  }
  const name = String(method.value);
  const params = property(node, 'params');
  if (params && params.type !== 'array') {
    c.error(params, 'params-type', '"params" must be an array of positional params (the seed\'s envelope; by-name objects are not accepted)');
    return;
  }
  const spec = methodSpec(name);
  if (spec?.transport === 'websocket') {
    c.add(method, 'warning', 'method-websocket', `${name} needs a WebSocket connection (ws:// on the same path): over HTTP nodes answer -32601`);
    return;
  }
  if (!spec) {
    if (OTHER_KNOWN_METHODS.includes(name)) {
      c.add(method, 'information', 'method-not-served', `${name} is a standard method the bundled mock node does not serve; its params are not checked here`);
    } else {
      const suggestion = closest(name, ALL_METHODS);
      c.error(method, 'method-unknown', `unknown method "${name}"${suggestion ? `: did you mean ${suggestion}?` : ''} (the node answers -32601 method not found)`,
        suggestion ? replaceWith(method, suggestion) : undefined);
    }
    return;
  }
  if (name === 'eth_getBlockReceipts' && profile.profile === 'public') {
    c.error(method, 'receipts-public', `eth_getBlockReceipts is rejected on a public endpoint (HTTP 403, -32004${inBatch ? ', for the whole batch' : ''}): use a dedicated endpoint (this file targets public: ${profile.because})`);
  }
  const elements = params?.children ?? [];
  const required = requiredCount(spec);
  if (elements.length < required) {
    const missing = spec.params.slice(elements.length, required).map((x) => x.name).join(', ');
    const where = params ?? method;
    c.error(where, 'params-count', `${name} takes ${describeCount(spec.params)}: missing ${missing}`);
  }
  elements.forEach((element, index) => {
    const param = spec.params[index];
    if (!param) {
      c.error(element, 'params-count', `${name} takes ${describeCount(spec.params)}: this is one too many`);
      return;
    }
    if (element.type === 'null' && !param.required) return; // an optional param given null is left out, as nodes read it
    checkParam(c, element, param, name, profile);
  });
}

function describeCount(params: ParamSpec[]): string {
  const required = params.filter((x) => x.required).length;
  const names = params.map((x) => (x.required ? x.name : `${x.name}?`)).join(', ');
  if (params.length === 0) return 'no params';
  if (required === params.length) return `${required} param${required === 1 ? '' : 's'} (${names})`;
  return `${required} to ${params.length} params (${names})`;
}

function expectString(c: Collector, node: Node, what: string): string | undefined {
  if (node.type === 'string') return String(node.value);
  c.error(node, 'param-type', `${what} must be a string, not ${node.type}`);
  return undefined;
}

/** Parses a block param; answers the number when it is a plain hex number. */
function checkBlock(c: Collector, node: Node, what: string, allowObject = true): bigint | undefined {
  if (node.type === 'string') {
    const value = String(node.value);
    const problem = blockStringProblem(value);
    if (problem) {
      const fixed = blockStringFix(value);
      c.error(node, /^0x/i.test(value) ? 'hex' : 'block-tag', `${what}: ${problem}`, fixed ? replaceWith(node, fixed) : undefined);
      return undefined;
    }
    return /^0x/i.test(value) ? BigInt(value) : undefined;
  }
  if (node.type === 'object' && allowObject) {
    const hash = property(node, 'blockHash');
    const number = property(node, 'blockNumber');
    if (hash && number) c.error(node, 'block-object', `${what}: an EIP-1898 object has blockHash or blockNumber, not both`);
    if (!hash && !number) c.error(node, 'block-object', `${what}: an EIP-1898 object needs blockHash or blockNumber`);
    for (const { key, name } of properties(node)) {
      if (!(BLOCK_OBJECT_FIELDS as readonly string[]).includes(name)) c.add(key, 'warning', 'block-object', `"${name}" is not an EIP-1898 field (blockHash, blockNumber, requireCanonical)`);
    }
    if (hash) {
      const value = expectString(c, hash, 'blockHash');
      const problem = value === undefined ? undefined : hashProblem(value, 'blockHash');
      if (problem) c.error(hash, 'hex', problem);
    }
    if (number) return checkBlock(c, number, 'blockNumber', false);
    const canonical = property(node, 'requireCanonical');
    if (canonical && canonical.type !== 'boolean') c.error(canonical, 'param-type', 'requireCanonical must be true or false');
    return undefined;
  }
  c.error(node, 'param-type', allowObject
    ? `${what} must be a hex block number, a tag (${BLOCK_TAGS.join(', ')}) or an EIP-1898 object`
    : `${what} must be a hex block number or a tag (${BLOCK_TAGS.join(', ')})`);
  return undefined;
}

function checkScalar(c: Collector, node: Node, kind: ParamKind, what: string): void {
  if (kind === 'boolean') {
    if (node.type !== 'boolean') {
      const meant = node.type === 'string' && (node.value === 'true' || node.value === 'false') ? node.value === 'true' : undefined;
      c.error(node, 'param-type', `${what} must be true or false${node.type === 'string' ? ' (a JSON boolean, not a string)' : ''}`,
        meant === undefined ? undefined : replaceWith(node, meant));
    }
    return;
  }
  if (kind === 'integer' || kind === 'amount' || kind === 'milliseconds') {
    if (node.type === 'number') {
      const raw = rawText(c.text, node);
      if (!/^\d+$/.test(raw)) c.error(node, 'param-type', `${what} must be a non-negative whole number`);
      else if (kind === 'milliseconds' && BigInt(raw) === 0n) c.error(node, 'param-type', `${what} must be positive`);
      else if (BigInt(raw) > BigInt(Number.MAX_SAFE_INTEGER)) {
        c.add(node, 'warning', 'number-precision', `${what} ${raw} is above 2^53: JSON parsers (Send included) round it; write it as a hex quantity (0x${BigInt(raw).toString(16)})`,
          replaceWith(node, `0x${BigInt(raw).toString(16)}`));
      }
      return;
    }
    if (kind === 'milliseconds') {
      c.error(node, 'param-type', `${what} must be a JSON integer of milliseconds`);
      return;
    }
    if (node.type === 'string') {
      const value = String(node.value);
      if (kind === 'amount' && /^\d+$/.test(value)) return;
      const problem = quantityProblem(value, what);
      const fixed = problem ? quantityFix(value) : undefined;
      if (problem) c.error(node, 'hex', problem, fixed ? replaceWith(node, fixed) : undefined);
      return;
    }
    c.error(node, 'param-type', `${what} must be a number or a hex quantity`);
    return;
  }
  const value = expectString(c, node, what);
  if (value === undefined) return;
  let problem: string | undefined;
  switch (kind) {
    case 'quantity': problem = quantityProblem(value, what); break;
    case 'hash': problem = hashProblem(value, what); break;
    case 'data': problem = dataProblem(value, what); break;
    case 'signedTransaction': problem = signedTransactionProblem(value, what); break;
    case 'slot': problem = slotProblem(value); break;
    case 'message': problem = messageProblem(value, what); break;
    case 'address': {
      const p = addressProblem(value, what);
      if (p) c.add(node, p.severity, 'address', p.message, p.severity === 'warning' ? replaceWith(node, getAddress(value.toLowerCase()), 'Use the EIP-55 checksum') : undefined);
      return;
    }
    default: return;
  }
  const fixed = kind === 'quantity' && problem ? quantityFix(value) : undefined;
  if (problem) c.error(node, 'hex', problem, fixed ? replaceWith(node, fixed) : undefined);
}

function checkParam(c: Collector, node: Node, param: ParamSpec, method: string, profile: ResolvedProfile): void {
  const what = param.name;
  switch (param.kind) {
    case 'block': checkBlock(c, node, what); return;
    case 'filter': checkFilter(c, node, profile); return;
    case 'transaction': checkTransaction(c, node, method); return;
    case 'typedData':
      if (node.type !== 'object' && node.type !== 'string') c.error(node, 'param-type', 'typedData must be an EIP-712 object {types, primaryType, domain, message} or its JSON string');
      else if (node.type === 'object') {
        for (const member of ['types', 'primaryType', 'domain', 'message']) if (!property(node, member)) c.error(brace(node), 'typed-data', `typedData is missing "${member}"`);
      }
      return;
    case 'percentiles':
      if (node.type !== 'array') c.error(node, 'param-type', 'rewardPercentiles must be an array of numbers from 0 to 100');
      else for (const child of node.children ?? []) {
        if (child.type !== 'number' || Number(child.value) < 0 || Number(child.value) > 100) c.error(child, 'param-type', 'a percentile is a number from 0 to 100');
      }
      return;
    case 'any': return;
    default: checkScalar(c, node, param.kind, what);
  }
}

function checkFilter(c: Collector, node: Node, profile: ResolvedProfile): void {
  if (node.type !== 'object') {
    c.error(node, 'param-type', 'the eth_getLogs param is a filter object {fromBlock, toBlock, address, topics, blockHash}');
    return;
  }
  const known = FILTER_FIELDS.map((f) => f.name);
  for (const { key, name } of properties(node)) {
    if (!known.includes(name)) {
      const suggestion = closest(name, known);
      c.error(key, 'filter-field', `unknown filter field "${name}"${suggestion ? `: did you mean ${suggestion}?` : ''} (the node answers -32602)`,
        suggestion ? replaceWith(key, suggestion) : undefined);
    }
  }
  const members = properties(node);
  if (members.length === 0) c.add(node, 'warning', 'filter-empty', 'an empty filter matches every log of the latest block; at least one criterion should be provided');
  const from = property(node, 'fromBlock');
  const to = property(node, 'toBlock');
  const blockHash = property(node, 'blockHash');
  const fromNumber = from && from.type !== 'null' ? checkBlock(c, from, 'fromBlock', false) : undefined;
  const toNumber = to && to.type !== 'null' ? checkBlock(c, to, 'toBlock', false) : undefined;
  if (blockHash && blockHash.type !== 'null') {
    const value = expectString(c, blockHash, 'blockHash');
    const problem = value === undefined ? undefined : hashProblem(value, 'blockHash');
    if (problem) c.error(blockHash, 'hex', problem);
    if (from || to) c.error(blockHash, 'filter-blockhash', 'blockHash cannot be combined with fromBlock/toBlock: choose one or the other (the node answers -32602)');
  }
  if (fromNumber !== undefined && toNumber !== undefined) {
    if (fromNumber > toNumber) {
      c.error(to!, 'logs-range', `toBlock ${toNumber} is before fromBlock ${fromNumber}`);
    } else {
      const span = toNumber - fromNumber + 1n;
      if (span > MAX_LOG_RANGE) {
        const range = { offset: from!.offset, length: to!.offset + to!.length - from!.offset };
        const base = `the range spans ${span.toLocaleString('en-US')} blocks (${fromNumber}–${toNumber}), over the 2,000-block limit`;
        if (profile.profile === 'dedicated') {
          c.add(range, 'warning', 'logs-range', `${base} of public endpoints; the dedicated endpoint may allow more (${profile.because})`);
        } else {
          c.error(range, 'logs-range', `${base}: public endpoints answer -32005 "query exceeds max block range 2000"; split it, e.g. ${fromNumber}–${fromNumber + MAX_LOG_RANGE - 1n}`);
        }
      }
    }
  }
  const address = property(node, 'address');
  if (address && address.type !== 'null') {
    const list = address.type === 'array' ? address.children ?? [] : [address];
    for (const item of list) {
      const value = expectString(c, item, 'address');
      if (value === undefined) continue;
      const p = addressProblem(value);
      if (p) c.add(item, p.severity, 'address', p.message);
    }
  }
  const topics = property(node, 'topics');
  if (topics && topics.type !== 'null') {
    if (topics.type !== 'array') {
      c.error(topics, 'param-type', 'topics must be an array (null, a 32-byte hash, or an array of hashes per position)');
    } else {
      const positions = topics.children ?? [];
      if (positions.length > MAX_TOPIC_POSITIONS) c.error(positions[MAX_TOPIC_POSITIONS], 'topics', `at most ${MAX_TOPIC_POSITIONS} topic positions`);
      for (const position of positions) {
        const alternatives = position.type === 'array' ? position.children ?? [] : position.type === 'null' ? [] : [position];
        for (const topic of alternatives) {
          if (topic.type === 'null') continue;
          const value = expectString(c, topic, 'topic');
          const problem = value === undefined ? undefined : hashProblem(value, 'topic');
          if (problem) c.error(topic, 'hex', problem);
        }
      }
    }
  }
}

function checkTransaction(c: Collector, node: Node, method: string): void {
  if (node.type !== 'object') {
    c.error(node, 'param-type', 'a transaction object {from, to, data, value, gas, …}');
    return;
  }
  for (const { key, value, name } of properties(node)) {
    const field = TRANSACTION_FIELDS.find((f) => f.name === name);
    if (!field) {
      c.add(key, 'warning', 'transaction-field', `"${name}" is not a transaction field (${TRANSACTION_FIELDS.map((f) => f.name).join(', ')})`);
      continue;
    }
    if (value && value.type !== 'null' && field.kind !== 'any') checkScalar(c, value, field.kind, name);
  }
  const data = property(node, 'data');
  const input = property(node, 'input');
  if (data && input && data.value !== input.value) c.error(input, 'transaction-field', 'data and input differ: send one of them');
  if (method === 'eth_sendTransaction' && !property(node, 'from')) c.error(brace(node), 'transaction-field', 'eth_sendTransaction needs "from" (a dev account)');
  if (property(node, 'gasPrice') && (property(node, 'maxFeePerGas') || property(node, 'maxPriorityFeePerGas'))) {
    c.error(property(node, 'gasPrice')!, 'transaction-field', 'gasPrice cannot be combined with maxFeePerGas/maxPriorityFeePerGas');
  }
}
