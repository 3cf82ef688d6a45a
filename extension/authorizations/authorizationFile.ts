// The one reader of a stored authorization file (`.authorization.json`): the seed's
// {orderId, authorization, signature}, as Export writes it, with optional domain, primaryType and
// captureRoute. It answers `{ value, problems }`: `value` when every field a record needs could be
// read, and every problem with its exact range (so the language server shows them as diagnostics
// and Import refuses with their sentences). Import and the language server both call it; nothing
// else knows the file's rules. Pure: text in, value and problems out; no vscode import.
import { getAddress } from 'ethers';
import { parseTree, type Node, type ParseError } from '../language/server/jsonc';
import { properties, property, rawText, type Fix, type Problem, type Severity } from '../language/server/document';
import { addressProblem, isoSeconds, MAX_UINT256, relative, tokenUnits } from '../language/server/values';
import { recoverAuthorizationSigner, signatureFormatProblem } from './inspector';
import {
  AUTHORIZATION_PRIMARY_TYPES, CAPTURE_ROUTES, normalizeV, parseTokenAmount, primaryTypeFor, routeFor,
  type AuthorizationPrimaryType, type CaptureRoute, type DomainFields,
} from './model';
import type { AuthorizationMessage } from './message';

export const AUTHORIZATION_FIELDS = ['from', 'to', 'value', 'validAfter', 'validBefore', 'nonce'] as const;
export const TOP_LEVEL_FIELDS = ['orderId', 'authorization', 'signature', 'domain', 'primaryType', 'captureRoute'] as const;
export const DOMAIN_FIELDS = ['name', 'version', 'chainId', 'verifyingContract'] as const;

export const FIELD_DOCS: Record<string, string> = {
  orderId: 'The merchant\'s order this authorization is stored against.',
  authorization: 'The transfer authorization the payer signed (EIP-3009).',
  signature: 'The payer\'s EIP-712 signature: 65 bytes r ‖ s ‖ v, v 27 or 28, s in the lower half. A payment credential: protect it.',
  domain: 'The EIP-712 domain signed over: name and version read from the token, the chain id, the token address.',
  primaryType: 'The typed-data type signed: ReceiveWithAuthorization (capture by receiveWithAuthorization) or TransferWithAuthorization (capture by transferWithAuthorization).',
  captureRoute: 'How the merchant captures: receiveWithAuthorization (default; only the named recipient can submit) or transferWithAuthorization.',
  from: 'address · The payer, who signs.',
  to: 'address · The merchant, the only party that may submit the capture.',
  value: 'unsigned integer · Exact amount that can settle, in token base units. The token uses 6 decimals.',
  validAfter: 'unsigned integer (Unix seconds) · Earliest valid capture time (capture needs block time > validAfter).',
  validBefore: 'unsigned integer (Unix seconds) · Capture deadline (capture needs block time < validBefore).',
  nonce: 'bytes32 hex · One-time identifier, consumed by capture or by cancellation. Fresh and random per attempt.',
  name: 'Token name, read from the contract (`name()`).',
  version: 'Token version string, read from the contract (`version()`).',
  chainId: 'Chain identifier of the target network.',
  verifyingContract: 'The token contract address.',
};

/** What a readable file holds. */
export interface AuthorizationFileValue {
  orderId?: string;
  authorization: AuthorizationMessage;
  signature: string;
  primaryType?: AuthorizationPrimaryType;
  /** The stated route, else receiveWithAuthorization (the seed's capture). */
  captureRoute: CaptureRoute;
  domain?: DomainFields;
}

/** The clock the window is judged by, and its name for the message ("block time of Mock node", "this computer's clock"). */
export interface FileClock {
  now: number;
  name: string;
}

export interface AuthorizationFileReading {
  value?: AuthorizationFileValue;
  problems: Problem[];
}

/**
 * Problems that leave a field without a value: with any of them there is no `value` (Import
 * refuses). The others say what a capture would do (the signature's form or signer, the type
 * against the route, the window's order, unknown fields) and leave the value readable.
 */
const UNREADABLE = new Set([
  'syntax', 'authorization-shape', 'authorization-missing', 'field-missing', 'address', 'value-integer', 'window-integer',
  'nonce', 'signature-missing', 'signature-hex', 'domain', 'primaryType', 'captureRoute', 'orderId-type',
]);

/** An unsigned integer written as a JSON integer or a decimal string; undefined if neither. */
export function integerValue(text: string, node: Node): bigint | undefined {
  if (node.type === 'number') {
    const raw = rawText(text, node);
    return /^\d+$/.test(raw) ? BigInt(raw) : undefined;
  }
  if (node.type === 'string') {
    const value = String(node.value);
    return /^\d+$/.test(value) ? BigInt(value) : undefined;
  }
  return undefined;
}

