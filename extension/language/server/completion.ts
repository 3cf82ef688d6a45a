// Completion: request members, method names (the seed's five reads first), block tags
// (latest, pending, safe, finalized, earliest), eth_getLogs filter fields, transaction fields,
// booleans, the `// @endpoint` / `// @profile` directive values; for
// authorization files their members and the primaryType / captureRoute values. Pure.
import { getLocation, parse, type Location, type Node } from './jsonc';
import { AUTHORIZATION_FIELDS, DOMAIN_FIELDS, FIELD_DOCS, TOP_LEVEL_FIELDS } from '../../authorizations/authorizationFile';
import { AUTHORIZATION_PRIMARY_TYPES, CAPTURE_ROUTES } from '../../authorizations/model';
import { segmentAt, type ParsedRpcDocument } from './document';
import { BLOCK_OBJECT_FIELDS, BLOCK_TAGS, FILTER_FIELDS, TRANSACTION_FIELDS, methodSpec } from '../../../mock-node/catalog/index';
import { HTTP_METHODS, TAG_DOCS, methodMarkdown } from './methods';
import { allPresets, type ChainPreset } from '../../../mock-node/presets/index';
import { getAddress } from 'ethers';

export type CompletionKind = 'method' | 'value' | 'property' | 'snippet' | 'keyword';

export interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  detail?: string;
  documentation?: string;
  /** Text that replaces [offset, offset + length). */
  insertText: string;
  /** What the editor filters on (quotes included when the edit includes them). */
  filterText: string;
  offset: number;
  length: number;
  snippet?: boolean;
  sortText?: string;
}

/** The range to replace: the string (or word) being typed before the cursor, with its closing quote. */
function replaceRange(text: string, location: Location, base: number, offset: number): { offset: number; length: number } {
  const previous: Node | undefined = location.previousNode;
  if (previous && (previous.type === 'string' || previous.type === 'number' || previous.type === 'boolean' || previous.type === 'null')) {
    const start = previous.offset + base;
    if (start <= offset && offset <= start + previous.length) {
      const end = text[offset] === '"' && previous.type === 'string' && offset < start + previous.length ? offset + 1 : offset;
      return { offset: start, length: end - start };
    }
  }
  return { offset, length: 0 };
}

function quoted(values: { label: string; kind: CompletionKind; detail?: string; documentation?: string }[], range: { offset: number; length: number }, key = false): CompletionEntry[] {
  return values.map((v) => ({ ...v, insertText: key ? `"${v.label}": ` : `"${v.label}"`, filterText: `"${v.label}"`, ...range }));
}

const REQUEST_SNIPPET = '{ "jsonrpc": "2.0", "id": ${1:1}, "method": "${2:eth_getBlockByNumber}", "params": [${3:"pending", false}] }';

export function rpcCompletions(doc: ParsedRpcDocument, offset: number): CompletionEntry[] {
  const text = doc.text;
  const segment = segmentAt(doc, offset);
  const inside = segment && segment.offset <= offset && offset <= segment.offset + segment.length;
  if (!segment || !inside) {
    return [{ label: 'request', kind: 'snippet', detail: 'A JSON-RPC request', insertText: REQUEST_SNIPPET, filterText: 'request', offset, length: 0, snippet: true }];
  }
  const slice = text.slice(segment.offset, segment.offset + segment.length);
  const location = getLocation(slice, offset - segment.offset);
  let path = location.path;
  let requestValue: unknown = parse(slice);
  if (segment.batch) {
    if (typeof path[0] !== 'number') return [];
    requestValue = Array.isArray(requestValue) ? requestValue[path[0]] : undefined;
    path = path.slice(1);
  }
  const request = (requestValue && typeof requestValue === 'object' ? requestValue : {}) as Record<string, unknown>;
  const range = replaceRange(text, location, segment.offset, offset);
  const method = typeof request.method === 'string' ? methodSpec(request.method) : undefined;

  if (path.length === 1 && location.isAtPropertyKey) {
    const present = Object.keys(request);
    const members = [
      { label: 'jsonrpc', kind: 'property' as const, detail: '"2.0"' },
      { label: 'id', kind: 'property' as const, detail: 'number or string' },
      { label: 'method', kind: 'property' as const, detail: 'method name' },
      { label: 'params', kind: 'property' as const, detail: 'positional params array' },
    ].filter((m) => !present.includes(m.label) || m.label === path[0]);
    return quoted(members, range, true);
  }
  if (path.length === 1 && path[0] === 'method') {
    return quoted(HTTP_METHODS.map((m) => ({
      label: m.name, kind: 'method' as const, detail: m.params.map((x) => (x.required ? x.name : `${x.name}?`)).join(', ') || 'no params',
      documentation: methodMarkdown(m),
    })), range).map((e) => ({ ...e, sortText: `${methodSpec(e.label)?.seed ? '0' : '1'}${e.label}` }));
  }
  if (path.length === 1 && path[0] === 'jsonrpc') return quoted([{ label: '2.0', kind: 'value' }], range);
  if (path[0] !== 'params' || !method) return [];
  const index = path[1];
  if (typeof index !== 'number') return [];
  const param = method.params[index];
  if (!param) return [];
  if (path.length === 2) {
    if (param.kind === 'block') return tagEntries(range);
    if (param.kind === 'boolean') return ['true', 'false'].map((b) => ({ label: b, kind: 'keyword' as const, insertText: b, filterText: b, ...range }));
    if (param.kind === 'filter' && range.length === 0) {
      return [{ label: 'filter', kind: 'snippet', detail: 'eth_getLogs filter', insertText: '{ "fromBlock": "${1:pending}", "toBlock": "${2:pending}", "address": "${3}" }', filterText: 'filter', offset, length: 0, snippet: true }];
    }
    return [];
  }
  if (path.length === 3 && location.isAtPropertyKey) {
    const value = (request.params as unknown[] | undefined)?.[index];
    const present = value && typeof value === 'object' ? Object.keys(value) : [];
    const fields = param.kind === 'filter' ? FILTER_FIELDS.map((f) => ({ label: f.name, kind: 'property' as const, documentation: f.doc }))
      : param.kind === 'transaction' ? TRANSACTION_FIELDS.map((f) => ({ label: f.name, kind: 'property' as const, documentation: f.doc }))
        : param.kind === 'block' ? BLOCK_OBJECT_FIELDS.map((label) => ({ label, kind: 'property' as const, documentation: 'EIP-1898 block object' }))
          : [];
    return quoted(fields.filter((f) => !present.includes(f.label) || f.label === path[2]), range, true);
  }
  if (path.length === 3 && !location.isAtPropertyKey) {
    if (param.kind === 'filter' && (path[2] === 'fromBlock' || path[2] === 'toBlock')) return tagEntries(range);
    if (param.kind === 'block' && path[2] === 'blockNumber') return tagEntries(range);
  }
  return [];
}

