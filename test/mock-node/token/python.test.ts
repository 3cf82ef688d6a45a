// The seed's deferred-payment flow from a non-JavaScript client (Python standard library only).
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RunningMockNode } from '../../../mock-node/index';
import { encodeRevertReason } from '../../../mock-node/execution/execute';
import { startTestNode } from '../../helpers/rpc';

const run = promisify(execFile);

describe('token from Python (standard library) @integration', function () {
  this.timeout(60_000);
  let node: RunningMockNode;
  before(async () => {
    node = await startTestNode();
  });
  after(async () => node?.stop());

  it('reads name and version, signs, captures, cancels and watches the events', async () => {
    const [, payer, merchant] = node.accounts.map((a) => a.address);
    const script = join(__dirname, 'python', 'deferred_payment.py');
    const { stdout } = await run('python3', [script, node.url, node.tokenAddress, payer, merchant]);
    const seen = JSON.parse(stdout);
    assert.deepEqual(seen.domain, { name: 'USD Coin', version: '2', chainId: Number(node.chainId), verifyingContract: node.tokenAddress });
    assert.equal(seen.sign_changed_nothing, true);
    assert.deepEqual(seen.capture, { status: '0x1', events: ['AuthorizationUsed', 'Transfer'], used: true, payer_paid: 1_250_000 });
    assert.deepEqual(seen.cancel, { status: '0x1', events: ['AuthorizationCanceled'], used: true });
    assert.equal(seen.capture_after_cancel.status, '0x0');
    assert.equal(seen.capture_after_cancel.error.code, 3);
    assert.equal(seen.capture_after_cancel.error.message, 'execution reverted: FiatTokenV2: authorization is used or canceled');
    assert.equal(seen.capture_after_cancel.error.data, encodeRevertReason('FiatTokenV2: authorization is used or canceled'));
    assert.equal(seen.seed_envelope.message, 'execution reverted: FiatTokenV2: invalid signature');
    assert.deepEqual(seen.logs, ['AuthorizationUsed', 'Transfer', 'AuthorizationCanceled']);
  });
});
