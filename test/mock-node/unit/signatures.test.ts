// Sender and signer recovery (mock-node/execution/signatures.ts): libsecp256k1 as a native addon,
// as WebAssembly and the JavaScript fallback give ethers' answers and refuse signatures that match
// no key; the bundles load the addon from dist/prebuilds (on linux-x64 a test fails if it does
// not, or if our own build, chain-recover.node, was not made and preferred), fall back to the
// package's binary without ours, to WebAssembly without either (or with broken files), to
// JavaScript without the WebAssembly file too, and the CLI bundle still takes transactions then.
// Our build answers as the package's binary does, and refuses bad arguments with a TypeError.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { getBytes, keccak256, randomBytes, Transaction, Wallet } from 'ethers';
import { addonStatus, openSecp256k1Addon, OWN_ADDON_FILE, prebuildFiles } from '../../../mock-node/execution/secp256k1Addon';
import { RECOVERY_BACKENDS, recoverSigner, recoveryBackend, type RecoveryBackend } from '../../../mock-node/execution/signatures';
import { CLI, ensureCliBuilt, ROOT } from '../../helpers/cli';
import { rpc } from '../../helpers/rpc';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const word = (value: bigint) => getBytes('0x' + value.toString(16).padStart(64, '0'));

/** linux-x64, darwin-arm64 and win32-x64: the platforms the secp256k1 package ships a binary for. */
const NATIVE_HERE = ['linux-x64', 'darwin-arm64', 'win32-x64'].includes(`${process.platform}-${process.arch}`);
const EXPECTED = NATIVE_HERE ? 'native' : 'wasm';
/** Where mock-node/native/build.mjs builds our addon, and must (CI installs a C compiler and libgmp-dev). */
const OWN_BUILD_HERE = process.platform === 'linux' && process.arch === 'x64';
const PREBUILDS = join(ROOT, 'dist', 'prebuilds');
const OWN_ADDON = join(PREBUILDS, `${process.platform}-${process.arch}`, OWN_ADDON_FILE);
const PACKAGE_ADDON = join(PREBUILDS, prebuildFiles()[1] ?? '');

/** recoveryBackend() of a copy of dist/mock-node-lib.js in a folder of its own, holding `beside` from dist/ too (those there). */
function bundleBackendWith(beside: string[], prepare?: (dir: string) => void): string {
  return bundleRecoveryWith(beside, prepare).backend;
}

/** The slower backends' bundles, which the bundles require from beside themselves when they need one (esbuild.mjs). */
const FALLBACK_BUNDLES = ['mock-node-secp256k1-wasm.js', 'mock-node-secp256k1-js.js', 'mock-node-keccak-js.js'];

