// The inspector's checks from fixed inputs: signatures by well-known test keys, chain facts and
// dry-run outcomes given as values. Also the calldata and revert decoding it relies on, and the
// export / import formats.
import { strict as assert } from 'node:assert';
import { AbiCoder } from 'ethers';
import { SELECTORS } from '../../../mock-node/tokenKit/index';
import { cancelCalldata, captureCalldata, revertReason } from '../../../extension/authorizations/chain';
import { parseImport } from '../../../extension/authorizations/exchange';
import { inspect, inspectionMarkdown, signatureFormatProblem, type ChainFacts, type Check } from '../../../extension/authorizations/inspector';
import { exportAuthorization, type AuthorizationRecord } from '../../../extension/authorizations/model';
import { JsonRpcError } from '../../../extension/rpc/errors';
import { DOMAIN, MERCHANT, NONCE, PAYER, signAs, storedRecord, TOKEN, VALID_AFTER, VALID_BEFORE } from './fixtures';

const FACTS: ChainFacts = {
  chainId: 31337n, tokenName: 'USD Coin', tokenVersion: '2', now: VALID_AFTER + 60, consumed: false,
  payerBalance: 10_000_000_000n, paused: false, payerBlocked: false, merchantBlocked: false,
};

function byId(checks: Check[], id: string): Check {
  const found = checks.find((c) => c.id === id);
  assert.ok(found, `check ${id} in ${checks.map((c) => c.id).join(', ')}`);
  return found;
}

