// Transactions raced against each other and against block building: 1,000 eth_sendTransaction
// calls at once from ten senders (the node picks every nonce), while flashblocks are cut, each
// land exactly once, every sender's nonces in order with no gap, and the balances add up.
import assert from 'node:assert/strict';
import type { RunningMockNode } from '../../../mock-node/index';
import { post, rpc, startTestNode } from '../../helpers/rpc';

const PER_SENDER = 100;
const SENDERS = 10;

describe('1,000 transactions raced at once', function () {
  this.timeout(120_000);
  let node: RunningMockNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.stop());

  it('each lands exactly once, every sender in nonce order without a gap, while flashblocks are cut', async () => {
    const senders = node.accounts.slice(0, SENDERS).map((a) => a.address.toLowerCase());
    const sink = '0x000000000000000000000000000000000000dead';
    const startNonces = await Promise.all(senders.map(async (from) => Number(BigInt(await rpc(node.url, 'eth_getTransactionCount', [from, 'latest'])))));
    const startHead = Number(BigInt(await rpc(node.url, 'eth_blockNumber')));
    let sending = true;
    // Cut flashblocks the whole time the sends are in flight: intake races the builder.
    const cutter = (async () => {
      let cuts = 0;
      while (sending) {
        await rpc(node.url, 'mock_flashblock');
        cuts++;
      }
      return cuts;
    })();
    const sends = senders.flatMap((from) => Array.from({ length: PER_SENDER }, (_, i) =>
      rpc<string>(node.url, 'eth_sendTransaction', [{ from, to: sink, value: '0x' + (i + 1).toString(16) }])));
    const hashes = await Promise.all(sends);
    sending = false;
    const cuts = await cutter;
    assert.equal(new Set(hashes).size, SENDERS * PER_SENDER, 'a distinct hash for every send');
    await rpc(node.url, 'evm_mine');

    const head = Number(BigInt(await rpc(node.url, 'eth_blockNumber')));
    const landed: { hash: string; from: string; nonce: number }[] = [];
    for (let n = startHead + 1; n <= head; n++) {
      const block = await rpc(node.url, 'eth_getBlockByNumber', ['0x' + n.toString(16), true]);
      for (const tx of block.transactions) landed.push({ hash: tx.hash, from: tx.from.toLowerCase(), nonce: Number(BigInt(tx.nonce)) });
    }
    assert.equal(landed.length, SENDERS * PER_SENDER, `every transaction landed once (${cuts} flashblocks cut meanwhile)`);
    assert.deepEqual(new Set(landed.map((t) => t.hash)), new Set(hashes), 'the landed hashes are the answered ones');
    senders.forEach((from, s) => {
      const nonces = landed.filter((t) => t.from === from).map((t) => t.nonce);
      assert.deepEqual(nonces, Array.from({ length: PER_SENDER }, (_, i) => startNonces[s] + i), `${from}: nonces in chain order`);
    });
    const paid = BigInt(await rpc(node.url, 'eth_getBalance', [sink, 'latest']));
    assert.equal(paid, BigInt(SENDERS * (PER_SENDER * (PER_SENDER + 1)) / 2), 'the sink got every value once');
    // The receipts in one batch: the race under test is intake against the builder, not 1,000
    // more connections opened at once.
    const receipts = await post(node.url, hashes.map((hash, id) => ({ jsonrpc: '2.0', id, method: 'eth_getTransactionReceipt', params: [hash] })));
    assert.equal(receipts.status, 200);
    assert.equal(receipts.body.length, hashes.length, 'a receipt answer for every hash');
    for (const answer of receipts.body) assert.equal(answer.result?.status, '0x1', `receipt of ${hashes[answer.id]}`);
  });
});
