// Diagnostics of an `.authorization.json` file: the stored authorization the merchant keeps
// (the seed's {orderId, authorization, signature}, as the Authorizations view exports it, with
// optional domain, primaryType and captureRoute). Checks each field's form, the window against
// the clock, the signature's form by the token's rules, the type against the capture route (the
// seed's one inconsistency), and, when domain and primaryType are present, that the signature
// recovers `from`. Pure: text and the current time in, problems out.
import { parseTree, type Node, type ParseError } from './jsonc';
import { recoverAuthorizationSigner, signatureFormatProblem } from '../../authorizations/inspector';
import { primaryTypeFor, type AuthorizationPrimaryType, type AuthorizationRecord, type CaptureRoute } from '../../authorizations/model';
import { getAddress } from 'ethers';
import { parseTokenUnits } from '../../../mock-node/tokenKit/index';
import { properties, property, rawText, type Fix, type Problem, type Severity } from './document';
import { addressProblem, isoSeconds, MAX_UINT256, relative, tokenUnits } from './values';

/** "12.5" tokens as base units (6 decimals), or undefined when it is not such an amount. */
function baseUnits(tokens: string): bigint | undefined {
  try {
    return parseTokenUnits(tokens);
  } catch {
    return undefined;
  }
}

export const AUTHORIZATION_FIELDS = ['from', 'to', 'value', 'validAfter', 'validBefore', 'nonce'] as const;
export const TOP_LEVEL_FIELDS = ['orderId', 'authorization', 'signature', 'domain', 'primaryType', 'captureRoute'] as const;
export const DOMAIN_FIELDS = ['name', 'version', 'chainId', 'verifyingContract'] as const;
const PRIMARY_TYPES: AuthorizationPrimaryType[] = ['ReceiveWithAuthorization', 'TransferWithAuthorization'];
const ROUTES: CaptureRoute[] = ['receiveWithAuthorization', 'transferWithAuthorization'];

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

export interface AuthorizationFile {
  root?: Node;
  text: string;
  syntax: Problem[];
}

export function parseAuthorizationFile(text: string): AuthorizationFile {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: false });
  return {
    root,
    text,
    syntax: errors.map((e) => ({ offset: e.offset, length: Math.max(1, e.length), severity: 'error', code: 'syntax', message: 'JSON: syntax error' })),
  };
}

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