describe('authorization inspector', () => {
  let record: AuthorizationRecord;
  let signature: string;

  before(async () => {
    record = storedRecord();
    signature = await signAs(record, 'ReceiveWithAuthorization');
  });

  it('passes every check for a good ReceiveWithAuthorization inside its window, and says only a receipt proves payment', () => {
    const result = inspect({ record, signature, chain: FACTS, dryRun: { ok: true, gas: 75_056n } });
    assert.deepEqual(result.checks.filter((c) => c.status !== 'pass').map((c) => c.id), []);
    assert.equal(result.capturable, true);
    assert.equal(result.recovered, PAYER.address);
    assert.match(result.verdict, /only a successful receipt counts as paid/);
    assert.match(byId(result.checks, 'dryRun').detail, /75056/);
  });

  it('flags the seed mismatch: signed TransferWithAuthorization, captured by receiveWithAuthorization', async () => {
    const seedStyle = storedRecord({ primaryType: 'TransferWithAuthorization', route: 'receiveWithAuthorization' });
    const seedSignature = await signAs(seedStyle, 'TransferWithAuthorization');
    const result = inspect({ record: seedStyle, signature: seedSignature, chain: FACTS, dryRun: { ok: false, reason: 'FiatTokenV2: invalid signature' } });
    const typeCheck = byId(result.checks, 'primaryType');
    assert.equal(typeCheck.status, 'fail');
    assert.match(typeCheck.detail, /signed as TransferWithAuthorization but the capture route is receiveWithAuthorization/);
    assert.match(typeCheck.detail, /FiatTokenV2: invalid signature/);
    assert.match(typeCheck.detail, /Capture with transferWithAuthorization instead, or have the payer sign ReceiveWithAuthorization/);
    // The signature itself is fine for the type it was made as: the route is what is wrong.
    assert.equal(byId(result.checks, 'signature').status, 'pass');
    assert.equal(result.capturable, false);
    assert.match(byId(result.checks, 'dryRun').detail, /reverts: FiatTokenV2: invalid signature/);
  });

  it('the same TransferWithAuthorization signature passes with the transferWithAuthorization route', async () => {
    const transfer = storedRecord({ primaryType: 'TransferWithAuthorization', route: 'transferWithAuthorization' });
    const result = inspect({ record: transfer, signature: await signAs(transfer, 'TransferWithAuthorization'), chain: FACTS, dryRun: { ok: true } });
    assert.equal(byId(result.checks, 'primaryType').status, 'pass');
    assert.equal(result.capturable, true);
  });

  it('fails the signature check when someone else signed', async () => {
    const byMerchant = await signAs(record, 'ReceiveWithAuthorization', MERCHANT);
    const result = inspect({ record, signature: byMerchant, chain: FACTS, dryRun: { ok: false, reason: 'FiatTokenV2: invalid signature' } });
    const sig = byId(result.checks, 'signature');
    assert.equal(sig.status, 'fail');
    assert.ok(sig.detail.includes(`recovers ${MERCHANT.address}`), sig.detail);
  });

  it('fails the domain checks when the token or the chain says something else than what was signed', () => {
    const result = inspect({ record, signature, chain: { ...FACTS, tokenName: 'USDC', chainId: 84532n }, dryRun: { ok: false, reason: 'FiatTokenV2: invalid signature' } });
    assert.equal(byId(result.checks, 'domain.name').status, 'fail');
    assert.match(byId(result.checks, 'domain.name').detail, /signed over "USD Coin", the token says "USDC"/);
    assert.equal(byId(result.checks, 'domain.version').status, 'pass');
    assert.equal(byId(result.checks, 'domain.chainId').status, 'fail');
    const wrongContract = inspect({ record: storedRecord({ domain: { ...DOMAIN, verifyingContract: MERCHANT.address } }), signature, chain: FACTS });
    assert.equal(byId(wrongContract.checks, 'domain.verifyingContract').status, 'fail');
  });

  it('checks the window at its edges with the token reasons', () => {
    const at = (now: number): Check => byId(inspect({ record, signature, chain: { ...FACTS, now } }).checks, 'window');
    assert.equal(at(VALID_AFTER).status, 'fail');
    assert.match(at(VALID_AFTER).detail, /FiatTokenV2: authorization is not yet valid/);
    assert.equal(at(VALID_AFTER + 1).status, 'pass');
    assert.equal(at(VALID_BEFORE - 1).status, 'pass');
    assert.equal(at(VALID_BEFORE).status, 'fail');
    assert.match(at(VALID_BEFORE).detail, /FiatTokenV2: authorization is expired/);
  });

  it('fails on a consumed nonce, a short balance and token policy', () => {
    const result = inspect({ record, signature, chain: { ...FACTS, consumed: true, payerBalance: 12_499_999n, paused: true, merchantBlocked: true } });
    assert.match(byId(result.checks, 'nonce').detail, /used or canceled/);
    assert.equal(byId(result.checks, 'balance').status, 'fail');
    assert.match(byId(result.checks, 'balance').detail, /12\.499999 USDC < 12\.5 USDC/);
    assert.match(byId(result.checks, 'policy.paused').detail, /Pausable: paused/);
    assert.match(byId(result.checks, 'policy.merchant').detail, /Blacklistable: account is blacklisted/);
    assert.equal(result.checks.some((c) => c.id === 'policy' && c.status === 'pass'), false);
    assert.equal(result.capturable, false);
  });

  it('without a chain it warns and does not call the authorization capturable', () => {
    const result = inspect({ record, signature, chainError: 'endpoint unreachable: ECONNREFUSED' });
    assert.equal(byId(result.checks, 'chain').status, 'warn');
    assert.match(byId(result.checks, 'chain').detail, /ECONNREFUSED/);
    assert.equal(result.capturable, false);
  });

  it('an unsigned draft is not capturable and says so', () => {
    const draft = storedRecord({ signed: false, primaryType: undefined, domain: undefined, orderId: undefined });
    const result = inspect({ record: draft, chain: FACTS });
    assert.equal(byId(result.checks, 'signature').status, 'info');
    assert.equal(result.verdict, 'Not signed yet.');
  });

  it('checks the token signature format rules', () => {
    assert.equal(signatureFormatProblem(signature), undefined);
    assert.match(signatureFormatProblem(signature.slice(0, -2)) ?? '', /invalid signature length/);
    assert.match(signatureFormatProblem(`${signature.slice(0, -2)}01`) ?? '', /'v' value/);
    const highS = `${signature.slice(0, 66)}${'f'.repeat(64)}${signature.slice(130)}`;
    assert.match(signatureFormatProblem(highS) ?? '', /'s' value/);
  });

  it('the markdown shows the decoded fields and never the signature', () => {
    const input = { record, signature, chain: FACTS, dryRun: { ok: true } as const };
    const markdown = inspectionMarkdown(input, inspect(input));
    assert.ok(!markdown.includes(signature.slice(2, 40)), 'no signature in the document');
    assert.match(markdown, /\| value \| `12500000` \| 12\.5 USDC \|/);
    assert.match(markdown, /capture route: `receiveWithAuthorization` \(expects `ReceiveWithAuthorization`\)/);
    assert.match(markdown, new RegExp(`validBefore \\| \`${VALID_BEFORE}\` \\| ${new Date(VALID_BEFORE * 1000).toISOString().replace('.000Z', 'Z')}`));
  });
});

