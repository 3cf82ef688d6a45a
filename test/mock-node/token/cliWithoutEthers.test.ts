// The token's calls through the CLI bundle do not load ethers (dist/mock-node-ethers.js, which the
// CLI requires on the first use of what its stand-in leaves out): the token reads its calldata,
// writes its results and hashes its structs without it. Loading it cost the first token transfer
// of a run tens of milliseconds of CPU and the process about 10 MiB (issue 22).
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Interface, Signature, Wallet, keccak256, type TypedDataField } from 'ethers';
import { defaultOptions, STABLE_TOKEN_ABI, TYPED_DATA_TYPES } from '../../../mock-node/index';
import { CLI, ensureCliBuilt, startCli, type CliNode } from '../../helpers/cli';
import { rpc, sleep } from '../../helpers/rpc';

const TOKEN = new Interface(STABLE_TOKEN_ABI as unknown as string[]);
const CHAIN_ID = 31337n;

describe('token through the CLI bundle without ethers @integration', function () {
  this.timeout(60_000);
  let dir: string;
  let node: CliNode;
  let out: string;

  before(async () => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'mock-node-token-ethers-'));
    out = join(dir, 'required.json');
    const preload = join(dir, 'preload.js');
    // On SIGUSR2 the process writes the files it required so far (the lazy bundles are required by path).
    writeFileSync(preload, `process.on('SIGUSR2', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(Object.keys(require.cache))));`);
    node = await startCli([], [process.execPath, '-r', preload, CLI]);
  });

  after(async () => {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a token transfer, reads, an estimate and an authorization in the bytes form leave ethers unloaded', async () => {
    const token = defaultOptions().token.address;
    const [payer, payee] = node.accounts;
    const wallet = new Wallet(payer.privateKey);
    const before = BigInt(await rpc(node.url, 'eth_call', [{ to: token, data: TOKEN.encodeFunctionData('balanceOf', [payee.address]) }, 'pending']));

    const raw = await wallet.signTransaction({
      type: 2, chainId: CHAIN_ID, nonce: 0, to: token, gasLimit: 100_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n,
      data: TOKEN.encodeFunctionData('transfer', [payee.address, 7n]),
    });
    const hash = await rpc<string>(node.url, 'eth_sendRawTransaction', [raw]);
    assert.equal(hash, keccak256(raw));
    let receipt: { status: string; logs: unknown[] } | null = null;
    for (let waited = 0; !receipt && waited < 20_000; waited += 50) {
      receipt = await rpc(node.url, 'eth_getTransactionReceipt', [hash]);
      if (!receipt) await sleep(50);
    }
    assert.equal(receipt?.status, '0x1');
    assert.equal(receipt.logs.length, 1);
    const after = BigInt(await rpc(node.url, 'eth_call', [{ to: token, data: TOKEN.encodeFunctionData('balanceOf', [payee.address]) }, 'pending']));
    assert.equal(after - before, 7n);
    assert.equal(TOKEN.decodeFunctionResult('name', await rpc(node.url, 'eth_call', [{ to: token, data: TOKEN.encodeFunctionData('name') }, 'latest']))[0], 'USD Coin');
    assert.ok(BigInt(await rpc(node.url, 'eth_estimateGas', [{ from: payer.address, to: token, data: TOKEN.encodeFunctionData('approve', [payee.address, 5n]) }])) > 21_000n);

    // transferWithAuthorization with a bytes signature: the calldata has a dynamic argument.
    const domain = { name: 'USD Coin', version: '2', chainId: CHAIN_ID, verifyingContract: token };
    const message = { from: payer.address, to: payee.address, value: 3n, validAfter: 0n, validBefore: 2n ** 40n, nonce: keccak256('0x01') };
    const types = TYPED_DATA_TYPES.TransferWithAuthorization as unknown as Record<string, TypedDataField[]>;
    const signature = Signature.from(await wallet.signTypedData(domain, types, message)).serialized;
    const fn = 'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)';
    const data = TOKEN.encodeFunctionData(fn, [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, signature]);
    assert.equal(await rpc(node.url, 'eth_call', [{ from: payee.address, to: token, data }, 'latest']), '0x');

    const loaded = await required(node, out);
    assert.ok(loaded.includes(CLI), "the list is the CLI process's");
    assert.ok(!loaded.some((file) => file.endsWith('mock-node-ethers.js')), `the token's calls loaded ethers: ${loaded.join(', ')}`);
  });
});

/** The files the CLI process has required, as its preload writes them on SIGUSR2. */
async function required(node: CliNode, file: string): Promise<string[]> {
  rmSync(file, { force: true });
  node.child.kill('SIGUSR2');
  for (let waited = 0; waited < 10_000; waited += 20) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as string[];
    } catch {
      await sleep(20);
    }
  }
  throw new Error('the CLI did not write its required files');
}
