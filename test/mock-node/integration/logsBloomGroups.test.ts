// eth_getLogs reads only the sealed blocks its log index names for a filter (chain/logIndex.ts;
// it replaced groups of 64 OR-ed blooms, whose cases these were). The answers must be those of
// reading every block: a log in one block of a long chain is found in every group of 64,
// filters that match nothing answer [], the result cap's retry range still starts at the query's
// first block, and blocks rebuilt after a revert are seen (the index is never stale).
import assert from 'node:assert/strict';
import { Interface } from 'ethers';
import type { RunningMockNode } from '../../../mock-node/index';
import { STABLE_TOKEN_ABI } from '../../../mock-node/tokenKit/index';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';

const token = new Interface(STABLE_TOKEN_ABI);
const TRANSFER = token.getEvent('Transfer')!.topicHash;
const pad = (address: string) => '0x' + address.slice(2).toLowerCase().padStart(64, '0');
/** A fresh recipient per block and per round. */
const recipient = (round: number, n: number) => '0x' + (round * 0x100000 + 0x1000 + n).toString(16).padStart(40, '0');

describe('eth_getLogs over groups of 64 blocks', function () {
  this.timeout(180_000);
  let node: RunningMockNode;
  let tokenAddress: string;

  async function transferBlocks(round: number, first: number, last: number): Promise<void> {
    const from = node.accounts[0].address;
    for (let n = first; n <= last; n++) {
      await rpc(node.url, 'eth_sendTransaction', [{ from, to: tokenAddress, data: token.encodeFunctionData('transfer', [recipient(round, n), 1n]) }]);
      await rpc(node.url, 'evm_mine');
    }
  }

  const query = (filter: object, url = node.dedicatedUrl) =>
    rpc<{ blockNumber: string }[]>(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', ...filter }]);

  before(async () => {
    node = await startTestNode({ limits: { public: { maxLogResults: 3 } } });
    tokenAddress = node.tokenAddress.toLowerCase();
    await transferBlocks(0, 1, 150);
  });
  after(() => node.stop());

  it('finds the one log of one block among 150, in every group, and matches nothing where nothing is', async () => {
    for (const n of [1, 63, 64, 65, 127, 128, 150]) {
      const logs = await query({ topics: [TRANSFER, null, pad(recipient(0, n))] });
      assert.deepEqual(logs.map((log) => Number(log.blockNumber)), [n], `block ${n}`);
    }
    assert.deepEqual(await query({ topics: [null, null, pad('0x' + 'ee'.repeat(20))] }), []);
    assert.equal((await query({ address: tokenAddress })).length, 150);
  });

  it('the result cap names a retry range from the query\'s first block, also when the first groups are passed over', async () => {
    const wanted = Array.from({ length: 11 }, (_, i) => pad(recipient(0, 100 + i)));
    const error = await rpcError(node.url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER, null, wanted] }]);
    assert.equal(error.code, -32602);
    assert.match(error.message, /retry with the range 0-102$/);
  });

  it('blocks rebuilt after evm_revert inside a kept group are seen by the next query', async () => {
    // On this chain: a snapshot at block 100, 40 blocks on top, a query that keeps the blooms of
    // groups 0-63 and 64-127, then a revert to 100 and 40 other blocks: group 64-127 now holds
    // blocks 101-127 it did not hold when its bloom was kept.
    await transferBlocks(0, 151, 160);
    const base = Number(BigInt(await rpc(node.url, 'eth_blockNumber')));
    const id = await rpc<string>(node.url, 'evm_snapshot');
    await transferBlocks(1, base + 1, 200);
    assert.deepEqual(await query({ topics: [null, null, pad(recipient(2, 190))] }), []);
    assert.equal(await rpc(node.url, 'evm_revert', [id]), true);
    await transferBlocks(2, base + 1, 200);
    assert.deepEqual((await query({ topics: [TRANSFER, null, pad(recipient(2, 190))] })).map((log) => Number(log.blockNumber)), [190]);
    assert.deepEqual(await query({ topics: [TRANSFER, null, pad(recipient(1, 190))] }), []);
  });
});
