// The non-JavaScript client: python/five_reads.py (standard library only) against a node started
// with `--no-auto --pending-identity zero`, after one pre-confirmed transfer; shared by the CLI test
// and the tests of the packaged node (npm tarball, single executable).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { CliNode } from '../helpers/cli';
import { rpc } from '../helpers/rpc';

export async function checkFiveReadsFromPython(node: Pick<CliNode, 'url' | 'dedicatedUrl'>): Promise<void> {
  const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
  await rpc(node.url, 'eth_sendTransaction', [{ from: address, to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '0x1' }]);
  await rpc(node.url, 'mock_flashblock');
  const out = execFileSync('python3', [join(__dirname, 'python', 'five_reads.py'), node.url, node.dedicatedUrl, address]).toString();
  const seen = JSON.parse(out);
  assert.equal(seen.block_latest.number, '0x0');
  assert.equal(seen.block_pending.number, '0x1');
  assert.equal(seen.block_pending.transactions.length, 1);
  assert.equal(seen.nonce_latest, 0);
  assert.equal(seen.nonce_pending, 1);
  assert.equal(seen.storage_pending, '0x' + '00'.repeat(32));
  assert.deepEqual(seen.logs_pending, []);
  assert.deepEqual(seen.receipts_public, { status: 403, code: -32004 });
  assert.deepEqual(seen.receipts_dedicated, { status: 200, statuses: ['0x1'] });
}
