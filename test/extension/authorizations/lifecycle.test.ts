// The lifecycle model against every row of the seed's "States and transitions" table, the window
// edges with the token's strict comparisons, the commands each state allows, amounts and input.
import { strict as assert } from 'node:assert';
import { TypedDataEncoder } from 'ethers';
import { TYPEHASHES } from '../../../mock-node/tokenKit/index';
import {
  actionsFor, allowedActions, authorizationTypedData, defaultWindow, deriveState, draftAuthorization, formatTokenAmount, InputError,
  LIFECYCLE_STATES, normalizeV, parseTokenAmount, primaryTypeFor, refusal, refusalFor, transactionsOf, windowStatus, type DraftInput,
} from '../../../extension/authorizations/model';
import type { Effect, Heads, Sighting, Stage } from '../../../extension/authorizations/evidence';
import { DOMAIN, drafted, MERCHANT, NONCE, PAYER, signedRecord, storedRecord, TOKEN, VALID_AFTER, VALID_BEFORE } from './fixtures';

const INSIDE = VALID_AFTER + 100;
const HEADS: Heads = { latest: 10, confirmed: 5, confirmedBy: "the endpoint's safe block (5)" };
const PAID: Effect = { kind: 'paid' };
const CANCELED: Effect = { kind: 'canceled' };
const STRANGER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

