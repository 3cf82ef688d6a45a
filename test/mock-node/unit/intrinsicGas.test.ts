// Intrinsic gas and the EIP-7623 floor (mock-node/execution/intrinsicGas.ts) from calldata counted
// on its hex text: the same figures as a byte-by-byte count, for one input asked twice in a row and
// for mixed case, and bad hex still refused.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { calldataFloorGas, intrinsicGas, transactionIntrinsicGas } from '../../../mock-node/execution/intrinsicGas';

function byteCount(hex: string): { zero: bigint; nonZero: bigint } {
  const bytes = Buffer.from(hex.slice(2), 'hex');
  const zero = BigInt(bytes.filter((b) => b === 0).length);
  return { zero, nonZero: BigInt(bytes.length) - zero };
}

describe('intrinsic gas from calldata', () => {
  it('matches a byte-by-byte count for random, zero-heavy and empty calldata (each asked twice)', () => {
    const inputs = ['0x', '0x00', '0x0a', '0xa0', '0x00ff00', '0x' + '00'.repeat(100)];
    for (let i = 0; i < 50; i++) {
      const bytes = randomBytes(i * 3);
      for (let j = 0; j < bytes.length; j += 2) bytes[j] = 0;
      inputs.push('0x' + bytes.toString('hex'));
    }
    for (const input of inputs) {
      const { zero, nonZero } = byteCount(input);
      for (let twice = 0; twice < 2; twice++) {
        assert.equal(intrinsicGas(input, null), 21_000n + 4n * zero + 16n * nonZero, input);
        assert.equal(calldataFloorGas(input), 21_000n + 10n * (zero + 4n * nonZero), input);
      }
    }
    assert.equal(intrinsicGas('0xAB00Cd', [{ address: '0x' + '11'.repeat(20), storageKeys: ['0x' + '22'.repeat(32)] }]), 21_000n + 4n + 32n + 2_400n + 1_900n);
    assert.equal(transactionIntrinsicGas(null, '0x' + 'ff'.repeat(33), null), 21_000n + 33n * 16n + 32_000n + 2n * 2n);
  });

  it('refuses calldata that is not whole bytes of hex', () => {
    for (const bad of ['0x0', '0xzz', 'ab', '0x12 3']) assert.throws(() => intrinsicGas(bad, null), Error, bad);
  });
});
