// The node's transaction encoder (eth_fillTransaction's `raw`) against ethers: random signed
// transactions of every type, decoded by ethers into the node's record, encode to the same bytes;
// and with the empty signature eth_fillTransaction attaches (r = s = 0).
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { Signature, Transaction, Wallet, ZeroHash, hexlify } from 'ethers';
import { encodeTransaction } from '../../../mock-node/encoding/transactionEncoding';
import { fromEthers } from '../../../mock-node/execution/transaction';

const randomInt = (max: number) => Math.floor(Math.random() * max);
const randomBig = (bytes: number) => (bytes === 0 ? 0n : BigInt(hexlify(randomBytes(bytes))));

function randomUnsigned(i: number): Transaction {
  const type = i % 3;
  const accessList = type === 0 || i % 2 ? undefined : Array.from({ length: randomInt(3) }, () => ({
    address: hexlify(randomBytes(20)),
    storageKeys: Array.from({ length: randomInt(3) }, () => hexlify(randomBytes(32))),
  }));
  return Transaction.from({
    type,
    chainId: BigInt(1 + randomInt(100_000)),
    nonce: i % 5 === 0 ? 0 : randomInt(2 ** 40),
    to: i % 7 === 0 ? null : hexlify(randomBytes(20)),
    value: randomBig(randomInt(20)),
    data: hexlify(randomBytes(i % 6 === 0 ? 0 : randomInt(300))),
    gasLimit: randomBig(1 + randomInt(4)),
    ...(type === 2 ? { maxPriorityFeePerGas: randomBig(randomInt(5)), maxFeePerGas: randomBig(6) } : { gasPrice: randomBig(randomInt(8)) }),
    ...(accessList ? { accessList } : {}),
  });
}

describe('transaction encoding: the node encodes as ethers serializes', () => {
  it('300 random signed transactions of every type, EIP-155 legacy included', () => {
    const wallet = new Wallet(hexlify(randomBytes(32)));
    for (let i = 0; i < 300; i++) {
      const tx = randomUnsigned(i);
      tx.signature = wallet.signingKey.sign(tx.unsignedHash);
      const serialized = tx.serialized.toLowerCase();
      const record = fromEthers(Transaction.from(serialized), serialized);
      assert.equal(encodeTransaction(record), serialized, `transaction ${i} (type ${tx.type})`);
    }
  });

  it('with the empty signature of eth_fillTransaction (r = s = 0, yParity 0, a legacy v of 2 × chainId + 35)', () => {
    for (let i = 0; i < 60; i++) {
      const tx = randomUnsigned(i);
      tx.signature = Signature.from({ r: ZeroHash, s: ZeroHash, yParity: 0 });
      const serialized = tx.serialized.toLowerCase();
      const record = fromEthers(tx, serialized, '0x' + '11'.repeat(20));
      if (tx.type === 0) assert.equal(record.v, tx.chainId * 2n + 35n);
      assert.equal(encodeTransaction(record), serialized, `transaction ${i} (type ${tx.type})`);
    }
  });
});
