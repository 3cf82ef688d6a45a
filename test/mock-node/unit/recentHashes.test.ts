// RecentHashes: a fixed-size memory of the newest hashes (--history-blocks remembers pruned
// blocks and transactions in it). Checked against a plain list of what was added, through many
// rounds of forgetting, with keys chosen to collide in the table so the backward-shift removal
// is exercised.
import assert from 'node:assert/strict';
import { RecentHashes } from '../../../mock-node/chain/recentHashes';

/** A 32-byte hash whose first 8 bytes come from `high` and `low` (the rest filler). */
const hashOf = (high: number, low: number): string => '0x' + high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0') + 'ab'.repeat(24);

describe('RecentHashes: the newest hashes, bounded', () => {
  it('remembers the newest `capacity` hashes with their numbers and forgets the older ones', () => {
    const memory = new RecentHashes(4);
    assert.equal(memory.find(hashOf(1, 1)), undefined, 'empty');
    for (let i = 1; i <= 6; i++) memory.add(hashOf(i, i * 7), 100 + i);
    assert.equal(memory.size, 4);
    assert.equal(memory.find(hashOf(1, 7)), undefined);
    assert.equal(memory.find(hashOf(2, 14)), undefined);
    for (let i = 3; i <= 6; i++) assert.equal(memory.find(hashOf(i, i * 7)), 100 + i);
    memory.clear();
    assert.equal(memory.size, 0);
    assert.equal(memory.find(hashOf(6, 42)), undefined);
    memory.add(hashOf(9, 9), 5);
    assert.equal(memory.find(hashOf(9, 9)), 5);
  });

  it('agrees with a list of the newest entries through many rounds, with keys that share table slots', () => {
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) >>> 0);
    for (const capacity of [1, 3, 8, 50]) {
      const memory = new RecentHashes(capacity);
      const added: { hash: string; number: number }[] = [];
      for (let n = 0; n < capacity * 40; n++) {
        // Few distinct low words: many keys probe from the same home slot.
        const hash = hashOf(random() & 0xff, random() % 5);
        memory.add(hash, n);
        added.push({ hash, number: n });
        const newest = added.slice(-capacity);
        assert.equal(memory.size, newest.length);
        for (const probe of added.slice(-capacity * 2)) {
          const expected = newest.filter((entry) => entry.hash === probe.hash).at(-1)?.number;
          assert.equal(memory.find(probe.hash), expected, `capacity ${capacity}, after ${n + 1} adds, ${probe.hash.slice(0, 18)}`);
        }
      }
    }
  });

  it('refuses a capacity below one', () => {
    assert.throws(() => new RecentHashes(0), /at least 1/);
  });
});