describe('authorization calldata and revert reasons', () => {
  it('uses the bytes-signature forms with the token selectors', () => {
    const a = storedRecord().authorization;
    const sig = `0x${'11'.repeat(65)}`;
    assert.equal(captureCalldata('receiveWithAuthorization', a, sig).slice(0, 10), SELECTORS.receiveWithAuthorizationBytes);
    assert.equal(captureCalldata('transferWithAuthorization', a, sig).slice(0, 10), SELECTORS.transferWithAuthorizationBytes);
    assert.equal(cancelCalldata(a.from, a.nonce, sig).slice(0, 10), SELECTORS.cancelAuthorizationBytes);
  });

  it('decodes Error(string) from a code 3 error, else keeps the message', () => {
    const data = `0x08c379a0${AbiCoder.defaultAbiCoder().encode(['string'], ['FiatTokenV2: authorization is expired']).slice(2)}`;
    assert.equal(revertReason(new JsonRpcError('eth_call', 3, 'execution reverted: FiatTokenV2: authorization is expired', data)), 'FiatTokenV2: authorization is expired');
    assert.equal(revertReason(new JsonRpcError('eth_call', 3, 'execution reverted: Pausable: paused')), 'Pausable: paused');
  });
});

describe('authorization export and import', () => {
  it('exports {orderId, authorization, signature} with the type and route, and imports it back', async () => {
    const record = storedRecord();
    const signature = await signAs(record, 'ReceiveWithAuthorization');
    const exported = exportAuthorization(record, signature);
    assert.equal(exported.orderId, 'order-42');
    assert.equal(exported.signature, signature);
    assert.deepEqual(exported.authorization, {
      from: PAYER.address, to: MERCHANT.address, value: '12500000', validAfter: String(VALID_AFTER), validBefore: String(VALID_BEFORE), nonce: NONCE,
    });
    const back = parseImport(JSON.parse(JSON.stringify(exported)));
    assert.deepEqual(back.authorization, record.authorization);
    assert.equal(back.primaryType, 'ReceiveWithAuthorization');
    assert.equal(back.captureRoute, 'receiveWithAuthorization');
    assert.deepEqual(back.domain, { ...DOMAIN, verifyingContract: TOKEN });
  });

  it('reads the seed stored-authorization shape: receiveWithAuthorization route, type left to the signature', () => {
    const seed = { orderId: 'A-1', authorization: { ...storedRecord().authorization, value: 12500000 }, signature: `0x${'22'.repeat(65)}` };
    const parsed = parseImport(seed);
    assert.equal(parsed.captureRoute, 'receiveWithAuthorization');
    assert.equal(parsed.primaryType, undefined);
    assert.equal(parsed.orderId, 'A-1');
  });

  it('rejects malformed input with a clear message', () => {
    const good = { authorization: storedRecord().authorization, signature: '0x11' };
    assert.throws(() => parseImport('x'), /JSON: syntax error/);
    assert.throws(() => parseImport(42), /expected a stored authorization: a JSON object/);
    assert.throws(() => parseImport('[1]'), /a stored authorization is an object/);
    assert.throws(() => parseImport({ signature: '0x11' }), /missing "authorization"/);
    assert.throws(() => parseImport({ ...good, authorization: { ...good.authorization, nonce: '0x12' } }), /32 bytes/);
    assert.throws(() => parseImport({ ...good, authorization: { ...good.authorization, value: '1.5' } }), /whole number/);
    assert.throws(() => parseImport({ ...good, primaryType: 'Permit' }), /primaryType must be/);
    assert.throws(() => parseImport({ ...good, captureRoute: 'transfer' }), /captureRoute must be/);
  });
});
