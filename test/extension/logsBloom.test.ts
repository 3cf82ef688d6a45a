// The logs bloom check that lets Activity skip reading blocks that cannot hold a match: blooms
// built by the mock node's own bloom code (a second implementation) for real logs.
import * as assert from 'node:assert/strict';
import { bloomMayMatch } from '../../extension/explorer/logsBloom';
import { bloomOfLogs } from '../../mock-node/encoding/bloom';

const token = '0x3600000000000000000000000000000000000000';
const other = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const transfer = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const approval = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';
const from = `0x${'0'.repeat(24)}f39fd6e51aad88f6f4ce6ab8827279cfffb92266`;

describe('logs bloom (may a block hold a match of a filter?)', () => {
  const bloom = bloomOfLogs([{ address: token, topics: [transfer, from] }]);

  it('says "may" for the address and topics of a log in the block', () => {
    assert.equal(bloomMayMatch(bloom, { address: token }), true);
    assert.equal(bloomMayMatch(bloom, { address: [other, token] }), true);
    assert.equal(bloomMayMatch(bloom, { address: token, topics: [transfer] }), true);
    assert.equal(bloomMayMatch(bloom, { topics: [null, from] }), true);
    assert.equal(bloomMayMatch(bloom, { topics: [[approval, transfer]] }), true);
    assert.equal(bloomMayMatch(bloom, {}), true);
  });

  it('says "no" for another address or an event not in the block', () => {
    assert.equal(bloomMayMatch(bloom, { address: other }), false);
    assert.equal(bloomMayMatch(bloom, { address: token, topics: [approval] }), false);
    assert.equal(bloomMayMatch(bloom, { topics: [[approval]] }), false);
  });

  it('an empty bloom holds nothing; a missing or malformed one is read anyway', () => {
    assert.equal(bloomMayMatch(`0x${'0'.repeat(512)}`, {}), false);
    assert.equal(bloomMayMatch(undefined, { address: other }), true);
    assert.equal(bloomMayMatch('0x1234', { address: other }), true);
  });
});
