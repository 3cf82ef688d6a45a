// Two pieces of the intake path written for V8's optimizer (no branch that first runs late):
// a receipt without logs is written into one array (chain/blockInProgress.ts), and the queue
// keeps a sender whose last transaction left at a count of 0 (chain/transactionQueue.ts). Each
// must give what the plain code gave: the receipt's consensus encoding as ethers encodes it, and
// the queue's counts through senders that come and go.
import { strict as assert } from 'node:assert';
import { concat, encodeRlp, hexlify, toBeArray } from 'ethers';
import { encodeReceipt } from '../../../mock-node/chain/blockInProgress';
import { EMPTY_LOGS_BLOOM } from '../../../mock-node/encoding/bloom';
import { TransactionQueue } from '../../../mock-node/chain/transactionQueue';
import type { ReceiptRecord, TransactionRecord } from '../../../mock-node/chain/types';

function receipt(status: 0 | 1, cumulativeGasUsed: bigint): ReceiptRecord {
  return { status, gasUsed: 21_000n, effectiveGasPrice: 1n, logs: [], contractAddress: null, cumulativeGasUsed, logsBloom: EMPTY_LOGS_BLOOM };
}

/** The reference: rlp([status, cumulativeGasUsed, bloom, []]), after the type byte for a typed transaction. */
function reference(type: number, status: 0 | 1, cumulativeGasUsed: bigint): string {
  const body = encodeRlp([status === 1 ? '0x01' : '0x', hexlify(toBeArray(cumulativeGasUsed)), EMPTY_LOGS_BLOOM, []]);
  return type === 0 ? body : hexlify(concat([new Uint8Array([type]), body]));
}

describe('intake: receipts without logs, and the queue\'s per-sender counts', () => {
  it('a receipt without logs encodes as ethers encodes it, for every type, status and gas size', () => {
    const gases = [0n, 1n, 0x7fn, 0x80n, 0xffn, 21_000n, 0xffffffn, 30_000_000n, 2n ** 63n, 2n ** 256n - 1n];
    for (const type of [0, 1, 2])
      for (const status of [0, 1] as const)
        for (const gas of gases) assert.equal(encodeReceipt(type, receipt(status, gas)), reference(type, status, gas), `type ${type} status ${status} gas ${gas}`);
  });

  it('counts per sender stay right as senders empty their queue and come back, past the idle senders it keeps', () => {
    const queue = new TransactionQueue();
    const tx = (sender: number, nonce: number): TransactionRecord =>
      ({ hash: `0x${sender.toString(16).padStart(8, '0')}${nonce.toString(16).padStart(56, '0')}`, from: `0x${sender.toString(16).padStart(40, '0')}`, nonce: BigInt(nonce) }) as TransactionRecord;
    // 3,000 senders, each queues two transactions and sees both leave (more idle senders than the queue keeps).
    for (let s = 0; s < 3_000; s++) {
      const a = tx(s, 0);
      const b = tx(s, 1);
      queue.add(a);
      queue.add(b);
      assert.equal(queue.countFrom(a.from), 2);
      queue.remove(a);
      assert.equal(queue.countFrom(a.from), 1);
      queue.remove(b);
      assert.equal(queue.countFrom(a.from), 0);
      queue.remove(b); // not queued any more: nothing changes
      assert.equal(queue.countFrom(a.from), 0);
    }
    assert.equal(queue.size, 0);
    // Senders come back, forgotten or not: their counts start again from 0.
    for (const s of [0, 1, 2_999]) {
      queue.add(tx(s, 5));
      assert.equal(queue.countFrom(tx(s, 5).from), 1);
    }
    // A replacement (same sender and nonce) keeps the count.
    queue.add({ ...tx(0, 5), hash: '0x' + 'ee'.repeat(32) } as TransactionRecord);
    assert.equal(queue.countFrom(tx(0, 5).from), 1);
    assert.equal(queue.size, 3);
  });
});
