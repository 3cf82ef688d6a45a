// What a transaction's own logs and its place in the chain say about an authorization.
import { strict as assert } from 'node:assert';
import { AbiCoder } from 'ethers';
import { EVENT_TOPICS } from '../../../mock-node/tokenKit/index';
import { effectOf, sight, type LogEntry } from '../../../extension/authorizations/evidence';
import { drafted, TOKEN } from './fixtures';

const a = drafted().authorization;
const topic = (address: string): string => `0x${address.toLowerCase().slice(2).padStart(64, '0')}`;
const used = (nonce = a.nonce, token = TOKEN): LogEntry => ({ address: token, topics: [EVENT_TOPICS.AuthorizationUsed, topic(a.from), nonce], data: '0x' });
const canceled = (): LogEntry => ({ address: TOKEN, topics: [EVENT_TOPICS.AuthorizationCanceled, topic(a.from), a.nonce], data: '0x' });
const transfer = (to: string, value: bigint, from = a.from): LogEntry => ({
  address: TOKEN, topics: [EVENT_TOPICS.Transfer, topic(from), topic(to)], data: AbiCoder.defaultAbiCoder().encode(['uint256'], [value]),
});
const STRANGER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

describe('authorization evidence: a transaction\'s effect and stage', () => {
  it('paid only with AuthorizationUsed for the nonce and the signed Transfer(payer, merchant, value) in the same logs', () => {
    assert.deepEqual(effectOf(TOKEN, a, [transfer(a.to, 12_500_000n), used()]), { kind: 'paid' });
    assert.deepEqual(effectOf(TOKEN, a, [transfer(STRANGER, 12_500_000n), used()]), { kind: 'consumed elsewhere', transfers: [{ to: STRANGER.toLowerCase(), value: 12_500_000n }] });
    assert.deepEqual(effectOf(TOKEN, a, [transfer(a.to, 12_499_999n), used()]).kind, 'consumed elsewhere', 'another amount');
    assert.deepEqual(effectOf(TOKEN, a, [transfer(a.to, 12_500_000n)]), { kind: 'unrelated' }, 'a transfer without the nonce proves nothing');
    assert.deepEqual(effectOf(TOKEN, a, [transfer(a.to, 12_500_000n), used(`0x${'cd'.repeat(32)}`)]), { kind: 'unrelated' }, 'another nonce');
    assert.deepEqual(effectOf(TOKEN, a, [transfer(a.to, 12_500_000n), used(a.nonce, STRANGER)]), { kind: 'unrelated' }, 'another contract\'s event');
    assert.deepEqual(effectOf(TOKEN, a, [canceled()]), { kind: 'canceled' });
  });

  it('stages: no receipt → submitted or dropped; a receipt past latest → pre-confirmed; sealed → included, then confirmed', () => {
    const heads = { latest: 20, confirmed: 10, confirmedBy: 'safe' };
    const receipt = (block: number, status = '0x1') => ({ status, blockNumber: `0x${block.toString(16)}`, logs: [transfer(a.to, 12_500_000n), used()] });
    const effect = (logs: LogEntry[]) => effectOf(TOKEN, a, logs);
    assert.equal(sight('0x1', null, true, heads, effect).stage, 'submitted');
    assert.equal(sight('0x1', null, false, heads, effect).stage, 'dropped');
    assert.deepEqual(sight('0x1', receipt(21), true, heads, effect), { hash: '0x1', stage: 'pre-confirmed', blockNumber: 21, effect: { kind: 'paid' } });
    assert.deepEqual(sight('0x1', receipt(20), true, heads, effect), { hash: '0x1', stage: 'included', blockNumber: 20, confirmations: 1, effect: { kind: 'paid' } });
    assert.deepEqual(sight('0x1', receipt(10), true, heads, effect).stage, 'confirmed');
    assert.deepEqual(sight('0x1', receipt(12, '0x0'), true, heads, effect), { hash: '0x1', stage: 'reverted', blockNumber: 12 });
  });
});
