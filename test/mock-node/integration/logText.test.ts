// eth_getLogs writes its reply's text from the log objects straight into the reply's buffer
// (shapes.ts logText, rpc/logResults.ts LogListText), not by JSON.stringify of the objects, and
// counts its length before writing it. That text must be exactly what JSON.stringify gives for
// the general log shape (logJson), and the count exactly its length, for every log shape: no
// topics, four topics, empty and long data, leading zero bytes, positions past the small-number
// table, every pending identity, removed logs; the cache of blocks' log objects must never answer
// for a block a reorg replaced; and a text that writes other than it counted must give an error
// reply, never a body that disagrees with its Content-Length.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { bloomOfLogs } from '../../../mock-node/chain/bloom';
import type { BlockHeader } from '../../../mock-node/chain/header';
import { SealedBlock } from '../../../mock-node/chain/sealedBlock';
import type { IncludedTransaction, LogRecord } from '../../../mock-node/chain/types';
import type { RunningMockNode } from '../../../mock-node/index';
import { blockLogs, keptBlockLogs, LogListText, renderBlockLogs } from '../../../mock-node/rpc/logResults';
import { blockRef, logJson, logText, logTextLength } from '../../../mock-node/rpc/shapes';
import { withAsciiJsonParts } from '../../../mock-node/rpc/jsonText';
import { renderReply } from '../../../mock-node/rpc/leanHttp';
import type { StateLayer } from '../../../mock-node/state/worldState';
import { rpc, startTestNode } from '../../helpers/rpc';
import { freeReplyBuffers, REUSED_BUFFER_MIN_BYTES } from '../../../mock-node/rpc/replyBuffers';
import { connect } from 'node:net';

const hex = (bytes: number) => '0x' + randomBytes(bytes).toString('hex');
const word = (value: number) => '0x' + value.toString(16).padStart(64, '0');

/** Logs of every shape, with the given positions. */
function variedLogs(transactionHash: string, transactionIndex: number, firstLog: number): LogRecord[] {
  const shapes: Pick<LogRecord, 'topics' | 'data'>[] = [
    { topics: [], data: '0x' },
    { topics: [hex(32), word(1), word(0), hex(32)], data: hex(300) },
    { topics: [word(0)], data: '0x' + '00'.repeat(40) + 'ff' },
    { topics: [hex(32), hex(32)], data: '0x00' },
    { topics: [hex(32), hex(32), hex(32)], data: hex(32) },
  ];
  return shapes.map((shape, i) => ({ address: i === 2 ? '0x' + '00'.repeat(20) : hex(20), ...shape, logIndex: firstLog + i, transactionIndex, transactionHash }));
}