/** bundleBackendWith, with the bundle's addonStatus() too. */
function bundleRecoveryWith(beside: string[], prepare?: (dir: string) => void): { backend: string; status: string } {
  ensureCliBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'mock-node-recovery-'));
  try {
    for (const file of ['mock-node-lib.js', ...FALLBACK_BUNDLES, ...beside]) {
      if (!existsSync(join(ROOT, 'dist', file))) continue;
      mkdirSync(join(dir, file, '..'), { recursive: true });
      copyFileSync(join(ROOT, 'dist', file), join(dir, file));
    }
    prepare?.(dir);
    const script = `const lib = require(${JSON.stringify(join(dir, 'mock-node-lib.js'))}); console.log(JSON.stringify({ backend: lib.recoveryBackend(), status: lib.addonStatus() }))`;
    return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: dir }).toString());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether a running process has a secp256k1 Node-API binary (ours or the package's) mapped (Linux: /proc/PID/maps). */
function nativeAddonMapped(pid: number): boolean {
  return /(secp256k1[^/\n]*|chain-recover)\.node/.test(readFileSync(`/proc/${pid}/maps`, 'utf8'));
}

describe('signature recovery', () => {
  it(`uses the ${EXPECTED} backend here (${process.platform}-${process.arch})`, () => {
    assert.equal(recoveryBackend(), EXPECTED, addonStatus());
    if (OWN_BUILD_HERE) assert.match(addonStatus(), /^loaded .*chain-recover\.node$/);
    else if (NATIVE_HERE) assert.match(addonStatus(), /^loaded .*secp256k1[.\w]*\.node$/);
  });

  it('names our own build, then the prebuilt binaries of each platform (the glibc one first on Linux)', () => {
    assert.deepEqual(prebuildFiles('linux', 'x64'), [join('linux-x64', OWN_ADDON_FILE), join('linux-x64', 'secp256k1.glibc.node'), join('linux-x64', 'secp256k1.musl.node')]);
    assert.deepEqual(prebuildFiles('darwin', 'arm64'), [join('darwin-arm64', OWN_ADDON_FILE), join('darwin-arm64', 'secp256k1.node')]);
    assert.deepEqual(prebuildFiles('win32', 'x64'), [join('win32-x64', OWN_ADDON_FILE), join('win32-x64', 'secp256k1.node')]);
  });

  (OWN_BUILD_HERE ? describe : describe.skip)('our own build (mock-node/native/recover.c, dist/prebuilds/…/chain-recover.node)', () => {
    before(() => ensureCliBuilt());

    it('was built by esbuild.mjs and links GMP', () => {
      assert.ok(existsSync(OWN_ADDON), `${OWN_ADDON} missing: see the build's "chain-recover addon not built" line`);
      assert.match(execFileSync('ldd', [OWN_ADDON]).toString(), /libgmp\.so\.10/);
    });

    it('answers as the package\'s binary for 300 random signatures and digests, valid or not', () => {
      const ours = openSecp256k1Addon(OWN_ADDON);
      const theirs = openSecp256k1Addon(PACKAGE_ADDON);
      let recovered = 0;
      for (let i = 0; i < 300; i++) {
        const signature = randomBytes(64);
        const digest = randomBytes(32);
        const a = new Uint8Array(65);
        const b = new Uint8Array(65);
        const code = ours.ecdsaRecover(a, signature, i % 2, digest);
        assert.equal(theirs.ecdsaRecover(b, signature, i % 2, digest), code, `signature ${i}`);
        assert.deepEqual(a, b, `key ${i}`);
        if (code === 0) recovered++;
      }
      assert.ok(recovered > 100, `${recovered} of 300 recovered`);
    });

    it('recovers the keys of 20 random wallets', () => {
      const ours = openSecp256k1Addon(OWN_ADDON);
      for (let i = 0; i < 20; i++) {
        const wallet = Wallet.createRandom();
        const digest = keccak256(randomBytes(40));
        const sig = wallet.signingKey.sign(digest);
        const key = new Uint8Array(65);
        assert.equal(ours.ecdsaRecover(key, getBytes(sig.r + sig.s.slice(2)), sig.yParity, getBytes(digest)), 0);
        assert.equal(Buffer.from(key).toString('hex'), wallet.signingKey.publicKey.slice(2));
      }
    });

    it('answers 1 for a signature that does not parse, 2 for an r off the curve, and throws a TypeError for bad arguments', () => {
      const ours = openSecp256k1Addon(OWN_ADDON);
      const out = new Uint8Array(65);
      const digest = new Uint8Array(32).fill(7);
      assert.equal(ours.ecdsaRecover(out, new Uint8Array(64).fill(0xff), 0, digest), 1);
      assert.equal(ours.ecdsaRecover(out, new Uint8Array(64), 0, digest), 2);
      assert.deepEqual(out, new Uint8Array(65), 'nothing written');
      const call = (...args: unknown[]) => (ours.ecdsaRecover as (...a: unknown[]) => number)(...args);
      for (const args of [
        [],
        [out, new Uint8Array(64), 0],
        [new Uint8Array(64), new Uint8Array(64), 0, digest],
        [new Uint16Array(65), new Uint8Array(64), 0, digest],
        [out, new Uint8Array(63), 0, digest],
        [out, 'not bytes', 0, digest],
        [out, new Uint8Array(64), 4, digest],
        [out, new Uint8Array(64), -1, digest],
        [out, new Uint8Array(64), 'one', digest],
        [out, new Uint8Array(64), 0, new Uint8Array(33)],
      ]) {
        assert.throws(() => call(...args), TypeError, JSON.stringify(args.map((a) => (a as { length?: number })?.length ?? a)));
      }
    });

    it('loads in four worker threads at once, each recovering a known key (one context for the process)', async () => {
      const wallet = Wallet.createRandom();
      const digest = keccak256(randomBytes(40));
      const sig = wallet.signingKey.sign(digest);
      const source = `
        const { parentPort, workerData } = require('node:worker_threads');
        const addon = { exports: {} };
        process.dlopen(addon, workerData.path);
        const key = new Uint8Array(65);
        let codes = 0;
        for (let i = 0; i < 200; i++) codes += addon.exports.ecdsaRecover(key, Buffer.from(workerData.signature, 'hex'), workerData.parity, Buffer.from(workerData.digest, 'hex'));
        parentPort.postMessage({ codes, key: Buffer.from(key).toString('hex') });`;
      const workerData = { path: OWN_ADDON, signature: sig.r.slice(2) + sig.s.slice(2), parity: sig.yParity, digest: digest.slice(2) };
      const answers = await Promise.all([0, 1, 2, 3].map(() => new Promise<{ codes: number; key: string }>((resolve, reject) => {
        const worker = new Worker(source, { eval: true, workerData });
        worker.once('message', resolve);
        worker.once('error', reject);
      })));
      for (const answer of answers) assert.deepEqual(answer, { codes: 0, key: wallet.signingKey.publicKey.slice(2) });
    });

    describe('its build (mock-node/native/build.mjs)', () => {
      const BUILD = join(ROOT, 'mock-node', 'native', 'build.mjs');
      let dir: string;
      beforeEach(() => {
        dir = mkdtempSync(join(tmpdir(), 'chain-recover-build-'));
      });
      afterEach(() => rmSync(dir, { recursive: true, force: true }));
      const build = (env: NodeJS.ProcessEnv = {}) => execFileSync(process.execPath, [BUILD, join(dir, 'prebuilds')], { env: { ...process.env, ...env }, encoding: 'utf8' });
      const built = () => join(dir, 'prebuilds', `${process.platform}-${process.arch}`, OWN_ADDON_FILE);
      /** What the addon at `path` answers for a signature whose r and s are off the curve, in a process of its own. */
      const recoveryCode = (path: string): number => {
        const script = `const a = { exports: {} }; process.dlopen(a, ${JSON.stringify(path)}); process.stdout.write(String(a.exports.ecdsaRecover(new Uint8Array(65), new Uint8Array(64).fill(0xff), 0, new Uint8Array(32))));`;
        return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
      };

      it('builds into the folder given, checked, and builds again only when an input changes', function () {
        this.timeout(60_000);
        assert.match(build(), /chain-recover addon built/);
        // Loaded in a child process, not in this one: the folder is removed after the test, and a
        // library this process keeps loaded from a removed (and rebuilt) file crashed Node 24's exit.
        assert.equal(recoveryCode(built()), 1);
        assert.equal(build(), '', 'up to date: nothing to do');
        assert.match(build({ CC: 'gcc' }), /chain-recover addon built/, 'another compiler: built again');
      });

      /** Puts a file where an earlier build left its binary, builds with `env`; answers what the build printed. */
      const buildOverEarlier = (env: NodeJS.ProcessEnv) => {
        mkdirSync(join(built(), '..'), { recursive: true });
        writeFileSync(built(), 'an earlier build');
        return build(env);
      };

      it('without a C compiler, says why and leaves no binary of an earlier build', () => {
        assert.match(buildOverEarlier({ CC: join(dir, 'no-such-compiler') }), /chain-recover addon not built \(no C compiler/);
        assert.equal(existsSync(built()), false);
      });

      it('when the link fails (no GMP), says why and leaves no binary of an earlier build', function () {
        this.timeout(60_000);
        // cc asked for a GMP library that does not exist.
        const compiler = join(dir, 'cc-without-gmp');
        writeFileSync(compiler, '#!/bin/sh\n[ "$1" = "--version" ] && exec cc --version\nexec cc "$@" -lno-such-gmp\n', { mode: 0o755 });
        assert.match(buildOverEarlier({ CC: compiler }), /chain-recover addon not built \(.*no-such-gmp/);
        assert.equal(existsSync(built()), false);
      });
    });

    it('a bundle with only the package\'s binary beside it (ours not built there) loads that one', () => {
      const { backend, status } = bundleRecoveryWith(['secp256k1.wasm', ...prebuildFiles().slice(1).map((file) => join('prebuilds', file))]);
      assert.equal(backend, 'native');
      assert.match(status, /secp256k1\.glibc\.node$/);
    });
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
    const { backend, status } = bundleRecoveryWith(['secp256k1.wasm', ...(NATIVE_HERE ? prebuilds : [])]);
    assert.equal(backend, EXPECTED);
    if (OWN_BUILD_HERE) assert.match(status, /chain-recover\.node$/);
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

  it('the CLI (loader, bundle and the fallbacks\' bundles) without prebuilds/ or secp256k1.wasm beside it falls back and still takes transactions', async function () {
    this.timeout(60_000);
    ensureCliBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'mock-node-nowasm-'));
    copyFileSync(CLI, join(dir, 'mock-node.js'));
    copyFileSync(CLI.replace(/\.js$/, '.bundle'), join(dir, 'mock-node.bundle'));
    for (const file of FALLBACK_BUNDLES) copyFileSync(join(ROOT, 'dist', file), join(dir, file));
    try {
      assert.equal(await cliTakesATransaction(join(dir, 'mock-node.js')), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
