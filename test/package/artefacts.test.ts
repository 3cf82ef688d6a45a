// The installable mock node, tested as its users get it rather than from the working tree:
// the npm tarball installed into an empty project (no other package may come with it), and the
// single executable (no Node needed), each started and read by the Python standard-library client.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transaction, Wallet } from 'ethers';
import { HELP_EPILOGUE, v8HasInterruptBudget } from '../../mock-node/cli';
import { ROOT, startCli, type CliNode } from '../helpers/cli';
import { rpc } from '../helpers/rpc';
import { checkFiveReadsFromPython } from '../clients/pythonClient';

/** examples/python's unittest suite, its MockNode started as `command` (how a Python project runs the node). */
function runPythonExample(command: string): string {
  return execFileSync('python3', ['-m', 'unittest', '-v', 'test_with_mock_node'], {
    cwd: join(ROOT, 'examples', 'python'), env: { ...process.env, CHAIN_MOCK_NODE: command }, stdio: 'pipe', timeout: 120_000,
  }).toString();
}

function build(script: string): string {
  return execFileSync(process.execPath, [join(ROOT, 'mock-node', 'package', script)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] }).toString();
}

/**
 * Sends one signed ETH transfer, checks the sender the node recovered; which secp256k1 addon is
 * mapped then (Linux): 'own' (chain-recover.node, mock-node/native), 'package' (the secp256k1
 * package's prebuilt binary) or false (none: WebAssembly or JavaScript).
 */
async function takesATransaction(node: CliNode): Promise<'own' | 'package' | false> {
  const wallet = Wallet.fromPhrase('test test test test test test test test test test test junk');
  const raw = await wallet.signTransaction({ to: wallet.address, value: 1n, nonce: 0, gasLimit: 21000, chainId: 31337, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n });
  const hash = await rpc(node.url, 'eth_sendRawTransaction', [raw]);
  assert.equal(hash, Transaction.from(raw).hash);
  assert.equal((await rpc(node.url, 'eth_getTransactionByHash', [hash])).from, wallet.address.toLowerCase());
  if (process.platform !== 'linux') return false;
  const maps = readFileSync(`/proc/${node.child.pid}/maps`, 'utf8');
  return /chain-recover\.node/.test(maps) ? 'own' : /secp256k1[^/\n]*\.node/.test(maps) ? 'package' : false;
}
/** linux-x64: the package ships a binary, and esbuild.mjs builds ours (CI installs cc and libgmp-dev). */
const NATIVE_ON_LINUX = process.platform === 'linux' && process.arch === 'x64';

