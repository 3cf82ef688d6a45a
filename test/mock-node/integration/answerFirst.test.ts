// An automined transaction's hash, evm_revert's answer and a state setter's go out before the block
// is sealed, the chain rewound or the change committed (the work runs right after the answer is written). Whatever comes next must still
// see the change done: the next request of a batch, a request pipelined behind it on the same
// connection, and a request on another connection.
import assert from 'node:assert/strict';
import { Socket, connect } from 'node:net';
import { Interface, Transaction, Wallet } from 'ethers';
import { defaultOptions, type RunningMockNode } from '../../../mock-node/index';
import { STABLE_TOKEN_ABI } from '../../../mock-node/tokenKit/index';
import { startCli, type CliNode } from '../../helpers/cli';
import { post, rpc, startTestNode } from '../../helpers/rpc';

const token = new Interface(STABLE_TOKEN_ABI as unknown as string[]);

/** A signed token transfer from `key` (its next nonce read from the node) to `to`. */
async function signedTransfer(url: string, chainId: bigint, key: string, tokenAddress: string, to: string, nonce?: number): Promise<{ raw: string; hash: string }> {
  const wallet = new Wallet(key);
  const next = nonce ?? Number(BigInt(await rpc(url, 'eth_getTransactionCount', [wallet.address, 'pending'])));
  const tx = Transaction.from({
    type: 2, chainId, nonce: next, to: tokenAddress, value: 0n, gasLimit: 100_000n,
    maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n, data: token.encodeFunctionData('transfer', [to, 1n]),
  });
  const raw = await wallet.signTransaction(tx);
  return { raw, hash: Transaction.from(raw).hash! };
}

