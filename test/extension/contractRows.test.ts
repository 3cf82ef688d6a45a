// Block rows for contracts the mock node really runs (its EVM): a deployment shows the address it
// created, a call decoded with the user's ABI shows its function and selector, and a failed call
// shows why it reverted, all on the block's rows, through the explorer's own reader.
import * as assert from 'node:assert/strict';
import { blockDetailChildren } from '../../extension/explorer/blockNodes';
import type { BlockJson, TransactionJson } from '../../extension/explorer/chainData';
import { ChainLookups } from '../../extension/explorer/chainLookups';
import { AbiBook } from '../../extension/explorer/decoding';
import { EndpointReader } from '../../extension/explorer/endpointReader';
import { transactionPageText } from '../../extension/explorer/transactionPageText';
import type { NodeSpec } from '../../extension/explorer/nodeSpec';
import { RpcClient } from '../../extension/rpc/client';
import { startMockNode } from '../../mock-node/index';
import { COUNTER, CREATION_CODE, FAIL_REASON, RUNTIME_CODE } from './counterContract';

describe('block rows of a deployed contract @integration', function () {
  this.timeout(60_000);

  it('a deployment shows its created address, an ABI call its function and selector, a failed call its revert reason', async () => {
    const node = await startMockNode({ port: 0, auto: false, quiet: true });
    try {
      const client = new RpcClient(node.url);
      const lookups = new ChainLookups(new EndpointReader(client));
      const from = node.accounts[0].address;
      const deploy = await client.call<string>('eth_sendTransaction', [{ from, data: CREATION_CODE }]);
      await client.call('evm_mine');
      const created = (await client.call<{ contractAddress: string; status: string }>('eth_getTransactionReceipt', [deploy]));
      assert.equal(created.status, '0x1');
      assert.equal(await client.call('eth_getCode', [created.contractAddress, 'latest']), RUNTIME_CODE, 'the node ran the creation code');
      const set = await client.call<string>('eth_sendTransaction', [{ from, to: created.contractAddress, data: COUNTER.encodeFunctionData('setNumber', [42n]) }]);
      // Explicit gas: estimating it would refuse the call that always reverts.
      const fail = await client.call<string>('eth_sendTransaction', [{ from, to: created.contractAddress, data: COUNTER.encodeFunctionData('fail'), gas: '0x30000' }]);
      await client.call('evm_mine');
      assert.equal(BigInt(await client.call<string>('eth_call', [{ to: created.contractAddress, data: COUNTER.encodeFunctionData('number') }, 'latest'])), 42n);

      const rowsOf = async (number: string, abis?: AbiBook): Promise<NodeSpec[]> => {
        const block = (await client.call<BlockJson>('eth_getBlockByNumber', [number, true]));
        const hashes = block.transactions.map((t) => (t as TransactionJson).hash);
        const receipts = await lookups.receiptSummaries(hashes, undefined, block.transactions);
        const [transactions] = blockDetailChildren(`b${number}`, 'ep', { block, receipts }, { abis });
        return transactions.children ?? [];
      };

      const [deployRow] = await rowsOf('0x1');
      const short = `${created.contractAddress.slice(0, 6)}…${created.contractAddress.slice(-4)}`.toLowerCase();
      assert.equal(deployRow.label.toLowerCase(), `#0 create contract ${short} · ${(CREATION_CODE.length - 2) / 2} bytes`);
      const createdRow = deployRow.children?.find((c) => c.label === 'created contract');
      assert.equal(createdRow?.copyValue?.toLowerCase(), created.contractAddress.toLowerCase());
      assert.equal(createdRow?.kind, 'link', 'the created address is a link (Go to)');

      // Without an ABI: the selector; the failed call says why on its row.
      const [plainSet, failRow] = await rowsOf('0x2');
      assert.equal(plainSet.label.toLowerCase(), `#0 call 0x3fb5c1cb on ${short}`);
      assert.match(failRow.description ?? '', new RegExp(`^reverted: ${FAIL_REASON} · 0x`));
      assert.equal(failRow.icon, 'error');
      assert.equal(failRow.children?.[0].label, `reverted: ${FAIL_REASON}`);
      assert.match(failRow.tooltip ?? '', new RegExp(`failed \\(0x0\\): ${FAIL_REASON}`));

      // With the user's ABI: the function by name and its selector beside it.
      const abis = new AbiBook();
      assert.ok(abis.add(JSON.parse(COUNTER.formatJson()), 'out/Counter.sol/Counter.json'));
      const [setRow] = await rowsOf('0x2', abis);
      assert.equal(setRow.label.toLowerCase(), `#0 setnumber 42 · ${short}`);
      const input = setRow.children?.find((c) => c.label.startsWith('call:'));
      assert.equal(input?.label, 'call: setNumber');
      assert.equal(input?.description, '0x3fb5c1cb · ABI out/Counter.sol/Counter.json');

      // The transaction page of the deployment names the created contract.
      const found = (await lookups.transaction(deploy))!;
      const page = transactionPageText({ endpointName: 'mock', hash: deploy, tx: found.tx, receipt: found.receipt, latest: 2n, ctx: {} });
      assert.match(page, new RegExp(`Action: +create contract ${short}`, 'i'));
      assert.match(page, new RegExp(`To: +\\(contract creation\\) ${created.contractAddress}`, 'i'));
    } finally {
      await node.stop();
    }
  });
});
