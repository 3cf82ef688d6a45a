// Nothing secret in any log line at any level, and no library message echoing request values in
// an answer: no dedicated key, signature, raw transaction or typed-data value. Bad requests that
// carry such values are sent at debug level (every call logged) and every entry is searched.
import assert from 'node:assert/strict';
import { Wallet } from 'ethers';
import type { LogEntry, RunningMockNode } from '../../../mock-node/index';
import { scrubSecrets } from '../../../mock-node/redact';
import { post, startTestNode } from '../../helpers/rpc';

const DEV = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const MARK = 'TYPEDDATAMARK';

describe('no secret in any log line or answer', function () {
  this.timeout(30_000);
  let node: RunningMockNode;
  const logged: LogEntry[] = [];
  before(async () => {
    node = await startTestNode({ logLevel: 'debug', quiet: false, logSink: (entry) => logged.push(entry) });
  });
  after(() => node.stop());

  it('bad requests carrying signatures, raw transactions and typed-data values leave none of them in the log or the answers', async () => {
    const wallet = Wallet.createRandom();
    const signature = await wallet.signMessage('hello');
    const raw = await wallet.signTransaction({ to: DEV, value: 1n, gasLimit: 21_000n, gasPrice: 1n, nonce: 0, chainId: 31337n });
    const corrupt = raw.slice(0, 20) + 'ff' + raw.slice(22);
    const truncated = raw.slice(0, raw.length - 40);
    const typed = {
      types: { EIP712Domain: [{ name: 'name', type: 'string' }], Mail: [{ name: 'amount', type: 'uint256' }, { name: 'memo', type: 'bytes32' }] },
      primaryType: 'Mail',
      domain: { name: 'x' },
      message: { amount: `${MARK}-1`, memo: `0x${MARK}` },
    };
    const calls: [string, unknown[]][] = [
      ['eth_sendTransaction', [{ from: DEV, to: DEV, accessList: [{ address: signature, storageKeys: [] }] }]],
      ['eth_sendTransaction', [{ from: DEV, to: DEV, accessList: [{ address: DEV, storageKeys: [signature] }] }]],
      ['eth_sendRawTransaction', [corrupt]],
      ['eth_sendRawTransaction', [truncated]],
      ['eth_sendRawTransactionSync', [corrupt]],
      ['eth_signTypedData_v4', [DEV, typed]],
      ['eth_signTypedData_v4', [DEV, JSON.stringify({ ...typed, message: { amount: 1, memo: MARK } })]],
      ['personal_sign', [signature, DEV]],
      ['eth_sign', [DEV, signature]],
    ];
    const answers: string[] = [];
    for (const [method, params] of calls) {
      for (const url of [node.url, node.dedicatedUrl]) {
        const reply = await post(url, { jsonrpc: '2.0', id: 1, method, params });
        if (reply.body?.error) answers.push(`${method}: ${reply.body.error.message}`);
      }
    }
    const lines = logged.map((entry) => JSON.stringify(entry));
    const secrets = [signature.slice(2), raw.slice(2, 80), corrupt.slice(2, 80), MARK, node.apiKey];
    for (const line of [...lines, ...answers]) {
      for (const secret of secrets) assert.ok(!line.includes(secret), `a secret in: ${line.slice(0, 300)}`);
      assert.doesNotMatch(line, /[0-9a-f]{65,}/i, `long hex in: ${line.slice(0, 300)}`);
      assert.doesNotMatch(line, /\bvalue=|\bbuffer=/, `a library value in: ${line.slice(0, 300)}`);
    }
    assert.ok(lines.length >= calls.length, 'every call was logged at debug');
    assert.ok(answers.length >= calls.length, 'the bad requests were answered with errors');
  });

  it('scrubSecrets: ethers info keeps argument and code; long hex, values and the key are hidden; hashes and addresses stay', () => {
    const hash = '0x' + 'ab'.repeat(32);
    assert.equal(
      scrubSecrets(`invalid BigNumberish value (argument="value", value="${MARK}", code=INVALID_ARGUMENT, version=6.15.0)`),
      'invalid BigNumberish value (argument="value", code=INVALID_ARGUMENT)',
    );
    assert.equal(scrubSecrets(`data too short (buffer=0xf86c${'00'.repeat(40)}, length=3, offset=1)`), 'data too short');
    assert.equal(scrubSecrets(`bad signature 0x${'11'.repeat(65)} for ${DEV} in ${hash}`), `bad signature <65 bytes hidden> for ${DEV} in ${hash}`);
    assert.equal(scrubSecrets('POST http://127.0.0.1:8545/dedicated/abc123def/'), 'POST http://127.0.0.1:8545/dedicated/<key hidden>/');
    assert.equal(scrubSecrets('the key is abc123def', ['abc123def']), 'the key is <key hidden>');
  });
});
