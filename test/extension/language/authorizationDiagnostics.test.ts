import * as assert from 'node:assert/strict';
import { analyzeAuthorization } from '../../../extension/language/server/authorizationDiagnostics';
import { exportAuthorization } from '../../../extension/authorizations/model';
import { DOMAIN, MERCHANT, VALID_AFTER, VALID_BEFORE, drafted, signAs, signedRecord } from '../authorizations/fixtures';
import { seen } from './helpers';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const INSIDE = VALID_AFTER + 100;
/** The clock the diagnostics judge the window by, named as the server names it. */
const at = (now: number) => ({ now, name: 'block time of the test chain' });

let receiveSignature: string;
let transferSignature: string;

/** A stored authorization file as the Authorizations view exports it, with overrides. */
function file(overrides: Record<string, unknown> = {}, authorization: Record<string, unknown> = {}): string {
  const a = drafted().authorization;
  return JSON.stringify({
    orderId: 'order-42',
    authorization: { ...a, validAfter: String(a.validAfter), validBefore: String(a.validBefore), ...authorization },
    signature: receiveSignature,
    primaryType: 'ReceiveWithAuthorization',
    captureRoute: 'receiveWithAuthorization',
    domain: DOMAIN,
    ...overrides,
  }, null, 2);
}

function brief(text: string, now = INSIDE): [string, string, string][] {
  return seen(text, analyzeAuthorization(text, at(now))).map((p) => [p.code, p.severity, p.text]);
}

