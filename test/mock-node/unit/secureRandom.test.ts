// mock-node/secureRandom.ts: random identifiers from the kernel's generator without node:crypto.
import { strict as assert } from 'node:assert';
import { randomSourceIsKernel, secureRandomBytes, secureRandomHex } from '../../../mock-node/secureRandom';

describe('secureRandom', () => {
  it('hands out the byte counts asked for, as lowercase hex', () => {
    for (const bytes of [0, 1, 4, 12, 16, 32, 4096, 5000]) {
      assert.equal(secureRandomBytes(bytes).length, bytes);
      assert.match(secureRandomHex(bytes), new RegExp(`^[0-9a-f]{${bytes * 2}}$`));
    }
  });

  it('never repeats an identifier (10,000 of 16 bytes, across several pool refills)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) seen.add(secureRandomHex(16));
    assert.equal(seen.size, 10_000);
  });

  it('looks uniform: each bit set about half the time over 64 KiB', () => {
    const sample = Buffer.concat(Array.from({ length: 16 }, () => secureRandomBytes(4096)));
    let ones = 0;
    for (const byte of sample) for (let bit = 0; bit < 8; bit++) ones += (byte >> bit) & 1;
    const share = ones / (sample.length * 8);
    assert.ok(share > 0.49 && share < 0.51, `share of one bits ${share}`);
    assert.notDeepEqual(sample.subarray(0, 32), Buffer.alloc(32));
  });

  it('reads the kernel generator where /dev/urandom exists', () => {
    secureRandomHex(8);
    assert.equal(randomSourceIsKernel(), process.platform !== 'win32');
  });

  it('refuses a count that is not a byte count', () => {
    assert.throws(() => secureRandomBytes(-1), RangeError);
    assert.throws(() => secureRandomBytes(1.5), RangeError);
  });
});
