// ethers and viem, unmodified, against the node in auto mode: send transfers, read them back at
// pending and then at latest; every pending identity mode in-process, and the CLI child process.
import assert from 'node:assert/strict';
import { JsonRpcProvider, Wallet, parseEther } from 'ethers';
import { createPublicClient, createWalletClient, defineChain, http, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { PendingIdentity, RunningMockNode } from '../../mock-node/index';
import { startCli } from '../helpers/cli';
import { rpc, startTestNode } from '../helpers/rpc';
import { waitUntil } from '../helpers/wait';

/** What these tests need of a node, in-process or a child process. */
interface ClientTarget {
  url: string;
  accounts: readonly { address: string; privateKey: string }[];
  stop(): Promise<unknown>;
}

const AUTO = { blockTimeMs: 400, flashblockMs: 100 };
const TARGETS: { name: string; mode: PendingIdentity; start: () => Promise<ClientTarget> }[] = [
  ...(['partial', 'zero', 'null'] as PendingIdentity[]).map((mode) => ({
    name: `auto mode (pending identity ${mode})`,
    mode,
    start: () => startTestNode({ auto: true, ...AUTO, pendingIdentity: mode }),
  })),
  {
    name: 'the CLI child process (pending identity partial)',
    mode: 'partial',
    start: () => startCli(['--block-time-ms', String(AUTO.blockTimeMs), '--flashblock-ms', String(AUTO.flashblockMs)]),
  },
];

for (const { name, mode, start } of TARGETS) {
  describe(`clients against ${name}`, function () {
    let node: ClientTarget;
    before(async () => {
      node = await start();
    });
    after(() => node.stop());

    it('ethers: Wallet sends a transfer, seen at pending then sealed at latest', async () => {
      const provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true, pollingInterval: 50 });
      const wallet = new Wallet(node.accounts[2].privateKey, provider);
      const to = Wallet.createRandom().address;
      const tx = await wallet.sendTransaction({ to, value: parseEther('1.5') });
      const pendingBalance = await waitUntil('pending balance', async () => {
        const b = await provider.getBalance(to, 'pending');
        return b > 0n ? b : undefined;
      });
      assert.equal(pendingBalance, parseEther('1.5'));
      // ethers may resolve wait() on the pre-confirmed receipt, as against Base; wait for the seal.
      const first = await tx.wait();
      assert.equal(first?.status, 1);
      const receipt = await waitUntil('the sealed receipt', async () => {
        // Raw calls, the head first: ethers keeps an identical request's answer for 250 ms, so its
        // getTransactionReceipt can hand back the pre-confirmed receipt tx.wait() saw (zero
        // blockHash) after the block sealed; and a receipt read after the head shows the block at
        // or below it only once sealed.
        const head = Number(await provider.send('eth_blockNumber', []));
        const r = await provider.send('eth_getTransactionReceipt', [tx.hash]);
        return r && Number(r.blockNumber) <= head ? { blockNumber: Number(r.blockNumber), blockHash: r.blockHash as string } : undefined;
      });
      assert.equal(await provider.getBalance(to, receipt.blockNumber), parseEther('1.5'));
      const block = await provider.getBlock(receipt.blockNumber);
      assert.ok(block?.transactions.includes(tx.hash));
      assert.equal(block?.hash, receipt.blockHash);
      if (mode === 'null') {
        // ethers v6 cannot parse a block whose number is null: the reason the default mode is partial.
        await assert.rejects(provider.getBlock('pending'), (e: any) => e.code === 'BAD_DATA');
      } else {
        // A block may seal between the two reads: the pending number is latest + 1 of one of them.
        const head = async () => Number(await provider.send('eth_blockNumber', []));
        const before = await head();
        const pendingBlock = await provider.getBlock('pending');
        const after = await head();
        assert.ok(pendingBlock && pendingBlock.number >= before + 1 && pendingBlock.number <= after + 1, `pending ${pendingBlock?.number}, latest ${before}..${after}`);
      }
      provider.destroy();
    });

    it('viem: walletClient sends, publicClient reads pending nonce ahead of latest, then the receipt', async () => {
      const chain = defineChain({ id: 31337, name: 'mock', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
      const transport = http(node.url);
      const account = privateKeyToAccount(node.accounts[3].privateKey as `0x${string}`);
      const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 });
      const walletClient = createWalletClient({ chain, transport, account });
      const latestBefore = await publicClient.getTransactionCount({ address: account.address, blockTag: 'latest' });
      const hash = await walletClient.sendTransaction({ to: node.accounts[4].address as `0x${string}`, value: 12345n, maxFeePerGas: parseGwei('5') });
      await waitUntil('pending nonce', async () => (await publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' })) === latestBefore + 1);
      const pending = await publicClient.getBlock({ blockTag: 'pending' });
      assert.ok(pending.transactions.includes(hash) || (await publicClient.getTransactionReceipt({ hash })).status === 'success');
      // viem resolves on the first receipt it sees, which may be the pre-confirmed one.
      const first = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      assert.equal(first.status, 'success');
      const sealedNumber = await waitUntil('the block to seal', async () => {
        const receipt = await publicClient.getTransactionReceipt({ hash });
        return receipt.blockNumber !== null && receipt.blockNumber <= (await publicClient.getBlockNumber()) ? receipt.blockNumber : undefined;
      });
      assert.equal(await publicClient.getTransactionCount({ address: account.address, blockTag: 'latest' }), latestBefore + 1);
      const receipt = await publicClient.getTransactionReceipt({ hash });
      const block = await publicClient.getBlock({ blockNumber: sealedNumber });
      assert.equal(block.hash, receipt.blockHash);
    });

    it('a sent transaction is in the pending block by the next complete flashblock', async () => {
      const hash = await rpc(node.url, 'eth_sendTransaction', [{ from: node.accounts[5].address, to: node.accounts[6].address, value: '0x1' }]);
      const start = (await (await fetch(node.url + 'health')).json()).pending;
      let changes = 0;
      let last = `${start.number}.${start.flashblockIndex}`;
      await waitUntil('two flashblocks', async () => {
        const p = (await (await fetch(node.url + 'health')).json()).pending;
        const now = `${p.number}.${p.flashblockIndex}`;
        if (now !== last) {
          changes++;
          last = now;
          const pending = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
          if (pending.transactions.includes(hash) || (await rpc(node.url, 'eth_getTransactionReceipt', [hash]))) return true;
        }
        return changes >= 2 ? true : undefined;
      });
      const pending = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
      const sealed = await rpc(node.url, 'eth_getTransactionByHash', [hash]);
      assert.ok(pending.transactions.includes(hash) || sealed.blockHash, 'pre-confirmed within one flashblock after the send');
    });
  });
}

describe('eth_sendRawTransactionSync (EIP-7966)', () => {
  let node: RunningMockNode;
  before(async () => {
    node = await startTestNode({ auto: true, blockTimeMs: 400, flashblockMs: 100 });
  });
  after(() => node.stop());

  it('returns the receipt once the transaction is pre-confirmed', async () => {
    const provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true });
    const wallet = new Wallet(node.accounts[7].privateKey, provider);
    const signed = await wallet.signTransaction(await wallet.populateTransaction({ to: node.accounts[8].address, value: 7n }));
    const receipt = await rpc(node.url, 'eth_sendRawTransactionSync', [signed]);
    assert.equal(receipt.status, '0x1');
    assert.equal(receipt.from, wallet.address.toLowerCase());
    provider.destroy();
  });

  it('rejects a timeout above 6000 ms with -32602', async () => {
    const wallet = new Wallet(node.accounts[7].privateKey);
    const signed = await wallet.signTransaction({ to: node.accounts[8].address, value: 7n, nonce: 99, gasLimit: 21000, chainId: 31337, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n });
    await assert.rejects(rpc(node.url, 'eth_sendRawTransactionSync', [signed, 7000]), (e: any) => e.code === -32602 && e.message === 'time out too long, timeout: 7000 ms, max: 6000 ms');
  });
});