describe('language: .authorization.json diagnostics', () => {
  before(async () => {
    receiveSignature = await signAs(drafted(), 'ReceiveWithAuthorization');
    transferSignature = await signAs(drafted(), 'TransferWithAuthorization');
  });

  it('a well-formed, correctly signed authorization inside its window: no problems', () => {
    assert.deepEqual(brief(file()), []);
    assert.deepEqual(brief(file({ primaryType: 'TransferWithAuthorization', captureRoute: 'transferWithAuthorization', signature: transferSignature })), []);
  });

  it('a file exactly as Export writes it (exportAuthorization): no problems', () => {
    const exported = exportAuthorization(signedRecord({ orderId: 'order-42' }), receiveSignature);
    assert.deepEqual(brief(`${JSON.stringify(exported, null, 2)}\n`), []);
    const seedForm = { orderId: exported.orderId, authorization: exported.authorization, signature: exported.signature };
    assert.deepEqual(brief(JSON.stringify(seedForm)).map((p) => p[0]), ['signature-unchecked']);
  });

  it('the seed\'s own stored form {orderId, authorization, signature}: checked, with a hint that recovery needs domain and primaryType', () => {
    const text = file({ primaryType: undefined, captureRoute: undefined, domain: undefined });
    assert.deepEqual(brief(text), [['signature-unchecked', 'hint', `"${receiveSignature}"`]]);
  });

  it('a signature that does not recover from: by another key, over another domain, as another type', async () => {
    const other = await signAs(drafted(), 'ReceiveWithAuthorization', MERCHANT);
    const problems = seen(file({ signature: other }), analyzeAuthorization(file({ signature: other }), at(INSIDE)));
    assert.deepEqual(problems.map((p) => [p.code, p.text]), [['signature-signer', `"${other}"`]]);
    assert.ok(problems[0].message.includes(MERCHANT.address), problems[0].message);
    assert.deepEqual(brief(file({ domain: { ...DOMAIN, chainId: '8453' } })).map((p) => p[0]), ['signature-signer']);
    assert.deepEqual(brief(file({ signature: transferSignature })).map((p) => p[0]), ['signature-signer']);
    assert.deepEqual(brief(file({}, { value: '12500001' })).map((p) => p[0]), ['signature-signer'], 'a changed amount breaks the signature');
  });

  it('the seed\'s inconsistency: TransferWithAuthorization captured by receiveWithAuthorization', () => {
    const explicit = analyzeAuthorization(file({ primaryType: 'TransferWithAuthorization', signature: transferSignature }), at(INSIDE));
    assert.deepEqual(explicit.map((p) => p.code), ['type-route-mismatch']);
    assert.match(explicit[0].message, /FiatTokenV2: invalid signature/);
    const byDefault = file({ primaryType: 'TransferWithAuthorization', captureRoute: undefined, signature: transferSignature });
    assert.deepEqual(brief(byDefault), [['type-route-mismatch', 'error', '"TransferWithAuthorization"']]);
  });

  it('signature form: 65 bytes, s in the lower half, v 27 or 28', () => {
    const short = receiveSignature.slice(0, -2);
    assert.deepEqual(brief(file({ signature: short })), [['signature', 'error', `"${short}"`]]);
    const s = BigInt(`0x${receiveSignature.slice(66, 130)}`);
    const v = parseInt(receiveSignature.slice(130), 16);
    const highS = `${receiveSignature.slice(0, 66)}${(N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}`;
    const high = analyzeAuthorization(file({ signature: highS }), at(INSIDE));
    assert.deepEqual(high.map((p) => p.code), ['signature']);
    assert.match(high[0].message, /upper half/);
    const v0 = `${receiveSignature.slice(0, 130)}00`;
    const low = analyzeAuthorization(file({ signature: v0 }), at(INSIDE));
    assert.deepEqual(low.map((p) => p.code), ['signature']);
    assert.match(low[0].message, /v is 0, the token accepts 27 or 28/);
  });

  it('the window: validAfter >= validBefore, expired, not yet valid', () => {
    assert.deepEqual(brief(file({}, { validAfter: String(VALID_BEFORE), validBefore: String(VALID_AFTER) })).map((p) => p.slice(0, 3)).filter((p) => p[0] !== 'signature-signer'),
      [['window-order', 'error', `"${VALID_AFTER}"`]]);
    assert.deepEqual(brief(file({}, { validBefore: String(VALID_AFTER) })).filter((p) => p[0] !== 'signature-signer'), [['window-order', 'error', `"${VALID_AFTER}"`]]);
    const expired = analyzeAuthorization(file(), at(VALID_BEFORE));
    assert.deepEqual(expired.map((p) => [p.code, p.severity]), [['expired', 'warning']]);
    assert.match(expired[0].message, /^expired by block time of the test chain: .*2027-01-15 08:16:00 UTC/);
    assert.deepEqual(brief(file(), VALID_AFTER).map((p) => p.slice(0, 2)), [['not-yet-valid', 'information']]);
  });

  it('fields: nonce size, value not an integer, addresses, unknown and missing fields', () => {
    assert.deepEqual(brief(file({}, { nonce: `0x${'ab'.repeat(31)}` })).filter((p) => p[0] !== 'signature-signer'), [['nonce', 'error', `"0x${'ab'.repeat(31)}"`]]);
    const nonce = analyzeAuthorization(file({}, { nonce: `0x${'ab'.repeat(31)}` }), at(INSIDE)).find((p) => p.code === 'nonce')!;
    assert.match(nonce.message, /32 bytes \(64 hex digits\); this has 62 digits \(31 bytes\)/);
    for (const value of ['"12.5"', '"-1"', '"1e6"', '12.5', '"abc"']) {
      const text = file().replace('"value": "12500000"', `"value": ${value}`);
      assert.deepEqual(brief(text), [['value-integer', 'error', value]], value);
    }
    assert.deepEqual(brief(file().replace('"value": "12500000"', '"value": 12500000')), [], 'a JSON integer is fine');
    assert.deepEqual(brief(file({}, { to: '0x1234' })), [['address', 'error', '"0x1234"']]);
    assert.deepEqual(brief(file({}, { memo: 'x' })), [['unknown-field', 'error', '"memo"']]);
    const missing = JSON.parse(file());
    delete missing.authorization.nonce;
    delete missing.orderId;
    assert.deepEqual(brief(JSON.stringify(missing)).map((p) => p.slice(0, 2)), [['orderId-missing', 'warning'], ['field-missing', 'error']]);
    assert.deepEqual(brief('[1]'), [['authorization-shape', 'error', '[1]']]);
    assert.deepEqual(brief(file({ primaryType: 'Permit' })).map((p) => p.slice(0, 2)), [['primaryType', 'error']]);
    assert.deepEqual(brief(file({ domain: { ...DOMAIN, salt: '0x00' } })).map((p) => p.slice(0, 2)), [['domain', 'error']]);
  });

  it('quick fixes: token amount to base units, v 0/1 to 27/28, the checksum; the fixed file verifies', () => {
    const v = parseInt(receiveSignature.slice(130), 16);
    const parity = `${receiveSignature.slice(0, 130)}0${v - 27}`;
    let text = file({ signature: parity }, { value: '12.5', to: drafted().authorization.to.toLowerCase().replace(/^0x(..)/, (m, x: string) => `0x${x.toUpperCase()}`) });
    const problems = analyzeAuthorization(text, at(INSIDE));
    assert.deepEqual(problems.map((p) => [p.code, p.fix?.title]), [
      ['address', 'Use the EIP-55 checksum'],
      ['value-integer', 'Change to "12500000" (12.5 tokens in base units)'],
      ['signature', 'Change v to 27/28 (v + 27)'],
    ]);
    for (const fix of problems.map((p) => p.fix!).sort((a, b) => b.offset - a.offset)) text = text.slice(0, fix.offset) + fix.newText + text.slice(fix.offset + fix.length);
    assert.deepEqual(brief(text), [], 'the signature recovers from again');
  });
});
