// A Go client's view: every answer of a 500-transaction run (and of shorter runs in the other two
// pending identities), decoded as go-ethereum's hexutil decodes it. Quantities without leading
// zeros (a signature's r and s above all: about one in eight has a leading zero digit), data of
// even length, no field go-ethereum's types lack; WebSocket notifications included.
import assert from 'node:assert/strict';
import type { PendingIdentity, RunningMockNode } from '../../../mock-node/index';
import { auditValue, newAudit, NOTIFICATIONS, RESULTS } from '../../helpers/goHexutil';
import { startTestNode } from '../../helpers/rpc';
import { runTraffic, type Traffic } from '../../helpers/traffic';

const RUNS: [PendingIdentity, number][] = [['partial', 500], ['zero', 150], ['null', 150]];

for (const [identity, transactions] of RUNS) {
  describe(`go-ethereum's strict hex decoding over every answer (${transactions} transactions, pending identity ${identity})`, function () {
    this.timeout(300_000);
    let node: RunningMockNode;
    let traffic: Traffic;
    before(async () => {
      node = await startTestNode({ pendingIdentity: identity });
      traffic = await runTraffic(node, { transactions, seed: 8 + transactions });
    });
    after(() => node?.stop());

    it('no quantity has a leading zero, none is empty or too long; no unknown field', () => {
      const audit = newAudit();
      for (const answer of traffic.answers) {
        const kind = RESULTS[answer.method];
        assert.ok(kind, `no result kind for ${answer.method}`);
        auditValue(audit, kind, answer.result, `${answer.method}(${JSON.stringify(answer.params)})`);
      }
      for (const notification of traffic.notifications) {
        const kind = NOTIFICATIONS[notification.kind];
        auditValue(audit, typeof notification.result === 'string' ? 'data' : kind, notification.result, `eth_subscription ${notification.kind}`);
      }
      const signatures = traffic.answers.filter((a) => a.method === 'eth_getTransactionByHash').map((a) => a.result as { r: string; s: string });
      const short = signatures.filter((tx) => tx.r.length < 66 || tx.s.length < 66).length;
      console.log(`      ${traffic.hashes.length} transactions, ${traffic.answers.length} answers, ${traffic.notifications.length} notifications: ${audit.quantities} quantities checked, ${audit.problems.length} refused; ${short} signatures with r or s shorter than 32 bytes`);
      assert.deepEqual(audit.problems.slice(0, 20), [], `${audit.problems.length} values go-ethereum would refuse`);
      assert.ok(short > 0, 'the run has signatures whose r or s is below 2^252 (where zero padding used to show)');
    });
  });
}
