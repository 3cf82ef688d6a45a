// One request must not freeze the node. Against the CLI child process (a frozen event loop there
// cannot freeze this test's own timers): a mock_reorg with a huge depth and a leaveOut list
// answers at once (it once walked 2^53 blocks before looking at the depth), and a long evm_mine
// lets other requests through while it runs.
import assert from 'node:assert/strict';
import { startCli, type CliNode } from '../../helpers/cli';

async function call(url: string, method: string, params: unknown[], timeoutMs = 10_000): Promise<any> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return response.json();
}

describe('one request cannot freeze the node', function () {
  this.timeout(60_000);
  let cli: CliNode;
  before(async () => {
    cli = await startCli(['--no-auto', '--log-level', 'error']);
  });
  after(() => cli.stop());

  it('mock_reorg with depth 2^53 - 1 and a leaveOut hash is refused at once with the deepest reorg allowed', async () => {
    await call(cli.url, 'evm_mine', [15]);
    const reply = await call(cli.url, 'mock_reorg', [Number.MAX_SAFE_INTEGER, { leaveOut: ['0x' + 'ab'.repeat(32)] }], 5000);
    assert.equal(reply.error.code, -32000);
    assert.match(reply.error.message, /^reorg depth 9007199254740991 refused: it goes below the safe block 5 .* the deepest reorg allowed now is 10$/);
    const hex = await call(cli.url, 'mock_reorg', ['0x1fffffffffffff', { leaveOut: ['0x' + 'ab'.repeat(32)] }], 5000);
    assert.match(hex.error.message, /deepest reorg allowed now is 10/);
    assert.equal((await call(cli.url, 'eth_blockNumber', [])).result, '0xf');
  });

  it('evm_mine(400) lets other requests through while it mines', async () => {
    const start = Number(BigInt((await call(cli.url, 'eth_blockNumber', [])).result));
    let mined = false;
    const mining = call(cli.url, 'evm_mine', [400], 60_000).then((reply) => {
      mined = true;
      return reply;
    });
    // Ask the head until the answer comes back while evm_mine is still running.
    const seen: number[] = [];
    while (!mined) {
      const head = Number(BigInt((await call(cli.url, 'eth_blockNumber', [])).result));
      if (!mined) seen.push(head);
    }
    assert.deepEqual((await mining).result, '0x0');
    const during = seen.filter((head) => head > start && head < start + 400);
    assert.ok(during.length > 0, `an answer came while mining (heads seen: ${seen.slice(0, 5).join(', ')}…)`);
    assert.equal((await call(cli.url, 'eth_blockNumber', [])).result, '0x' + (start + 400).toString(16));
  });

  it('evm_mine above 10,000 blocks is refused with a clear error', async () => {
    const reply = await call(cli.url, 'evm_mine', [10_001]);
    assert.deepEqual(reply.error, { code: -32602, message: 'invalid argument 0: block count must be from 1 to 10000' });
  });
});
