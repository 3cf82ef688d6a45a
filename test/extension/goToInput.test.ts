import * as assert from 'node:assert/strict';
import { describeTarget, parseGoTo } from '../../extension/explorer/goToInput';

const HASH = `0x${'Ab'.repeat(32)}`;
const ADDRESS = '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('Go to input', () => {
  it('reads block numbers in decimal, hex, with # or separators', () => {
    for (const [input, number] of [['12', 12n], ['#12', 12n], [' 1_000 ', 1000n], ['1,000', 1000n], ['0x1a', 26n], ['0', 0n]] as const) {
      assert.deepEqual(parseGoTo(input), { ok: true, target: { kind: 'block', number } }, input);
    }
  });

  it('reads tags in any case', () => {
    assert.deepEqual(parseGoTo('Latest'), { ok: true, target: { kind: 'tag', tag: 'latest' } });
    assert.deepEqual(parseGoTo('finalized'), { ok: true, target: { kind: 'tag', tag: 'finalized' } });
  });

  it('reads a 32-byte hash (transaction or block, decided by asking) and an address, lower-cased', () => {
    assert.deepEqual(parseGoTo(HASH), { ok: true, target: { kind: 'hash', hash: HASH.toLowerCase() } });
    assert.deepEqual(parseGoTo(` ${ADDRESS}\n`), { ok: true, target: { kind: 'address', address: ADDRESS.toLowerCase() } });
  });

  it('explains what is wrong with anything else', () => {
    const error = (input: string) => {
      const parsed = parseGoTo(input);
      assert.equal(parsed.ok, false, input);
      return parsed.ok ? '' : parsed.error;
    };
    assert.match(error(''), /type a block number/);
    assert.match(error(`0x${'a'.repeat(63)}`), /63 hex digits: a hash has 64, an address 40/);
    assert.match(error('0x1234567890abcdef12'), /18 hex digits/);
    assert.match(error('vitalik.eth'), /not a block number, hash or address: vitalik\.eth/);
    assert.match(error('99999999999999999999'), /too large/);
    assert.match(error('-5'), /not a block number/);
  });

  it('names targets briefly', () => {
    assert.equal(describeTarget({ kind: 'block', number: 5n }), 'block #5');
    assert.equal(describeTarget({ kind: 'address', address: ADDRESS.toLowerCase() }), 'address 0xf39fd6…b92266');
  });
});
