// The node's log: what reaches a sink at each threshold, that it never carries secrets (raw
// transactions, signatures, the dedicated key), that a bug is logged with its stack, and the
// CLI's --log-level flag.
import assert from 'node:assert/strict';
import { Wallet } from 'ethers';
import { createLogger, formatLogLine, type LogEntry } from '../../../mock-node/logger';
import { createMockNodeCore, type RunningMockNode } from '../../../mock-node/index';
import { createRpcHandler } from '../../../mock-node/rpc/handler';
import { ensureCliBuilt, runCliExpectingFailure, startCli } from '../../helpers/cli';
import { post, rpc, startTestNode } from '../../helpers/rpc';

describe('the node log', () => {
  describe('logger', () => {
    it('writes entries at or above the threshold, and follows a new threshold', () => {
      const lines: string[] = [];
      const logger = createLogger({ json: false, threshold: 'info', write: (line) => lines.push(line) });
      logger.debug('hidden');
      logger.info('block 3 sealed', { transactions: 2, gasUsed: 42_000n });
      logger.warn('slow consumer');
      assert.deepEqual(lines, ['block 3 sealed transactions=2 gasUsed=42000', 'WARN slow consumer']);
      assert.equal(logger.enabled('debug'), false);
      logger.setThreshold('debug');
      assert.equal(logger.threshold, 'debug');
      logger.debug('eth_chainId', { profile: 'public' });
      logger.setThreshold('off');
      logger.error('not written either');
      assert.deepEqual(lines.slice(2), ['DEBUG eth_chainId profile=public']);
      assert.throws(() => logger.setThreshold('verbose' as never), /log threshold must be one of debug, info, warn, error or off, got verbose/);
      assert.equal(logger.threshold, 'off', 'a bad threshold changes nothing');
    });

    it('writes JSON lines with bigints as decimal strings', () => {
      const lines: string[] = [];
      createLogger({ json: true, threshold: 'info', write: (line) => lines.push(line) }).info('block 1 sealed', { gasUsed: 21_000n });
      const entry = JSON.parse(lines[0]);
      assert.equal(entry.level, 'info');
      assert.equal(entry.message, 'block 1 sealed');
      assert.equal(entry.gasUsed, '21000');
      assert.ok(!Number.isNaN(Date.parse(entry.time)));
    });

    it('hands entries to a sink instead of writing them, and survives a sink that throws', () => {
      const entries: LogEntry[] = [];
      const logger = createLogger({ json: false, threshold: 'debug', sink: (entry) => entries.push(entry), write: () => assert.fail('written despite the sink') });
      logger.debug('one', { a: 1 });
      assert.equal(entries.length, 1);
      assert.equal(formatLogLine(entries[0]), 'DEBUG one a=1');
      const broken = createLogger({ json: false, threshold: 'debug', sink: () => { throw new Error('channel closed'); } });
      assert.doesNotThrow(() => broken.info('still fine'));
    });
  });

  describe('a running node with a sink', () => {
    let node: RunningMockNode;
    const entries: LogEntry[] = [];
    const lines = () => entries.map(formatLogLine);
    beforeEach(async () => {
      entries.length = 0;
      node = await startTestNode({ quiet: false, logLevel: 'debug', logSink: (entry) => entries.push(entry) });
    });
    afterEach(() => node.stop());

    it('logs each call at debug, transactions and sealed blocks at info, and never a raw transaction or signature', async () => {
      const wallet = new Wallet(node.accounts[1].privateKey);
      const raw = await wallet.signTransaction({ to: node.accounts[2].address, value: 1n, gasLimit: 21_000, chainId: 31337, nonce: 0, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n });
      const hash: string = await rpc(node.url, 'eth_sendRawTransaction', [raw]);
      const typed = { types: { Mail: [{ name: 'text', type: 'string' }] }, primaryType: 'Mail', domain: { name: 'x', chainId: 31337 }, message: { text: 'hi' } };
      const signature: string = await rpc(node.url, 'eth_signTypedData_v4', [node.accounts[0].address, typed]);
      await rpc(node.url, 'evm_mine');
      await post(node.url, { jsonrpc: '2.0', id: 1, method: 'eth_getBlockReceipts', params: ['latest'] });
      await post(node.url, { jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: ['0x12'] });

      const text = lines().join('\n');
      assert.match(text, new RegExp(`transaction ${hash} queued from=${wallet.address.toLowerCase()} to=${node.accounts[2].address.toLowerCase()} nonce=0`));
      assert.match(text, /^block 1 sealed hash=0x[0-9a-f]{64} transactions=1 gasUsed=21000$/m);
      assert.match(text, /^DEBUG eth_sendRawTransaction profile=public ms=[\d.]+$/m);
      assert.match(text, /^DEBUG eth_getBalance answered error -32602 profile=public ms=[\d.]+ message=/m);
      assert.match(text, /^DEBUG eth_getBlockReceipts refused on the public endpoint: HTTP 403$/m);
      assert.ok(!text.includes(raw.slice(2, 66)), 'a raw transaction reached the log');
      assert.ok(!text.includes(signature.slice(2, 66)), 'a signature reached the log');
      assert.ok(!text.includes(node.apiKey), 'the dedicated key reached the log');
    });

    it('at info it logs no call and no empty block; the threshold can change while it runs', async () => {
      node.core.logger.setThreshold('info');
      await rpc(node.url, 'eth_blockNumber');
      await rpc(node.url, 'evm_mine');
      assert.deepEqual(lines(), []);
      node.core.logger.setThreshold('debug');
      await rpc(node.url, 'evm_mine');
      assert.match(lines().join('\n'), /^DEBUG block 2 sealed hash=0x[0-9a-f]{64} transactions=0 gasUsed=0$/m);
    });

    it('logs faults set and cleared, and blocks a reorg removes', async () => {
      await rpc(node.url, 'evm_mine', ['0x3']);
      await rpc(node.url, 'mock_setFaults', [{ public: { eth_chainId: { latencyMs: 1 } } }]);
      await rpc(node.url, 'mock_setFaults', [{}]);
      await rpc(node.url, 'mock_reorg', [2]);
      const text = lines().join('\n');
      assert.match(text, /^faults set spec=\{"public":\{"eth_chainId":\{"latencyMs":1/m);
      assert.match(text, /^faults cleared$/m);
      assert.match(text, /^2 blocks removed from the canonical chain \(from 2\) hashes=\["0x[0-9a-f]{64}","0x[0-9a-f]{64}"\]$/m);
    });
  });

  it('logs an internal error with its stack and answers -32603', async () => {
    const entries: LogEntry[] = [];
    const core = await createMockNodeCore({ auto: false, logLevel: 'info', logSink: (entry) => entries.push(entry) });
    const handle = createRpcHandler(core.services, {
      specs: [{ name: 'test_bug', summary: 'A method with a bug.', params: [], result: 'nothing' }],
      tables: [{ test_bug: () => { throw new TypeError('cannot read x of undefined'); } }],
    });
    const reply = await handle({ jsonrpc: '2.0', id: 7, method: 'test_bug', params: [] }, 'public');
    assert.deepEqual(reply.body, { jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'internal error: cannot read x of undefined' } });
    assert.equal(entries.length, 1);
    assert.equal(entries[0].level, 'error');
    assert.equal(entries[0].message, 'test_bug failed with an internal error');
    assert.match(String(entries[0].fields?.error), /TypeError: cannot read x of undefined\n\s+at /);
  });

  describe('the CLI', () => {
    before(ensureCliBuilt);

    it('--log-level debug logs every call on stderr', async () => {
      const node = await startCli(['--no-auto', '--log-level', 'debug']);
      try {
        await rpc(node.url, 'eth_chainId');
        for (let i = 0; i < 50 && !node.output().includes('eth_chainId'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
        assert.match(node.output(), /^DEBUG eth_chainId profile=public ms=[\d.]+$/m);
      } finally {
        await node.stop();
      }
    });

    it('refuses an unknown level with exit code 2', () => {
      const { status, stderr } = runCliExpectingFailure(['--log-level', 'verbose', '--port', '0']);
      assert.equal(status, 2);
      assert.match(stderr, /logLevel must be one of debug, info, warn, error or off, got verbose/);
    });
  });
});
