// The one `.authorization.json` reader: Import and the language server give the same verdict on
// the same text, because both call it.
import * as assert from 'node:assert/strict';
import { readAuthorizationFile } from '../../../extension/authorizations/authorizationFile';
import { parseImport } from '../../../extension/authorizations/exchange';
import { exportAuthorization } from '../../../extension/authorizations/model';
import { analyzeAuthorization, clockFor } from '../../../extension/language/server/authorizationDiagnostics';
import { drafted, signAs, signedRecord, TOKEN, VALID_AFTER, VALID_BEFORE } from './fixtures';

const CLOCK = { now: VALID_AFTER + 100, name: 'the test clock' };

describe('the .authorization.json reader shared by Import and the language server', () => {
  let exported: Record<string, unknown>;
  before(async () => {
    exported = { ...exportAuthorization(signedRecord({ orderId: 'order-42' }), await signAs(drafted(), 'ReceiveWithAuthorization')) };
  });

  const variants = (): [string, string][] => {
    const a = exported.authorization as Record<string, unknown>;
    return [
      ['as exported', JSON.stringify(exported)],
      ['the seed form', JSON.stringify({ orderId: 'A-1', authorization: a, signature: exported.signature })],
      ['a numeric orderId', JSON.stringify({ ...exported, orderId: 7 })],
      ['a decimal amount', JSON.stringify({ ...exported, authorization: { ...a, value: '12.5' } })],
      ['a 31-byte nonce', JSON.stringify({ ...exported, authorization: { ...a, nonce: `0x${'ab'.repeat(31)}` } })],
      ['no signature', JSON.stringify({ ...exported, signature: undefined })],
      ['a signature with v 0', JSON.stringify({ ...exported, signature: `${String(exported.signature).slice(0, 130)}00` })],
      ['an unknown route', JSON.stringify({ ...exported, captureRoute: 'transfer' })],
      ['the seed mismatch', JSON.stringify({ ...exported, primaryType: 'TransferWithAuthorization' })],
      ['not JSON', '{"orderId": '],
      ['an array', '[1]'],
    ];
  };

  it('Import refuses exactly the files whose diagnostics leave a field unreadable, with the same sentences', () => {
    const verdicts: Record<string, string> = {};
    for (const [name, text] of variants()) {
      const problems = analyzeAuthorization(text, CLOCK);
      let refused: string | undefined;
      try {
        parseImport(text);
      } catch (error) {
        refused = (error as Error).message;
      }
      assert.equal(refused === undefined, readAuthorizationFile(text).value !== undefined, name);
      if (refused) {
        const errors = problems.filter((p) => p.severity === 'error');
        assert.ok(errors.some((p) => refused!.includes(p.message)), `${name}: "${refused}" is one of the diagnostics ${JSON.stringify(errors.map((p) => p.message))}`);
      }
      verdicts[name] = refused ? 'refused' : problems.some((p) => p.severity === 'error') ? 'read, with errors' : 'read';
    }
    assert.deepEqual(verdicts, {
      'as exported': 'read',
      'the seed form': 'read',
      'a numeric orderId': 'refused',
      'a decimal amount': 'refused',
      'a 31-byte nonce': 'refused',
      'no signature': 'refused',
      'a signature with v 0': 'read, with errors',
      'an unknown route': 'refused',
      'the seed mismatch': 'read, with errors',
      'not JSON': 'refused',
      'an array': 'refused',
    });
  });

  it('reads the value Import stores: checksummed addresses, lower-case nonce, numbers for the window', () => {
    const a = exported.authorization as Record<string, string>;
    const text = JSON.stringify({ ...exported, authorization: { ...a, from: a.from.toLowerCase(), nonce: a.nonce.toUpperCase().replace('0X', '0x'), validAfter: Number(a.validAfter) } });
    const { value } = readAuthorizationFile(text);
    assert.deepEqual(value?.authorization, drafted().authorization);
  });

  it('judges the window only by a clock it is given, and names that clock', () => {
    const text = JSON.stringify(exported);
    const late = { now: drafted().authorization.validBefore + 5, name: 'block time of Mock node (public)' };
    assert.deepEqual(readAuthorizationFile(text).problems, []);
    const [expired] = readAuthorizationFile(text, late).problems;
    assert.equal(expired.code, 'expired');
    assert.match(expired.message, /^expired by block time of Mock node \(public\): validBefore/);
  });

  it("wrong answer 5: after the chain's clock moved (evm_increaseTime), diagnostics judge the window by the chain's block time and say so", () => {
    const text = JSON.stringify(exported);
    const localMs = (VALID_AFTER + 100) * 1000;
    // This computer's clock: inside the window, no problem; the message would name this clock.
    assert.deepEqual(analyzeAuthorization(text, (domain) => clockFor([], domain, localMs)), []);
    // The chain's clock, read 30 s ago, already past validBefore: expired, by the chain's block time.
    const clocks = [{ chainId: '31337', token: TOKEN.toLowerCase(), endpointName: 'Mock node (public)', now: VALID_BEFORE - 10, observedAtMs: localMs - 30_000 }];
    const [expired] = analyzeAuthorization(text, (domain) => clockFor(clocks, domain, localMs));
    assert.equal(expired?.code, 'expired');
    assert.match(expired.message, /^expired by block time of Mock node \(public\): validBefore/);
    // Another chain's clock does not apply; a file without a domain says why the local clock is used.
    assert.equal(clockFor(clocks, { name: 'USD Coin', version: '2', chainId: '8453', verifyingContract: TOKEN }, localMs).name, "this computer's clock (no endpoint of chain 8453 with this token was read)");
    assert.equal(clockFor(clocks, undefined, localMs).name, "this computer's clock (the file has no domain)");
  });
});
