// BloomProbe (eth_getLogs skips blocks whose logsBloom cannot hold a match): never skips a block
// that holds a matching log, and agrees with the bloom's bits set one value at a time.
import assert from 'node:assert/strict';
import { getBytes, hexlify, randomBytes } from 'ethers';
import { BloomProbe, LogsBloom, bloomOfLogs } from '../../../mock-node/encoding/bloom';

const address = () => hexlify(randomBytes(20));
const topic = () => hexlify(randomBytes(32));

/** The oracle: every bit `value` sets is set in `bloom`. */
function contains(bloom: string, value: string): boolean {
  const probe = new LogsBloom();
  probe.add(value);
  const bytes = getBytes(bloom);
  return probe.bits.every((bits, i) => (bytes[i] & bits) === bits);
}

describe('BloomProbe', () => {
  const logs = Array.from({ length: 6 }, () => ({ address: address(), topics: [topic(), topic(), topic()] }));
  const bloom = bloomOfLogs(logs);

  it('says maybe for every filter built from a log of the block', () => {
    for (const log of logs) {
      assert.ok(new BloomProbe([[log.address]]).mayMatch(bloom));
      assert.ok(new BloomProbe([[address(), log.address], [log.topics[0]], [topic(), log.topics[2]]]).mayMatch(bloom));
    }
  });

  it('with no constraint, says maybe', () => {
    assert.ok(new BloomProbe([]).mayMatch('0x' + '00'.repeat(256)));
  });

  it('agrees with the bloom bits for 500 random filters, upper- and lowercase blooms alike', () => {
    let skipped = 0;
    for (let i = 0; i < 500; i++) {
      const groups = [[address(), address()], [topic()]];
      if (i % 3 === 0) groups[0].push(logs[i % logs.length].address);
      const expected = groups.every((group) => group.some((value) => contains(bloom, value)));
      assert.equal(new BloomProbe(groups).mayMatch(bloom), expected);
      assert.equal(new BloomProbe(groups).mayMatch('0x' + bloom.slice(2).toUpperCase()), expected);
      if (!expected) skipped++;
    }
    assert.ok(skipped > 400, `only ${skipped} of 500 unrelated filters were ruled out`);
  });
});