export function analyzeAuthorization(text: string, nowSeconds: number): Problem[] {
  const file = parseAuthorizationFile(text);
  const problems: Problem[] = [...file.syntax];
  const add = (node: { offset: number; length: number }, severity: Severity, code: string, message: string, fix?: Fix): void => {
    problems.push({ offset: node.offset, length: Math.max(1, node.length), severity, code, message, ...(fix ? { fix } : {}) });
  };
  const replace = (node: Node, value: unknown, title: string): Fix => ({ title, offset: node.offset, length: node.length, newText: JSON.stringify(value) });
  const root = file.root;
  if (!root) return problems;
  if (root.type !== 'object') {
    add(root, 'error', 'authorization-shape', 'a stored authorization is an object {orderId, authorization: {from, to, value, validAfter, validBefore, nonce}, signature}');
    return problems;
  }
  const brace = { offset: root.offset, length: 1 };
  for (const { key, name } of properties(root)) {
    if (!(TOP_LEVEL_FIELDS as readonly string[]).includes(name)) add(key, 'warning', 'unknown-field', `"${name}" is not a field of a stored authorization (${TOP_LEVEL_FIELDS.join(', ')})`);
  }
  const orderId = property(root, 'orderId');
  if (!orderId) add(brace, 'warning', 'orderId-missing', 'missing "orderId": the merchant stores an authorization against an order');
  else if (orderId.type !== 'string' && orderId.type !== 'null') add(orderId, 'error', 'orderId-type', 'orderId must be a string');

  // The transfer authorization.
  const auth = property(root, 'authorization');
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
      if (!p || p.severity === 'warning') good[field] = String(node.value);
    }
    if (good.from && good.to && String(good.from).toLowerCase() === String(good.to).toLowerCase()) {
      add(property(auth, 'to')!, 'warning', 'address', 'payer and merchant are the same account');
    }
    const value = property(auth, 'value');
    if (value) {
      const v = integerValue(text, value);
      if (v === undefined) {
        // "12.5" most likely means tokens: offer the base units.
        const raw = value.type === 'string' ? String(value.value) : rawText(text, value);
        const units = /^\d+\.\d+$/.test(raw) ? baseUnits(raw) : undefined;
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
      else if (v > MAX_UINT256) add(node, 'error', 'window-integer', `${field} is more than a uint256`);
      else good[field] = v;
    }
    const after = good.validAfter as bigint | undefined;
    const before = good.validBefore as bigint | undefined;
    const beforeNode = property(auth, 'validBefore');
    if (after !== undefined && before !== undefined && after >= before) {
      add(beforeNode!, 'error', 'window-order', `validBefore ${before} is not after validAfter ${after}: no block time can satisfy validAfter < t < validBefore`);
    } else if (before !== undefined && before <= BigInt(nowSeconds)) {
      add(beforeNode!, 'warning', 'expired', `expired: validBefore ${before} (${isoSeconds(before)}) was ${relative(before, nowSeconds)}; a capture reverts with "FiatTokenV2: authorization is expired"`);
    } else if (after !== undefined && after >= BigInt(nowSeconds)) {
      add(property(auth, 'validAfter')!, 'information', 'not-yet-valid', `not valid yet: capture works after ${isoSeconds(after)} (${relative(after, nowSeconds)})`);
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
        good.nonce = String(nonce.value);
      }
    }
  }

  // Signature: the token's form rules.
  const signature = property(root, 'signature');
  let signatureOk = false;
  if (!signature) add(brace, 'error', 'signature-missing', 'missing "signature" (65 bytes r ‖ s ‖ v as hex)');
  else if (signature.type !== 'string') add(signature, 'error', 'signature', 'signature must be a hex string');
  else {
    const text65 = String(signature.value);
    const problem = signatureFormatProblem(text65);
    // Some signers answer v as 0/1 (the y parity); the token wants 27/28.
    const parity = /^0x[0-9a-fA-F]{128}0[01]$/.test(text65) ? `${text65.slice(0, 130)}${(parseInt(text65.slice(130), 16) + 27).toString(16)}` : undefined;
    if (problem) add(signature, 'error', 'signature', `signature: ${problem}`, parity ? replace(signature, parity, 'Change v to 27/28 (v + 27)') : undefined);
    else signatureOk = true;
  }

  // Domain, primary type and capture route.
  const domainNode = property(root, 'domain');
  let domain: AuthorizationRecord['domain'];
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
          chainId: chainIdValue!.toString(), verifyingContract: String(contract!.value),
        };
      }
    }
  }
  const primaryNode = property(root, 'primaryType');
  let primaryType: AuthorizationPrimaryType | undefined;
  if (primaryNode) {
    if (primaryNode.type !== 'string' || !PRIMARY_TYPES.includes(String(primaryNode.value) as AuthorizationPrimaryType)) {
      add(primaryNode, 'error', 'primaryType', `primaryType must be ${PRIMARY_TYPES.join(' or ')}`);
    } else primaryType = String(primaryNode.value) as AuthorizationPrimaryType;
  }
  const routeNode = property(root, 'captureRoute');
  let route: CaptureRoute = 'receiveWithAuthorization';
  if (routeNode) {
    if (routeNode.type !== 'string' || !ROUTES.includes(String(routeNode.value) as CaptureRoute)) add(routeNode, 'error', 'captureRoute', `captureRoute must be ${ROUTES.join(' or ')}`);
    else route = String(routeNode.value) as CaptureRoute;
  }
  if (primaryType && primaryType !== primaryTypeFor(route)) {
    add(primaryNode!, 'error', 'type-route-mismatch',
      `signed as ${primaryType}, but ${routeNode ? 'the capture route' : 'the default capture route'} ${route} verifies ${primaryTypeFor(route)}: ` +
      `the capture reverts with "FiatTokenV2: invalid signature". Capture with ${primaryType === 'TransferWithAuthorization' ? 'transferWithAuthorization' : 'receiveWithAuthorization'} (set captureRoute) or have the payer sign ${primaryTypeFor(route)}.`);
  }

  // Recovery: needs the whole message, the domain and the type.
  const complete = AUTHORIZATION_FIELDS.every((f) => good[f] !== undefined);
  if (signatureOk && complete && domain && primaryType) {
    const record = {
      domain,
      authorization: {
        from: String(good.from), to: String(good.to), value: String(good.value),
        validAfter: Number(good.validAfter), validBefore: Number(good.validBefore), nonce: String(good.nonce),
      },
    } as AuthorizationRecord;
    const recovered = recoverAuthorizationSigner(record, primaryType, String(signature!.value));
    if (!recovered || recovered.toLowerCase() !== String(good.from).toLowerCase()) {
      add(signature!, 'error', 'signature-signer',
        `the signature recovers ${recovered ?? 'no address'} under ${primaryType} and this domain, not from ${String(good.from)}: the token answers "FiatTokenV2: invalid signature"`);
    }
  } else if (signatureOk && complete && (!domain || !primaryType) && !domainNode) {
    add(signature!, 'hint', 'signature-unchecked', 'add "domain" and "primaryType" to check that the signature recovers from');
  }
  return problems;
}
