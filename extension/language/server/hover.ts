// Hovers: method docs (the seed's param tables), tags, filter fields, hex quantities as decimal
// (and as a UTC date when they look like Unix seconds), token amounts in 6-decimal units, and the
// fields of a stored authorization. Pure: text and offset in, Markdown out.
import { Interface } from 'ethers';
import { EVENT_SIGNATURES, EVENT_TOPICS, STABLE_TOKEN_ABI, TOKEN_DECIMALS } from '../../../mock-node/tokenKit/index';
import { findNodeAtOffset, getNodePath, type Node } from './jsonc';
import { AUTHORIZATION_FIELDS, DOMAIN_FIELDS, FIELD_DOCS, integerValue, parseAuthorizationTree } from '../../authorizations/authorizationFile';
import { property, segmentAt, type ParsedRpcDocument } from './document';
import { FILTER_FIELDS, TRANSACTION_FIELDS, isBlockTag, methodSpec } from '../../../mock-node/catalog/index';
import { TAG_DOCS, methodMarkdown } from './methods';
import { isoSeconds, plausibleTimestamp, relative, tokenUnits } from './values';

export interface HoverResult {
  markdown: string;
  offset: number;
  length: number;
}

/** Decimal, date and token lines for a hex quantity string. */
export function describeQuantity(value: string, options: { tokenAmount?: boolean; nowSeconds?: number } = {}): string | undefined {
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(value)) return undefined;
  const n = BigInt(value);
  const lines = [`\`${value}\` = **${n.toString()}**${n >= 10_000n ? ` (${n.toLocaleString('en-US')})` : ''}`];
  if (plausibleTimestamp(n)) lines.push(`as Unix seconds: ${isoSeconds(n)}${options.nowSeconds !== undefined ? ` (${relative(n, options.nowSeconds)})` : ''}`);
  if (options.tokenAmount) lines.push(`token amount: ${tokenUnits(n)} (6 decimals)`);
  if (n >= 10n ** 15n && !plausibleTimestamp(n)) lines.push(`in ether units: ${tokenUnits(n, 18)}`);
  return lines.join('  \n');
}

let tokenInterface: Interface | undefined;

/** Call data of the built-in token (USDC's ABI): the function and its arguments, amounts in token units. */
export function describeTokenCall(data: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{8}/.test(data)) return undefined;
  tokenInterface ??= new Interface(STABLE_TOKEN_ABI);
  let parsed;
  try {
    parsed = tokenInterface.parseTransaction({ data });
  } catch {
    return undefined;
  }
  if (!parsed) return undefined;
  const lines = [`token call **${parsed.signature}**`];
  parsed.fragment.inputs.forEach((input, i) => {
    const value: unknown = parsed.args[i];
    const amount = input.type === 'uint256' && /^(value|amount|increment|decrement)$/.test(input.name);
    const shown = typeof value === 'bigint' ? value.toString() : String(value);
    lines.push(`- ${input.name}: \`${shown}\`${amount && typeof value === 'bigint' ? ` = ${tokenUnits(value, TOKEN_DECIMALS)} tokens` : ''}`);
  });
  return lines.join('\n');
}

/**
 * Call data that is not a call of the token: a deployment's creation code when the transaction has
 * no `to` (the created address is in the receipt), else the 4-byte selector of the function called.
 */
export function describeContractCall(data: string, deployment: boolean): string | undefined {
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(data) || data.length < 4) return undefined;
  const bytes = (data.length - 2) / 2;
  if (deployment) return `creation code (${bytes.toLocaleString('en-US')} bytes): this transaction deploys a contract; the receipt's \`contractAddress\` names it`;
  if (bytes < 4) return undefined;
  return `contract call, selector \`${data.slice(0, 10).toLowerCase()}\` (not a function of the token's ABI), ${bytes - 4} bytes of arguments`;
}

/** topic 0 of one of the token's events. */
export function describeTopic(topic: string): string | undefined {
  const name = (Object.keys(EVENT_TOPICS) as (keyof typeof EVENT_TOPICS)[]).find((k) => EVENT_TOPICS[k] === topic.toLowerCase());
  return name ? `topic 0 of the token's event **${EVENT_SIGNATURES[name]}**` : undefined;
}

function nodeRange(node: Node): { offset: number; length: number } {
  return { offset: node.offset, length: node.length };
}

function requestOf(root: Node, path: (string | number)[]): { request: Node | undefined; rest: (string | number)[] } {
  if (root.type === 'array' && typeof path[0] === 'number') return { request: root.children?.[path[0]], rest: path.slice(1) };
  return { request: root, rest: path };
}

/** params[index] of a request node, when it is there. */
function paramAt(request: Node, index: string | number | undefined): Node | undefined {
  const params = property(request, 'params');
  return typeof index === 'number' && params?.type === 'array' ? params.children?.[index] : undefined;
}

