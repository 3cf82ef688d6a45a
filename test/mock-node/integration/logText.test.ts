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
import { bloomOfLogs } from '../../../mock-node/encoding/bloom';
import type { BlockHeader } from '../../../mock-node/encoding/header';
import { SealedBlock } from '../../../mock-node/chain/sealedBlock';
import type { IncludedTransaction, LogRecord } from '../../../mock-node/chain/types';
import type { RunningMockNode } from '../../../mock-node/index';
import { blockLogs, keptBlockLogs, LogListText, renderBlockLogs } from '../../../mock-node/rpc/logResults';
import { blockRef, logJson, logText, logTextLength } from '../../../mock-node/rpc/shapes';
import { PartsCursor, withAsciiJsonParts, type AsciiCursor, type DeferredAsciiText } from '../../../mock-node/rpc/jsonText';
import { ReplyStream, type StreamTarget } from '../../../mock-node/rpc/replyStream';
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

/** A cursor's text written into buffers of `room` bytes, one after the other. */
function writtenInPieces(cursor: AsciiCursor, room: number): string {
  let text = '';
  for (let guard = 0; !cursor.done; guard++) {
    assert.ok(guard < 1_000_000, 'the cursor ends');
    const buffer = Buffer.alloc(room);
    const end = cursor.write(buffer, 0);
    assert.ok(end > 0 || cursor.done, 'each piece writes something');
    text += buffer.toString('latin1', 0, end);
  }
  return text;
}

/** A deferred text that counts `length` and writes `text` (the two may disagree, on purpose). */
function deferred(length: number, text: string): DeferredAsciiText {
  return { length, cursor: () => new PartsCursor([text]), toString: () => text };
}

/** A socket that queues writes until drain(): then runs their callbacks, as the kernel taking them. */
class FakeSocket implements StreamTarget {
  chunks: Buffer[] = [];
  private queued: { chunk: Buffer; written: (error?: Error | null) => void }[] = [];
  mostQueued = 0;
  get writableLength(): number {
    return this.queued.reduce((sum, item) => sum + item.chunk.length, 0);
  }
  write(chunk: Buffer, written: (error?: Error | null) => void): boolean {
    this.chunks.push(Buffer.from(chunk));
    this.queued.push({ chunk, written });
    this.mostQueued = Math.max(this.mostQueued, this.queued.length);
    return false;
  }
  drain(): void {
    const done = this.queued;
    this.queued = [];
    for (const item of done) item.written(null);
  }
  taken(): string {
    return Buffer.concat(this.chunks).toString('latin1');
  }
}

