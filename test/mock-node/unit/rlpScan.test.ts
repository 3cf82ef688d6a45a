// The lean RLP reader (mock-node/encoding/rlp.ts): decodeRlpBytes gives ethers' answer on random
// nested items, and scanList, which reads only a list's direct items as positions (the intake
// decoder's fast path), finds the same items as the full decode and refuses the same malformed input.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { decodeRlp, encodeRlp, hexlify, type RlpStructuredData } from 'ethers';
import { decodeRlpBytes, isList, ListScan, RlpError, scanList, type RlpValue } from '../../../mock-node/encoding/rlp';

const rand = (max: number) => Math.floor(Math.random() * max);

function randomItem(depth: number): RlpStructuredData {
  if (depth > 2 || rand(3) > 0) {
    const length = [0, 1, 1, 20, 32, 55, 56, 200, 300][rand(9)];
    return hexlify(randomBytes(length));
  }
  return Array.from({ length: rand(6) }, () => randomItem(depth + 1));
}

function plain(value: RlpValue): RlpStructuredData {
  return isList(value) ? value.items.map(plain) : hexlify(value);
}

describe('RLP: the full decode and the list scan', () => {
  it('decodes 300 random nested items as ethers does, and the scan finds each list\'s direct items where the decode put them', () => {
    for (let i = 0; i < 300; i++) {
      const items = Array.from({ length: rand(13) }, () => randomItem(1));
      const encoded = Buffer.from(encodeRlp(items).slice(2), 'hex');
      const decoded = decodeRlpBytes(encoded);
      assert.deepEqual(plain(decoded), decodeRlp(encodeRlp(items)));
      assert.ok(isList(decoded));
      const scan = new ListScan(12);
      if (items.length > 12) {
        assert.equal(scanList(encoded, scan), false, 'more items than the scan holds');
        continue;
      }
      assert.equal(scanList(encoded, scan), true);
      assert.equal(scan.count, decoded.items.length);
      for (let k = 0; k < scan.count; k++) {
        assert.equal(scan.starts[k], decoded.starts[k]);
        assert.equal(scan.ends[k], decoded.ends[k]);
        assert.equal(scan.lists[k] === 1, isList(decoded.items[k]));
        if (!isList(decoded.items[k])) assert.equal(hexlify(encoded.subarray(scan.payloadStarts[k], scan.ends[k])), hexlify(decoded.items[k] as Uint8Array));
      }
    }
  });

  it('a string is not a list to scan; malformed lists are refused by both with an RlpError', () => {
    assert.equal(scanList(Buffer.from('8401020304', 'hex'), new ListScan(4)), false);
    const bad = [
      'c3010203ff', // trailing bytes
      'c48101', // an item past the end
      'c28101', // a single byte under 0x80 wrapped as a string
      'f80101', // the long form for a short list
      'c2b90000', // a length with a leading zero
      'c3c5010203', // an item past its list
    ];
    for (const hex of bad) {
      const data = Buffer.from(hex, 'hex');
      assert.throws(() => decodeRlpBytes(data), RlpError, hex);
      assert.throws(() => scanList(data, new ListScan(12)), RlpError, hex);
    }
  });
});
