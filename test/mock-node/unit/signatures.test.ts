// Sender and signer recovery (mock-node/execution/signatures.ts): libsecp256k1 as a native addon,
// as WebAssembly and the JavaScript fallback give ethers' answers and refuse signatures that match
// no key; the bundles load the addon from dist/prebuilds (on linux-x64 a test fails if it does
// not), fall back to WebAssembly without it (or with a broken file), to JavaScript without the
// WebAssembly file too, and the CLI bundle still takes transactions then.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getBytes, keccak256, randomBytes, Transaction, Wallet } from 'ethers';
import { addonStatus, prebuildFiles } from '../../../mock-node/execution/secp256k1Addon';
import { RECOVERY_BACKENDS, recoverSigner, recoveryBackend, type RecoveryBackend } from '../../../mock-node/execution/signatures';
import { CLI, ensureCliBuilt, ROOT } from '../../helpers/cli';
import { rpc } from '../../helpers/rpc';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const word = (value: bigint) => getBytes('0x' + value.toString(16).padStart(64, '0'));

/** linux-x64, darwin-arm64 and win32-x64: the platforms the secp256k1 package ships a binary for. */
const NATIVE_HERE = ['linux-x64', 'darwin-arm64', 'win32-x64'].includes(`${process.platform}-${process.arch}`);
const EXPECTED = NATIVE_HERE ? 'native' : 'wasm';

/** recoveryBackend() of a copy of dist/mock-node-lib.js in a folder of its own, holding `beside` from dist/ too. */
function bundleBackendWith(beside: string[], prepare?: (dir: string) => void): string {
  ensureCliBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'mock-node-recovery-'));
  try {
    for (const file of ['mock-node-lib.js', ...beside]) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      copyFileSync(join(ROOT, 'dist', file), join(dir, file));
    }
    prepare?.(dir);
    return execFileSync(process.execPath, ['-e', `console.log(require(${JSON.stringify(join(dir, 'mock-node-lib.js'))}).recoveryBackend())`], { cwd: dir }).toString().trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether a running process has a secp256k1 Node-API binary mapped (Linux: /proc/PID/maps). */
function nativeAddonMapped(pid: number): boolean {
  return /secp256k1[^/\n]*\.node/.test(readFileSync(`/proc/${pid}/maps`, 'utf8'));
}

describe('signature recovery', () => {
  it(`uses the ${EXPECTED} backend here (${process.platform}-${process.arch})`, () => {
    assert.equal(recoveryBackend(), EXPECTED, addonStatus());
    if (NATIVE_HERE) assert.match(addonStatus(), /^loaded .*secp256k1[.\w]*\.node$/);
  });

  it('names the prebuilt binaries of each platform, the glibc one first on Linux', () => {
    assert.deepEqual(prebuildFiles('linux', 'x64'), [join('linux-x64', 'secp256k1.glibc.node'), join('linux-x64', 'secp256k1.musl.node')]);
    assert.deepEqual(prebuildFiles('darwin', 'arm64'), [join('darwin-arm64', 'secp256k1.node')]);
    assert.deepEqual(prebuildFiles('win32', 'x64'), [join('win32-x64', 'secp256k1.node')]);
  });

  for (const kind of RECOVERY_BACKENDS.filter((k) => k !== 'native' || NATIVE_HERE)) {
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

  it(`the bundles (built by esbuild.mjs) load the ${EXPECTED} backend from dist/`, () => {
    ensureCliBuilt();
    const bundle = require(join(ROOT, 'dist', 'mock-node-lib.js')) as { recoveryBackend(): RecoveryBackend };
    assert.equal(bundle.recoveryBackend(), EXPECTED);
  });

  it(`a bundle copied with prebuilds/ and secp256k1.wasm beside it loads the ${EXPECTED} backend from there`, () => {
    const prebuilds = prebuildFiles().map((file) => join('prebuilds', file));
    assert.equal(bundleBackendWith(['secp256k1.wasm', ...(NATIVE_HERE ? prebuilds : [])]), EXPECTED);
  });

  it('without prebuilds/ beside it, the bundle falls back to WebAssembly', () => {
    assert.equal(bundleBackendWith(['secp256k1.wasm']), 'wasm');
  });

  it('with a broken binary in prebuilds/, the bundle falls back to WebAssembly', () => {
    assert.equal(bundleBackendWith(['secp256k1.wasm'], (dir) => {
      for (const file of prebuildFiles()) {
        mkdirSync(join(dir, 'prebuilds', file, '..'), { recursive: true });
        writeFileSync(join(dir, 'prebuilds', file), 'not a shared library');
      }
    }), 'wasm');
  });

  it('without prebuilds/ and secp256k1.wasm, the bundle falls back to JavaScript', () => {
    assert.equal(bundleBackendWith([]), 'js');
  });

  /** Starts `cli`, sends one ETH transfer, checks its sender; returns whether the native addon was mapped then. */
  async function cliTakesATransaction(cli: string): Promise<boolean> {
    const child = spawn(process.execPath, [cli, '--port', '0', '--no-auto']);
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
      return process.platform === 'linux' && nativeAddonMapped(child.pid!);
    } finally {
      child.kill('SIGTERM');
    }
  }

  it('the CLI bundle in dist/ recovers senders with the native addon', async function () {
    this.timeout(60_000);
    ensureCliBuilt();
    const mapped = await cliTakesATransaction(CLI);
    if (process.platform === 'linux' && NATIVE_HERE) assert.equal(mapped, true);
  });

  it('the CLI (loader and bundle) alone, without prebuilds/ or secp256k1.wasm beside it, falls back and still takes transactions', async function () {
    this.timeout(60_000);
    ensureCliBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'mock-node-nowasm-'));
    copyFileSync(CLI, join(dir, 'mock-node.js'));
    copyFileSync(CLI.replace(/\.js$/, '.bundle'), join(dir, 'mock-node.bundle'));
    try {
      assert.equal(await cliTakesATransaction(join(dir, 'mock-node.js')), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
