// Sealed blocks keep transactions, receipts and logs as compact bytes (chain/sealedBody.ts) and
// render them on read: every record must come back exactly as the builder made it, for every
// transaction type, impersonated senders, creations, failures with and without a reason, and
// logs of every shape; a record the bytes cannot give back is kept whole. The hash index finds
// every hash, forgets removed ones, and survives growth and removals.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { Transaction, Wallet, hexlify } from 'ethers';
import { bloomOfLogs } from '../../../mock-node/encoding/bloom';
import { HashIndex } from '../../../mock-node/chain/hashIndex';
import { SealedBlock } from '../../../mock-node/chain/sealedBlock';
import type { IncludedTransaction, LogRecord, ReceiptRecord } from '../../../mock-node/chain/types';
import { readsBackFromBytes, sameTransaction, transactionFromBytes } from '../../../mock-node/encoding/sealedTransaction';
import { decodeLean, decodeRawTransaction, decodeWithEthers, impersonatedTransaction } from '../../../mock-node/execution/transaction';
import type { BlockHeader } from '../../../mock-node/encoding/header';
import type { StateLayer } from '../../../mock-node/state/worldState';

const rand = (max: number) => Math.floor(Math.random() * max);
const hex = (bytes: number) => hexlify(randomBytes(bytes));

function signed(wallet: Wallet, i: number): string {
  const type = i % 4 === 3 ? 0 : i % 3;
  const tx = Transaction.from({
    type,
    chainId: i % 8 === 3 ? 0n : BigInt(1 + rand(100_000)),
    nonce: rand(1000),
    to: i % 5 === 0 ? null : hex(20),
    value: BigInt(rand(1e9)),
    data: hex(i % 6 === 0 ? 0 : rand(200)),
    gasLimit: BigInt(21_000 + rand(1e6)),
    ...(type === 2 ? { maxPriorityFeePerGas: BigInt(rand(1e9)), maxFeePerGas: BigInt(1e9 + rand(1e9)) } : { gasPrice: BigInt(rand(1e10)) }),
    ...(type !== 0 && i % 2 ? { accessList: [{ address: hex(20), storageKeys: [hex(32), hex(32)] }] } : {}),
  });
  tx.signature = wallet.signingKey.sign(tx.unsignedHash);
  return tx.serialized;
}

function logsFor(count: number, firstLog: number, index: number, hash: string): LogRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    address: hex(20),
    topics: Array.from({ length: rand(5) }, () => hex(32)),
    data: hex(rand(3) === 0 ? 0 : rand(100)),
    logIndex: firstLog + i,
    transactionIndex: index,
    transactionHash: hash,
  }));
}

function blockOf(transactions: IncludedTransaction[]): SealedBlock {
  const logs = transactions.flatMap((item) => item.receipt.logs);
  const header = { number: 7n, logsBloom: bloomOfLogs(logs) } as unknown as BlockHeader;
  return new SealedBlock(header, hex(32), 1000, 3, {} as StateLayer, transactions, logs);
}

function randomBlock(count: number): IncludedTransaction[] {
  const wallet = new Wallet(hex(32));
  const items: IncludedTransaction[] = [];
  let logCount = 0;
  let gas = 0n;
  for (let i = 0; i < count; i++) {
    const tx = i % 9 === 4 ? impersonatedTransaction(Transaction.from({ type: 2, chainId: 31337n, to: hex(20), gasLimit: 21000n, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n, nonce: i }), hex(20)) : decodeRawTransaction(signed(wallet, i));
    const logs = logsFor(rand(4), logCount, i, tx.hash);
    logCount += logs.length;
    const gasUsed = BigInt(21_000 + rand(100_000));
    gas += gasUsed;
    const receipt: ReceiptRecord = {
      status: i % 7 === 2 ? 0 : 1,
      gasUsed,
      cumulativeGasUsed: gas,
      effectiveGasPrice: BigInt(rand(1e12)),
      logs,
      logsBloom: bloomOfLogs(logs),
      contractAddress: tx.to === null ? hex(20) : null,
    };
    if (i % 7 === 2) {
      receipt.revertData = hex(rand(80));
      // As the builder makes it: the key is there, its value undefined when there is no reason string.
      receipt.revertReason = i % 14 === 2 ? 'ERC20: transfer amount exceeds balance ✓' : undefined;
    }
    items.push({ tx, receipt, index: i });
  }
  return items;
}

