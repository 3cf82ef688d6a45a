// The inspector's checks as a pure function of fixed inputs: the record, its signature, what was
// read from the chain and the capture's dry run. It answers "would a capture succeed now, and if
// not, why" before anyone submits. No vscode import and no I/O.
import { getAddress, Signature, verifyTypedData } from 'ethers';
import { signatureProblem, TYPED_DATA_TYPES } from '../../mock-node/tokenKit/index';
import {
  formatTokenAmount, primaryTypeFor, routeFor, tokenDomain, windowStatus,
  type AuthorizationPrimaryType, type AuthorizationRecord, type DerivedState,
} from './model';

export type CheckStatus = 'pass' | 'fail' | 'warn' | 'info';

export interface Check {
  id: string;
  label: string;
  status: CheckStatus;
  detail: string;
}

/** What was read from the endpoint for one inspection. */
export interface ChainFacts {
  chainId: bigint;
  tokenName: string;
  tokenVersion: string;
  /** Unix seconds of the block the check is made against. */
  now: number;
  /** authorizationState(payer, nonce). */
  consumed: boolean;
  payerBalance: bigint;
  paused?: boolean;
  payerBlocked?: boolean;
  merchantBlocked?: boolean;
}

export type DryRun = { ok: true; gas?: bigint } | { ok: false; reason: string };

export interface InspectionInput {
  record: AuthorizationRecord;
  signature?: string;
  /** undefined: the endpoint could not be read (the reason in `chainError`). */
  chain?: ChainFacts;
  chainError?: string;
  dryRun?: DryRun;
  state?: DerivedState;
  symbol?: string;
  /** Whether the dry run sent the signature to the endpoint, said in the document. */
  dryRunNote?: string;
}

export interface Inspection {
  checks: Check[];
  /** True when no check failed: a capture now should succeed (only its receipt proves it). */
  capturable: boolean;
  verdict: string;
  /** Who the signature recovers to under the type it was signed as, when it recovers. */
  recovered?: string;
}

const TYPE_STRING = (t: AuthorizationPrimaryType): string =>
  `${t}(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)`;

/** The signer of an authorization signature under `primaryType`, or undefined if it does not recover. */
export function recoverAuthorizationSigner(record: Pick<AuthorizationRecord, 'domain' | 'authorization'>, primaryType: AuthorizationPrimaryType, signature: string): string | undefined {
  if (!record.domain) return undefined;
  try {
    const fields = (TYPED_DATA_TYPES[primaryType] as Record<string, readonly { name: string; type: string }[]>)[primaryType];
    const types = { [primaryType]: [...fields] };
    const a = record.authorization;
    return verifyTypedData(tokenDomain(record.domain), types, { ...a, value: BigInt(a.value) }, signature);
  } catch {
    return undefined;
  }
}

/** Checks the token's own signature rules: 65 bytes r ‖ s ‖ v, v 27 or 28, s in the lower half. */
export function signatureFormatProblem(signature: string): string | undefined {
  const problem = signatureProblem(signature);
  if (problem) return `${problem.detail} (${problem.reason})`;
  try {
    Signature.from(signature);
  } catch {
    return 'not a valid secp256k1 signature (ECRecover: invalid signature)';
  }
  return undefined;
}

function check(id: string, label: string, status: CheckStatus, detail: string): Check {
  return { id, label, status, detail };
}

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

