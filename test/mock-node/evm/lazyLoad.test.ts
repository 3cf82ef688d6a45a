// The EVM stays unloaded until a message meets code: the CLI bundle (as the bench runs it) serves
// the bench's kinds of traffic (signed ETH and token transfers, an authorization, reads, logs,
// estimates, the token's traces, access lists and simulations) without ever requiring
// dist/mock-node-evm.js, and requires it at the first contract deployment. A preloaded hook in the
// child process reports each require of the EVM's bundle on stderr.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Interface, Signature, Transaction, TypedDataEncoder, Wallet } from 'ethers';
import { STABLE_TOKEN_ABI, TYPED_DATA_TYPES } from '../../../mock-node/tokenKit/index';
import { CLI, ensureCliBuilt, startCli, type CliNode } from '../../helpers/cli';
import { rpc } from '../../helpers/rpc';

const MARKER = 'EVM-BUNDLE-REQUIRED';
const HOOK = `
const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (/mock-node-evm\\.js$/.test(request)) process.stderr.write('${MARKER}\\n');
  return load.call(this, request, ...rest);
};
`;

const TOKEN = new Interface(STABLE_TOKEN_ABI as unknown as string[]);

describe('the EVM bundle is loaded only when a message meets contract code', function () {
  this.timeout(120_000);
  let dir: string;
  let node: CliNode;

  before(async () => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evm-lazy-'));
    const hook = join(dir, 'hook.cjs');
    writeFileSync(hook, HOOK);
    node = await startCli([], [process.execPath, '--require', hook, CLI]);
  });

  after(async () => {
    await node?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('native traffic never requires it; a deployment does', async () => {
    const url = node.url;
    const [a, b, c] = node.accounts.map((x) => new Wallet(x.privateKey));
    // The built-in token's default address.
    const token = '0x3600000000000000000000000000000000000000';
    const chainId = BigInt(await rpc(url, 'eth_chainId'));
    const block = await rpc(url, 'eth_getBlockByNumber', ['latest', false]);
    const fee = { maxFeePerGas: BigInt(block.baseFeePerGas) * 2n + 1_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
    let nonce = BigInt(await rpc(url, 'eth_getTransactionCount', [a.address, 'pending']));
    const signed = async (to: string, data: string, value = 0n) =>
      a.signTransaction(Transaction.from({ type: 2, chainId, nonce: Number(nonce++), to, data, value, gasLimit: 200_000n, ...fee }));
    const transfer = TOKEN.encodeFunctionData('transfer', [b.address, 1_000n]);

    // Intake: raw ETH and token transfers, an approval, a transaction the node signs.
    const hashes = [
      await rpc(url, 'eth_sendRawTransaction', [await signed(b.address, '0x', 5n)]),
      await rpc(url, 'eth_sendRawTransaction', [await signed(token, transfer)]),
      await rpc(url, 'eth_sendRawTransaction', [await signed(token, TOKEN.encodeFunctionData('approve', [c.address, 77n]))]),
      await rpc(url, 'eth_sendTransaction', [{ from: b.address, to: token, data: TOKEN.encodeFunctionData('transfer', [c.address, 1n]) }]),
    ];
    // An EIP-3009 authorization relayed by a third account.
    const domain = { name: 'USD Coin', version: '2', chainId, verifyingContract: token };
    const message = { from: a.address, to: c.address, value: 9n, validAfter: 0n, validBefore: 1n << 40n, nonce: `0x${'5a'.repeat(32)}` };
    const sig = Signature.from(a.signingKey.sign(TypedDataEncoder.hash(domain, TYPED_DATA_TYPES.TransferWithAuthorization as any, message)).serialized);
    hashes.push(
      await rpc(url, 'eth_sendTransaction', [
        {
          from: c.address,
          to: token,
          data: TOKEN.encodeFunctionData('transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)', [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, sig.v, sig.r, sig.s]),
        },
      ]),
    );
    await rpc(url, 'evm_mine');
    // Reads, logs, calls, estimates, and the token's inspection methods.
    for (const hash of hashes) assert.equal((await rpc(url, 'eth_getTransactionReceipt', [hash])).status, '0x1');
    await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', ['latest']);
    await rpc(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: token }]);
    await rpc(url, 'eth_call', [{ to: token, data: TOKEN.encodeFunctionData('balanceOf', [b.address]) }, 'pending']);
    await rpc(url, 'eth_estimateGas', [{ from: a.address, to: token, data: transfer }]);
    await rpc(url, 'debug_traceTransaction', [hashes[1], { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
    await rpc(url, 'debug_traceBlockByNumber', ['latest', { tracer: 'prestateTracer' }]);
    await rpc(url, 'eth_createAccessList', [{ from: a.address, to: token, data: transfer }, 'latest']);
    await rpc(url, 'eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: a.address, to: token, data: transfer }, { from: a.address, to: b.address, value: '0x1' }] }], traceTransfers: true }, 'latest']);
    assert.notEqual(await rpc(url, 'eth_getCode', [token, 'latest']), '0x');
    assert.ok(!node.output().includes(MARKER), 'native traffic required the EVM bundle');

    // A creation meets code: now the bundle is required (so this test can see it when it happens).
    const deploy = await rpc(url, 'eth_sendTransaction', [{ from: a.address, data: '0x600a600c600039600a6000f3602a60005260206000f3' }]);
    await rpc(url, 'evm_mine');
    assert.equal((await rpc(url, 'eth_getTransactionReceipt', [deploy])).status, '0x1');
    for (let i = 0; i < 50 && !node.output().includes(MARKER); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(node.output().includes(MARKER), 'a deployment ran without requiring the EVM bundle');
  });
});
