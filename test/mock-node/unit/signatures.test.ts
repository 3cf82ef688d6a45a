// Sender and signer recovery (mock-node/execution/signatures.ts): libsecp256k1 as WebAssembly and
// the JavaScript fallback give ethers' answers, refuse signatures that match no key, and the CLI
// bundle still takes transactions when the WebAssembly file is missing beside it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getBytes, keccak256, randomBytes, Transaction, Wallet } from 'ethers';
import { recoverSigner, recoveryBackend, type RecoveryBackend } from '../../../mock-node/execution/signatures';
import { CLI, ensureCliBuilt, ROOT } from '../../helpers/cli';
import { rpc } from '../../helpers/rpc';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const word = (value: bigint) => getBytes('0x' + value.toString(16).padStart(64, '0'));

describe('signature recovery', () => {
  it('uses the WebAssembly backend here', () => {
    assert.equal(recoveryBackend(), 'wasm');
  });

  for (const kind of ['wasm', 'js'] as RecoveryBackend[]) {
    describe(`${kind} backend`, () => {
      it('recovers the signer of 20 random keys and digests, as ethers does', () => {
        for (let i = 0; i < 20; i++) {
          const wallet = Wallet.createRandom();
          const digest = keccak256(randomBytes(40));
          const sig = wallet.signingKey.sign(digest);
          assert.equal(recoverSigner(getBytes(digest), getBytes(sig.r), getBytes(sig.s), sig.yParity, kind), wallet.address.toLowerCase());
        }
      });

      it('refuses r = 0, s = 0, r or s not below the curve order, a bad parity and short inputs', () => {
        const digest = getBytes(keccak256('0x01'));
        const one = word(1n);
        for (const [r, s, parity] of [
          [word(0n), one, 0],
          [one, word(0n), 0],
          [word(N), one, 0],
          [one, word(N), 1],
          [one, one, 2],
          [one.subarray(1), one, 0],
        ] as [Uint8Array, Uint8Array, number][]) {
          assert.throws(() => recoverSigner(digest, r, s, parity, kind), /invalid signature/);
        }
      });
    });
  }

  it('the bundles (built by esbuild.mjs) load the WebAssembly backend from dist/', () => {
    ensureCliBuilt();
    const bundle = require(join(ROOT, 'dist', 'mock-node-lib.js')) as { recoveryBackend(): RecoveryBackend };
    assert.equal(bundle.recoveryBackend(), 'wasm');
  });

  it('the CLI bundle without secp256k1.wasm beside it falls back to JavaScript and still takes transactions', async function () {
    this.timeout(60_000);
    ensureCliBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'mock-node-nowasm-'));
    copyFileSync(CLI, join(dir, 'mock-node.js'));
    const child = spawn(process.execPath, [join(dir, 'mock-node.js'), '--port', '0', '--no-auto']);
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`did not start:\n${output}`)), 30_000);
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /JSON-RPC \(public\)\s+(\S+)/.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      const wallet = Wallet.fromPhrase('test test test test test test test test test test test junk');
      const raw = await wallet.signTransaction({ to: wallet.address, value: 1n, nonce: 0, gasLimit: 21000, chainId: 31337, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n });
      const hash = await rpc(url, 'eth_sendRawTransaction', [raw]);
      assert.equal(hash, Transaction.from(raw).hash);
      const queued = await rpc(url, 'eth_getTransactionByHash', [hash]);
      assert.equal(queued.from, wallet.address.toLowerCase());
    } finally {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