export function inspect(input: InspectionInput): Inspection {
  const { record, signature, chain } = input;
  const a = record.authorization;
  const symbol = input.symbol ?? 'USDC';
  const checks: Check[] = [];
  const expectedType = primaryTypeFor(record.route);
  let recovered: string | undefined;

  // Signature: present, well-formed, recovers `from` under the type it was signed as.
  if (!signature) {
    checks.push(check('signature', 'Signature', record.signed ? 'fail' : 'info', record.signed ? 'the signature is missing from the secret storage' : 'not signed yet'));
  } else {
    const problem = signatureFormatProblem(signature);
    if (problem) {
      checks.push(check('signature', 'Signature', 'fail', problem));
    } else {
      const signedAs = record.primaryType ?? expectedType;
      recovered = recoverAuthorizationSigner(record, signedAs, signature);
      if (recovered && getAddress(recovered) === getAddress(a.from)) {
        checks.push(check('signature', 'Signature recovers from', 'pass', `${signedAs} signature by ${a.from}`));
      } else {
        checks.push(check('signature', 'Signature recovers from', 'fail',
          `recovers ${recovered ?? 'nobody'} as ${signedAs}, not the payer ${a.from} (the token answers FiatTokenV2: invalid signature)`));
      }
    }
  }

  // The primary type must match the capture route (the seed's one inconsistency).
  if (record.primaryType) {
    if (record.primaryType === expectedType) {
      checks.push(check('primaryType', 'Typed data matches the capture route', 'pass', `${record.primaryType} for ${record.route}`));
    } else {
      checks.push(check('primaryType', 'Typed data matches the capture route', 'fail',
        `signed as ${record.primaryType} but the capture route is ${record.route}, which the token verifies against ` +
        `${TYPE_STRING(expectedType)}; submitting it reverts with FiatTokenV2: invalid signature. ` +
        `This is the seed's envelope (primaryType TransferWithAuthorization) paired with its receiveWithAuthorization capture. ` +
        `Capture with ${routeFor(record.primaryType)} instead, or have the payer sign ${expectedType}.`));
    }
  }

  // Domain: name, version and chain id as the token and the chain say now.
  if (record.domain) {
    if (getAddress(record.domain.verifyingContract) !== getAddress(record.token)) {
      checks.push(check('domain.verifyingContract', 'Domain verifyingContract', 'fail', `${record.domain.verifyingContract} is not the token ${record.token}`));
    } else {
      checks.push(check('domain.verifyingContract', 'Domain verifyingContract', 'pass', record.token));
    }
    if (chain) {
      const pairs: [string, string, string][] = [
        ['name', record.domain.name, chain.tokenName],
        ['version', record.domain.version, chain.tokenVersion],
        ['chainId', record.domain.chainId, chain.chainId.toString()],
      ];
      for (const [field, signed, live] of pairs) {
        checks.push(signed === live
          ? check(`domain.${field}`, `Domain ${field}`, 'pass', `${JSON.stringify(signed)} as the ${field === 'chainId' ? 'chain' : 'token'} says`)
          : check(`domain.${field}`, `Domain ${field}`, 'fail', `signed over ${JSON.stringify(signed)}, the ${field === 'chainId' ? 'chain' : 'token'} says ${JSON.stringify(live)}: the signature cannot verify`));
      }
    }
  }

  if (!chain) {
    checks.push(check('chain', 'Onchain state', 'warn', `not read: ${input.chainError ?? 'no endpoint'}`));
  } else {
    // Window, against the chain's clock, with the token's strict comparisons.
    const status = windowStatus(a, chain.now);
    const at = `block time ${chain.now} (${iso(chain.now)})`;
    if (status === 'open') {
      checks.push(check('window', 'Validity window', 'pass', `${at} is after validAfter ${a.validAfter} and before validBefore ${a.validBefore} (${chain.now - a.validAfter} s in, ${a.validBefore - chain.now} s left)`));
    } else if (status === 'not yet valid') {
      checks.push(check('window', 'Validity window', 'fail', `${at} is not after validAfter ${a.validAfter} (${iso(a.validAfter)}): FiatTokenV2: authorization is not yet valid`));
    } else {
      checks.push(check('window', 'Validity window', 'fail', `${at} is not before validBefore ${a.validBefore} (${iso(a.validBefore)}): FiatTokenV2: authorization is expired`));
    }
    checks.push(chain.consumed
      ? check('nonce', 'Nonce onchain', 'fail', `authorizationState(${a.from}, ${a.nonce}) is true: already captured or canceled (FiatTokenV2: authorization is used or canceled)`)
      : check('nonce', 'Nonce onchain', 'pass', 'authorizationState is false: unused'));
    const value = BigInt(a.value);
    checks.push(chain.payerBalance >= value
      ? check('balance', 'Payer balance', 'pass', `${formatTokenAmount(chain.payerBalance)} ${symbol} ≥ ${formatTokenAmount(value)} ${symbol} (nothing is reserved: the payer can still move it)`)
      : check('balance', 'Payer balance', 'fail', `${formatTokenAmount(chain.payerBalance)} ${symbol} < ${formatTokenAmount(value)} ${symbol} (ERC20: transfer amount exceeds balance)`));
    if (chain.paused) checks.push(check('policy.paused', 'Token policy', 'fail', 'the token is paused (Pausable: paused)'));
    if (chain.payerBlocked) checks.push(check('policy.payer', 'Token policy', 'fail', `the payer ${a.from} is blocklisted (Blacklistable: account is blacklisted)`));
    if (chain.merchantBlocked) checks.push(check('policy.merchant', 'Token policy', 'fail', `the merchant ${a.to} is blocklisted (Blacklistable: account is blacklisted)`));
    if (chain.paused === false && !chain.payerBlocked && !chain.merchantBlocked) {
      checks.push(check('policy', 'Token policy', 'pass', 'not paused; payer and merchant not blocklisted'));
    }
  }

  if (input.dryRun) {
    checks.push(input.dryRun.ok
      ? check('dryRun', `Dry run of ${record.route} by eth_call from ${a.to}`, 'pass', `succeeds${input.dryRun.gas !== undefined ? ` (estimated gas ${input.dryRun.gas})` : ''}`)
      : check('dryRun', `Dry run of ${record.route} by eth_call from ${a.to}`, 'fail', `reverts: ${input.dryRun.reason}`));
  } else if (signature) {
    checks.push(check('dryRun', `Dry run of ${record.route}`, 'warn', input.dryRunNote?.startsWith('Dry run off') ? 'off for this endpoint' : 'not run'));
  }

  const failed = checks.filter((c) => c.status === 'fail');
  const capturable = failed.length === 0 && !!signature && !!chain && !!input.dryRun?.ok;
  const verdict = capturable
    ? 'A capture now should succeed; only a successful receipt counts as paid.'
    : failed.length > 0
      ? `A capture now would fail: ${failed.map((c) => c.label.toLowerCase()).join(', ')}.`
      : !signature ? 'Not signed yet.' : 'Not enough information to say (see the warnings).';
  return { checks, capturable, verdict, recovered };
}

