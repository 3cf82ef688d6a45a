// The transaction page's text from the mock node's own answers: a token transfer read by
// eth_getTransactionByHash / eth_getTransactionReceipt and traced by debug_traceTransaction
// (callTracer), through the explorer's reader. The page's stage, decoded input and trace.
import * as assert from 'node:assert/strict';
import { Interface } from 'ethers';
import { ChainLookups } from '../../extension/explorer/chainLookups';
import { EndpointReader } from '../../extension/explorer/endpointReader';
import { transactionPageText, type TraceFrame } from '../../extension/explorer/transactionPageText';
import { RpcClient } from '../../extension/rpc/client';
import { startMockNode, STABLE_TOKEN_ABI } from '../../mock-node/index';

describe('the transaction page against the mock node @integration', function () {
  this.timeout(30_000);

  it('reads a token transfer: pre-confirmed, then included with its decoded call trace; a failed one with its revert reason', async () => {
    const node = await startMockNode({ port: 0, auto: false, quiet: true });
    try {
      const token = new Interface(STABLE_TOKEN_ABI as unknown as string[]);
      const [from, to] = node.accounts;
      const client = new RpcClient(node.url);
      const lookups = new ChainLookups(new EndpointReader(client));
      const ctx = { token: { address: node.tokenAddress, decimals: 6, symbol: 'USDC' } };
      const hash = await client.call<string>('eth_sendTransaction', [{ from: from.address, to: node.tokenAddress, data: token.encodeFunctionData('transfer', [to.address, 2_500_000n]) }]);
      await client.call('mock_flashblock');
      const latest = async () => BigInt(await client.call<string>('eth_blockNumber'));
      const pre = await lookups.transaction(hash);
      assert.ok(pre);
      assert.match(transactionPageText({ endpointName: 'mock', hash, tx: pre.tx, receipt: pre.receipt, latest: await latest(), ctx }), /Stage: +pre-confirmed in the pending block #\d+/);
      await client.call('evm_mine');
      const found = (await lookups.transaction(hash))!;
      const trace = await client.call<TraceFrame>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
      const text = transactionPageText({ endpointName: 'mock', hash, tx: found.tx, receipt: found.receipt, latest: await latest(), ctx, trace: { ok: true, value: trace } });
      assert.match(text, /Stage: +included in block #\d+ \(1 confirmation\)/);
      assert.match(text, /Action: +transfer 2\.5 USDC to 0x7099…79C8/i);
      assert.match(text, /Token movements \(1\)\n  Transfer 2\.5 USDC/);
      assert.match(text, new RegExp(`Call trace \\(debug_traceTransaction, callTracer\\)\\n  CALL ${from.address} → transfer 2\\.5 USDC to 0x7099…79C8`, 'i'));

      // Paused token: the transfer fails; Go to's reader replays it for the reason.
      await client.call('mock_setPaused', [true]);
      await client.call('evm_mine'); // the pause sealed first: the replay's state has it
      const failing = await client.call<string>('eth_sendTransaction', [{ from: from.address, to: node.tokenAddress, data: token.encodeFunctionData('transfer', [to.address, 1n]), gas: '0x30000' }]);
      await client.call('evm_mine');
      const failed = (await lookups.transaction(failing))!;
      assert.equal(failed.receipt?.status, '0x0');
      // Replayed on the state before its block, where the token was already paused.
      assert.equal(failed.revertReason, 'Pausable: paused');
    } finally {
      await node.stop();
    }
  });
});
