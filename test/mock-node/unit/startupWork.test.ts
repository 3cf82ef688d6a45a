// Work the CLI no longer does at start (issue 22): constants instead of hashing at import, the
// token's companion addresses without ethers' checksumming, and built-in modules the start-up
// path does not need left unloaded.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCreateAddress, keccak256, Wallet } from 'ethers';
import { bytesHex } from '../../../mock-node/encoding/bytes';
import { EMPTY_ROOT_BYTES } from '../../../mock-node/encoding/trieRoot';
import { createdAddress } from '../../../mock-node/execution/createdAddress';
import { EMPTY_ROOT } from '../../../mock-node/state/persistentTrie';
import { CLI, ensureCliBuilt } from '../../helpers/cli';
import { rpc } from '../../helpers/rpc';

describe('start-up: work left out', () => {
  it('the empty trie root constants are keccak(rlp(""))', () => {
    assert.equal(bytesHex(EMPTY_ROOT_BYTES), keccak256('0x80'));
    assert.equal(bytesHex(EMPTY_ROOT), keccak256('0x80'));
  });

  it('the build ends Node\'s package.json lookup in dist/ (not the repository\'s 37 KB manifest), as CommonJS', () => {
    ensureCliBuilt();
    assert.deepEqual(JSON.parse(readFileSync(join(CLI, '..', 'package.json'), 'utf8')), { type: 'commonjs' });
  });

  it('createdAddress is the CREATE address ethers derives', () => {
    for (const from of ['0x3600000000000000000000000000000000000000', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0x000000000000000000000000000000000000dEaD']) {
      for (const nonce of [0, 1, 2, 3, 127, 128, 255, 256, 70_000]) {
        assert.equal(createdAddress(from, nonce), getCreateAddress({ from, nonce }).toLowerCase(), `${from} at ${nonce}`);
      }
    }
  });

  it('the CLI bundle answers without having loaded node:v8, node:fs/promises, node:crypto or node:perf_hooks', async function () {
    this.timeout(60_000);
    ensureCliBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'mock-node-startup-modules-'));
    try {
      // The built-in modules loaded when the node prints its listening line (after the server listens).
      const out = join(dir, 'modules.json');
      const preload = join(dir, 'preload.js');
      writeFileSync(preload, `const write = process.stdout.write.bind(process.stdout); let done = false;
process.stdout.write = (chunk, ...rest) => { if (!done && String(chunk).startsWith('{"listening"')) { done = true; require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)); } return write(chunk, ...rest); };`);
      const child = spawn(process.execPath, ['-r', preload, CLI, '--port', '0', '--json-logs', '--log-level', 'error'], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('{"listening"')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`the CLI exited with ${code}: ${output}`)));
      });
      child.kill('SIGTERM');
      const loaded = JSON.parse(readFileSync(out, 'utf8')) as string[];
      assert.ok(loaded.includes('NativeModule http'), 'the list is the CLI process\'s');
      assert.ok(!loaded.includes('NativeModule v8'), 'node:v8 loaded at start');
      assert.ok(!loaded.includes('NativeModule fs/promises'), 'node:fs/promises loaded at start');
      // node:crypto is a dozen modules (mock-node/secureRandom.ts); perf_hooks ten (the global
      // \`performance\` loads it: the slot timer uses process.hrtime).
      assert.ok(!loaded.includes('NativeModule crypto'), 'node:crypto loaded at start');
      assert.ok(!loaded.includes('NativeModule perf_hooks'), 'node:perf_hooks loaded at start');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the CLI bundle answers its first requests without loading ethers (dist/mock-node-ethers.js), nor the fallback backends after a transaction', async function () {
    this.timeout(60_000);
    ensureCliBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'mock-node-startup-bundles-'));
    try {
      // On SIGUSR2 the process writes the files it required so far (the lazy bundles are required by path).
      const out = join(dir, 'required.json');
      const preload = join(dir, 'preload.js');
      writeFileSync(preload, `process.on('SIGUSR2', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(Object.keys(require.cache))));`);
      const { child, url } = await startListening(preload, []);
      try {
        assert.equal(await rpc(url, 'eth_chainId'), '0x7a69');
        assert.match(await rpc(url, 'eth_blockNumber'), /^0x[0-9a-f]+$/);
        const before = await required(child, out);
        assert.ok(before.includes(CLI), 'the list is the CLI process\'s');
        assert.ok(!before.some((file) => file.endsWith('mock-node-ethers.js')), `ethers loaded at start: ${before.join(', ')}`);
        // The stand-in loads it on the first use of what it left out (here a signed transaction's parsing).
        const raw = await Wallet.fromPhrase('test test test test test test test test test test test junk').signTransaction({
          to: '0x000000000000000000000000000000000000dEaD', value: 1n, nonce: 0, gasLimit: 21000, chainId: 31337, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n,
        });
        assert.equal(await rpc(url, 'eth_sendRawTransaction', [raw]), keccak256(raw));
        assert.equal((await rpc(url, 'eth_signTypedData_v4', [DEV_ACCOUNT_0, TYPED_DATA])).length, 132);
        const after = await required(child, out);
        assert.ok(after.some((file) => file.endsWith('mock-node-ethers.js')), 'signing typed data did not load ethers');
        // The slower secp256k1 and keccak backends stay unloaded where the faster ones load.
        assert.deepEqual(after.filter((file) => /mock-node-(secp256k1-wasm|secp256k1-js|keccak-js)\.js$/.test(file)), []);
      } finally {
        child.kill('SIGTERM');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the CLI loads a state file of signed transactions without ethers: the intake decoder and libsecp256k1 check each sender', async function () {
    this.timeout(60_000);
    ensureCliBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'mock-node-state-load-'));
    const state = join(dir, 'state.json');
    const preload = join(dir, 'preload.js');
    const out = join(dir, 'required.json');
    writeFileSync(preload, `process.on('SIGUSR2', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(Object.keys(require.cache))));`);
    const wallet = Wallet.fromPhrase('test test test test test test test test test test test junk');
    const start = async () => {
      const { child, url } = await startListening(preload, ['--no-auto', '--state', state]);
      const stop = () => new Promise<number | null>((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); });
      return { child, url, stop };
    };
    try {
      const first = await start();
      const hashes: string[] = [];
      for (let nonce = 0; nonce < 3; nonce++) {
        const raw = await wallet.signTransaction({ to: '0x000000000000000000000000000000000000dEaD', value: 1n, nonce, gasLimit: 21000, chainId: 31337, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n });
        hashes.push(await rpc(first.url, 'eth_sendRawTransaction', [raw]));
      }
      await rpc(first.url, 'evm_mine');
      assert.equal(await first.stop(), 0);

      const second = await start();
      try {
        for (const hash of hashes) assert.equal((await rpc(second.url, 'eth_getTransactionByHash', [hash])).from.toLowerCase(), wallet.address.toLowerCase());
        const loaded = await required(second.child, out);
        assert.ok(loaded.includes(CLI), 'the list is the CLI process\'s');
        assert.ok(!loaded.some((file) => file.endsWith('mock-node-ethers.js')), `ethers loaded to read the state file: ${loaded.join(', ')}`);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const DEV_ACCOUNT_0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TYPED_DATA = {
  types: { EIP712Domain: [{ name: 'name', type: 'string' }], Mail: [{ name: 'contents', type: 'string' }] },
  primaryType: 'Mail',
  domain: { name: 'startup test' },
  message: { contents: 'hello' },
};

/**
 * The CLI started with `preload` and `args` (JSON logs): resolves with its process and URL once it
 * prints its listening line.
 */
async function startListening(preload: string, args: string[]): Promise<{ child: ReturnType<typeof spawn>; url: string }> {
  const child = spawn(process.execPath, ['-r', preload, CLI, '--port', '0', ...args, '--json-logs', '--log-level', 'error'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{"listening"'));
      if (line) resolve((JSON.parse(line) as { listening: { url: string } }).listening.url);
    });
    child.once('exit', (code) => reject(new Error(`the CLI exited with ${code}: ${output}`)));
  });
  return { child, url };
}

/** The files the CLI process has required, as its preload writes them on SIGUSR2. */
async function required(child: ReturnType<typeof spawn>, out: string): Promise<string[]> {
  rmSync(out, { force: true });
  child.kill('SIGUSR2');
  for (let waited = 0; waited < 10_000; waited += 20) {
    try {
      return JSON.parse(readFileSync(out, 'utf8')) as string[];
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  throw new Error('the CLI did not write its required files');
}