describe('eth_getLogs text rendering', () => {
  it('writes each log exactly as JSON.stringify writes the general log shape, and counts its length, for every shape, position, identity and removed', () => {
    const header = { number: 123456789n, timestamp: 1_700_000_000n } as unknown as BlockHeader;
    const blocks = [
      { sealed: true, header, hash: hex(32) },
      { sealed: false, header, hash: hex(32) },
    ];
    for (const block of blocks) {
      for (const identity of ['partial', 'zero', 'null'] as const) {
        const ref = blockRef(block as never, identity);
        for (const [index, firstLog] of [[0, 0], [3, 1020], [1500, 70_000]]) {
          for (const log of variedLogs(hex(32), index, firstLog)) {
            for (const removed of [false, true]) {
              const object = logJson(log, ref, removed);
              const expected = JSON.stringify(object);
              assert.equal(logText(object), expected);
              assert.equal(logTextLength(object), expected.length);
            }
          }
        }
      }
    }
  });

  it('renders a packed block: the objects are logJson of its logs, and a list of them writes and counts its JSON text', () => {
    const transactions: IncludedTransaction[] = [];
    const logs: LogRecord[] = [];
    for (let index = 0; index < 3; index++) {
      const hash = hex(32);
      const receiptLogs = index === 1 ? [] : variedLogs(hash, index, logs.length);
      logs.push(...receiptLogs);
      // Kept whole (not compactable: no encoded transaction), or packed: both must render the same.
      transactions.push({ index, tx: { hash, from: hex(20), encoded: '0x' } as never, receipt: { status: 1, gasUsed: 1n, cumulativeGasUsed: 1n, effectiveGasPrice: 1n, logs: receiptLogs, logsBloom: bloomOfLogs(receiptLogs), contractAddress: null } });
    }
    const header = { number: 42n, timestamp: 99n, logsBloom: bloomOfLogs(logs) } as unknown as BlockHeader;
    const block = new SealedBlock(header, hex(32), 1000, 0, {} as StateLayer, transactions, logs);
    block.pack();
    const ref = blockRef(block, 'partial');
    const rendered = renderBlockLogs(block, 'partial');
    assert.deepEqual(rendered.logs, block.logs.map((log) => logJson(log, ref)));
    for (const list of [rendered.logs, rendered.logs.slice(0, 1), rendered.logs.slice(2, 5), []]) {
      const text = new LogListText(list);
      const expected = JSON.stringify(list);
      assert.equal(text.toString(), expected);
      assert.equal(text.length, expected.length);
      const buffer = Buffer.alloc(expected.length + 8, 0x7e);
      assert.equal(text.writeInto(buffer, 3), expected.length);
      assert.equal(buffer.toString('latin1'), '~~~' + expected + '~~~~~');
    }
    // Kept and given back for the same block and identity; another identity renders anew.
    const kept = blockLogs(block, 'partial');
    assert.equal(blockLogs(block, 'partial'), kept);
    assert.notEqual(blockLogs(block, 'zero'), kept);
    assert.ok(keptBlockLogs().blocks >= 1);
    // A pending block (a new record at every flashblock) is rendered at each read, never kept.
    const pending = Object.assign(Object.create(block), { sealed: false });
    assert.notEqual(blockLogs(pending, 'partial'), blockLogs(pending, 'partial'));
  });

  it('answers an internal error, not a body that disagrees with its Content-Length, when a long text writes other than it counted', () => {
    const counted = REUSED_BUFFER_MIN_BYTES + 10;
    const miscounted = { length: counted, writeInto: (buffer: Buffer, at: number) => buffer.write('[1]', at, 'latin1'), toString: () => '[1]' };
    const reply = renderReply({ status: 200, body: { jsonrpc: '2.0', id: 7, result: withAsciiJsonParts([1], [miscounted]) } }, '', false, 5);
    assert.equal(reply.body, undefined);
    assert.match(reply.text, /^HTTP\/1\.1 500 /);
    const [head, body] = reply.text.split('\r\n\r\n');
    assert.equal(Number(/content-length: (\d+)/i.exec(head)![1]), body.length);
    assert.equal(JSON.parse(body).error.code, -32603);
    // The same text counted right is written whole from the reused buffer.
    const padded = withAsciiJsonParts([1], ['[1', { length: counted - 2, writeInto: (buffer: Buffer, at: number) => buffer.write(' '.repeat(counted - 3) + ']', at, 'latin1'), toString: () => '' }]);
    const whole = renderReply({ status: 200, body: { jsonrpc: '2.0', id: 7, result: padded } }, '', false, 5);
    assert.ok(whole.body !== undefined);
    assert.deepEqual(JSON.parse(whole.body.toString('latin1')).result, [1]);
  });

  describe('over HTTP', () => {
    let node: RunningMockNode;
    beforeEach(async () => {
      node = await startTestNode();
    });
    afterEach(() => node.stop());

    /** The raw reply text and its parsed result. */
    async function getLogs(filter: object): Promise<{ text: string; result: any[] }> {
      const response = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'eth_getLogs', params: [filter] }) });
      const text = await response.text();
      assert.equal(Number(response.headers.get('content-length')), Buffer.byteLength(text));
      const body = JSON.parse(text);
      assert.equal(text, JSON.stringify(body), 'the reply is JSON.stringify of what it says');
      return { text, result: body.result };
    }

    /** Every log of blocks from..to as the receipts (the general log shape) give them. */
    async function receiptLogs(from: number, to: number): Promise<any[]> {
      const logs: any[] = [];
      for (let n = from; n <= to; n++) for (const receipt of await rpc(node.dedicatedUrl, 'eth_getBlockReceipts', ['0x' + n.toString(16)])) logs.push(...receipt.logs);
      return logs;
    }

    /** A creation whose init code emits LOG0 with no data, LOG4 with 100 bytes, and LOG1 with one byte. */
    const EMITTER =
      '0x' +
      ['6000', '6000', 'a0'].join('') + // LOG0(0, 0)
      '7f' + 'ab'.repeat(32) + '6000' + '52' + // MSTORE(0, 0xabab…)
      ['6004', '6003', '6002', '7f' + 'cd'.repeat(32), '6064', '6000', 'a4'].join('') + // LOG4(0, 100, 0xcdcd…, 2, 3, 4)
      ['6001', '6001', '601f', 'a1'].join('') + // LOG1(31, 1, 1)
      '00';

    it('answers exactly the receipts\' logs, whole blocks and parts of them, and again from the kept log objects', async () => {
      const [a, b] = node.accounts;
      for (let round = 0; round < 3; round++) {
        await rpc(node.url, 'eth_sendTransaction', [{ from: a.address, data: EMITTER }]);
        await rpc(node.url, 'eth_sendTransaction', [{ from: b.address, to: node.tokenAddress, data: '0xa9059cbb' + word(0xbeef).slice(2 + 24).padStart(64, '0') + word(5).slice(2) }]);
        await rpc(node.url, 'evm_mine');
        await rpc(node.url, 'evm_mine'); // an empty block between
      }
      const head = Number(await rpc(node.url, 'eth_blockNumber'));
      const expected = await receiptLogs(1, head);
      assert.ok(expected.some((log) => log.topics.length === 0 && log.data === '0x'), 'a log without topics or data');
      assert.ok(expected.some((log) => log.topics.length === 4 && log.data.length === 2 + 200), 'four topics, long data');
      for (let pass = 0; pass < 2; pass++) {
        const all = await getLogs({ fromBlock: '0x1', toBlock: 'latest' });
        assert.deepEqual(all.result, expected);
        const oneTopic = await getLogs({ fromBlock: '0x1', toBlock: 'latest', topics: [word(1)] });
        assert.deepEqual(oneTopic.result, expected.filter((log) => log.topics[0] === word(1)));
        assert.ok(oneTopic.result.length > 0 && oneTopic.result.length < expected.length, 'part of each block');
        const token = await getLogs({ fromBlock: '0x1', toBlock: 'latest', address: node.tokenAddress });
        assert.deepEqual(token.result, expected.filter((log) => log.address === node.tokenAddress.toLowerCase()));
        const none = await getLogs({ fromBlock: '0x1', toBlock: 'latest', topics: [word(7)] });
        assert.equal(none.text, '{"jsonrpc":"2.0","id":5,"result":[]}');
      }
      // The pending block, empty here, adds nothing.
      assert.deepEqual((await getLogs({ fromBlock: 'pending', toBlock: 'pending' })).result, []);
      assert.deepEqual((await getLogs({ fromBlock: '0x1', toBlock: 'pending' })).result, expected);
    });

    it('a long reply (from a reused buffer) comes whole, also pipelined between short ones and to several clients at once', async () => {
      // LOG0 with 300,000 zero bytes of data: a reply of 600 kB, past the reused-buffer threshold.
      await rpc(node.url, 'eth_sendTransaction', [{ from: node.accounts[0].address, data: '0x' + '620493e0' + '6000' + 'a0' + '00', gas: '0x4c4b40' }]);
      await rpc(node.url, 'evm_mine');
      const expected = await receiptLogs(1, Number(await rpc(node.url, 'eth_blockNumber')));
      assert.equal(expected.length, 1);
      assert.ok(Buffer.byteLength(JSON.stringify(expected)) > REUSED_BUFFER_MIN_BYTES);
      const filter = { fromBlock: '0x1', toBlock: 'latest' };
      const replies = await Promise.all([getLogs(filter), getLogs(filter), getLogs(filter)]);
      for (const reply of replies) assert.deepEqual(reply.result, expected);
      assert.ok(freeReplyBuffers().count >= 1, 'the buffers came back once written');
      const again = await getLogs(filter);
      assert.equal(again.text, replies[0].text);

      // Pipelined on one connection: short, long, short, long; each reply in order and whole.
      const { port } = new URL(node.url);
      const bodies = [
        { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'eth_getLogs', params: [filter] },
        { jsonrpc: '2.0', id: 3, method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 4, method: 'eth_getLogs', params: [filter] },
      ].map((body) => JSON.stringify(body));
      const request = bodies.map((body) => `POST / HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`).join('');
      const raw = await new Promise<Buffer>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.end(request));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('end', () => resolve(Buffer.concat(chunks)));
        socket.on('error', reject);
      });
      const answers: any[] = [];
      let at = 0;
      while (at < raw.length) {
        const headEnd = raw.indexOf('\r\n\r\n', at);
        const head = raw.toString('latin1', at, headEnd);
        const length = Number(/content-length: (\d+)/i.exec(head)![1]);
        answers.push(JSON.parse(raw.toString('utf8', headEnd + 4, headEnd + 4 + length)));
        at = headEnd + 4 + length;
      }
      assert.deepEqual(answers.map((answer) => answer.id), [1, 2, 3, 4]);
      assert.deepEqual(answers[1].result, expected);
      assert.deepEqual(answers[3].result, expected);
      assert.equal(answers[2].result, '0x7a69');
    });

    it('after a reorg answers the new blocks\' logs, never the kept log objects of the replaced ones', async () => {
      const [a] = node.accounts;
      await rpc(node.url, 'eth_sendTransaction', [{ from: a.address, data: EMITTER }]);
      await rpc(node.url, 'evm_mine');
      await rpc(node.url, 'eth_sendTransaction', [{ from: a.address, data: EMITTER }]);
      await rpc(node.url, 'evm_mine');
      const before = await getLogs({ fromBlock: '0x1', toBlock: 'latest' });
      await rpc(node.url, 'mock_reorg', [2]);
      const after = await getLogs({ fromBlock: '0x1', toBlock: 'latest' });
      assert.deepEqual(after.result, await receiptLogs(1, 2));
      assert.equal(after.result.length, before.result.length);
      for (let i = 0; i < after.result.length; i++) assert.notEqual(after.result[i].blockHash, before.result[i].blockHash);
    });
  });
});
