import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { Transaction, Wallet, hexlify } from 'ethers';
import { ChainError } from '../../../mock-node/encoding/errors';
import { decodeLean, decodeRawTransaction, decodeWithEthers } from '../../../mock-node/execution/transaction';

function randomInt(max: number): number {
  return Math.floor(Math.random() * max);
}

function randomBig(bytes: number): bigint {
  return bytes === 0 ? 0n : BigInt(hexlify(randomBytes(bytes)));
}

/** A random signed transaction of type 0 (pre-EIP-155 or not), 1 or 2. */
function randomSigned(wallet: Wallet, i: number): string {
  const type = i % 4 === 3 ? 0 : i % 3;
  const accessList = type === 0 || i % 2 ? undefined : Array.from({ length: randomInt(3) }, () => ({
    address: hexlify(randomBytes(20)),
    storageKeys: Array.from({ length: randomInt(3) }, () => hexlify(randomBytes(32))),
  }));
  const tx = Transaction.from({
    type,
    chainId: i % 4 === 3 ? 0n : BigInt(1 + randomInt(100_000)),
    nonce: i % 5 === 0 ? 0 : randomInt(2 ** 40),
    to: i % 7 === 0 ? null : hexlify(randomBytes(20)),
    value: randomBig(randomInt(20)),
    data: hexlify(randomBytes(i % 6 === 0 ? 0 : randomInt(300))),
    gasLimit: randomBig(1 + randomInt(4)),
    ...(type === 2 ? { maxPriorityFeePerGas: randomBig(randomInt(5)), maxFeePerGas: randomBig(6) } : { gasPrice: randomBig(randomInt(8)) }),
    ...(accessList ? { accessList } : {}),
  });
  tx.signature = wallet.signingKey.sign(tx.unsignedHash);
  return tx.serialized;
}

describe('transaction decoding: the lean decoder and ethers agree', () => {
  it('on 400 random signed transactions of every type: every field, the hash and the sender', () => {
    const wallets = Array.from({ length: 4 }, () => new Wallet(hexlify(randomBytes(32))));
    for (let i = 0; i < 400; i++) {
      const wallet = wallets[i % wallets.length];
      const raw = randomSigned(wallet, i);
      const lean = decodeLean(raw);
      assert.ok(lean, `transaction ${i} (${raw.slice(0, 12)}…) read by the lean decoder`);
      assert.deepEqual(lean, decodeWithEthers(raw), `transaction ${i}`);
      assert.equal(lean.from, wallet.address.toLowerCase());
    }
  });

  it('a record keeps its fields after later decodes (the decoder reuses its byte array: nothing it returns may view it)', () => {
    const wallet = new Wallet(hexlify(randomBytes(32)));
    const raws = Array.from({ length: 60 }, (_, i) => randomSigned(wallet, i));
    const records = raws.map((raw) => decodeLean(raw));
    raws.forEach((raw, i) => assert.deepEqual(records[i], decodeWithEthers(raw), `transaction ${i}, read before the 59 others`));
  });

  it('malformed input is refused by both with a ChainError, and a truncated, padded or retyped transaction is never read', () => {
    const raw = randomSigned(new Wallet(hexlify(randomBytes(32))), 2);
    const cases = [raw.slice(0, -2), raw + '00', '0x05' + raw.slice(4), '0x02c0', '0x02', '0xc0', '0x' + 'ff'.repeat(40)];
    for (const bad of cases) {
      assert.equal(decodeLean(bad), undefined, bad.slice(0, 20));
      assert.throws(() => decodeRawTransaction(bad), (error: unknown) => error instanceof ChainError, bad.slice(0, 20));
    }
  });

  it('a signature that matches no key is refused, as ethers refuses it', () => {
    const tx = Transaction.from(randomSigned(new Wallet(hexlify(randomBytes(32))), 2));
    const broken = tx.clone();
    broken.signature = { r: '0x' + 'ff'.repeat(32), s: tx.signature!.s, v: tx.signature!.v };
    for (const decode of [decodeRawTransaction, decodeWithEthers]) assert.throws(() => decode(broken.serialized), ChainError);
  });
});