/** A transaction as the observer would see it, its confirmations computed from HEADS. */
function seen(hash: string, stage: Stage, effect?: Effect, blockNumber?: number): Sighting {
  return { hash, stage, effect, blockNumber, ...(blockNumber !== undefined && blockNumber <= HEADS.latest ? { confirmations: HEADS.latest - blockNumber + 1 } : {}) };
}

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

  it('Stored → Used (captured): our capture is sealed and its own logs show AuthorizationUsed and the signed transfer', () => {
    const record = storedRecord({ capture: { hash: '0x01', status: 'success', blockNumber: 7 } });
    const d = deriveState(record, { consumed: true, now: INSIDE, heads: HEADS, capture: seen('0x01', 'included', PAID, 7) });
    assert.equal(d.state, 'Used');
    assert.match(d.note, /^paid: 0x01 included in block 7 \(4 confirmations; not yet at the endpoint's safe block \(5\)\)/);
    assert.equal(d.paid?.hash, '0x01');
  });

  it('Stored → Used also when the evidence is a transaction found by the token logs (captured from another window)', () => {
    const d = deriveState(storedRecord(), { consumed: true, now: INSIDE, heads: HEADS, consumer: { found: true, sighting: seen('0x0b', 'confirmed', PAID, 3) } });
    assert.equal(d.state, 'Used');
    assert.match(d.note, /0x0b confirmed in block 3/);
  });

  it('wrong answer 1: the nonce consumed by a second signature paying someone else is "Consumed elsewhere", not Used', () => {
    const other = seen('0x0c', 'included', { kind: 'consumed elsewhere', transfers: [{ to: STRANGER, value: 12_500_000n }] }, 9);
    const d = deriveState(storedRecord(), { consumed: true, now: INSIDE, heads: HEADS, consumer: { found: true, sighting: other } });
    assert.equal(d.state, 'Consumed elsewhere');
    assert.equal(d.consumedBy?.hash, '0x0c');
    assert.match(d.note, new RegExp(`^not paid: the nonce was consumed by 0x0c included in block 9 .*which moved 12.5 to ${STRANGER}, not 12.5 to ${MERCHANT.address}`));
    assert.deepEqual(actionsFor(d), ['inspect', 'export', 'delete']);
  });

  it('wrong answer 2: a capture only in the pending block (a flashblock receipt) is not paid; sealed it is', () => {
    const record = storedRecord({ capture: { hash: '0x0d', status: 'pending' } });
    const pre = deriveState(record, { consumed: true, now: INSIDE, heads: HEADS, capture: seen('0x0d', 'pre-confirmed', PAID, 11) });
    assert.equal(pre.state, 'Stored');
    assert.equal(pre.inFlight?.stage, 'pre-confirmed');
    assert.match(pre.note, /in flight: 0x0d pre-confirmed in the pending block 11/);
    assert.equal(deriveState(record, { consumed: true, now: INSIDE, heads: HEADS, capture: seen('0x0d', 'included', PAID, 10) }).state, 'Used');
    // A reorganization that takes it out of its block puts it back in flight (or drops it).
    const back = deriveState(record, { consumed: false, now: INSIDE, heads: HEADS, capture: seen('0x0d', 'submitted') });
    assert.deepEqual([back.state, back.inFlight?.stage], ['Stored', 'submitted']);
    const gone = deriveState(record, { consumed: false, now: INSIDE, heads: HEADS, capture: seen('0x0d', 'dropped') });
    assert.equal(gone.state, 'Stored');
    assert.match(gone.note, /0x0d is not known to the endpoint/);
    assert.ok(actionsFor(gone).includes('capture'), 'a dropped capture can be sent again');
  });

  it('wrong answer 3: while a capture is in flight, a second capture (and a cancel) is refused', () => {
    const d = deriveState(storedRecord({ capture: { hash: '0x0e', status: 'pending' } }), { consumed: false, now: INSIDE, heads: HEADS, capture: seen('0x0e', 'submitted') });
    assert.ok(!actionsFor(d).includes('capture'));
    assert.match(refusalFor('capture', d) ?? '', /in flight \(0x0e submitted, not in a block yet\).*a second capture is refused/);
    assert.ok(refusalFor('cancel', d));
    assert.equal(refusalFor('inspect', d), undefined);
  });

  it('wrong answer 4: a consumed nonce whose transaction is not found says so and is not counted as paid', () => {
    const d = deriveState(storedRecord(), { consumed: true, now: INSIDE, heads: HEADS, consumer: { found: false, searched: 'searched every block, 0–4000 and pending' } });
    assert.equal(d.state, 'Consumed elsewhere');
    assert.equal(d.note, 'nonce consumed onchain; the consuming transaction was not found (searched every block, 0–4000 and pending): not counted as paid');
  });

  it('Stored, capture fails → unchanged: a status 0x0 receipt leaves it Stored and the note says so', () => {
    const record = storedRecord({ capture: { hash: '0x02', status: 'reverted', reason: 'FiatTokenV2: authorization is not yet valid' } });
    const d = deriveState(record, { consumed: false, now: INSIDE, heads: HEADS, capture: seen('0x02', 'reverted', undefined, 6) });
    assert.equal(d.state, 'Stored');
    assert.match(d.note, /last capture reverted: FiatTokenV2: authorization is not yet valid/);
  });

  it('Stored → Canceled: payer-signed cancellation relayed, its own AuthorizationCanceled log sealed', () => {
    const record = storedRecord({ cancel: { hash: '0x04', status: 'success' } });
    assert.equal(deriveState(record, { consumed: true, now: INSIDE, heads: HEADS, cancel: seen('0x04', 'included', CANCELED, 8) }).state, 'Canceled');
    assert.equal(deriveState(storedRecord(), { consumed: true, now: INSIDE, heads: HEADS, consumer: { found: true, sighting: seen('0x05', 'confirmed', CANCELED, 2) } }).state, 'Canceled');
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

  it('onchain truth wins: a voided or expired authorization that was canceled or paid onchain is Canceled or Used', () => {
    const record = storedRecord({ voided: true, cancel: { hash: '0x05', status: 'success' } });
    assert.equal(deriveState(record, { consumed: true, now: VALID_BEFORE + 10, heads: HEADS, cancel: seen('0x05', 'included', CANCELED, 9) }).state, 'Canceled');
    assert.equal(deriveState(storedRecord(), { consumed: true, now: VALID_BEFORE + 10, heads: HEADS, consumer: { found: true, sighting: seen('0x06', 'included', PAID, 9) } }).state, 'Used');
  });

  it('an unreadable chain derives from local data and says the onchain state is unknown', () => {
    const d = deriveState(storedRecord(), { consumed: undefined, now: INSIDE });
    assert.equal(d.state, 'Stored');
    assert.equal(d.onchain, 'unknown');
    assert.match(d.note, /onchain state unknown/);
  });

  it('with the chain unreadable (e.g. after a reload, the node not started), our last receipts still decide Used and Canceled, and say so', () => {
    const used = deriveState(storedRecord({ capture: { hash: '0x08', status: 'success' } }), { consumed: undefined, now: INSIDE });
    assert.deepEqual([used.state, used.onchain], ['Used', 'unknown']);
    assert.match(used.note, /from our receipt 0x08; the chain cannot be read now/);
    assert.equal(deriveState(storedRecord({ cancel: { hash: '0x09', status: 'success' } }), { consumed: undefined, now: VALID_BEFORE + 5 }).state, 'Canceled');
    assert.equal(deriveState(storedRecord({ capture: { hash: '0x0a', status: 'reverted' } }), { consumed: undefined, now: INSIDE }).state, 'Stored');
  });

  it("lists the seed's seven states in its order, with Consumed elsewhere (not paid) after Canceled", () => {
    assert.deepEqual([...LIFECYCLE_STATES], ['Drafted', 'Signed', 'Stored', 'Used', 'Canceled', 'Consumed elsewhere', 'Voided offchain', 'Expired']);
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

describe('authorization transactions to reveal in the RPC Explorer', () => {
  it('lists the capture, the cancel and the transaction that consumed the nonce, capture first, and nothing before any was sent', () => {
    assert.deepEqual(transactionsOf(storedRecord()), []);
    const record = { ...storedRecord(), cancel: { hash: '0xc2', status: 'reverted' as const }, capture: { hash: '0xc1', status: 'success' as const }, consumerHash: '0xc3' };
    assert.deepEqual(transactionsOf(record), [{ role: 'capture', hash: '0xc1' }, { role: 'cancel', hash: '0xc2' }, { role: 'consumer', hash: '0xc3' }]);
    assert.deepEqual(transactionsOf({ consumerHash: '0xc3' }), [{ role: 'consumer', hash: '0xc3' }]);
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
