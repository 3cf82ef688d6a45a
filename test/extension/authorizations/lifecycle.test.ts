// The lifecycle model against every row of the seed's "States and transitions" table, the window
// edges with the token's strict comparisons, the commands each state allows, amounts and input.
import { strict as assert } from 'node:assert';
import { TypedDataEncoder } from 'ethers';
import { TYPEHASHES } from '../../../mock-node/tokenKit/index';
import {
  allowedActions, authorizationTypedData, defaultWindow, deriveState, draftAuthorization, formatTokenAmount, InputError,
  LIFECYCLE_STATES, normalizeV, parseTokenAmount, primaryTypeFor, refusal, windowStatus, type DraftInput,
} from '../../../extension/authorizations/model';
import { DOMAIN, drafted, MERCHANT, NONCE, PAYER, signedRecord, storedRecord, TOKEN, VALID_AFTER, VALID_BEFORE } from './fixtures';

const INSIDE = VALID_AFTER + 100;

describe('authorization lifecycle: the seed state table', () => {
  it('(none) → Drafted: terms set, nothing onchain', () => {
    const d = deriveState(drafted(), { consumed: false, now: INSIDE });
    assert.equal(d.state, 'Drafted');
    assert.equal(d.onchain, 'unused');
  });

  it('Drafted → Signed (unused): a signature, authorizationState still false', () => {
    const d = deriveState(signedRecord(), { consumed: false, now: INSIDE });
    assert.equal(d.state, 'Signed');
    assert.equal(d.onchain, 'unused');
  });

  it('Signed → Stored (unused): stored against an order id', () => {
    const d = deriveState(storedRecord(), { consumed: false, now: INSIDE });
    assert.equal(d.state, 'Stored');
    assert.match(d.note, /order-42/);
  });

  it('Stored → Used (captured): the nonce is consumed and our capture receipt succeeded', () => {
    const record = storedRecord({ capture: { hash: '0x01', status: 'success', blockNumber: 7 } });
    assert.equal(deriveState(record, { consumed: true, now: INSIDE }).state, 'Used');
  });

  it('Stored → Used also when the AuthorizationUsed log is the evidence (captured elsewhere)', () => {
    assert.equal(deriveState(storedRecord(), { consumed: true, consumedBy: 'capture', now: INSIDE }).state, 'Used');
  });

  it('Stored, capture fails → unchanged: a status 0x0 receipt leaves it Stored and the note says so', () => {
    const record = storedRecord({ capture: { hash: '0x02', status: 'reverted', reason: 'FiatTokenV2: authorization is not yet valid' } });
    const d = deriveState(record, { consumed: false, now: INSIDE });
    assert.equal(d.state, 'Stored');
    assert.match(d.note, /last capture reverted: FiatTokenV2: authorization is not yet valid/);
  });

  it('a capture still waiting for its receipt is not paid: Stored while the nonce is unused', () => {
    assert.equal(deriveState(storedRecord({ capture: { hash: '0x03', status: 'pending' } }), { consumed: false, now: INSIDE }).state, 'Stored');
  });

  it('Stored → Canceled: payer-signed cancellation relayed, nonce consumed', () => {
    const record = storedRecord({ cancel: { hash: '0x04', status: 'success' } });
    assert.equal(deriveState(record, { consumed: true, now: INSIDE }).state, 'Canceled');
    assert.equal(deriveState(storedRecord(), { consumed: true, consumedBy: 'cancel', now: INSIDE }).state, 'Canceled');
  });

  it('a consumed nonce without evidence of how is Used (the token records used and canceled as one state)', () => {
    const d = deriveState(storedRecord(), { consumed: true, now: INSIDE });
    assert.equal(d.state, 'Used');
    assert.match(d.note, /elsewhere/);
  });

  it('Stored → Voided offchain: the merchant marks it void; the nonce stays unused onchain', () => {
    const d = deriveState(storedRecord({ voided: true }), { consumed: false, now: INSIDE });
    assert.equal(d.state, 'Voided offchain');
    assert.equal(d.onchain, 'unused');
    assert.match(d.note, /stays unused/);
  });

  it('Stored → Expired: validBefore reached', () => {
    assert.equal(deriveState(storedRecord(), { consumed: false, now: VALID_BEFORE }).state, 'Expired');
    assert.equal(deriveState(storedRecord(), { consumed: false, now: VALID_BEFORE - 1 }).state, 'Stored');
  });

  it('onchain truth wins: a voided or expired authorization that was canceled onchain is Canceled', () => {
    const record = storedRecord({ voided: true, cancel: { hash: '0x05', status: 'success' } });
    assert.equal(deriveState(record, { consumed: true, now: VALID_BEFORE + 10 }).state, 'Canceled');
    assert.equal(deriveState(storedRecord(), { consumed: true, consumedBy: 'capture', now: VALID_BEFORE + 10 }).state, 'Used');
  });

  it('our successful capture wins over a cancel log (a capture and a cancel cannot both consume one nonce)', () => {
    const record = storedRecord({ capture: { hash: '0x06', status: 'success' } });
    assert.equal(deriveState(record, { consumed: true, consumedBy: 'cancel', now: INSIDE }).state, 'Used');
  });

  it('a capture that succeeded on a chain that now says unused (a reset mock node) is Stored again, and the note says why', () => {
    const record = storedRecord({ capture: { hash: '0x07', status: 'success', blockNumber: 3 } });
    const d = deriveState(record, { consumed: false, now: INSIDE });
    assert.equal(d.state, 'Stored');
    assert.match(d.note, /capture 0x07 succeeded: a different or reset chain/);
  });

  it('an unreadable chain derives from local data and says the onchain state is unknown', () => {
    const d = deriveState(storedRecord(), { consumed: undefined, now: INSIDE });
    assert.equal(d.state, 'Stored');
    assert.equal(d.onchain, 'unknown');
    assert.match(d.note, /onchain state unknown/);
  });

  it('with the chain unreadable (e.g. after a reload, the node not started), our successful receipts still decide Used and Canceled', () => {
    const used = deriveState(storedRecord({ capture: { hash: '0x08', status: 'success' } }), { consumed: undefined, now: INSIDE });
    assert.deepEqual([used.state, used.onchain], ['Used', 'unknown']);
    assert.match(used.note, /from our receipt 0x08/);
    assert.equal(deriveState(storedRecord({ cancel: { hash: '0x09', status: 'success' } }), { consumed: undefined, now: VALID_BEFORE + 5 }).state, 'Canceled');
    assert.equal(deriveState(storedRecord({ capture: { hash: '0x0a', status: 'reverted' } }), { consumed: undefined, now: INSIDE }).state, 'Stored');
  });

  it("lists the seven states in the seed's order", () => {
    assert.deepEqual([...LIFECYCLE_STATES], ['Drafted', 'Signed', 'Stored', 'Used', 'Canceled', 'Voided offchain', 'Expired']);
  });
});

