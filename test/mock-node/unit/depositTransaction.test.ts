// The OP Stack deposit codec (mock-node/encoding/depositTransaction.ts) against an independent one:
// viem's op-stack serializer and source-hash helper, on fixed and random deposits.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { keccak256 } from 'viem';
import { getSourceHash, serializeTransaction } from 'viem/op-stack';
import {
  decodeDepositTransaction,
  depositTransactionHash,
  encodeDepositTransaction,
  L1_ATTRIBUTES_DEPOSITOR,
  l1InfoDepositSourceHash,
  userDepositSourceHash,
  type DepositTransactionFields,
} from '../../../mock-node/encoding/depositTransaction';
import { ChainError } from '../../../mock-node/encoding/errors';

const hex = (bytes: Uint8Array): `0x${string}` => `0x${Buffer.from(bytes).toString('hex')}`;
const random = (n: number): `0x${string}` => hex(randomBytes(n));

function viemBytes(f: DepositTransactionFields): `0x${string}` {
  return serializeTransaction({
    type: 'deposit',
    sourceHash: f.sourceHash as `0x${string}`,
    from: f.from as `0x${string}`,
    to: (f.to ?? undefined) as `0x${string}` | undefined,
    mint: f.mint,
    value: f.value,
    gas: f.gas,
    isSystemTx: f.isSystemTx,
    data: f.input as `0x${string}`,
  });
}

describe('OP Stack deposit transactions (type 0x7e)', () => {
  const l1Attributes: DepositTransactionFields = {
    sourceHash: l1InfoDepositSourceHash(`0x${'ab'.repeat(32)}`, 3n),
    from: L1_ATTRIBUTES_DEPOSITOR,
    to: '0x4200000000000000000000000000000000000015',
    mint: 0n,
    value: 0n,
    gas: 1_000_000n,
    isSystemTx: false,
    input: `0x098999be${'00'.repeat(160)}`,
  };

  it('encodes as viem does, and its hash is keccak256 of those bytes', () => {
    const ours = hex(encodeDepositTransaction(l1Attributes));
    assert.equal(ours, viemBytes(l1Attributes));
    assert.equal(depositTransactionHash(l1Attributes), keccak256(ours));
  });

  it('reads back every field of 200 random deposits (creations, mints, system flags)', () => {
    for (let i = 0; i < 200; i++) {
      const fields: DepositTransactionFields = {
        sourceHash: random(32),
        from: random(20),
        to: i % 7 === 0 ? null : random(20),
        mint: i % 3 === 0 ? 0n : BigInt(random(1 + (i % 16))),
        value: i % 4 === 0 ? 0n : BigInt(random(1 + (i % 20))),
        gas: BigInt(21_000 + i * 997),
        isSystemTx: i % 5 === 0,
        input: random(i % 9 === 0 ? 0 : i),
      };
      const bytes = encodeDepositTransaction(fields);
      assert.equal(hex(bytes), viemBytes(fields), `deposit ${i}`);
      assert.deepEqual(decodeDepositTransaction(bytes), fields, `deposit ${i}`);
    }
  });

  it('source hashes follow the spec (viem getSourceHash): L1-attributes and user deposits', () => {
    const l1BlockHash = random(32);
    assert.equal(l1InfoDepositSourceHash(l1BlockHash, 5n), getSourceHash({ domain: 'l1InfoDeposit', l1BlockHash, sequenceNumber: 5 }));
    assert.equal(userDepositSourceHash(l1BlockHash, 17n), getSourceHash({ domain: 'userDeposit', l1BlockHash, l1LogIndex: 17 }));
  });

  it('refuses malformed bytes with an undecodable-transaction error, naming the problem', () => {
    const good = encodeDepositTransaction(l1Attributes);
    const cases: [Uint8Array, RegExp][] = [
      [Uint8Array.of(0x02, ...good.subarray(1)), /type byte is 0x2/],
      [good.subarray(0, good.length - 3), /deposit transaction/],
      [Uint8Array.of(0x7e, 0xc0), /8 fields/],
    ];
    for (const [bytes, reason] of cases) {
      assert.throws(() => decodeDepositTransaction(bytes), (error: unknown) => error instanceof ChainError && error.fault.kind === 'undecodable-transaction' && reason.test((error.fault as { reason: string }).reason));
    }
  });
});
