import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { flatHex } from '../../../mock-node/encoding/flatHex';

describe('flatHex: 0x-hex of bytes as one string', () => {
  it('equals Buffer hex for every length 0 to 200 and any sub-range, the long ones too', () => {
    for (let length = 0; length <= 200; length++) {
      const bytes = randomBytes(length + 10);
      const start = length % 7;
      const end = start + length;
      assert.equal(flatHex(bytes, start, end), '0x' + bytes.toString('hex', start, end), `${length} bytes`);
    }
    const view = new Uint8Array(randomBytes(64).buffer, 8, 32);
    assert.equal(flatHex(view), '0x' + Buffer.from(view).toString('hex'));
    assert.equal(flatHex(Uint8Array.of(0x00, 0x0f, 0xf0, 0xff)), '0x000ff0ff');
  });

  it('puts leading zero bytes before the bytes, short and long, and leaves no zeros of a longer value behind', () => {
    for (const [zeros, length] of [[0, 0], [1, 0], [12, 20], [31, 1], [32, 0], [100, 28], [100, 29], [0, 129], [255, 300]]) {
      const bytes = randomBytes(length + 4);
      assert.equal(flatHex(bytes, 2, 2 + length, zeros), '0x' + '00'.repeat(zeros) + bytes.toString('hex', 2, 2 + length), `${zeros} zeros, ${length} bytes`);
      // The next value written without zeros: the scratch space holds nothing of this one.
      assert.equal(flatHex(Uint8Array.of(0xab)), '0xab');
    }
  });
});
