// blockSize() sums the body's transaction bytes as they are appended instead of re-encoding the
// block: checked against encoding [header, transactions, uncles, withdrawals] in full, across
// the RLP length-prefix boundaries (short and long strings and lists, 1- to 3-byte lengths).
import assert from 'node:assert/strict';
import { decodeRlp, encodeRlp, hexlify, randomBytes } from 'ethers';
import { blockSize, bodyTransactionBytes, headerFields, type BlockHeader } from '../../../mock-node/encoding/header';

const HASH = '0x' + '11'.repeat(32);
const header: BlockHeader = {
  parentHash: HASH, sha3Uncles: HASH, miner: '0x' + '22'.repeat(20), stateRoot: HASH, transactionsRoot: HASH, receiptsRoot: HASH,
  logsBloom: '0x' + '00'.repeat(256), difficulty: 0n, number: 12345n, gasLimit: 30_000_000n, gasUsed: 21_000n, timestamp: 1_700_000_000n,
  extraData: '0x00000000fa00000006', mixHash: HASH, nonce: '0x0000000000000000', baseFeePerGas: 1_000_000_000n, withdrawalsRoot: HASH,
  blobGasUsed: 0n, excessBlobGas: 0n, parentBeaconBlockRoot: HASH, requestsHash: HASH,
};

/** A typed transaction's encoding of `bytes` bytes (type byte 0x02 first). */
const typed = (bytes: number) => '0x02' + hexlify(randomBytes(bytes - 1)).slice(2);
/** A legacy transaction: an RLP list whose payload is one string of `payload` bytes. */
const legacy = (payload: number) => encodeRlp([hexlify(randomBytes(payload))]);

function fullEncodingSize(encoded: string[]): number {
  const body = encoded.map((tx) => (parseInt(tx.slice(2, 4), 16) < 0x80 ? tx : decodeRlp(tx)));
  return (encodeRlp([headerFields(header), body, [], []]).length - 2) / 2;
}

describe('blockSize (incremental)', () => {
  const cases: [string, string[]][] = [
    ['no transactions', []],
    ['one short typed transaction', [typed(40)]],
    ['typed at the 55/56-byte string boundary', [typed(55), typed(56)]],
    ['legacy lists short and long', [legacy(10), legacy(53), legacy(54), legacy(300)]],
    ['a body over 255 bytes', Array.from({ length: 3 }, () => typed(110))],
    ['a body over 65,535 bytes', Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? legacy(200 + (i % 50)) : typed(230 + (i % 20))))],
  ];
  for (const [name, encoded] of cases) {
    it(name, () => {
      const bytes = encoded.reduce((sum, tx) => sum + bodyTransactionBytes(tx), 0);
      assert.equal(blockSize(header, bytes), fullEncodingSize(encoded));
    });
  }
});