export function rpcHover(doc: ParsedRpcDocument, offset: number, nowSeconds?: number): HoverResult | undefined {
  const segment = segmentAt(doc, offset);
  if (!segment?.root) return undefined;
  const node = findNodeAtOffset(segment.root, offset, true);
  if (!node || (node.type !== 'string' && node.type !== 'number')) return undefined;
  const path = getNodePath(node);
  const { request, rest } = requestOf(segment.root, path);
  const methodNode = property(request, 'method');
  const method = typeof methodNode?.value === 'string' ? methodSpec(methodNode.value) : undefined;
  const isKey = node.parent?.type === 'property' && node.parent.children?.[0] === node;
  const range = nodeRange(node);

  if (rest.length === 1 && rest[0] === 'method' && !isKey) {
    const spec = methodSpec(String(node.value));
    return spec ? { markdown: methodMarkdown(spec), ...range } : undefined;
  }
  // A key inside params[i]: a filter field or a transaction field.
  if (isKey && rest[0] === 'params' && rest.length === 3) {
    const name = String(node.value);
    const filter = FILTER_FIELDS.find((f) => f.name === name);
    if (method?.name === 'eth_getLogs' && filter) return { markdown: `**${name}** (eth_getLogs filter) · ${filter.doc}`, ...range };
    const field = TRANSACTION_FIELDS.find((f) => f.name === name);
    if (field) return { markdown: `**${name}** (transaction) · ${field.doc}`, ...range };
    return undefined;
  }
  if (isKey) return undefined;
  const lines: string[] = [];
  if (rest[0] === 'params' && typeof rest[1] === 'number' && method) {
    const param = method.params[rest[1]];
    if (param) lines.push(`**${method.name}** param ${rest[1]} · **${param.name}**: ${param.doc}`);
  }
  const value = node.type === 'string' ? String(node.value) : undefined;
  if (isBlockTag(value)) {
    lines.push(`\`${value}\` · ${TAG_DOCS[value as keyof typeof TAG_DOCS]}`);
  } else if (value !== undefined) {
    const callData = rest[2] === 'data' || rest[2] === 'input';
    const transaction = callData && request ? paramAt(request, rest[1]) : undefined;
    const decoded = callData
      ? describeTokenCall(value) ?? describeContractCall(value, transaction !== undefined && property(transaction, 'to') === undefined)
      : rest[2] === 'topics' ? describeTopic(value) : undefined;
    const amount = method?.name === 'mock_mint' && rest[1] === 1;
    const quantity = decoded ? undefined : describeQuantity(value, { tokenAmount: amount, nowSeconds });
    if (decoded) lines.push(decoded);
    else if (quantity) lines.push(quantity);
    else if (amount && /^\d+$/.test(value)) lines.push(`token amount: ${tokenUnits(BigInt(value))} (6 decimals)`);
  }
  return lines.length ? { markdown: lines.join('\n\n'), ...range } : undefined;
}

export function authorizationHover(text: string, offset: number, nowSeconds: number): HoverResult | undefined {
  const { root } = parseAuthorizationTree(text);
  if (!root) return undefined;
  const node = findNodeAtOffset(root, offset, true);
  if (!node || (node.type !== 'string' && node.type !== 'number')) return undefined;
  const path = getNodePath(node);
  const range = nodeRange(node);
  const isKey = node.parent?.type === 'property' && node.parent.children?.[0] === node;
  const name = String(isKey ? node.value : path[path.length - 1]);
  const inAuthorization = path[0] === 'authorization' && (AUTHORIZATION_FIELDS as readonly string[]).includes(name);
  const inDomain = path[0] === 'domain' && (DOMAIN_FIELDS as readonly string[]).includes(name);
  const known = (path.length === 1 || inAuthorization || inDomain) && FIELD_DOCS[name];
  if (isKey) return known ? { markdown: `**${name}** · ${FIELD_DOCS[name]}`, ...range } : undefined;
  const lines: string[] = [];
  if (known) lines.push(`**${name}** · ${FIELD_DOCS[name]}`);
  if (inAuthorization && name === 'value') {
    const v = integerValue(text, node);
    if (v !== undefined) lines.push(`**${tokenUnits(v)}** tokens (${v.toString()} base units, 6 decimals)`);
  } else if (inAuthorization && (name === 'validAfter' || name === 'validBefore')) {
    const v = integerValue(text, node);
    if (v !== undefined) lines.push(`${isoSeconds(v)} (${relative(v, nowSeconds)})`);
  } else if (path.length === 1 && name === 'signature' && typeof node.value === 'string' && /^0x[0-9a-fA-F]{130}$/.test(node.value)) {
    const s = node.value;
    lines.push(`r = \`0x${s.slice(2, 66)}\`  \ns = \`0x${s.slice(66, 130)}\`  \nv = ${parseInt(s.slice(130, 132), 16)}`);
  } else if (typeof node.value === 'string') {
    const quantity = name === 'nonce' ? undefined : describeQuantity(node.value, { nowSeconds });
    if (quantity) lines.push(quantity);
  }
  return lines.length ? { markdown: lines.join('\n\n'), ...range } : undefined;
}
