// A fork of an OP Stack chain whose blocks hold deposit transactions (type 0x7e). The upstream is
// a server in this test that serves such blocks (an L1-attributes deposit first in every block, as
// Base has), with the deposit's hash from the shared codec (encoding/depositTransaction.ts).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { depositTransactionHash, l1InfoDepositSourceHash, L1_ATTRIBUTES_DEPOSITOR, type DepositTransactionFields } from '../../../mock-node/encoding/depositTransaction';
import type { RunningMockNode } from '../../../mock-node/index';
import { rpc, startTestNode } from '../../helpers/rpc';

const HEAD = 16n;
const hex = (n: bigint) => `0x${n.toString(16)}`;
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
const L1_BLOCK = '0x4200000000000000000000000000000000000015';

function depositOf(number: bigint): DepositTransactionFields {
  return {
    sourceHash: l1InfoDepositSourceHash(word(0xabc000n + number), 0n),
    from: L1_ATTRIBUTES_DEPOSITOR,
    to: L1_BLOCK,
    mint: 0n,
    value: 0n,
    gas: 1_000_000n,
    isSystemTx: false,
    input: '0x098999be' + '00'.repeat(32) + number.toString(16).padStart(8, '0'),
  };
}

function blockHash(number: bigint): string {
  return word(0xb10c0000n + number);
}

function transactionOf(number: bigint): Record<string, unknown> {
  const fields = depositOf(number);
  return {
    type: '0x7e', hash: depositTransactionHash(fields), blockHash: blockHash(number), blockNumber: hex(number), transactionIndex: '0x0',
    from: fields.from, to: fields.to, sourceHash: fields.sourceHash, mint: hex(fields.mint), value: hex(fields.value), gas: hex(fields.gas),
    gasPrice: '0x0', input: fields.input, nonce: hex(number), v: '0x0', r: '0x0', s: '0x0', depositReceiptVersion: '0x1',
  };
}

function blockOf(number: bigint, full: boolean): Record<string, unknown> {
  const tx = transactionOf(number);
  return {
    number: hex(number), hash: blockHash(number), parentHash: number === 0n ? word(0n) : blockHash(number - 1n),
    sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347', miner: '0x4200000000000000000000000000000000000011',
    stateRoot: word(0x5747n), transactionsRoot: word(0x7872n), receiptsRoot: word(0x7263n), logsBloom: '0x' + '00'.repeat(256),
    difficulty: '0x0', gasLimit: hex(30_000_000n), gasUsed: hex(46_000n), timestamp: hex(1_700_000_000n + 2n * number),
    extraData: '0x000000003200000006', mixHash: word(number), nonce: '0x0000000000000000', baseFeePerGas: hex(1_000_000n), size: '0x300',
    withdrawalsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421', blobGasUsed: '0x0', excessBlobGas: '0x0',
    parentBeaconBlockRoot: word(0xbeac0n), transactions: [full ? tx : tx.hash], uncles: [], withdrawals: [],
  };
}

function receiptOf(number: bigint): Record<string, unknown> {
  const tx = transactionOf(number);
  return {
    type: '0x7e', status: '0x1', cumulativeGasUsed: hex(46_000n), gasUsed: hex(46_000n), logs: [], logsBloom: '0x' + '00'.repeat(256),
    transactionHash: tx.hash, transactionIndex: '0x0', blockHash: tx.blockHash, blockNumber: tx.blockNumber, from: tx.from, to: tx.to,
    contractAddress: null, effectiveGasPrice: '0x0', depositNonce: hex(number), depositReceiptVersion: '0x1',
  };
}

/** Answers the few methods a fork asks of an OP Stack node. */
function answer(method: string, params: any[]): unknown {
  const byHash = (hash: string) => [...Array(Number(HEAD) + 1).keys()].map(BigInt).find((n) => transactionOf(n).hash === hash || blockHash(n) === hash);
  switch (method) {
    case 'eth_chainId': return hex(8453n);
    case 'eth_blockNumber': return hex(HEAD);
    case 'eth_getBlockByNumber': return BigInt(params[0]) <= HEAD ? blockOf(BigInt(params[0]), params[1] === true) : null;
    case 'eth_getBlockByHash': { const n = byHash(params[0]); return n === undefined ? null : blockOf(n, params[1] === true); }
    case 'eth_getTransactionByHash': { const n = byHash(params[0]); return n === undefined ? null : transactionOf(n); }
    case 'eth_getTransactionReceipt': { const n = byHash(params[0]); return n === undefined ? null : receiptOf(n); }
    case 'eth_getBalance': case 'eth_getTransactionCount': case 'eth_getStorageAt': return '0x0';
    case 'eth_getCode': return '0x';
    default: return undefined;
  }
}

describe('fork: an OP Stack upstream whose blocks hold deposit transactions (0x7e)', function () {
  this.timeout(60_000);
  let server: Server;
  let mock: RunningMockNode;

  before(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString());
        const reply = (call: any) => {
          const result = answer(call.method, call.params ?? []);
          return result === undefined ? { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'method not found' } } : { jsonrpc: '2.0', id: call.id, result };
        };
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(Array.isArray(body) ? body.map(reply) : reply(body)));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    mock = await startTestNode({ fork: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` } });
  });

  after(async () => {
    await mock?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("forks the upstream's latest less five, and builds its own blocks on that block", async () => {
    const forkBlock = HEAD - 5n;
    assert.equal(BigInt(await rpc(mock.url, 'eth_blockNumber')), forkBlock);
    assert.equal((await rpc(mock.url, 'eth_getBlockByNumber', ['latest', false])).hash, blockHash(forkBlock));
    await rpc(mock.url, 'evm_mine');
    const ours = await rpc(mock.url, 'eth_getBlockByNumber', [hex(forkBlock + 1n), false]);
    assert.equal(ours.parentHash, blockHash(forkBlock));
    assert.equal(BigInt(ours.timestamp) > 1_700_000_000n + 2n * forkBlock, true);
  });

  it("serves the deposits of history with their OP Stack fields, the hash the codec gives", async () => {
    const block = await rpc(mock.url, 'eth_getBlockByNumber', [hex(7n), true]);
    const [deposit] = block.transactions;
    assert.equal(deposit.type, '0x7e');
    const fields: DepositTransactionFields = {
      sourceHash: deposit.sourceHash, from: deposit.from, to: deposit.to, mint: BigInt(deposit.mint), value: BigInt(deposit.value),
      gas: BigInt(deposit.gas), isSystemTx: deposit.isSystemTx === true, input: deposit.input,
    };
    assert.equal(depositTransactionHash(fields), deposit.hash);
    assert.deepEqual(await rpc(mock.url, 'eth_getTransactionByHash', [deposit.hash]), deposit);
    const receipt = await rpc(mock.url, 'eth_getTransactionReceipt', [deposit.hash]);
    assert.equal(receipt.depositNonce, '0x7');
    assert.equal(receipt.depositReceiptVersion, '0x1');
    // Above the fork block the upstream's deposits are not the fork's.
    assert.equal(await rpc(mock.url, 'eth_getTransactionByHash', [transactionOf(HEAD).hash]), null);
  });
});
