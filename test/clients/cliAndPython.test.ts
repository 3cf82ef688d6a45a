// The CLI as a child process (the way a user in any language runs the node), driven by a
// Python standard-library client; SIGTERM stops it cleanly.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, ensureCliBuilt, runCliExpectingFailure, startCli } from '../helpers/cli';
import { rpc } from '../helpers/rpc';
import { checkFiveReadsFromPython } from './pythonClient';

describe('the CLI as a child process', function () {
  before(ensureCliBuilt);

  it('prints endpoints, chain id and dev accounts with keys; --help lists the flags', async () => {
    const help = execFileSync(process.execPath, [CLI, '--help']).toString();
    for (const flag of ['--port', '--host', '--chain-id', '--block-time-ms', '--flashblock-ms', '--pending-identity', '--accounts', '--balance', '--no-auto', '--config', '--json-logs']) {
      assert.ok(help.includes(flag), `help lacks ${flag}`);
    }
    const node = await startCli(['--no-auto', '--chain-id', '8453', '--accounts', '3']);
    try {
      const out = node.output();
      assert.match(out, /Chain id\s+8453 \(0x2105\)/);
      assert.match(out, /\(0\) 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 {2}0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80/);
      assert.ok(!out.includes('(3) '), 'three accounts only');
      assert.equal(node.accounts.length, 3);
      assert.equal(await rpc(node.url, 'eth_chainId'), '0x2105');
    } finally {
      await node.stop();
    }
  });

  it('--config reads options from a JSON file, flags win; --json-logs logs JSON lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-node-config-'));
    const file = join(dir, 'node.json');
    writeFileSync(file, JSON.stringify({ chainId: '84532', accounts: 2, pendingIdentity: 'zero', auto: false, token: { name: 'USDC' } }));
    const child = spawn(process.execPath, [CLI, '--port', '0', '--config', file, '--accounts', '3', '--json-logs'], { cwd: ROOT });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const listening = await new Promise<Record<string, any>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no JSON log line:\n${stderr}`)), 15_000);
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const line = stderr.split('\n').find((l) => l.includes('"listening"'));
        if (line) {
          clearTimeout(timer);
          resolve(JSON.parse(line));
        }
      });
    });
    try {
      assert.equal(listening.level, 'info');
      assert.equal(listening.chainId, '84532');
      assert.equal(listening.accounts.length, 3, 'the flag wins over the file');
      assert.equal(await rpc(listening.url, 'eth_chainId'), '0x14a34');
      const pending = await rpc(listening.url, 'eth_getBlockByNumber', ['pending', false]);
      assert.equal(pending.hash, '0x' + '00'.repeat(32));
      // The log never holds the dedicated key; stdout names the full URL once.
      assert.match(listening.dedicatedUrl, /\/dedicated\/<key hidden>$/);
      const ready = JSON.parse(stdout.split('\n').find((l) => l.includes('"listening"'))!);
      const key = /\/dedicated\/([A-Za-z0-9_-]+)$/.exec(ready.listening.dedicatedUrl)![1];
      assert.equal(await rpc(ready.listening.dedicatedUrl, 'eth_chainId'), '0x14a34');
      assert.deepEqual([ready.listening.chainId, ready.listening.token, ready.listening.accounts], [listening.chainId, listening.token, listening.accounts]);
      assert.match(ready.listening.dedicatedWsUrl, /^ws:\/\/.*\/dedicated\/[A-Za-z0-9_-]+$/);
      assert.ok(!stderr.includes(key), 'the key is nowhere in the log');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('rejects a bad flag with a clear message and exit code 2', () => {
    const { status, stderr } = runCliExpectingFailure(['--pending-identity', 'maybe', '--port', '0']);
    assert.equal(status, 2);
    assert.match(stderr, /pendingIdentity must be one of partial, zero, null/);
  });

  it('a Python standard-library client reads the five methods; SIGTERM exits 0', async function () {
    const node = await startCli(['--no-auto', '--pending-identity', 'zero']);
    await checkFiveReadsFromPython(node);
    assert.equal(await node.stop(), 0);
  });
});
