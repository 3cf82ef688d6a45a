// Work the CLI no longer does at start (issue 22): constants instead of hashing at import, the
// token's companion addresses without ethers' checksumming, and built-in modules the start-up
// path does not need left unloaded.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCreateAddress, keccak256 } from 'ethers';
import { bytesHex } from '../../../mock-node/chain/bytes';
import { EMPTY_ROOT_BYTES } from '../../../mock-node/chain/trieRoot';
import { createdAddress } from '../../../mock-node/execution/createdAddress';
import { EMPTY_ROOT } from '../../../mock-node/state/persistentTrie';
import { CLI, ensureCliBuilt } from '../../helpers/cli';

describe('start-up: work left out', () => {
  it('the empty trie root constants are keccak(rlp(""))', () => {
    assert.equal(bytesHex(EMPTY_ROOT_BYTES), keccak256('0x80'));
    assert.equal(bytesHex(EMPTY_ROOT), keccak256('0x80'));
  });

  it('createdAddress is the CREATE address ethers derives', () => {
    for (const from of ['0x3600000000000000000000000000000000000000', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0x000000000000000000000000000000000000dEaD']) {
      for (const nonce of [0, 1, 2, 3, 127, 128, 255, 256, 70_000]) {
        assert.equal(createdAddress(from, nonce), getCreateAddress({ from, nonce }).toLowerCase(), `${from} at ${nonce}`);
      }
    }
  });

  it('the CLI bundle answers without having loaded node:v8 or node:fs/promises', async function () {
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
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