describe('authorization window: strict comparisons as the token makes them', () => {
  const w = { validAfter: 1000, validBefore: 2000 };
  it('now == validAfter is not yet valid (the token needs block.timestamp > validAfter)', () => {
    assert.equal(windowStatus(w, 1000), 'not yet valid');
    assert.equal(windowStatus(w, 999), 'not yet valid');
  });
  it('validAfter + 1 and validBefore - 1 are inside', () => {
    assert.equal(windowStatus(w, 1001), 'open');
    assert.equal(windowStatus(w, 1999), 'open');
  });
  it('now == validBefore is expired (the token needs block.timestamp < validBefore)', () => {
    assert.equal(windowStatus(w, 2000), 'expired');
    assert.equal(windowStatus(w, 2001), 'expired');
  });
  it('a not-yet-valid stored authorization stays Stored and says so', () => {
    const d = deriveState(storedRecord(), { consumed: false, now: VALID_AFTER });
    assert.equal(d.state, 'Stored');
    assert.equal(d.window, 'not yet valid');
    assert.match(d.note, /not valid yet/);
  });
  it('the default window is 60 s before now to 15 min after', () => {
    assert.deepEqual(defaultWindow(1_700_000_000), { validAfter: 1_699_999_940, validBefore: 1_700_000_900 });
  });
});

describe('authorization commands allowed per state', () => {
  it('sign only a draft, store only a signed one, capture only a stored one', () => {
    assert.deepEqual(allowedActions('Drafted').includes('sign'), true);
    assert.equal(refusal('sign', 'Signed')?.startsWith('only a drafted'), true);
    assert.equal(refusal('store', 'Signed'), undefined);
    assert.match(refusal('store', 'Stored') ?? '', /not stored yet/);
    assert.equal(refusal('capture', 'Stored'), undefined);
    for (const state of ['Drafted', 'Signed', 'Used', 'Canceled', 'Voided offchain', 'Expired'] as const) {
      assert.match(refusal('capture', state) ?? '', new RegExp(`it is ${state}`));
    }
  });
  it('cancel while unused and before expiry, including after a void; never after use, cancel or expiry', () => {
    for (const state of ['Signed', 'Stored', 'Voided offchain'] as const) assert.equal(refusal('cancel', state), undefined, state);
    for (const state of ['Drafted', 'Used', 'Canceled', 'Expired'] as const) assert.ok(refusal('cancel', state), state);
  });
  it('a stored authorization cannot be deleted (it is the credential of an open order)', () => {
    assert.match(refusal('delete', 'Stored') ?? '', /payment credential/);
    assert.equal(refusal('delete', 'Used'), undefined);
  });
});

