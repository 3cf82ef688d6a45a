// A timer's flashblock is cut shortly before its slot and published at the slot
// (chain/slotTimer.ts). Until it is published, every read sees one consistent view: the previous
// flashblock, with the cut transactions still queued, never in the pending block before the
// flashblock is announced, and never missing from both. Reads here go through the node's
// handler on every turn of the event loop, so they land inside the window between a cut and its
// slot many times per flashblock.
import assert from 'node:assert/strict';
import { Wallet } from 'ethers';
import { startMockNode, type RunningMockNode } from '../../../mock-node/index';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('flashblock publication at its slot', function () {
  this.timeout(60_000);
  let node: RunningMockNode;

  before(async () => {
    node = await startMockNode({ port: 0, quiet: true });
  });
  after(async () => {
    await node?.stop();
  });

  const call = async (method: string, params: unknown[]): Promise<any> => {
    const reply = await node.core.handle({ jsonrpc: '2.0', id: 1, method, params }, 'dedicated');
    const body = reply.body as { result?: any; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };

  it('shows a transaction in pending only once its flashblock is announced, and as queued until then', async () => {
    const chain = node.core.services.chain;
    const announced = new Set<string>();
    const onFlashblock = (_pending: unknown, added: readonly { tx: { hash: string } }[]) => {
      for (const item of added) announced.add(item.tx.hash);
    };
    chain.on('flashblock', onFlashblock);
    try {
      const wallet = new Wallet(KEY);
      const start = Number(await call('eth_getTransactionCount', [wallet.address, 'pending']));
      let queuedReads = 0;
      for (let i = 0; i < 5; i++) {
        const raw = await wallet.signTransaction({ to: TO, value: 1n, gasLimit: 21_000, chainId: 31337, nonce: start + i, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n });
        const hash: string = await call('eth_sendRawTransaction', [raw]);
        for (;;) {
          const pending = await call('eth_getBlockByNumber', ['pending', false]);
          const found = await call('eth_getTransactionByHash', [hash]);
          const nonce = Number(await call('eth_getTransactionCount', [wallet.address, 'pending']));
          assert.equal(nonce, start + i + 1, 'the pending nonce counts the transaction from its acceptance on');
          assert.ok(found, 'an accepted transaction is always found, queued or pre-confirmed');
          if (pending.transactions.includes(hash)) {
            assert.ok(announced.has(hash), 'the pending block shows a transaction only once its flashblock is announced');
            assert.notEqual(found.blockNumber, null);
            break;
          }
          assert.equal(found.blockNumber, null, 'until its flashblock is published, the transaction reads as queued');
          queuedReads++;
          await turn();
        }
      }
      assert.ok(queuedReads > 0);
    } finally {
      chain.off('flashblock', onFlashblock);
    }
  });
});
