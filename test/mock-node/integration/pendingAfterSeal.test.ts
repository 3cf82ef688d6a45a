// `pending` is the block being built, never one already sealed. A probe reads eth_blockNumber,
// eth_getBlockByNumber("pending"), eth_blockNumber again, in a loop around more than 50 seals,
// while one transfer goes in every ~100 ms, against the CLI started with its timers (interval
// mining with flashblocks; shorter blocks keep the test quick). Whenever both block numbers
// agree, pending must be the next block: number latest + 1, parentHash the latest block's hash,
// and none of the latest block's transactions. A seal used to leave `pending` on the block just
// sealed while the next block's first flashblock waited for its slot (2.6 % of such samples).
import assert from 'node:assert/strict';
import { startCli, type CliNode } from '../../helpers/cli';
import { rpc, sleep } from '../../helpers/rpc';

interface Sample {
  before: number;
  after: number;
  pending: { number: string; parentHash: string; transactions: string[] };
}

const SEALS = 55;

describe('pending after a seal (CLI with interval mining and flashblocks, under a steady send load)', function () {
  this.timeout(120_000);
  let node: CliNode;

  before(async () => {
    node = await startCli(['--block-time-ms', '400', '--flashblock-ms', '100']);
  });
  after(() => node?.stop());

  it(`never answers the block just sealed, around ${SEALS} seals`, async () => {
    const { url, accounts } = node;
    const start = Number(await rpc(url, 'eth_blockNumber'));
    let sending = true;
    let sent = 0;
    const sender = (async () => {
      while (sending) {
        await rpc(url, 'eth_sendTransaction', [{ from: accounts[0].address, to: accounts[1].address, value: '0x1' }]);
        sent++;
        await sleep(100);
      }
    })();
    const samples: Sample[] = [];
    try {
      for (;;) {
        const before = Number(await rpc(url, 'eth_blockNumber'));
        const pending = await rpc(url, 'eth_getBlockByNumber', ['pending', false]);
        const after = Number(await rpc(url, 'eth_blockNumber'));
        samples.push({ before, after, pending });
        if (after - start >= SEALS) break;
      }
    } finally {
      sending = false;
      await sender;
    }
    // Check each sample against the sealed blocks (no reorg happens: the blocks read now are those that were latest).
    const sealed = new Map<number, { hash: string; transactions: Set<string> }>();
    const blockAt = async (n: number) => {
      let found = sealed.get(n);
      if (!found) {
        const block = await rpc(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);
        found = { hash: block.hash, transactions: new Set(block.transactions as string[]) };
        sealed.set(n, found);
      }
      return found;
    };
    const off: string[] = [];
    let agreeing = 0;
    let withTransactions = 0;
    for (const { before, after, pending } of samples) {
      if (before !== after) continue;
      agreeing++;
      if (pending.transactions.length > 0) withTransactions++;
      const latest = await blockAt(before);
      const problems: string[] = [];
      if (Number(pending.number) !== before + 1) problems.push(`number ${Number(pending.number)}`);
      if (pending.parentHash !== latest.hash) problems.push('parentHash is not the latest hash');
      const repeated = pending.transactions.filter((hash) => latest.transactions.has(hash));
      if (repeated.length > 0) problems.push(`${repeated.length} transactions of block ${before}`);
      if (problems.length > 0) off.push(`latest ${before}: ${problems.join(', ')}`);
    }
    const seals = samples[samples.length - 1].after - start;
    assert.ok(seals >= SEALS, `${seals} seals`);
    assert.ok(sent >= seals * 2, `a steady load: ${sent} transfers over ${seals} blocks`);
    // The sampling covered the blocks: many samples per block, some with pre-confirmed transfers in pending.
    assert.ok(agreeing >= seals * 10, `${agreeing} samples where both block numbers agree`);
    assert.ok(withTransactions > 0, 'some samples saw pre-confirmed transfers in pending');
    assert.deepEqual(off.slice(0, 10), [], `${off.length} of ${agreeing} samples answered a sealed block as pending`);
  });
});