describe('authorization signatures from wallets', () => {
  it('re-encodes v 0/1 as 27/28 and leaves 27/28 and other lengths alone', () => {
    const rs = `0x${'12'.repeat(64)}`;
    assert.equal(normalizeV(`${rs}00`), `${rs}1b`);
    assert.equal(normalizeV(`${rs}01`), `${rs}1c`);
    assert.equal(normalizeV(`${rs}1c`), `${rs}1c`);
    assert.equal(normalizeV('0x1234'), '0x1234');
  });
});

describe('authorization amounts and input', () => {
  it('parses token units with 6 decimals', () => {
    assert.equal(parseTokenAmount('12.5'), 12_500_000n);
    assert.equal(parseTokenAmount('0.000001'), 1n);
    assert.equal(parseTokenAmount('1_000'), 1_000_000_000n);
    assert.equal(parseTokenAmount('.25'), 250_000n);
    assert.equal(formatTokenAmount(12_500_000n), '12.5');
    assert.equal(formatTokenAmount(10_000_000_000n), '10000');
  });
  it('rejects more than 6 decimals, signs, exponents, words and zero', () => {
    for (const bad of ['1.0000001', '-1', '1e6', 'ten', '', '0', '0.000000']) {
      assert.throws(() => parseTokenAmount(bad), InputError, bad);
    }
  });

  const input = (over: Partial<DraftInput> = {}): DraftInput => ({
    payer: PAYER.address, merchant: MERCHANT.address, amount: '12.5', validAfter: VALID_AFTER, validBefore: VALID_BEFORE,
    nonce: NONCE, route: 'receiveWithAuthorization', token: TOKEN, ...over,
  });

  it('drafts checked, checksummed terms', () => {
    const a = draftAuthorization(input({ payer: PAYER.address.toLowerCase() }));
    assert.deepEqual(a, { from: PAYER.address, to: MERCHANT.address, value: '12500000', validAfter: VALID_AFTER, validBefore: VALID_BEFORE, nonce: NONCE });
  });
  it('rejects bad terms with a clear message', () => {
    const cases: [Partial<DraftInput>, RegExp][] = [
      [{ payer: '0x1234' }, /payer "0x1234" is not an address/],
      [{ merchant: '0x0000000000000000000000000000000000000000' }, /merchant cannot be the zero address/],
      [{ merchant: PAYER.address }, /must be different/],
      [{ amount: '1.1234567' }, /more than 6 decimals/],
      [{ validBefore: VALID_AFTER + 1 }, /at least 2 s after validAfter/],
      [{ nonce: '0x1234' }, /32 bytes/],
      [{ route: 'transfer' as never }, /capture route/],
    ];
    for (const [over, message] of cases) assert.throws(() => draftAuthorization(input(over)), message);
  });
});

describe('authorization typed data follows the capture route', () => {
  it('receiveWithAuthorization signs ReceiveWithAuthorization, transferWithAuthorization signs TransferWithAuthorization', () => {
    assert.equal(primaryTypeFor('receiveWithAuthorization'), 'ReceiveWithAuthorization');
    assert.equal(primaryTypeFor('transferWithAuthorization'), 'TransferWithAuthorization');
  });
  it('the payload hashes its primary type to the token typehash and keeps the domain read from the token', () => {
    const a = drafted().authorization;
    for (const primaryType of ['ReceiveWithAuthorization', 'TransferWithAuthorization'] as const) {
      const payload = authorizationTypedData(primaryType, DOMAIN, a);
      assert.equal(payload.primaryType, primaryType);
      assert.deepEqual(payload.domain, { name: 'USD Coin', version: '2', chainId: '31337', verifyingContract: TOKEN });
      assert.deepEqual(Object.keys(payload.types), ['EIP712Domain', primaryType]);
      // encodeData starts with the struct's typehash: it must be the token's.
      const encoded = TypedDataEncoder.from({ [primaryType]: [...payload.types[primaryType]] }).encodeData(primaryType, payload.message);
      assert.equal(encoded.slice(0, 66), TYPEHASHES[primaryType]);
      assert.equal(payload.message.value, '12500000');
    }
  });
});