/** Every field a read can see, the lazily computed bloom included. */
function plain(items: readonly IncludedTransaction[]): unknown {
  return items.map(({ tx, receipt, index }) => ({
    tx: { ...tx },
    index,
    receipt: {
      status: receipt.status,
      gasUsed: receipt.gasUsed,
      cumulativeGasUsed: receipt.cumulativeGasUsed,
      effectiveGasPrice: receipt.effectiveGasPrice,
      logs: receipt.logs.map((log) => ({ ...log })),
      logsBloom: receipt.logsBloom,
      contractAddress: receipt.contractAddress,
      hasReason: 'revertReason' in receipt,
      revertReason: receipt.revertReason,
      hasData: 'revertData' in receipt,
      revertData: receipt.revertData,
    },
  }));
}

describe('sealed blocks: compact bytes that render back exactly', () => {
  it('gives back every transaction, receipt and log of 3 random blocks, whole and one by one', () => {
    for (let round = 0; round < 3; round++) {
      const items = randomBlock(30);
      const block = blockOf(items);
      const expected = plain(items);
      const expectedLogs = items.flatMap((item) => item.receipt.logs.map((log) => ({ ...log })));
      block.forgetRendered();
      // The logs alone first (eth_getLogs reads them without decoding the transactions).
      assert.deepEqual(block.logs.map((log) => ({ ...log })), expectedLogs);
      assert.deepEqual(plain(block.transactions), expected);
      assert.deepEqual(block.logs.map((log) => ({ ...log })), items.flatMap((item) => item.receipt.logs.map((log) => ({ ...log }))));
      assert.notEqual(block.transactions[0], items[0], 'rendered from bytes, not the builder\'s objects');
      block.forgetRendered();
      for (let i = 0; i < items.length; i++) {
        assert.equal(block.transactionHash(i), items[i].tx.hash);
        assert.ok(block.hasTransactionAt(i, items[i].tx.hash));
        assert.deepEqual(plain([block.transactionAt(i)]), plain([items[i]]));
      }
      assert.equal(block.transactionCount, items.length);
      assert.equal(block.logCount, items.reduce((n, item) => n + item.receipt.logs.length, 0));
    }
  });

  it('a just-sealed block answers with the builder\'s own records until it leaves the cache', () => {
    const items = randomBlock(3);
    const block = blockOf(items);
    assert.equal(block.transactions[1], items[1]);
  });

  it('packs a sealed block\'s bytes on the next turn of the event loop, not on the tick that sealed it; at most two wait', async () => {
    const items = randomBlock(4);
    const block = blockOf(items);
    assert.equal(block.isPacked, false, 'not packed while the seal runs');
    assert.equal(block.transactionCount, 4);
    assert.ok(block.hasTransactionAt(2, items[2].tx.hash));
    assert.equal(block.transactionHash(3), items[3].tx.hash);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(block.isPacked, true, 'packed on the next turn');
    const [first, second, third] = [blockOf(randomBlock(2)), blockOf(randomBlock(2)), blockOf(randomBlock(2))];
    assert.deepEqual([first.isPacked, second.isPacked, third.isPacked], [true, false, false], 'a third waiting block packs the oldest at once');
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual([second.isPacked, third.isPacked], [true, true]);
    block.forgetRendered();
    assert.deepEqual(plain(block.transactions), plain(items), 'renders back from its bytes');
  });

  it('keeps whole a record its bytes would not give back (a checksummed log address), the others compact', () => {
    const items = randomBlock(6);
    const odd = items[2];
    odd.receipt.logs.push({ address: '0xAbCd' + 'ef'.repeat(18), topics: [], data: '0x', logIndex: -1, transactionIndex: 2, transactionHash: odd.tx.hash });
    // Renumber the logs after it, as the builder would have.
    let n = 0;
    for (const item of items) for (const log of item.receipt.logs) log.logIndex = n++;
    const block = blockOf(items);
    block.forgetRendered();
    assert.deepEqual(block.logs.map((log) => ({ ...log })), items.flatMap((item) => item.receipt.logs.map((log) => ({ ...log }))), 'the logs alone, the kept record\'s included');
    assert.equal(block.transactions[2], odd, 'kept whole');
    assert.deepEqual(plain(block.transactions), plain(items));
    assert.deepEqual(block.logs.map((log) => log.logIndex), Array.from({ length: n }, (_, i) => i));
  });

  it('takes the lean decoder\'s records as they read back from their bytes (a full decode agrees), and checks a changed copy in full', () => {
    const wallet = new Wallet(hex(32));
    for (let i = 0; i < 200; i++) {
      const raw = signed(wallet, i);
      const lean = decodeLean(raw)!;
      assert.ok(lean, `transaction ${i} read by the lean decoder`);
      const full = transactionFromBytes(Buffer.from(lean.encoded.slice(2), 'hex'), lean.hash, lean.from);
      assert.ok(full && sameTransaction(full, lean), `transaction ${i}: the full decode gives back the lean record`);
      assert.ok(readsBackFromBytes(lean));
      // The same record from ethers is not known ahead: it is decoded and compared, and passes.
      assert.ok(readsBackFromBytes(decodeWithEthers(raw)));
    }
    const items = randomBlock(4).filter((item) => item.tx.to !== null);
    const original = items[1].tx;
    const changed = { ...original, input: original.input === '0x' ? '0x01' : '0x' };
    assert.equal(readsBackFromBytes(changed), false, 'a copy with a field changed is decoded and found different');
    items[1] = { ...items[1], tx: changed };
    items.forEach((item, index) => (item.index = index));
    const block = blockOf(items);
    block.forgetRendered();
    assert.equal(block.transactions[1].tx, changed, 'kept whole');
    assert.equal(block.transactions[1].tx.input, changed.input);
  });

  it('a block without transactions has no logs and renders nothing', () => {
    const block = blockOf([]);
    assert.equal(block.transactionCount, 0);
    assert.deepEqual(block.transactions, []);
    assert.deepEqual(block.logs, []);
  });
});

