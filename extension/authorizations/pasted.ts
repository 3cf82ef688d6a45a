// A signature made in the payer's own wallet and pasted back: checked against the token's rules
// before it is kept or anything is sent (form: 65 bytes, v 27/28, low s; the type the capture route
// verifies; the signer; the domain the token and chain give now). Pure: no vscode import.
import { getAddress, verifyTypedData } from 'ethers';
import { TYPED_DATA_TYPES } from '../../mock-node/tokenKit/index';
import { inspect, recoverAuthorizationSigner, signatureFormatProblem, type Check, type Inspection, type InspectionInput } from './inspector';
import { AUTHORIZATION_PRIMARY_TYPES, primaryTypeFor, tokenDomain, type AuthorizationRecord, type DomainFields } from './model';

export interface PastedVerdict {
  accepted: boolean;
  checks: Check[];
  verdict: string;
}

const SIGNATURE_CHECKS = /^(signature|primaryType|domain\.)/;

function verdictOf(checks: Check[], what: string): PastedVerdict {
  const failed = checks.filter((c) => c.status === 'fail');
  return failed.length
    ? { accepted: false, checks, verdict: `Refused: the ${what} would not verify (${failed.map((c) => c.label.toLowerCase()).join(', ')}). Nothing was kept or sent.` }
    : { accepted: true, checks, verdict: `Accepted: the ${what} verifies under the token's rules. Nothing was sent.` };
}

/**
 * The record as it would be kept with the pasted authorization signature: signed over `domain` (the
 * one copied for the wallet) as the type it recovers the payer under, else the route's own type.
 */
export function pastedRecord(record: AuthorizationRecord, domain: DomainFields, signature: string): AuthorizationRecord {
  const expected = primaryTypeFor(record.route);
  const recoversAs = [expected, ...AUTHORIZATION_PRIMARY_TYPES.filter((t) => t !== expected)]
    .find((t) => recoverAuthorizationSigner({ domain, authorization: record.authorization }, t, signature) === getAddress(record.authorization.from));
  return { ...record, domain, primaryType: recoversAs ?? expected };
}

/** The inspector's signature checks (form, type for the route, signer, domain against the chain) for a pasted authorization signature. */
export function checkPastedAuthorization(input: InspectionInput & { signature: string }): PastedVerdict & { inspection: Inspection } {
  const inspection = inspect({ ...input, dryRun: undefined });
  const checks = inspection.checks.filter((c) => SIGNATURE_CHECKS.test(c.id));
  return { ...verdictOf(checks, 'authorization signature'), inspection: { ...inspection, checks } };
}

/** The checks of a pasted CancelAuthorization signature: its form and that it recovers the payer under the domain. */
export function checkPastedCancel(record: AuthorizationRecord, domain: DomainFields, signature: string): PastedVerdict {
  const checks: Check[] = [];
  const a = record.authorization;
  const problem = signatureFormatProblem(signature);
  if (problem) {
    checks.push({ id: 'signature', label: 'Signature', status: 'fail', detail: problem });
  } else {
    let recovered: string | undefined;
    try {
      const types = { CancelAuthorization: [...TYPED_DATA_TYPES.CancelAuthorization.CancelAuthorization] };
      recovered = verifyTypedData(tokenDomain(domain), types, { authorizer: a.from, nonce: a.nonce }, signature);
    } catch {
      recovered = undefined;
    }
    checks.push(recovered === getAddress(a.from)
      ? { id: 'signature', label: 'Cancellation recovers the payer', status: 'pass', detail: `CancelAuthorization signed by ${a.from}` }
      : {
        id: 'signature', label: 'Cancellation recovers the payer', status: 'fail',
        detail: `recovers ${recovered ?? 'nobody'}, not the payer ${a.from}: another key, or typed data other than the copied CancelAuthorization (domain ${domain.name} v${domain.version}, chainId ${domain.chainId}, ${domain.verifyingContract}; the token answers FiatTokenV2: invalid signature)`,
      });
  }
  return verdictOf(checks, 'cancellation signature');
}

/** The pasted signature's verdict as a markdown document (the signature itself is not shown). */
export function pastedMarkdown(title: string, verdict: PastedVerdict): string {
  const lines = [`# ${title}`, '', `**Verdict:** ${verdict.verdict}`, '', '| result | check | detail |', '|---|---|---|'];
  for (const c of verdict.checks) lines.push(`| ${c.status === 'fail' ? '**FAIL**' : c.status} | ${c.label} | ${c.detail.replace(/\|/g, '\\|')} |`);
  lines.push('', '_Checked locally and against the token\'s name, version and chain id; no transaction and no eth_call carried the signature._', '');
  return lines.join('\n');
}