describe('installable mock node', function () {
  this.timeout(300_000);

  describe('npm tarball (npm run pack:mock-node)', () => {
    let project: string;
    let tarball: string;

    before(() => {
      const line = build('pack.mjs').trim().split('\n').at(-1)!;
      tarball = /^(\S+\.tgz)/.exec(line)![1];
      console.log(`      ${line.replace(ROOT + '/', '')}`);
      project = mkdtempSync(join(tmpdir(), 'chain-mock-node-install-'));
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-python-project-s-test-tools', version: '1.0.0', private: true }));
      // --offline: the tarball must install without the registry, so it can pull in nothing.
      execFileSync('npm', ['install', '--save-dev', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, stdio: 'pipe' });
    });

    it('installs into an empty project with no other package, declaring no dependency', () => {
      const installed = readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'));
      assert.deepEqual(installed, ['chain-mock-node']);
      const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'chain-mock-node', 'package.json'), 'utf8'));
      assert.equal(manifest.dependencies, undefined);
      assert.equal(manifest.bin['chain-mock-node'], 'mock-node.js');
      assert.match(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).devDependencies['chain-mock-node'], /^file:/);
    });

    it('npx chain-mock-node runs from the project, and the Python client reads the five methods from it', async () => {
      const help = execFileSync('npx', ['--offline', 'chain-mock-node', '--help'], { cwd: project, stdio: 'pipe' }).toString();
      assert.match(help, /Usage: chain-mock-node/);
      const node = await startCli(['--no-auto', '--pending-identity', 'zero'], [join(project, 'node_modules', '.bin', 'chain-mock-node')]);
      try {
        await checkFiveReadsFromPython(node);
      } finally {
        assert.equal(await node.stop(), 0);
      }
    });

    it('ships this repository\'s mock-node/package/README.md as its README (npm pack --dry-run), the page npm shows', () => {
      const stage = join(ROOT, 'dist', 'package', 'chain-mock-node');
      const [dryRun] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: stage, stdio: ['ignore', 'pipe', 'pipe'] }).toString()) as { files: { path: string; size: number }[] }[];
      const readmes = dryRun.files.filter((file) => /^readme/i.test(file.path));
      const source = readFileSync(join(ROOT, 'mock-node', 'package', 'README.md'));
      assert.deepEqual(readmes.map((file) => [file.path, file.size]), [['README.md', source.length]]);
      assert.ok(readFileSync(join(project, 'node_modules', 'chain-mock-node', 'README.md')).equals(source), 'the installed README is not mock-node/package/README.md');
    });

    it('the installed bin starts with the code cache the package ships beside it', async () => {
      const node = await startCli(['--no-auto', '--log-level', 'debug'], [join(project, 'node_modules', '.bin', 'chain-mock-node')]);
      try {
        // The debug line goes to stderr, the banner startCli waits for to stdout: either may come first.
        for (let waited = 0; !/code cache status=/.test(node.output()) && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
        assert.match(node.output(), /code cache status=used/);
      } finally {
        assert.equal(await node.stop(), 0);
      }
    });

    it('the Python example suite (examples/python) passes against the installed bin', () => {
      runPythonExample(join(project, 'node_modules', '.bin', 'chain-mock-node'));
    });

    it('the installed bin recovers senders with the native addon it ships (prebuilds/: our own build)', async () => {
      const node = await startCli(['--no-auto'], [join(project, 'node_modules', '.bin', 'chain-mock-node')]);
      try {
        const mapped = await takesATransaction(node);
        if (NATIVE_ON_LINUX) assert.equal(mapped, 'own');
      } finally {
        assert.equal(await node.stop(), 0);
      }
    });

    it('require("chain-mock-node") starts the node in-process', () => {
      const script = "require('chain-mock-node').startMockNode({ port: 0, auto: false }).then(async (n) => { console.log(await n.request('eth_chainId')); await n.stop(); })";
      assert.equal(execFileSync(process.execPath, ['-e', script], { cwd: project }).toString().trim(), '0x7a69');
    });
  });

  describe('single executable (npm run build:sea)', () => {
    let executable: string;

    before(() => {
      const line = build('sea.mjs').trim().split('\n').at(-1)!;
      executable = /^(\S+)/.exec(line)![1];
      console.log(`      ${line.replace(ROOT + '/', '')}`);
    });

    it('--help ends with a link to the docs, as the CLI\'s does', () => {
      const help = execFileSync(executable, ['--help']).toString();
      assert.ok(help.trimEnd().endsWith(HELP_EPILOGUE.join('\n')), help);
    });

    it('starts as one file and answers the Python client', async () => {
      const started = Date.now();
      const node = await startCli(['--no-auto', '--pending-identity', 'zero'], [executable]);
      console.log(`      started and printed its banner in ${Date.now() - started} ms (${(statSync(executable).size / 2 ** 20).toFixed(1)} MiB)`);
      try {
        assert.doesNotMatch(node.output(), /Warning|only supports loading built-in modules/);
        await checkFiveReadsFromPython(node);
      } finally {
        assert.equal(await node.stop(), 0);
      }
      runPythonExample(executable);
    });

    it('loads express, ws, ethers and the EVM from its assets on their first use (the bundle it starts leaves them out)', async () => {
      const node = await startCli(['--no-auto'], [executable]);
      try {
        // Express: the routes beside JSON-RPC.
        const health = await (await fetch(new URL('health', node.url))).json() as { status: string; chainId: string };
        assert.deepEqual([health.status, health.chainId], ['ok', '31337']);
        // The EVM: code that stores 42 in memory and returns it.
        const code = '0x602a60005260206000f3';
        assert.equal(await rpc(node.url, 'eth_call', [{ data: code }, 'latest']), '0x' + (42).toString(16).padStart(64, '0'));
        // ethers: a dev account's signature, checked against ethers here.
        const wallet = Wallet.fromPhrase('test test test test test test test test test test test junk');
        const signature = await rpc(node.url, 'personal_sign', ['0x68656c6c6f', wallet.address]);
        assert.equal(signature, await wallet.signMessage('hello'));
        // ws: a subscription over a WebSocket.
        const WebSocket = (await import('ws')).default;
        const socket = new WebSocket(node.url.replace(/^http/, 'ws'));
        const answer = await new Promise<{ result?: unknown }>((resolve, reject) => {
          socket.once('error', reject);
          socket.once('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] })));
          socket.once('message', (data) => resolve(JSON.parse(String(data)) as { result?: unknown }));
        });
        socket.close();
        assert.match(String(answer.result), /^0x[0-9a-f]+$/);
        assert.doesNotMatch(node.output(), /Warning|only supports loading built-in modules/);
      } finally {
        assert.equal(await node.stop(), 0);
      }
    });

    it('starts from the CLI\'s V8 code cache (an asset), loads the native addon (our own build) from prebuilds/ beside it, and hashes with the WebAssembly keccak', async () => {
      const node = await startCli(['--no-auto', '--log-level', 'debug'], [executable]);
      try {
        const mapped = await takesATransaction(node);
        if (NATIVE_ON_LINUX) assert.equal(mapped, 'own');
        assert.match(node.output(), /code cache status=used/);
        for (let waited = 0; !/keccak backend=/.test(node.output()) && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
        assert.match(node.output(), /keccak backend=webassembly/);
        // The CLI's V8 tiering, which the executable sets for itself too once listening.
        for (let waited = 0; !/v8 flags set=/.test(node.output()) && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
        // (The budget only on a V8 that has one: Node 24's tiers by invocation counts.)
        assert.match(node.output(), v8HasInterruptBudget() ? /v8 flags set=--semi-space-growth-factor=1 --interrupt-budget=\d+$/m : /v8 flags set=--semi-space-growth-factor=1$/m);
        assert.doesNotMatch(node.output(), /unrecognized flag/);
      } finally {
        assert.equal(await node.stop(), 0);
      }
    });

    it('copied alone (no prebuilds/ beside it), falls back to a slower backend and still takes transactions', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'chain-mock-node-alone-'));
      const alone = join(dir, 'chain-mock-node');
      copyFileSync(executable, alone);
      execFileSync('chmod', ['755', alone]);
      try {
        const node = await startCli(['--no-auto'], [alone]);
        try {
          assert.equal(await takesATransaction(node), false);
        } finally {
          assert.equal(await node.stop(), 0);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
