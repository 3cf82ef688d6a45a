// --state FILE and mock_dumpState: a chain survives a restart (in-process and the CLI under
// kill -TERM) with blocks, receipts, logs, state, token, queue and clock; writes are atomic.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningMockNode } from '../../../mock-node/index';
import { saveStateFile, writeFileAtomic } from '../../../mock-node/chain/persistence';
import { startCli } from '../../helpers/cli';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';
import { waitUntil } from '../../helpers/wait';
import { blockWithTransfers, hex, sendTokenTransfer, transferData } from '../profiles/helpers';


function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'state-')), 'chain.json');
}

/** Everything a client could read about a chain, for before/after comparisons. */
async function picture(node: RunningMockNode): Promise<Record<string, unknown>> {
  const head = Number(BigInt(await rpc(node.url, 'eth_blockNumber')));
  const blocks = [];
  for (let n = 0; n <= head; n++) blocks.push(await rpc(node.url, 'eth_getBlockByNumber', [hex(n), true]));
  const receipts = [];
  for (let n = 1; n <= head; n++) receipts.push(await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', [hex(n)]));
  const accounts = node.accounts.slice(0, 4).map((a) => a.address);
  const balanceOf = (a: string) => '0x70a08231' + a.slice(2).toLowerCase().padStart(64, '0');
  const at = async (tag: string) => ({
    eth: await Promise.all(accounts.map((a) => rpc(node.url, 'eth_getBalance', [a, tag]))),
    nonces: await Promise.all(accounts.map((a) => rpc(node.url, 'eth_getTransactionCount', [a, tag]))),
    token: await Promise.all(accounts.map((a) => rpc(node.url, 'eth_call', [{ to: node.tokenAddress, data: balanceOf(a) }, tag]))),
    slot11: await rpc(node.url, 'eth_getStorageAt', [node.tokenAddress, '0xb', tag]),
  });
  return {
    blocks,
    receipts,
    logs: await rpc(node.url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]),
    latest: await at('latest'),
    early: await at('0x2'),
  };
}