/** Two HTTP requests written to one connection in a single write; resolves with both replies' bodies. */
function pipelined(url: string, bodies: [unknown, unknown]): Promise<unknown[]> {
  const { hostname, port } = new URL(url);
  const request = (body: unknown) => {
    const text = JSON.stringify(body);
    return `POST / HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
  };
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request(bodies[0]) + request(bodies[1])));
    let received = '';
    const replies: unknown[] = [];
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      for (;;) {
        const headEnd = received.indexOf('\r\n\r\n');
        if (headEnd < 0) break;
        const length = Number(/content-length: (\d+)/i.exec(received.slice(0, headEnd))?.[1]);
        if (received.length < headEnd + 4 + length) break;
        replies.push(JSON.parse(received.slice(headEnd + 4, headEnd + 4 + length)));
        received = received.slice(headEnd + 4 + length);
      }
      if (replies.length === 2) {
        socket.destroy();
        resolve(replies);
      }
    });
    socket.on('error', reject);
  });
}

describe('automine, evm_revert and the state setters answer first; what comes next sees the change done', () => {
  describe('in process', () => {
    let node: RunningMockNode;
    let chainId: bigint;
    before(async () => {
      node = await startTestNode();
      await rpc(node.url, 'evm_setAutomine', [true]);
      chainId = BigInt(await rpc(node.url, 'eth_chainId'));
    });
    after(() => node?.stop());

    it('a batch [eth_sendRawTransaction, eth_getTransactionReceipt, eth_blockNumber]: the receipt is there, in the new head', async () => {
      const before = BigInt(await rpc(node.url, 'eth_blockNumber'));
      for (let i = 0; i < 5; i++) {
        const { raw, hash } = await signedTransfer(node.url, chainId, node.accounts[1].privateKey, node.tokenAddress, node.accounts[2].address);
        const reply = await post(node.url, [
          { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] },
          { jsonrpc: '2.0', id: 2, method: 'eth_getTransactionReceipt', params: [hash] },
          { jsonrpc: '2.0', id: 3, method: 'eth_blockNumber', params: [] },
        ]);
        const [sent, receipt, head] = reply.body as { result: any }[];
        assert.equal(sent.result, hash);
        assert.ok(receipt.result, `the receipt of transfer ${i} is there for the request right after its hash`);
        assert.equal(receipt.result.status, '0x1');
        assert.equal(BigInt(receipt.result.blockNumber), before + BigInt(i + 1), 'a block of its own');
        assert.equal(head.result, receipt.result.blockNumber, 'the head is its block');
      }
    });

    it('a batch [evm_revert, eth_blockNumber, eth_getTransactionByHash]: the head is the snapshot\'s and the transaction is gone', async () => {
      const id = await rpc(node.url, 'evm_snapshot');
      const head = await rpc(node.url, 'eth_blockNumber');
      const { raw, hash } = await signedTransfer(node.url, chainId, node.accounts[1].privateKey, node.tokenAddress, node.accounts[2].address);
      await rpc(node.url, 'eth_sendRawTransaction', [raw]);
      assert.notEqual(await rpc(node.url, 'eth_blockNumber'), head);
      const reply = await post(node.url, [
        { jsonrpc: '2.0', id: 1, method: 'evm_revert', params: [id] },
        { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] },
        { jsonrpc: '2.0', id: 3, method: 'eth_getTransactionByHash', params: [hash] },
        { jsonrpc: '2.0', id: 4, method: 'evm_revert', params: [id] },
      ]);
      const [reverted, number, found, again] = reply.body as { result: unknown }[];
      assert.equal(reverted.result, true);
      assert.equal(number.result, head);
      assert.equal(found.result, null);
      assert.equal(again.result, false, 'the snapshot is used up by the first revert');
    });

    it('a batch [anvil_setStorageAt, eth_getStorageAt at latest and pending, anvil_setNonce, eth_getTransactionCount]: each read sees the change', async () => {
      const address = '0x00000000000000000000000000000000000000aa';
      const value = `0x${'2a'.padStart(64, '0')}`;
      const reply = await post(node.url, [
        { jsonrpc: '2.0', id: 1, method: 'anvil_setStorageAt', params: [address, '0x5', value] },
        { jsonrpc: '2.0', id: 2, method: 'eth_getStorageAt', params: [address, '0x5', 'latest'] },
        { jsonrpc: '2.0', id: 3, method: 'eth_getStorageAt', params: [address, '0x5', 'pending'] },
        { jsonrpc: '2.0', id: 4, method: 'anvil_setNonce', params: [address, '0x11'] },
        { jsonrpc: '2.0', id: 5, method: 'eth_getTransactionCount', params: [address, 'latest'] },
      ]);
      const [set, latest, pending, nonceSet, nonce] = reply.body as { result: unknown }[];
      assert.equal(set.result, true);
      assert.equal(latest.result, value);
      assert.equal(pending.result, value);
      assert.equal(nonceSet.result, null);
      assert.equal(nonce.result, '0x11');
    });

    it('a request on another connection, sent while the block is being sealed, sees it sealed', async () => {
      const sends = [];
      const before = BigInt(await rpc(node.url, 'eth_blockNumber'));
      const first = await rpc(node.url, 'eth_getTransactionCount', [node.accounts[3].address, 'pending']);
      for (let i = 0; i < 5; i++) {
        const { raw, hash } = await signedTransfer(node.url, chainId, node.accounts[3].privateKey, node.tokenAddress, node.accounts[2].address, Number(first) + i);
        // Not awaited one by one: the next send and the receipt reads race the seal of the one before.
        sends.push(rpc(node.url, 'eth_sendRawTransaction', [raw]).then(() => rpc(node.url, 'eth_getTransactionReceipt', [hash])));
      }
      const receipts = await Promise.all(sends);
      const numbers = receipts.map((receipt) => BigInt(receipt.blockNumber)).sort((a, b) => Number(a - b));
      assert.deepEqual(numbers, [1n, 2n, 3n, 4n, 5n].map((n) => before + n), 'each in a block of its own, each receipt there when asked');
    });

    it('writes the hash to the socket before it seals the block, also while another connection waits for its reply', async () => {
      const events: string[] = [];
      const { raw, hash } = await signedTransfer(node.url, chainId, node.accounts[4].privateKey, node.tokenAddress, node.accounts[2].address);
      const chain = node.core.services.chain;
      const onBlock = () => events.push('sealed');
      const write = Socket.prototype.write;
      Socket.prototype.write = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
        if (String(chunk).includes(hash)) events.push('hash written');
        return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
      } as typeof write;
      chain.on('block', onBlock);
      try {
        // A read on another connection in flight at the same time: its reply may be batched, the hash's may not wait behind the seal.
        const [answer] = await Promise.all([rpc(node.url, 'eth_sendRawTransaction', [raw]), rpc(node.url, 'eth_blockNumber')]);
        assert.equal(answer, hash);
        await rpc(node.url, 'eth_getTransactionReceipt', [hash]);
      } finally {
        Socket.prototype.write = write;
        chain.off('block', onBlock);
      }
      assert.deepEqual(events.slice(0, 2), ['hash written', 'sealed']);
    });
  });

  describe('the CLI (its raw-socket HTTP path)', () => {
    let cli: CliNode;
    before(async () => {
      cli = await startCli([]);
      await rpc(cli.url, 'evm_setAutomine', [true]);
    });
    after(() => cli?.stop());

    it('eth_getTransactionReceipt pipelined behind eth_sendRawTransaction on one connection finds the receipt', async () => {
      const chainId = BigInt(await rpc(cli.url, 'eth_chainId'));
      const tokenAddress = defaultOptions().token.address;
      for (let i = 0; i < 5; i++) {
        const { raw, hash } = await signedTransfer(cli.url, chainId, cli.accounts[1].privateKey, tokenAddress, cli.accounts[2].address);
        const [sent, receipt] = (await pipelined(cli.url, [
          { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] },
          { jsonrpc: '2.0', id: 2, method: 'eth_getTransactionReceipt', params: [hash] },
        ])) as { result: any }[];
        assert.equal(sent.result, hash);
        assert.ok(receipt.result, `the receipt of transfer ${i} is there`);
        assert.equal(receipt.result.transactionHash, hash);
      }
    });
  });
});
