// The hex and Latin-1 codecs of the intake path (mock-node/chain/bufferCodec.ts, on Node's own
// Buffer codec methods) give what Buffer's public API gives, on plain Uint8Arrays and Buffers.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { latin1Text, writeHex } from '../../../mock-node/encoding/bufferCodec';
import { hexBytes } from '../../../mock-node/encoding/bytes';
import { flatHex } from '../../../mock-node/encoding/flatHex';

describe('buffer codec: hex in, Latin-1 out', () => {
  it('writeHex writes the bytes Buffer.from(hex) reads, and says how many (up to the first pair that is not hex)', () => {
    for (const length of [0, 1, 2, 20, 32, 115, 300]) {
      const bytes = randomBytes(length);
      const target = new Uint8Array(length);
      assert.equal(writeHex(target, bytes.toString('hex')), length);
      assert.deepEqual(Buffer.from(target), bytes);
    }
    const target = new Uint8Array(4);
    assert.equal(writeHex(target, 'aabbzz11'), 2);
    assert.deepEqual([...target.subarray(0, 2)], [0xaa, 0xbb]);
    assert.equal(writeHex(new Uint8Array(2), 'aabbccdd'), 2, 'never past the target');
  });

  it('hexBytes answers as Buffer.from(hex.slice(2), "hex") did, invalid digits included', () => {
    for (const hex of ['', '0', '0x', '0x0', '0x00', '0xdeadbeef', '0x' + randomBytes(64).toString('hex'), '0xabzz', '0xABCD', '0x123']) {
      assert.deepEqual(Buffer.from(hexBytes(hex)), Buffer.from(hex.slice(2), 'hex'), hex);
    }
  });

  it('latin1Text reads any range of a Uint8Array or a Buffer, one character a byte', () => {
    const bytes = randomBytes(300);
    const plain = new Uint8Array(bytes);
    for (const [start, end] of [[0, 0], [0, 300], [17, 18], [100, 256]]) {
      assert.equal(latin1Text(plain, start, end), bytes.toString('latin1', start, end));
      assert.equal(latin1Text(bytes, start, end), bytes.toString('latin1', start, end));
    }
    assert.equal(flatHex(plain, 3, 40), '0x' + bytes.toString('hex', 3, 40));
  });
});