describe('--state and mock_dumpState', () => {
  it('a stopped node saves its chain and a new node resumes it: blocks, receipts, logs, state, token, queue, clock', async () => {
    const file = tempFile();
    const first = await startTestNode({ stateFile: file, accounts: 5 });
    let before: Record<string, unknown>;
    let queued: string[];
    try {
      await blockWithTransfers(first, 2, 0, 1);
      await rpc(first.url, 'anvil_setBalance', [first.accounts[3].address, '0x1234']);
      await rpc(first.url, 'evm_increaseTime', [3600]);
      await blockWithTransfers(first, 3, 1, 2);
      await rpc(first.url, 'mock_reorg', [1]);
      await rpc(first.url, 'evm_mine');
      before = await picture(first);
      // not sealed yet: one pre-confirmed, one queued behind a nonce gap
      const preconfirmed = await sendTokenTransfer(first, 2, 0, 77n);
      await rpc(first.url, 'mock_flashblock');
      const nonce = Number(BigInt(await rpc(first.url, 'eth_getTransactionCount', [first.accounts[4].address, 'pending'])));
      const gapped = await rpc(first.url, 'eth_sendTransaction', [{ from: first.accounts[4].address, to: first.tokenAddress, data: transferData(first, 0, 5n), nonce: hex(nonce + 1) }]);
      queued = [preconfirmed, gapped];
    } finally {
      await first.stop();
    }
    assert.ok(existsSync(file));
    assert.deepEqual(readdirSync(join(file, '..')), ['chain.json'], 'no temp file left behind');

    const second = await startTestNode({ stateFile: file, accounts: 5 });
    try {
      assert.deepEqual(await picture(second), before, 'every read answers the same after the restart');
      const pending = await rpc(second.url, 'eth_getBlockByNumber', ['pending', false]);
      assert.deepEqual(pending.transactions, [queued[0]], 'the pre-confirmed transaction is back in the pending block');
      assert.equal((await rpc(second.url, 'eth_getTransactionByHash', [queued[1]])).blockHash, null, 'the gapped one is queued');
      const offset = second.core.services.chain.clockState().offset;
      assert.ok(offset >= 3600n, `clock offset kept (${offset})`);
      // The restored chain keeps working: fill the gap, seal, reorg over restored blocks.
      await rpc(second.url, 'eth_sendTransaction', [{ from: second.accounts[4].address, to: second.tokenAddress, data: transferData(second, 0, 1n), nonce: hex(Number(BigInt(await rpc(second.url, 'eth_getTransactionCount', [second.accounts[4].address, 'latest'])))) }]);
      await rpc(second.url, 'evm_mine');
      const receipts = await Promise.all(queued.map((hash) => rpc(second.url, 'eth_getTransactionReceipt', [hash])));
      assert.ok(receipts.every((r) => r && r.status === '0x1'));
      await rpc(second.url, 'mock_reorg', [3]);
      assert.equal((await rpc(second.url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])).length, (before.logs as unknown[]).length + 3);
    } finally {
      await second.stop();
    }
  });

  it('mock_dumpState writes the file on demand; without --state it answers the state, which mock_loadState takes', async () => {
    const file = tempFile();
    const node = await startTestNode({ stateFile: file });
    try {
      await blockWithTransfers(node, 2);
      const written = await rpc(node.url, 'mock_dumpState');
      assert.equal(written.path, file);
      assert.equal(written.blocks, 2);
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(saved.format, 'chain-mock-node-state');
      assert.equal(saved.blocks.length, 2);
    } finally {
      await node.stop();
    }
    const plain = await startTestNode();
    const copy = await startTestNode();
    try {
      await blockWithTransfers(plain, 3);
      const state = await rpc(plain.url, 'mock_dumpState');
      assert.equal(state.blocks.length, 2);
      assert.deepEqual(await rpc(copy.url, 'mock_loadState', [state]), { blocks: 2, queued: 0 });
      assert.deepEqual(await rpc(copy.url, 'eth_getBlockByNumber', ['latest', true]), await rpc(plain.url, 'eth_getBlockByNumber', ['latest', true]));
      const tampered = structuredClone(state);
      tampered.blocks[1].state.accounts[plain.accounts[0].address.toLowerCase()][1] = '0x1';
      const refused = await rpcError(copy.url, 'mock_loadState', [tampered]);
      assert.equal(refused.code, -32000);
      assert.match(refused.message, /block 1: the state does not match the header's state root/);
    } finally {
      await plain.stop();
      await copy.stop();
    }
  });

  it('a state file for another chain id is refused with a clear message', async () => {
    const file = tempFile();
    const node = await startTestNode({ stateFile: file });
    await node.stop();
    await assert.rejects(startTestNode({ stateFile: file, chainId: 8453 }), /is for chain id 31337, but the node was started with chain id 8453/);
  });

  it('a half-written state file is never left behind: a failed write leaves the old file whole and no temp file', async () => {
    const file = tempFile();
    const node = await startTestNode({ stateFile: file });
    try {
      await blockWithTransfers(node, 1);
      await rpc(node.url, 'mock_dumpState');
      const good = readFileSync(file, 'utf8');
      await blockWithTransfers(node, 1);
      let tempSeen = '';
      await assert.rejects(
        saveStateFile(node.core.services.chain, node.options, file, {
          beforeRename: (temp) => {
            tempSeen = temp;
            throw new Error('disk vanished');
          },
        }),
        /disk vanished/,
      );
      assert.ok(tempSeen.startsWith(file + '.tmp-'));
      assert.equal(readFileSync(file, 'utf8'), good, 'the target is the previous complete file');
      assert.deepEqual(readdirSync(join(file, '..')), ['chain.json'], 'the temp file was removed');
      await writeFileAtomic(file, '{"x":1}');
      assert.equal(readFileSync(file, 'utf8'), '{"x":1}');
    } finally {
      await writeFileAtomic(file, '{}').catch(() => undefined);
      node.core.services.options.stateFile = undefined; // do not save over the probe on stop
      await node.stop();
    }
  });
});