function tagEntries(range: { offset: number; length: number }): CompletionEntry[] {
  return quoted(BLOCK_TAGS.map((tag) => ({ label: tag, kind: 'value' as const, detail: 'block tag', documentation: TAG_DOCS[tag] })), range);
}

/** Completion in the `// @endpoint` directive: the known endpoint names. */
export function directiveCompletions(text: string, offset: number, endpointNames: string[]): CompletionEntry[] | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const match = /^\s*\/\/\s*@(endpoint|profile)[:\s]\s*(.*)$/.exec(before);
  if (!match) return undefined;
  const start = offset - match[2].length;
  const lineEnd = text.indexOf('\n', offset);
  const end = lineEnd < 0 ? text.length : lineEnd;
  const values = match[1] === 'profile' ? ['public', 'dedicated'] : endpointNames;
  return values.map((v) => ({ label: v, kind: 'value' as const, insertText: v, filterText: v, offset: start, length: text.slice(start, end).trimEnd().length }));
}

/**
 * Values of an authorization's EIP-712 domain for the chains the mock node imitates (--chain base,
 * base-sepolia: USDC's name, version, chain id and address there), so a Base authorization is
 * written without looking them up.
 */
function domainValueCompletions(field: string, range: { offset: number; length: number }): CompletionEntry[] | undefined {
  const presets = allPresets();
  const detail = (p: ChainPreset) => `${p.token.symbol} on ${p.label} (${p.chainId})`;
  if (field === 'chainId') {
    return presets.map((p) => ({ label: String(p.chainId), kind: 'value' as const, detail: p.label, insertText: String(p.chainId), filterText: String(p.chainId), ...range }));
  }
  if (field === 'verifyingContract') return quoted(presets.map((p) => ({ label: getAddress(p.token.address), kind: 'value' as const, detail: detail(p) })), range);
  if (field === 'name' || field === 'version') {
    const values = new Map<string, string[]>();
    for (const p of presets) values.set(p.token[field], [...(values.get(p.token[field]) ?? []), detail(p)]);
    return quoted([...values].map(([label, on]) => ({ label, kind: 'value' as const, detail: on.join(', ') })), range);
  }
  return undefined;
}

export function authorizationCompletions(text: string, offset: number): CompletionEntry[] {
  const location = getLocation(text, offset);
  const range = replaceRange(text, location, 0, offset);
  const value = (parse(text) ?? {}) as Record<string, unknown>;
  const path = location.path;
  const keys = (names: readonly string[], present: Record<string, unknown> | undefined) => quoted(
    names.filter((n) => !present || !(n in present) || n === path[path.length - 1]).map((n) => ({ label: n, kind: 'property' as const, documentation: FIELD_DOCS[n] })),
    range, true,
  );
  if (location.isAtPropertyKey) {
    if (path.length === 1) return keys(TOP_LEVEL_FIELDS, value);
    if (path.length === 2 && path[0] === 'authorization') return keys(AUTHORIZATION_FIELDS, value.authorization as Record<string, unknown>);
    if (path.length === 2 && path[0] === 'domain') return keys(DOMAIN_FIELDS, value.domain as Record<string, unknown>);
    return [];
  }
  if (path.length === 1 && path[0] === 'primaryType') {
    return quoted(AUTHORIZATION_PRIMARY_TYPES.map((label) => ({ label, kind: 'value' as const, documentation: FIELD_DOCS.primaryType })), range);
  }
  if (path.length === 2 && path[0] === 'domain') {
    const domain = domainValueCompletions(String(path[1]), range);
    if (domain) return domain;
  }
  if (path.length === 1 && path[0] === 'captureRoute') {
    return quoted(CAPTURE_ROUTES.map((label) => ({ label, kind: 'value' as const, documentation: FIELD_DOCS.captureRoute })), range);
  }
  return [];
}
