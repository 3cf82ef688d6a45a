import * as assert from 'node:assert/strict';
import { mergeActivity } from '../../extension/explorer/activity';

const log = (block: number, index: number, hash = `0x${block.toString(16).padStart(64, 'a')}`) => ({
  blockNumber: `0x${block.toString(16)}`, blockHash: hash, logIndex: `0x${index.toString(16)}`, transactionHash: `0x${'1'.repeat(63)}${index}`, removed: false,
});
const shape = (logs: Record<string, unknown>[]) => logs.map((l) => `${Number(l.blockNumber)}.${Number(l.logIndex)}${l.removed ? ' removed' : ''}`);

describe('activity (a log filter following the last blocks)', () => {
  it('accumulates new matches newest first and keeps the ones already seen once', () => {
    const first = mergeActivity([], [log(10, 0), log(11, 0)], 0n, 0n);
    const second = mergeActivity(first, [log(11, 0), log(12, 0), log(12, 1)], 11n, 0n);
    assert.deepEqual(shape(second), ['12.1', '12.0', '11.0', '10.0']);
  });

  it('turns a log a reorg dropped into a removed replay, above the log that replaced it', () => {
    const before = mergeActivity([], [log(10, 0), log(11, 0)], 0n, 0n);
    const after = mergeActivity(before, [log(11, 0, `0x${'b'.repeat(64)}`), log(12, 0)], 11n, 0n);
    assert.deepEqual(shape(after), ['12.0', '11.0 removed', '11.0', '10.0']);
    assert.deepEqual(shape(mergeActivity(after, [log(11, 0, `0x${'b'.repeat(64)}`), log(12, 0)], 11n, 0n)), ['12.0', '11.0 removed', '11.0', '10.0'], 'the replay is shown once');
  });

  it('leaves logs outside the re-read range alone and drops those older than the window', () => {
    const before = mergeActivity([], [log(5, 0), log(10, 0)], 0n, 0n);
    assert.deepEqual(shape(mergeActivity(before, [], 9n, 6n)), ['10.0 removed']);
    assert.deepEqual(shape(mergeActivity(before, [], 11n, 0n)), ['10.0', '5.0']);
  });
});
