// The seed's five reads over real HTTP, at every tag, in manual mode so each step is exact.
import assert from 'node:assert/strict';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { concat, encodeRlp, toBeHex } from 'ethers';
import { post, rpc, rpcError, startTestNodeVia, TRANSPORTS, type TestNode } from '../../helpers/rpc';

const TAGS = ['latest', 'pending', 'safe', 'finalized', 'earliest'];

for (const transport of TRANSPORTS) describe(`the five reads (${transport === 'http' ? 'CLI server' : 'mockNodeRouter in an Express app'})`, () => {
  let node: TestNode;
  let alice: string;
  let bob: string;
  beforeEach(async () => {
    node = await startTestNodeVia(transport, { safeDepth: 2, finalizedDepth: 4 });
    alice = node.accounts[0].address.toLowerCase();
    bob = node.accounts[1].address.toLowerCase();
  });
  afterEach(() => node.stop());

  async function send(from = alice, to = bob, value = 1n): Promise<string> {
    return rpc(node.url, 'eth_sendTransaction', [{ from, to, value: '0x' + value.toString(16) }]);
  }

  describe('eth_getBlockByNumber', () => {
    it('answers every tag and hex numbers; null above the head', async () => {
      await rpc(node.url, 'evm_mine', [6]);
      const numbers: Record<string, string | null> = {};
      for (const tag of TAGS) numbers[tag] = (await rpc(node.url, 'eth_getBlockByNumber', [tag, false])).number;
      assert.deepEqual(numbers, { latest: '0x6', pending: '0x7', safe: '0x4', finalized: '0x2', earliest: '0x0' });
      assert.equal((await rpc(node.url, 'eth_getBlockByNumber', ['0x3', false])).number, '0x3');
      assert.equal(await rpc(node.url, 'eth_getBlockByNumber', ['0x63', false]), null);
    });

    it('has every field of the seed table with the fixed values', async () => {
      const block = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
      for (const field of ['number', 'hash', 'parentHash', 'nonce', 'sha3Uncles', 'logsBloom', 'transactionsRoot', 'stateRoot', 'receiptsRoot', 'miner', 'difficulty', 'mixHash', 'extraData', 'size', 'gasLimit', 'gasUsed', 'timestamp', 'transactions', 'uncles', 'withdrawals', 'withdrawalsRoot', 'baseFeePerGas', 'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'requestsHash']) {
        assert.ok(field in block, `missing ${field}`);
      }
      assert.equal(block.nonce, '0x0000000000000000');
      assert.equal(block.difficulty, '0x0');
      assert.deepEqual(block.uncles, []);
      assert.deepEqual(block.withdrawals, []);
      assert.match(block.mixHash, /^0x[0-9a-f]{64}$/);
    });

    it('the pending block grows within one block: gasUsed non-decreasing, transactions extend', async () => {
      let previous = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
      assert.equal(previous.transactions.length, 0);
      for (let i = 0; i < 3; i++) {
        await send();
        await send(bob, alice);
        await rpc(node.url, 'mock_flashblock');
        const current = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
        assert.equal(current.number, previous.number);
        assert.ok(BigInt(current.gasUsed) > BigInt(previous.gasUsed));
        assert.deepEqual(current.transactions.slice(0, previous.transactions.length), previous.transactions);
        assert.equal(current.transactions.length, previous.transactions.length + 2);
        assert.notEqual(current.hash, previous.hash, 'each flashblock has its own partial hash');
        previous = current;
      }
      const pendingHashes = previous.transactions;
      await rpc(node.url, 'evm_mine');
      const sealed = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
      assert.equal(sealed.number, previous.number);
      assert.deepEqual(sealed.transactions, pendingHashes);
      const next = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
      assert.equal(BigInt(next.number), BigInt(sealed.number) + 1n);
      assert.equal(next.parentHash, sealed.hash);
      assert.equal(next.transactions.length, 0);
    });

    it('returns full transaction objects when asked', async () => {
      const hash = await send();
      await rpc(node.url, 'mock_flashblock');
      const block = await rpc(node.url, 'eth_getBlockByNumber', ['pending', true]);
      assert.equal(block.transactions[0].hash, hash);
      assert.equal(block.transactions[0].from, alice);
      assert.equal(block.transactions[0].to, bob);
      assert.equal(block.transactions[0].transactionIndex, '0x0');
      assert.equal(block.transactions[0].blockTimestamp, block.timestamp, 'TransactionInfo requires blockTimestamp');
    });

    it('transaction objects carry their block\'s timestamp everywhere: full blocks, by hash, by block and index', async () => {
      const queued = await send();
      assert.equal((await rpc(node.url, 'eth_getTransactionByHash', [queued])).blockTimestamp, null, 'queued: no block yet');
      await rpc(node.url, 'mock_flashblock');
      const pending = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
      assert.equal((await rpc(node.url, 'eth_getTransactionByHash', [queued])).blockTimestamp, pending.timestamp, 'pre-confirmed');
      await rpc(node.url, 'evm_mine');
      const sealed = await rpc(node.url, 'eth_getBlockByNumber', ['latest', true]);
      const lookups = [
        sealed.transactions[0],
        await rpc(node.url, 'eth_getTransactionByHash', [queued]),
        await rpc(node.url, 'eth_getTransactionByBlockNumberAndIndex', ['latest', '0x0']),
        await rpc(node.url, 'eth_getTransactionByBlockHashAndIndex', [sealed.hash, '0x0']),
      ];
      for (const tx of lookups) assert.deepEqual([tx.hash, tx.blockHash, tx.blockTimestamp], [queued, sealed.hash, sealed.timestamp]);
    });

    it('a block above the head (or an unknown hash) is null for every per-block method, as the spec says', async () => {
      const unknown = '0x' + '11'.repeat(32);
      for (const [method, params] of [
        ['eth_getBlockTransactionCountByNumber', ['0x63']],
        ['eth_getBlockTransactionCountByHash', [unknown]],
        ['eth_getUncleCountByBlockNumber', ['0x63']],
        ['eth_getUncleCountByBlockHash', [unknown]],
        ['eth_getTransactionByBlockNumberAndIndex', ['0x63', '0x0']],
        ['eth_getTransactionByBlockHashAndIndex', [unknown, '0x0']],
        ['eth_getTransactionByBlockNumberAndIndex', ['latest', '0x5']],
      ] as const) {
        assert.equal(await rpc(node.url, method, [...params]), null, `${method} ${JSON.stringify(params)}`);
      }
      assert.equal(await rpc(node.url, 'eth_getBlockTransactionCountByNumber', ['latest']), '0x0');
      assert.equal(await rpc(node.url, 'eth_getUncleCountByBlockNumber', ['pending']), '0x0');
    });

    it('accepts EIP-1898 block objects', async () => {
      await rpc(node.url, 'evm_mine', [2]);
      const one = await rpc(node.url, 'eth_getBlockByNumber', ['0x1', false]);
      assert.equal(await rpc(node.url, 'eth_getTransactionCount', [alice, { blockHash: one.hash }]), '0x0');
      assert.equal(await rpc(node.url, 'eth_getTransactionCount', [alice, { blockNumber: '0x1' }]), '0x0');
      const error = await rpcError(node.url, 'eth_getTransactionCount', [alice, { blockHash: '0x' + '11'.repeat(32) }]);
      assert.equal(error.code, -32000);
    });

    it('takes a plain block hash where the spec says BlockNumberOrTagOrHash (as geth and Anvil)', async () => {
      await send();
      await rpc(node.url, 'evm_mine', [2]);
      const one = await rpc(node.url, 'eth_getBlockByNumber', ['0x1', false]);
      assert.equal(await rpc(node.url, 'eth_getTransactionCount', [alice, one.hash]), '0x1');
      assert.equal((await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', [one.hash]))[0].transactionHash, one.transactions[0]);
      assert.equal(await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', ['0x' + '11'.repeat(32)]), null);
      assert.equal((await rpcError(node.url, 'eth_getBalance', [alice, '0x' + '11'.repeat(32)])).message, 'header for hash not found');
    });
  });

  describe('eth_getTransactionCount', () => {
    it('pending runs ahead of latest until the block seals', async () => {
      await send();
      await send();
      await rpc(node.url, 'mock_flashblock');
      assert.equal(await rpc(node.url, 'eth_getTransactionCount', [alice, 'pending']), '0x2');
      assert.equal(await rpc(node.url, 'eth_getTransactionCount', [alice, 'latest']), '0x0');
      await rpc(node.url, 'evm_mine');
      assert.equal(await rpc(node.url, 'eth_getTransactionCount', [alice, 'latest']), '0x2');
      for (const tag of ['safe', 'finalized', 'earliest']) assert.equal(await rpc(node.url, 'eth_getTransactionCount', [alice, tag]), '0x0');
      assert.equal(await rpc(node.url, 'eth_getTransactionCount', [alice, '0x1']), '0x2');
    });

    it('pending is the nonce for the next transaction: accepted transactions still queued count too (as geth and Anvil)', async () => {
      await send();
      assert.equal(await rpc(node.url, 'eth_getTransactionCount', [alice, 'pending']), '0x1', 'queued for the next flashblock');
      assert.equal(await rpc(node.url, 'eth_getTransactionCount', [alice, { blockNumber: 'pending' }]), '0x1', 'the EIP-1898 form too');
      assert.equal(await rpc(node.url, 'eth_getTransactionCount', [alice, 'latest']), '0x0');
      await rpc(node.url, 'eth_sendTransaction', [{ from: alice, to: bob, value: '0x1', nonce: '0x3' }]);
      assert.equal(await rpc(node.url, 'eth_getTransactionCount', [alice, 'pending']), '0x1', 'a transaction after a nonce gap waits and does not count');
      await send();
      assert.equal(await rpc(node.url, 'eth_getTransactionCount', [alice, 'pending']), '0x2');
      await rpc(node.url, 'mock_flashblock');
      assert.equal(await rpc(node.url, 'eth_getTransactionCount', [alice, 'pending']), '0x2', 'pre-confirmed');
      assert.equal(await rpc(node.url, 'eth_getTransactionCount', [bob, 'pending']), '0x0');
    });

    it('a block number above the head is "header not found"', async () => {
      const error = await rpcError(node.url, 'eth_getTransactionCount', [alice, '0x10']);
      assert.deepEqual([error.code, error.message], [-32000, 'header not found']);
    });
  });

  describe('eth_getStorageAt', () => {
    it('answers a 32-byte word at every tag, for any address', async () => {
      for (const tag of TAGS) {
        assert.equal(await rpc(node.url, 'eth_getStorageAt', [bob, '0x0', tag]), '0x' + '00'.repeat(32));
      }
      assert.equal(await rpc(node.url, 'eth_getStorageAt', [bob, '0x' + '00'.repeat(31) + '01', 'latest']), '0x' + '00'.repeat(32));
    });

    it('requires the block parameter, as the seed says', async () => {
      const error = await rpcError(node.url, 'eth_getStorageAt', [bob, '0x0']);
      assert.equal(error.code, -32602);
    });
  });

  describe('eth_getBlockReceipts and eth_getLogs', () => {
    it('receipts: 403 on the public endpoint; full receipts on the dedicated one, pending included', async () => {
      const hash = await send();
      await rpc(node.url, 'mock_flashblock');
      const rejected = await post(node.url, { jsonrpc: '2.0', id: 7, method: 'eth_getBlockReceipts', params: ['pending'] });
      assert.equal(rejected.status, 403);
      assert.equal(rejected.body.id, 7);
      assert.equal(rejected.body.error.code, -32004);
      const receipts = await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', ['pending']);
      assert.equal(receipts.length, 1);
      const r = receipts[0];
      assert.equal(r.transactionHash, hash);
      assert.equal(r.status, '0x1');
      assert.equal(r.gasUsed, '0x5208');
      assert.equal(r.type, '0x2');
      for (const field of ['transactionIndex', 'blockHash', 'blockNumber', 'from', 'to', 'cumulativeGasUsed', 'effectiveGasPrice', 'contractAddress', 'logs', 'logsBloom']) {
        assert.ok(field in r, `missing ${field}`);
      }
      await rpc(node.url, 'evm_mine');
      const sealed = await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', ['latest']);
      assert.equal(sealed[0].transactionHash, hash);
      assert.equal(await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', ['0x99']), null);
      for (const tag of ['safe', 'finalized', 'earliest']) assert.deepEqual(await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', [tag]), []);
    });

    it('receiptsRoot is the trie of the consensus-encoded receipts', async () => {
      await send();
      await rpc(node.url, 'eth_sendTransaction', [{ from: bob, to: alice, value: '0x2', gasPrice: '0x77359400' }]);
      await rpc(node.url, 'evm_mine');
      const block = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
      const receipts = await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', ['latest']);
      const trie = new MerklePatriciaTrie();
      for (const [i, r] of receipts.entries()) {
        const body = encodeRlp([r.status === '0x1' ? '0x01' : '0x', toBeHex(BigInt(r.cumulativeGasUsed)), r.logsBloom, r.logs.map((l: any) => [l.address, l.topics, l.data])]);
        const encoded = r.type === '0x0' ? body : concat([toBeHex(BigInt(r.type), 1), body]);
        await trie.put(hexToBytes(encodeRlp(i === 0 ? '0x' : toBeHex(i)) as `0x${string}`), hexToBytes(encoded as `0x${string}`));
      }
      assert.equal(bytesToHex(trie.root()), block.receiptsRoot);
    });

    it('getLogs answers an empty array when nothing matches, at every tag combination', async () => {
      await rpc(node.url, 'evm_mine', [3]);
      for (const from of TAGS) {
        for (const to of ['latest', 'pending']) {
          if (from === 'pending' && to !== 'pending') continue;
          assert.deepEqual(await rpc(node.url, 'eth_getLogs', [{ fromBlock: from, toBlock: to }]), []);
        }
      }
      assert.deepEqual(await rpc(node.url, 'eth_getLogs', [{}]), []);
    });

    it('getLogs with blockHash ignores fromBlock/toBlock, as the seed says (geth refuses the combination)', async () => {
      const token = node.tokenAddress;
      const transfer = `0xa9059cbb${bob.slice(2).padStart(64, '0')}${'1'.padStart(64, '0')}`;
      await rpc(node.url, 'eth_sendTransaction', [{ from: alice, to: token, data: transfer }]);
      await rpc(node.url, 'evm_mine', [3]);
      const block = await rpc(node.url, 'eth_getBlockByNumber', ['0x1', false]);
      const byHash = await rpc(node.url, 'eth_getLogs', [{ blockHash: block.hash }]);
      assert.equal(byHash.length, 1);
      for (const range of [{ fromBlock: '0x2', toBlock: '0x3' }, { fromBlock: 'pending', toBlock: 'pending' }, { fromBlock: '0x3', toBlock: '0x1' }, { toBlock: '0x63' }]) {
        assert.deepEqual(await rpc(node.url, 'eth_getLogs', [{ blockHash: block.hash, ...range }]), byHash, JSON.stringify(range));
      }
      const malformed = await rpcError(node.url, 'eth_getLogs', [{ blockHash: block.hash, fromBlock: '0x01' }]);
      assert.equal(malformed.code, -32602, 'an ignored field is still checked');
    });

    it('getLogs: a range past the head or reversed is -32602 with geth\'s words (the execution-apis tests)', async () => {
      await rpc(node.url, 'evm_mine', [3]);
      assert.deepEqual(await rpcError(node.url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x4' }]).then((e) => [e.code, e.message]), [-32602, 'block range extends beyond current head block']);
      assert.deepEqual(await rpcError(node.url, 'eth_getLogs', [{ fromBlock: '0x3', toBlock: '0x2' }]).then((e) => [e.code, e.message]), [-32602, 'invalid block range params']);
      assert.deepEqual(await rpc(node.url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x3' }]), []);
    });

    it('getLogs rejects a malformed filter with -32602', async () => {
      for (const filter of [{ fromBlock: '0x01' }, { address: 'nope' }, { topics: ['0x12'] }, { blockHash: '0x11', fromBlock: 'latest' }, { nope: 1 }]) {
        const error = await rpcError(node.url, 'eth_getLogs', [filter]);
        assert.equal(error.code, -32602, JSON.stringify(filter));
      }
    });
  });
});