export function parseAuthorizationTree(text: string): { root?: Node; syntax: Problem[] } {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: false });
  return {
    root,
    syntax: errors.map((e) => ({ offset: e.offset, length: Math.max(1, e.length), severity: 'error', code: 'syntax', message: 'JSON: syntax error' })),
  };
}

/** Token units a non-integer amount most likely meant ("12.5" → 12500000), if any. */
function baseUnitsOf(raw: string): bigint | undefined {
  if (!/^\d+\.\d+$/.test(raw)) return undefined;
  try {
    return parseTokenAmount(raw);
  } catch {
    return undefined;
  }
}

/**
 * Reads a stored authorization file. With `clock` (or a function giving the clock for the file's
 * domain, e.g. the chain's block time), also says where the window stands against it (expired,
 * not yet valid), naming the clock in the message.
 */
export function readAuthorizationFile(text: string, clock?: FileClock | ((domain: DomainFields | undefined) => FileClock)): AuthorizationFileReading {
  const { root, syntax } = parseAuthorizationTree(text);
  const problems: Problem[] = [...syntax];
  const add = (node: { offset: number; length: number }, severity: Severity, code: string, message: string, fix?: Fix): void => {
    problems.push({ offset: node.offset, length: Math.max(1, node.length), severity, code, message, ...(fix ? { fix } : {}) });
  };
  const replace = (node: Node, value: unknown, title: string): Fix => ({ title, offset: node.offset, length: node.length, newText: JSON.stringify(value) });
  const result = (value: AuthorizationFileValue | undefined): AuthorizationFileReading => ({
    value: problems.some((p) => p.severity === 'error' && UNREADABLE.has(p.code)) ? undefined : value,
    problems,
  });
  if (!root) return result(undefined);
  if (root.type !== 'object') {
    add(root, 'error', 'authorization-shape', 'a stored authorization is an object {orderId, authorization: {from, to, value, validAfter, validBefore, nonce}, signature}');
    return result(undefined);
  }
  const brace = { offset: root.offset, length: 1 };
  for (const { key, name } of properties(root)) {
    if (!(TOP_LEVEL_FIELDS as readonly string[]).includes(name)) add(key, 'warning', 'unknown-field', `"${name}" is not a field of a stored authorization (${TOP_LEVEL_FIELDS.join(', ')})`);
  }
  const orderIdNode = property(root, 'orderId');
  if (!orderIdNode) add(brace, 'warning', 'orderId-missing', 'missing "orderId": the merchant stores an authorization against an order');
  else if (orderIdNode.type !== 'string' && orderIdNode.type !== 'null') add(orderIdNode, 'error', 'orderId-type', 'orderId must be a string');
  const orderId = orderIdNode?.type === 'string' ? String(orderIdNode.value) : undefined;

  // The transfer authorization.
  const auth = property(root, 'authorization');
  let judgeWindow: ((c: FileClock) => void) | undefined;
  const good: Partial<Record<(typeof AUTHORIZATION_FIELDS)[number], string | bigint>> = {};
  if (!auth) {
    add(brace, 'error', 'authorization-missing', 'missing "authorization": {from, to, value, validAfter, validBefore, nonce}');
  } else if (auth.type !== 'object') {
    add(auth, 'error', 'authorization-shape', 'authorization must be an object {from, to, value, validAfter, validBefore, nonce}');
  } else {
    for (const { key, name } of properties(auth)) {
      if (!(AUTHORIZATION_FIELDS as readonly string[]).includes(name)) add(key, 'error', 'unknown-field', `"${name}" is not signed: the typed data has exactly ${AUTHORIZATION_FIELDS.join(', ')}`);
    }
    const authBrace = { offset: auth.offset, length: 1 };
    for (const field of AUTHORIZATION_FIELDS) if (!property(auth, field)) add(authBrace, 'error', 'field-missing', `authorization is missing "${field}"`);
    for (const field of ['from', 'to'] as const) {
      const node = property(auth, field);
      if (!node) continue;
      if (node.type !== 'string') { add(node, 'error', 'address', `${field} must be an address string`); continue; }
      const p = addressProblem(String(node.value), field);
      if (p) add(node, p.severity, 'address', p.message, p.severity === 'warning' ? replace(node, getAddress(String(node.value).toLowerCase()), 'Use the EIP-55 checksum') : undefined);
      else if (/^0x0{40}$/.test(String(node.value))) add(node, 'error', 'address', `${field} is the zero address`);
      if (!p || p.severity === 'warning') good[field] = getAddress(String(node.value).toLowerCase());
    }
    if (good.from && good.to && good.from === good.to) add(property(auth, 'to')!, 'warning', 'address', 'payer and merchant are the same account');
    const value = property(auth, 'value');
    if (value) {
      const v = integerValue(text, value);
      if (v === undefined) {
        // "12.5" most likely means tokens: offer the base units.
        const raw = value.type === 'string' ? String(value.value) : rawText(text, value);
        const units = baseUnitsOf(raw);
        add(value, 'error', 'value-integer', `value must be a whole number of base units (6 decimals: 12.50 tokens is "12500000"), not ${rawText(text, value)}`,
          units !== undefined ? replace(value, units.toString(), `Change to "${units}" (${tokenUnits(units)} tokens in base units)`) : undefined);
      } else if (v > MAX_UINT256) {
        add(value, 'error', 'value-integer', 'value is more than a uint256');
      } else {
        if (value.type === 'number' && v > BigInt(Number.MAX_SAFE_INTEGER)) add(value, 'warning', 'value-precision', 'a JSON number this large loses precision in JavaScript clients: write it as a decimal string');
        if (v === 0n) add(value, 'warning', 'value-zero', 'value is 0: the authorization moves nothing');
        good.value = v;
      }
    }
    for (const field of ['validAfter', 'validBefore'] as const) {
      const node = property(auth, field);
      if (!node) continue;
      const v = integerValue(text, node);
      if (v === undefined) add(node, 'error', 'window-integer', `${field} must be whole Unix seconds (a JSON integer or a decimal string), not ${rawText(text, node)}`);
      else if (v > BigInt(Number.MAX_SAFE_INTEGER)) add(node, 'error', 'window-integer', `${field} is not a plausible Unix time (more than ${Number.MAX_SAFE_INTEGER})`);
      else good[field] = v;
    }
    const after = good.validAfter as bigint | undefined;
    const before = good.validBefore as bigint | undefined;
    const beforeNode = property(auth, 'validBefore');
    if (after !== undefined && before !== undefined && after >= before) {
      add(beforeNode!, 'error', 'window-order', `validBefore ${before} is not after validAfter ${after}: no block time can satisfy validAfter < t < validBefore`);
    } else if (clock) {
      // Judged once the domain is read: the clock can be the chain's for that domain.
      const afterNode = property(auth, 'validAfter');
      judgeWindow = (c: FileClock): void => {
        if (before !== undefined && before <= BigInt(c.now)) {
          add(beforeNode!, 'warning', 'expired', `expired by ${c.name}: validBefore ${before} (${isoSeconds(before)}) was ${relative(before, c.now)}; a capture reverts with "FiatTokenV2: authorization is expired"`);
        } else if (after !== undefined && after >= BigInt(c.now)) {
          add(afterNode!, 'information', 'not-yet-valid', `not valid yet by ${c.name}: capture works after ${isoSeconds(after)} (${relative(after, c.now)})`);
        }
      };
    }
    const nonce = property(auth, 'nonce');
    if (nonce) {
      if (nonce.type !== 'string' || !/^0x[0-9a-fA-F]*$/.test(String(nonce.value))) {
        add(nonce, 'error', 'nonce', 'nonce must be 32 bytes of 0x-prefixed hex');
      } else if (String(nonce.value).length !== 66) {
        const digits = String(nonce.value).length - 2;
        add(nonce, 'error', 'nonce', `nonce must be 32 bytes (64 hex digits); this has ${digits} digit${digits === 1 ? '' : 's'}${digits % 2 === 0 ? ` (${digits / 2} bytes)` : ''}`);
      } else {
        if (/^0x0{64}$/.test(String(nonce.value))) add(nonce, 'warning', 'nonce', 'an all-zero nonce is not random: every attempt needs a fresh random 32-byte nonce');
        good.nonce = String(nonce.value).toLowerCase();
      }
    }
  }

  // Signature: hex, then the token's form rules.
  const signatureNode = property(root, 'signature');
  let signature: string | undefined;
  let signatureOk = false;
  if (!signatureNode) add(brace, 'error', 'signature-missing', 'missing "signature" (65 bytes r ‖ s ‖ v as hex)');
  else if (signatureNode.type !== 'string' || !/^0x[0-9a-fA-F]+$/.test(String(signatureNode.value))) add(signatureNode, 'error', 'signature-hex', 'signature must be a 0x-prefixed hex string');
  else {
    signature = String(signatureNode.value);
    const problem = signatureFormatProblem(signature);
    // Some signers answer v as 0/1 (the y parity); the token wants 27/28.
    const fixed = normalizeV(signature);
    if (problem) add(signatureNode, 'error', 'signature', `signature: ${problem}`, fixed !== signature ? replace(signatureNode, fixed, 'Change v to 27/28 (v + 27)') : undefined);
    else signatureOk = true;
  }

  // Domain, primary type and capture route.
  const domainNode = property(root, 'domain');
  let domain: DomainFields | undefined;
  if (domainNode) {
    if (domainNode.type !== 'object') add(domainNode, 'error', 'domain', 'domain must be an object {name, version, chainId, verifyingContract}');
    else {
      let complete = true;
      for (const field of DOMAIN_FIELDS) if (!property(domainNode, field)) { add({ offset: domainNode.offset, length: 1 }, 'error', 'domain', `domain is missing "${field}"`); complete = false; }
      for (const { key, name } of properties(domainNode)) {
        if (!(DOMAIN_FIELDS as readonly string[]).includes(name)) add(key, 'error', 'domain', `"${name}" is not in the token's EIP-712 domain (${DOMAIN_FIELDS.join(', ')})`);
      }
      for (const field of ['name', 'version'] as const) {
        const node = property(domainNode, field);
        if (node && node.type !== 'string') { add(node, 'error', 'domain', `domain.${field} must be a string`); complete = false; }
      }
      const chainId = property(domainNode, 'chainId');
      const chainIdValue = chainId ? integerValue(text, chainId) : undefined;
      if (chainId && chainIdValue === undefined) { add(chainId, 'error', 'domain', 'domain.chainId must be a whole number'); complete = false; }
      const contract = property(domainNode, 'verifyingContract');
      if (contract) {
        const p = contract.type === 'string' ? addressProblem(String(contract.value), 'domain.verifyingContract') : { message: 'domain.verifyingContract must be an address', severity: 'error' as const };
        if (p) add(contract, p.severity, 'domain', p.message);
        if (p?.severity === 'error') complete = false;
      }
      if (complete) {
        domain = {
          name: String(property(domainNode, 'name')!.value), version: String(property(domainNode, 'version')!.value),
          chainId: chainIdValue!.toString(), verifyingContract: getAddress(String(contract!.value).toLowerCase()),
        };
      }
    }
  }
  const primaryNode = property(root, 'primaryType');
  let primaryType: AuthorizationPrimaryType | undefined;
  if (primaryNode) {
    if (primaryNode.type !== 'string' || !AUTHORIZATION_PRIMARY_TYPES.includes(String(primaryNode.value) as AuthorizationPrimaryType)) {
      add(primaryNode, 'error', 'primaryType', `primaryType must be ${AUTHORIZATION_PRIMARY_TYPES.join(' or ')}`);
    } else primaryType = String(primaryNode.value) as AuthorizationPrimaryType;
  }
  const routeNode = property(root, 'captureRoute');
  let route: CaptureRoute = 'receiveWithAuthorization';
  if (routeNode) {
    if (routeNode.type !== 'string' || !CAPTURE_ROUTES.includes(String(routeNode.value) as CaptureRoute)) add(routeNode, 'error', 'captureRoute', `captureRoute must be ${CAPTURE_ROUTES.join(' or ')}`);
    else route = String(routeNode.value) as CaptureRoute;
  }
  if (primaryType && primaryType !== primaryTypeFor(route)) {
    add(primaryNode!, 'error', 'type-route-mismatch',
      `signed as ${primaryType}, but ${routeNode ? 'the capture route' : 'the default capture route'} ${route} verifies ${primaryTypeFor(route)}: ` +
      `the capture reverts with "FiatTokenV2: invalid signature". Capture with ${routeFor(primaryType)} (set captureRoute) or have the payer sign ${primaryTypeFor(route)}.`);
  }

  if (judgeWindow && clock) judgeWindow(typeof clock === 'function' ? clock(domain) : clock);

  const complete = AUTHORIZATION_FIELDS.every((f) => good[f] !== undefined);
  const authorization: AuthorizationMessage | undefined = complete ? {
    from: String(good.from), to: String(good.to), value: String(good.value),
    validAfter: Number(good.validAfter), validBefore: Number(good.validBefore), nonce: String(good.nonce),
  } : undefined;

  // Recovery: needs the whole message, the domain and the type.
  if (signatureOk && authorization && domain && primaryType) {
    const recovered = recoverAuthorizationSigner({ domain, authorization }, primaryType, signature!);
    if (!recovered || recovered !== authorization.from) {
      add(signatureNode!, 'error', 'signature-signer',
        `the signature recovers ${recovered ?? 'no address'} under ${primaryType} and this domain, not from ${authorization.from}: the token answers "FiatTokenV2: invalid signature"`);
    }
  } else if (signatureOk && authorization && !domainNode) {
    add(signatureNode!, 'hint', 'signature-unchecked', 'add "domain" and "primaryType" to check that the signature recovers from');
  }
  return result(authorization && signature ? { orderId, authorization, signature, primaryType, captureRoute: route, domain } : undefined);
}

/** The reading's errors as one sentence (what Import says when the file cannot be read). */
export function unreadableMessage(reading: AuthorizationFileReading): string {
  const errors = reading.problems.filter((p) => p.severity === 'error' && UNREADABLE.has(p.code)).map((p) => p.message);
  return errors.length ? errors.join('; ') : 'not a stored authorization';
}