describe('the hash index', () => {
  it('finds 8,000 hashes, forgets removed ones, keeps the rest through growth and removals', () => {
    const index = new HashIndex(4);
    const hashes = Array.from({ length: 8_000 }, () => hex(32));
    hashes.forEach((hash, i) => index.add(hash, Math.floor(i / 50), i % 50));
    for (let i = 0; i < hashes.length; i += 2) index.remove(hashes[i], Math.floor(i / 50), i % 50);
    // Removals leave room that later additions reuse; the table rebuilds without them.
    const more = Array.from({ length: 2_000 }, () => hex(32));
    more.forEach((hash, i) => index.add(hash, 1_000_000 + i, 0));
    assert.equal(index.size, 6_000);
    hashes.forEach((hash, i) => {
      const found = index.find(hash);
      if (i % 2 === 0) assert.equal(found, undefined, `removed ${i}`);
      else assert.deepEqual(found, { block: Math.floor(i / 50), position: i % 50 });
    });
    more.forEach((hash, i) => assert.deepEqual(index.find(hash), { block: 1_000_000 + i, position: 0 }));
    assert.equal(index.find(hex(32)), undefined);
  });

  it('tells apart entries whose first 8 bytes agree through the caller\'s check', () => {
    const index = new HashIndex();
    const a = '0x' + '11'.repeat(8) + 'aa'.repeat(24);
    const b = '0x' + '11'.repeat(8) + 'bb'.repeat(24);
    index.add(a, 1, 0);
    index.add(b, 2, 5);
    assert.deepEqual(index.find(b, (entry) => entry.block === 2), { block: 2, position: 5 });
    index.remove(a, 1, 0);
    assert.deepEqual(index.find(a), { block: 2, position: 5 }, 'only the 8-byte key is kept: the caller checks the rest');
  });

  it('reads the key digits in either case, and keys differing in any one of the first 16 digits apart', () => {
    const index = new HashIndex();
    const hash = '0x0123456789abcdef' + 'ab'.repeat(24);
    index.add(hash, 7, 3);
    assert.deepEqual(index.find('0x0123456789ABCDEF' + 'AB'.repeat(24)), { block: 7, position: 3 });
    for (let digit = 2; digit < 18; digit++) {
      const other = hash.slice(0, digit) + (hash[digit] === 'f' ? 'e' : 'f') + hash.slice(digit + 1);
      assert.equal(index.find(other), undefined, `digit ${digit - 2} changed`);
    }
  });
});
