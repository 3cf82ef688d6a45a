import * as assert from 'node:assert/strict';
import { parseRpcDocument, segmentAt } from '../../../extension/language/server/document';
import { sendLenses } from '../../../extension/language/server/lenses';
import { documentSymbols } from '../../../extension/language/server/symbols';
import { request, rpcProblems } from './helpers';

describe('language: .jsonrpc document format', () => {
  it('reads requests one after another, comments between them, and a batch as one segment', () => {
    const text = [
      '// @endpoint Mock node (dedicated)',
      request('eth_blockNumber', []),
      '/* a block comment */',
      request('eth_chainId', [], 2),
      '[',
      `  ${request('eth_getBlockByNumber', ['pending', false], 3)},`,
      `  ${request('eth_getTransactionCount', ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'pending'], 4)}`,
      ']',
    ].join('\n');
    const doc = parseRpcDocument(text);
    assert.equal(doc.segments.length, 3);
    assert.deepEqual(doc.segments.map((s) => s.batch), [false, false, true]);
    assert.equal(doc.requests.length, 4);
    assert.deepEqual(doc.requests.map((r) => [r.segment, r.element]), [[0, undefined], [1, undefined], [2, 0], [2, 1]]);
    assert.equal(text.substr(doc.segments[1].offset, doc.segments[1].length), request('eth_chainId', [], 2));
    assert.equal(doc.directives.endpoint?.value, 'Mock node (dedicated)');
    assert.equal(text.substr(doc.directives.endpoint!.offset, doc.directives.endpoint!.length), 'Mock node (dedicated)');
    assert.deepEqual(doc.syntaxProblems, []);
    assert.deepEqual(rpcProblems(text), []);
  });

  it('finds the segment under a cursor', () => {
    const text = `${request('eth_blockNumber', [])}\n\n${request('eth_chainId', [], 2)}`;
    const doc = parseRpcDocument(text);
    assert.equal(segmentAt(doc, 3)?.index, 0);
    assert.equal(segmentAt(doc, text.indexOf('eth_chainId'))?.index, 1);
    assert.equal(segmentAt(doc, text.indexOf('\n\n') + 1)?.index, 0, 'between two requests: the one before');
  });

  it('reports syntax errors and stray commas between requests at their place', () => {
    const text = `${request('eth_blockNumber', [])},\n{ "jsonrpc": "2.0", "id": 2, "method": "eth_chainId" "params": [] }`;
    const problems = rpcProblems(text);
    const comma = problems.find((p) => p.message.includes('without commas'));
    assert.ok(comma, JSON.stringify(problems));
    assert.equal(comma.text, ',');
    const missing = problems.find((p) => p.message === 'JSON: comma expected');
    assert.ok(missing, JSON.stringify(problems));
    assert.equal(missing.text, '"params"');
  });

  it('checks directives: @profile takes public or dedicated, unknown directives are flagged', () => {
    const text = `// @profile shared\n// @endpont x\n${request('eth_blockNumber', [])}`;
    const problems = rpcProblems(text);
    assert.deepEqual(problems.map((p) => [p.code, p.severity, p.text]), [
      ['directive-profile', 'error', 'shared'],
      ['directive-unknown', 'warning', 'x'],
    ]);
  });

  it('places a Send lens on each request and on each batch', () => {
    const text = `${request('eth_blockNumber', [])}\n[${request('eth_chainId', [], 2)}, ${request('net_version', [], 3)}]`;
    const lenses = sendLenses(parseRpcDocument(text), 'Mock node (public)');
    assert.deepEqual(lenses.map((l) => [l.title, l.segment, l.element, text.slice(l.offset, l.offset + 1)]), [
      ['▶ Send eth_blockNumber to Mock node (public)', 0, undefined, '{'],
      ['▶ Send batch (2 requests) to Mock node (public)', 1, undefined, '['],
      ['▶ Send eth_chainId to Mock node (public)', 1, 0, '{'],
      ['▶ Send net_version to Mock node (public)', 1, 1, '{'],
    ]);
  });

  it('outlines requests by method and id, batches with their requests', () => {
    const text = `${request('eth_blockNumber', [])}\n[${request('eth_chainId', [], 2)}, { "id": "x" }]\n{ "jsonrpc": "2.0", "method": "net_version" }`;
    const symbols = documentSymbols(parseRpcDocument(text));
    const shape = (list: typeof symbols): unknown[] => list.map((s) => [s.name, s.detail, text.substr(s.selectionOffset, s.selectionLength), shape(s.children)]);
    assert.deepEqual(shape(symbols), [
      ['eth_blockNumber', 'id 1', '"eth_blockNumber"', []],
      ['batch (2 requests)', 'eth_chainId, (no method)', '[', [['eth_chainId', 'id 2', '"eth_chainId"', []], ['(no method)', 'id "x"', '{ "id": "x" }', []]]],
      ['net_version', 'no id', '"net_version"', []],
    ]);
  });
});