describe('--state with the CLI', function () {
  this.timeout(60_000);

  it('survives kill -TERM and a restart with nothing lost (auto mode, transfers in flight)', async () => {
    const file = tempFile();
    const first = await startCli(['--state', file, '--flashblock-ms', '50', '--block-time-ms', '200']);
    const sent: string[] = [];
    for (let i = 0; i < 12; i++) {
      sent.push(
        await rpc(first.url, 'eth_sendTransaction', [{ from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', to: '0x3600000000000000000000000000000000000000', data: '0xa9059cbb' + '70997970C51812dc3A010C7d01b50e0d17dc79C8'.toLowerCase().padStart(64, '0') + (i + 1).toString(16).padStart(64, '0') }]),
      );
      if (i % 4 === 0) {
        // Some transfers sealed, some pre-confirmed, some queued at the kill: go on once a new block seals.
        const from = Number(BigInt(await rpc(first.url, 'eth_blockNumber')));
        await waitUntil('a new block', async () => Number(BigInt(await rpc(first.url, 'eth_blockNumber'))) > from);
      }
    }
    assert.equal(await first.stop(), 0, 'exits 0 on SIGTERM');
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    const savedHead = saved.blocks.length - 1;
    const lastHash = saved.blocks[savedHead].hash;
    const inFile = new Set<string>([...saved.queue.map((q: [string, string]) => q[0])]);
    const second = await startCli(['--state', file, '--no-auto']);
    try {
      assert.equal(Number(BigInt(await rpc(second.url, 'eth_blockNumber'))), savedHead);
      assert.equal((await rpc(second.url, 'eth_getBlockByNumber', [hex(savedHead), false])).hash, lastHash);
      await rpc(second.url, 'evm_mine');
      const receipts = await Promise.all(sent.map((hash) => rpc(second.url, 'eth_getTransactionReceipt', [hash])));
      assert.ok(receipts.every((r) => r && r.status === '0x1'), 'every accepted transaction is sealed after the restart');
      console.log(`      saved ${saved.blocks.length} blocks and ${inFile.size} unsealed transactions; all ${sent.length} transfers present after restart`);
      const balance = await rpc(second.url, 'eth_call', [{ to: '0x3600000000000000000000000000000000000000', data: '0x70a08231' + '70997970C51812dc3A010C7d01b50e0d17dc79C8'.toLowerCase().padStart(64, '0') }, 'latest']);
      assert.equal(BigInt(balance), 10_000_000_000n + 78n, 'token balance: 1 + 2 + ... + 12 more');
    } finally {
      await second.stop();
    }
  });

  it('kill -9 in the middle of repeated dumps never leaves a half-written file: it always parses and loads', async () => {
    const file = tempFile();
    const first = await startCli(['--state', file, '--flashblock-ms', '20', '--block-time-ms', '60']);
    await rpc(first.url, 'evm_mine', [300]); // a file big enough that a write takes a moment
    let dumped = 0;
    const dumps = (async () => {
      for (;;) {
        await rpc(first.url, 'mock_dumpState');
        dumped++;
      }
    })().catch(() => undefined);
    // Kill once a few dumps are done: the loop has the next one under way.
    await waitUntil('three dumps', () => dumped >= 3, 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    await dumps;
    const text = readFileSync(file, 'utf8');
    const saved = JSON.parse(text);
    const leftovers = readdirSync(join(file, '..')).filter((name) => name !== 'chain.json');
    console.log(`      after kill -9: state file of ${text.length} bytes, ${saved.blocks.length} blocks; ${leftovers.length} temp file(s) left by the killed process`);
    const second = await startCli(['--state', file, '--no-auto']);
    try {
      assert.equal(Number(BigInt(await rpc(second.url, 'eth_blockNumber'))), saved.blocks.length - 1);
      assert.deepEqual(readdirSync(join(file, '..')).filter((name) => name !== 'chain.json'), [], 'stale temp files are removed at start');
    } finally {
      await second.stop();
    }
  });
});