// Words, not emoji: the document is read as text (and some fonts have no emoji).
const MARK: Record<CheckStatus, string> = { pass: 'pass', fail: '**FAIL**', warn: 'warn', info: 'info' };

/** The inspector's read-only markdown document. The signature itself is never shown. */
export function inspectionMarkdown(input: InspectionInput, result: Inspection): string {
  const { record } = input;
  const a = record.authorization;
  const lines: string[] = [];
  lines.push(`# Authorization ${record.orderId ? `for order ${record.orderId}` : a.nonce.slice(0, 10) + '…'}`);
  lines.push('');
  if (input.state) lines.push(`**State:** ${input.state.state} (${input.state.note})`, '');
  lines.push(`**Verdict:** ${result.verdict}`, '');
  if (input.dryRunNote) lines.push(`_${input.dryRunNote}_`, '');
  lines.push('## Checks', '', '| result | check | detail |', '|---|---|---|');
  for (const c of result.checks) lines.push(`| ${MARK[c.status]} | ${c.label} | ${c.detail.replace(/\|/g, '\\|')} |`);
  lines.push('', '## Fields', '', '| field | value | decoded |', '|---|---|---|');
  lines.push(`| from (payer) | \`${a.from}\` | signs |`);
  lines.push(`| to (merchant) | \`${a.to}\` | the only party that may capture by receiveWithAuthorization |`);
  lines.push(`| value | \`${a.value}\` | ${formatTokenAmount(BigInt(a.value))} ${input.symbol ?? 'USDC'} |`);
  lines.push(`| validAfter | \`${a.validAfter}\` | ${iso(a.validAfter)} |`);
  lines.push(`| validBefore | \`${a.validBefore}\` | ${iso(a.validBefore)} |`);
  lines.push(`| nonce | \`${a.nonce}\` | 32 bytes |`);
  lines.push('', '## Typed data', '');
  lines.push(`- capture route: \`${record.route}\` (expects \`${primaryTypeFor(record.route)}\`)`);
  lines.push(`- signed as: ${record.primaryType ? `\`${record.primaryType}\`` : 'not signed'}${record.signedWith ? ` (${record.signedWith})` : ''}`);
  if (record.domain) {
    lines.push(`- domain: name \`${record.domain.name}\`, version \`${record.domain.version}\`, chainId \`${record.domain.chainId}\`, verifyingContract \`${record.domain.verifyingContract}\``);
  }
  if (result.recovered) lines.push(`- signature recovers: \`${result.recovered}\``);
  lines.push(`- endpoint: ${record.endpointName}; token \`${record.token}\``);
  if (record.capture) lines.push(`- capture transaction: \`${record.capture.hash}\` ${record.capture.status}${record.capture.reason ? ` (${record.capture.reason})` : ''}`);
  if (record.cancel) lines.push(`- cancel transaction: \`${record.cancel.hash}\` ${record.cancel.status}${record.cancel.reason ? ` (${record.cancel.reason})` : ''}`);
  lines.push('', '_The signature is a payment credential: it stays in the secret storage and is not shown here. Use Export to write it out._', '');
  return lines.join('\n');
}