/** A packed block of logs of every shape (3 transactions, the middle one without logs). */
function packedBlock(): SealedBlock {
  const transactions: IncludedTransaction[] = [];
  const logs: LogRecord[] = [];
  for (let index = 0; index < 3; index++) {
    const hash = hex(32);
    const receiptLogs = index === 1 ? [] : variedLogs(hash, index, logs.length);
    logs.push(...receiptLogs);
    transactions.push({ index, tx: { hash, from: hex(20), encoded: '0x' } as never, receipt: { status: 1, gasUsed: 1n, cumulativeGasUsed: 1n, effectiveGasPrice: 1n, logs: receiptLogs, logsBloom: bloomOfLogs(receiptLogs), contractAddress: null } });
  }
  const header = { number: 42n, timestamp: 99n, logsBloom: bloomOfLogs(logs) } as unknown as BlockHeader;
  const block = new SealedBlock(header, hex(32), 1000, 0, {} as StateLayer, transactions, logs);
  block.pack();
  return block;
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
    // Kept whole (not compactable: no encoded transaction), or packed: both must render the same.
    const block = packedBlock();
    const ref = blockRef(block, 'partial');
    const rendered = renderBlockLogs(block, 'partial');
    assert.deepEqual(rendered.logs, block.logs.map((log) => logJson(log, ref)));
    for (const list of [rendered.logs, rendered.logs.slice(0, 1), rendered.logs.slice(2, 5), []]) {
      const text = new LogListText(list);
      const expected = JSON.stringify(list);
      assert.equal(text.toString(), expected);
      assert.equal(text.length, expected.length);
      // Into one buffer with room, after other bytes: exactly the text, nothing past it.
      const buffer = Buffer.alloc(expected.length + 8, 0x7e);
      const cursor = text.cursor();
      assert.equal(cursor.write(buffer, 3), 3 + expected.length);
      assert.ok(cursor.done);
      assert.equal(buffer.toString('latin1'), '~~~' + expected + '~~~~~');
      // In pieces of every size, a log longer than the room included: the same text.
      for (const room of [1, 2, 7, 64, 333, 1000]) assert.equal(writtenInPieces(text.cursor(), room), expected, `pieces of ${room}`);
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

  it('writes parts (strings and deferred texts, empty ones too) in pieces of any size as one text', () => {
    const logs = renderBlockLogs(packedBlock(), 'partial').logs;
    const parts = ['{"a":', '', new LogListText(logs), ',"b":', new LogListText([]), '}'];
    const expected = parts.map(String).join('');
    for (const room of [1, 3, 50, 4096]) assert.equal(writtenInPieces(new PartsCursor(parts), room), expected, `pieces of ${room}`);
  });

  it('answers an internal error, not a body that disagrees with its Content-Length, when a short text writes other than it counted', () => {
    const miscounted = deferred(100, '[1]');
    const reply = renderReply({ status: 200, body: { jsonrpc: '2.0', id: 7, result: withAsciiJsonParts([1], [miscounted]) } }, '', false, 5);
    assert.equal(reply.body, undefined);
    assert.equal(reply.stream, undefined);
    assert.match(reply.text, /^HTTP\/1\.1 500 /);
    const [head, body] = reply.text.split('\r\n\r\n');
    assert.equal(Number(/content-length: (\d+)/i.exec(head)![1]), body.length);
    assert.equal(JSON.parse(body).error.code, -32603);
  });

  it('streams a long text in reused chunks as the socket takes them, waits for drain, and fails (never pads or cuts) a miscounted one', async () => {
    const long = '[' + '1,'.repeat(200_000) + '1]';
    const reply = renderReply({ status: 200, body: { jsonrpc: '2.0', id: 7, result: withAsciiJsonParts([], [deferred(long.length, long)]) } }, '', false, 5);
    assert.ok(reply.stream !== undefined && reply.body === undefined);
    assert.equal(Number(/content-length: (\d+)/i.exec(reply.text)![1]), reply.stream.bytes);
    // A socket that takes nothing until told to: the stream stops at its high-water mark.
    const target = new FakeSocket();
    let settled: boolean | undefined;
    const stream = new ReplyStream(target, reply.stream.cursor, reply.stream.bytes, (ok) => (settled = ok));
    stream.pump();
    assert.ok(target.chunks.length > 0 && target.chunks.length <= 4, `${target.chunks.length} chunks in the first turn`);
    assert.equal(settled, undefined);
    while (settled === undefined) {
      target.drain(); // the kernel took everything: callbacks, then 'drain'
      stream.pump();
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(settled, true);
    assert.equal(target.taken(), '{"jsonrpc":"2.0","id":7,"result":' + long + '}');
    assert.ok(target.mostQueued <= 4, `at most 4 chunks waited at once (${target.mostQueued})`);
    assert.ok(freeReplyBuffers().chunks >= 1 && freeReplyBuffers().chunks <= 16, 'the chunks came back, a bounded number kept');

    for (const [counted, text] of [[long.length, long.slice(1)], [long.length - 5, long]] as const) {
      const bad = renderReply({ status: 200, body: { jsonrpc: '2.0', id: 7, result: withAsciiJsonParts([], [deferred(counted, text)]) } }, '', false, 5);
      const sink = new FakeSocket();
      let outcome: boolean | undefined;
      const failing = new ReplyStream(sink, bad.stream!.cursor, bad.stream!.bytes, (ok) => (outcome = ok));
      for (let i = 0; i < 200 && outcome === undefined; i++) {
        failing.pump();
        sink.drain();
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.equal(outcome, false, `counted ${counted}, wrote ${text.length + 34}`);
      assert.ok(sink.taken().length <= bad.stream!.bytes, 'never more than the head announced');
    }
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

    it('a long reply (streamed in reused chunks) comes whole, also pipelined between short ones and to several clients at once', async () => {
      // LOG0 with 300,000 zero bytes of data: a reply of 600 kB, past the streaming threshold, one
      // log longer than a chunk.
      await rpc(node.url, 'eth_sendTransaction', [{ from: node.accounts[0].address, data: '0x' + '620493e0' + '6000' + 'a0' + '00', gas: '0x4c4b40' }]);
      await rpc(node.url, 'evm_mine');
      const expected = await receiptLogs(1, Number(await rpc(node.url, 'eth_blockNumber')));
      assert.equal(expected.length, 1);
      assert.ok(Buffer.byteLength(JSON.stringify(expected)) > REUSED_BUFFER_MIN_BYTES);
      const filter = { fromBlock: '0x1', toBlock: 'latest' };
      const replies = await Promise.all([getLogs(filter), getLogs(filter), getLogs(filter)]);
      for (const reply of replies) assert.deepEqual(reply.result, expected);
      assert.ok(freeReplyBuffers().chunks >= 1, 'the chunks came back once written');
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

    it('a many-log reply streams to a client that reads slowly, while other clients are answered; a client gone mid-reply leaves the node serving', async () => {
      // 20 blocks of 25 token transfers (500 logs, about 350 kB of text), and 10 logs of 300,000
      // bytes each: a reply of about 6.4 MB, more than the kernel holds for a client not reading.
      const [a, b] = node.accounts;
      for (let block = 0; block < 20; block++) {
        for (let i = 0; i < 25; i++) await rpc(node.url, 'eth_sendTransaction', [{ from: a.address, to: node.tokenAddress, data: '0xa9059cbb' + word(0xbeef + i).slice(2) + word(1).slice(2) }]);
        if (block % 2 === 0) await rpc(node.url, 'eth_sendTransaction', [{ from: b.address, data: '0x' + '620493e0' + '6000' + 'a0' + '00', gas: '0x4c4b40' }]);
        await rpc(node.url, 'evm_mine');
      }
      const filter = { fromBlock: '0x1', toBlock: 'latest' };
      const expected = (await getLogs(filter)).text;
      assert.ok(expected.length > REUSED_BUFFER_MIN_BYTES, `${expected.length} characters`);
      const { port } = new URL(node.url);
      const body = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'eth_getLogs', params: [filter] });
      const request = `POST / HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;

      // A client that reads nothing for a while, then everything: the reply is whole.
      const slow = connect(Number(port), '127.0.0.1');
      await new Promise((resolve) => slow.once('connect', resolve));
      slow.pause();
      slow.end(request + request.replace('"id":5', '"id":6'));
      // Meanwhile another client is answered.
      assert.match(await rpc(node.url, 'eth_blockNumber'), /^0x/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const chunks: Buffer[] = [];
      slow.on('data', (chunk) => chunks.push(chunk));
      slow.resume();
      await new Promise((resolve) => slow.once('end', resolve));
      const raw = Buffer.concat(chunks).toString('latin1');
      const replies = raw.split(/HTTP\/1\.1 200 OK\r\n/).slice(1).map((reply) => reply.slice(reply.indexOf('\r\n\r\n') + 4));
      assert.equal(replies.length, 2);
      assert.equal(replies[0], expected);
      assert.equal(replies[1], expected.replace('"id":5', '"id":6'));

      // In a batch, between a short answer and another long one: one JSON text, both results whole.
      const batch = await fetch(node.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [filter] },
          { jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] },
          { jsonrpc: '2.0', id: 3, method: 'eth_getLogs', params: [filter] },
        ]),
      });
      const batchText = await batch.text();
      assert.equal(Number(batch.headers.get('content-length')), batchText.length);
      const logsResult = expected.slice(expected.indexOf('"result":') + 9, -1);
      assert.equal(batchText, `[{"jsonrpc":"2.0","id":1,"result":${logsResult}},{"jsonrpc":"2.0","id":2,"result":"0x7a69"},{"jsonrpc":"2.0","id":3,"result":${logsResult}}]`);

      // A client that asks and goes away before the reply is read: the node goes on serving.
      for (let i = 0; i < 3; i++) {
        const gone = connect(Number(port), '127.0.0.1', () => gone.write(request));
        gone.once('data', () => gone.destroy());
        await new Promise((resolve) => gone.once('close', resolve));
      }
      assert.equal((await getLogs(filter)).text, expected);
      assert.ok(freeReplyBuffers().chunks <= 16);
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
