// State files that cannot lie and are not lost: a forged receipt log, a removed transaction, an
// edited bloom or sender are refused on load (every root the header commits to is checked);
// wrong types and null sections get one clear sentence naming the field; a --state path in a
// missing directory fails at start; a failed save is printed; a node stopped as soon as it
// started still saves; --autosave-blocks N saves every N
// blocks so kill -9 loses at most N.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningMockNode } from '../../../mock-node/index';
import { runCliExpectingFailure, startCli } from '../../helpers/cli';
import { rpc, rpcError, sleep, startTestNode } from '../../helpers/rpc';
import { blockWithTransfers } from '../profiles/helpers';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'state-integrity-'));
}

describe('state files that cannot lie and are not lost', function () {
  this.timeout(60_000);
  let source: RunningMockNode;
  let target: RunningMockNode;
  let state: any;
  before(async () => {
    source = await startTestNode();
    target = await startTestNode();
    await blockWithTransfers(source, 3);
    await blockWithTransfers(source, 2, 2, 3);
    state = await rpc(source.url, 'mock_dumpState');
  });
  after(async () => {
    await source.stop();
    await target.stop();
  });

  /** Loads a changed copy; answers the error, and checks the target chain did not change. */
  async function refused(change: (copy: any) => void): Promise<{ code: number; message: string }> {
    const before = await rpc(target.url, 'eth_getBlockByNumber', ['latest', false]);
    const copy = structuredClone(state);
    change(copy);
    const error = await rpcError(target.url, 'mock_loadState', [copy]);
    assert.deepEqual(await rpc(target.url, 'eth_getBlockByNumber', ['latest', false]), before, 'nothing changed');
    return error;
  }

  it('the untouched dump loads', async () => {
    assert.deepEqual(await rpc(target.url, 'mock_loadState', [state]), { blocks: 3, queued: 0 });
  });

  it('forged content is refused: a receipt log, a removed transaction, a bloom, a sender, gas used', async () => {
    const cases: [string, (copy: any) => void, RegExp][] = [
      ['an edited log', (c) => { c.blocks[1].receipts[0].logs[0].data = '0x' + 'ff'.repeat(32); }, /block 1: the receipts do not match the header's receiptsRoot/],
      ['a log moved to another address', (c) => { c.blocks[1].receipts[0].logs[0].address = '0x' + '11'.repeat(20); }, /block 1: receipt 0's logsBloom does not match its logs/],
      ['a removed transaction', (c) => { c.blocks[2].transactions.pop(); c.blocks[2].receipts.pop(); }, /block 2: the receipts use \d+ gas, the header says \d+/],
      ['transactions swapped', (c) => { c.blocks[1].transactions.reverse(); c.blocks[1].receipts.reverse(); }, /block 1: .*(transactionsRoot|gas)/],
      ['a block bloom', (c) => { c.blocks[1].header.logsBloom = '0x' + '00'.repeat(256); }, /block 1: the header does not hash to/],
      ['a receipt bloom', (c) => { c.blocks[2].receipts[1].logsBloom = '0x' + '00'.repeat(256); }, /block 2: receipt 1's logsBloom does not match its logs/],
      ['another sender', (c) => { c.blocks[1].transactions[0][1] = source.accounts[5].address.toLowerCase(); }, /block 1: transaction 0x[0-9a-f]{64} is signed by 0x[0-9a-f]{40}, not by/],
    ];
    for (const [what, change, expected] of cases) {
      const error = await refused(change);
      assert.equal(error.code, -32000, what);
      assert.match(error.message, expected, what);
    }
  });

  it('wrong types and null sections: -32602 naming the field, never an internal error', async () => {
    const cases: [(copy: any) => void, string][] = [
      [(c) => { c.chainId = '0xzz'; }, 'invalid argument 0: the state: chainId must be a hex number'],
      [(c) => { c.blocks = null; }, 'invalid argument 0: the state: blocks must be a list, not null'],
      [(c) => { c.blocks[1].state = null; }, 'invalid argument 0: the state, block 1: state must be an object, not null'],
      [(c) => { c.blocks[1].state.accounts = 7; }, 'invalid argument 0: the state, block 1: state.accounts must be an object'],
      [(c) => { c.blocks[1].receipts = undefined; }, 'invalid argument 0: the state, block 1: receipts must be a list'],
      [(c) => { c.blocks[1].receipts[0].gasUsed = 5; }, 'invalid argument 0: the state, block 1: receipts[0].gasUsed must be a hex number'],
      [(c) => { c.blocks[1].header.number = 1; }, 'invalid argument 0: the state, block 1: header.number must be a hex number'],
      [(c) => { delete c.blocks[1].header.stateRoot; }, 'invalid argument 0: the state, block 1: header.stateRoot is missing'],
      [(c) => { c.blocks[1].transactions[0] = 'x'; }, 'invalid argument 0: the state, block 1: transactions[0] must be a list'],
      [(c) => { c.queue = [[5, 6]]; }, 'invalid argument 0: the state: queue[0][0] must be the signed transaction as hex bytes'],
      [(c) => { c.clock = null; }, 'invalid argument 0: the state: clock must be an object, not null'],
      [(c) => { c.blocks[0].state.storage['0xzz'] = {}; }, 'invalid argument 0: the state, block 0: state.storage key "0xzz" must be an address'],
      [(c) => { c.blocks[1].systemChanges = [{ before: 9, changes: { accounts: {}, storage: {} } }]; }, 'invalid argument 0: the state, block 1: systemChanges[0].before must be a transaction index from 0 to 3, in order'],
      [(c) => { c.blocks[1].systemChanges = [{ before: 0, changes: { accounts: [], storage: {} } }]; }, 'invalid argument 0: the state, block 1: systemChanges[0].changes.accounts must be an object'],
    ];
    for (const [change, message] of cases) assert.deepEqual(await refused(change), { code: -32602, message, status: 200 });
    const nothing = await rpcError(target.url, 'mock_loadState', [null]);
    assert.deepEqual([nothing.code, nothing.message], [-32602, 'invalid argument 0: the state is not a chain-mock-node state file']);
  });

  it('a forged file is refused at start with the same sentence', async () => {
    const file = join(tempDir(), 'chain.json');
    const copy = structuredClone(state);
    copy.blocks[1].receipts[0].logs[0].data = '0x' + 'ff'.repeat(32);
    writeFileSync(file, JSON.stringify(copy));
    await assert.rejects(startTestNode({ stateFile: file }), /block 1: the receipts do not match the header's receiptsRoot/);
  });

  it('--state in a missing directory fails at start with exit code 2', () => {
    const { status, stderr } = runCliExpectingFailure(['--state', join(tempDir(), 'no', 'such', 'chain.json'), '--port', '0']);
    assert.equal(status, 2);
    assert.match(stderr, /--state .*chain\.json: the directory .*no\/such does not exist/);
  });

  it('a save that fails on exit is printed and the exit code is 1', async () => {
    const dir = tempDir();
    const file = join(dir, 'chain.json');
    const cli = await startCli(['--state', file, '--no-auto']);
    // A directory where the file goes: the rename onto it fails.
    mkdirSync(file);
    writeFileSync(join(file, 'keep'), 'x');
    assert.equal(await cli.stop(), 1);
    assert.match(cli.output(), /ERROR could not save the state file .*chain\.json: /);
  });

  it('SIGTERM the moment the banner shows saves the state file and exits 0 (ten times)', async () => {
    // The signal handlers used to be installed after the banner: a harness that stopped the node
    // at once could kill it before, with no save (seen on a loaded CI machine).
    const dir = tempDir();
    for (let i = 0; i < 10; i++) {
      const file = join(dir, `chain-${i}.json`);
      const cli = await startCli(['--state', file, '--no-auto']);
      assert.equal(await cli.stop(), 0, `run ${i}:\n${cli.output()}`);
      assert.equal(JSON.parse(readFileSync(file, 'utf8')).blocks.length, 1, `run ${i}: the genesis block saved`);
    }
  });

  it('--autosave-blocks 2: the file follows every second block; kill -9 loses at most 2 blocks', async () => {
    const file = join(tempDir(), 'chain.json');
    const cli = await startCli(['--state', file, '--no-auto', '--autosave-blocks', '2']);
    await rpc(cli.url, 'evm_mine', [5]);
    // Saves run in the background (blocks sealed during one are covered by the next): wait for
    // the file to hold at least block 3, i.e. at most 2 of the 5 blocks missing.
    let saved: any;
    for (let i = 0; i < 400 && !(saved?.blocks.length >= 4); i++) {
      try {
        saved = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        // not written yet
      }
      await sleep(25);
    }
    assert.ok(saved?.blocks.length >= 4, `the file holds block 3 or later (${saved?.blocks.length} blocks)`);
    cli.child.kill('SIGKILL');
    await cli.exited;
    const onDisk = JSON.parse(readFileSync(file, 'utf8'));
    const again = await startCli(['--state', file, '--no-auto']);
    try {
      const head = Number(BigInt(await rpc(again.url, 'eth_blockNumber')));
      assert.equal(head, onDisk.blocks.length - 1);
      assert.ok(head >= 3, `at most 2 blocks lost (head ${head} of 5)`);
    } finally {
      await again.stop();
    }
    const { status, stderr } = runCliExpectingFailure(['--autosave-blocks', '2', '--port', '0']);
    assert.equal(status, 2);
    assert.match(stderr, /autosaveBlocks needs a state file/);
  });
});
