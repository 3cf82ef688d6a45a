import * as assert from 'node:assert/strict';
import { parseRpcDocument } from '../../../extension/language/server/document';
import { analyzeRpcDocument, resolveProfile, type KnownEndpoint } from '../../../extension/language/server/rpcDiagnostics';
import { request, rpcProblems } from './helpers';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const HASH = `0x${'ab'.repeat(32)}`;
const ENDPOINTS: KnownEndpoint[] = [
  { id: 'ep:mock:public', name: 'Mock node (public)', profile: 'public' },
  { id: 'ep:mock:dedicated', name: 'Mock node (dedicated)', profile: 'dedicated' },
  { id: 'ep:settings:infura', name: 'Infura' },
];

/** [code, severity, covered text] of each problem. */
function brief(text: string, context?: Parameters<typeof rpcProblems>[1]): [string, string, string][] {
  return rpcProblems(text, context).map((p) => [p.code, p.severity, p.text]);
}

describe('language: .jsonrpc diagnostics', () => {
  it('accepts each of the seed\'s five reads with every tag, and EIP-1898 objects', () => {
    const lines: string[] = [];
    for (const tag of ['latest', 'pending', 'safe', 'finalized', 'earliest', '0x0', '0x1b4']) {
      lines.push(
        request('eth_getBlockByNumber', [tag, true]),
        request('eth_getBlockReceipts', [tag]),
        request('eth_getStorageAt', [ADDRESS, '0x0000000000000000000000000000000000000000000000000000000000000009', tag]),
        request('eth_getTransactionCount', [ADDRESS, tag]),
        request('eth_getLogs', [{ fromBlock: tag, toBlock: 'pending', address: [ADDRESS], topics: [HASH, null, [HASH, HASH]] }]),
      );
    }
    lines.push(request('eth_getTransactionCount', [ADDRESS, { blockHash: HASH, requireCanonical: true }]));
    lines.push(request('eth_getBlockReceipts', [{ blockNumber: '0x10' }]));
    lines.push(request('eth_getLogs', [{ blockHash: HASH }]));
    assert.deepEqual(brief(lines.join('\n'), { endpoints: ENDPOINTS }), []);
  });

  it('unknown method: the method string, with a suggestion', () => {
    const problems = rpcProblems(request('eth_getTransactionCont', [ADDRESS, 'latest']));
    assert.deepEqual(problems.map((p) => [p.code, p.text]), [['method-unknown', '"eth_getTransactionCont"']]);
    assert.match(problems[0].message, /did you mean eth_getTransactionCount\?/);
    assert.deepEqual(brief(request('eth_subscribe', ['newHeads'])), [['method-websocket', 'warning', '"eth_subscribe"']]);
    assert.deepEqual(brief(request('trace_block', ['latest'])), [['method-not-served', 'information', '"trace_block"']]);
  });

  it('param count: missing ones on the params array, extra ones on each extra element', () => {
    assert.deepEqual(brief(request('eth_getBlockByNumber', ['latest'])), [['params-count', 'error', '["latest"]']]);
    assert.deepEqual(brief(`{ "jsonrpc": "2.0", "id": 1, "method": "eth_getBlockReceipts" }`), [['params-count', 'error', '"eth_getBlockReceipts"']]);
    assert.deepEqual(brief(request('eth_blockNumber', ['latest', 1])), [['params-count', 'error', '"latest"'], ['params-count', 'error', '1']]);
    assert.deepEqual(brief(request('eth_getBalance', [ADDRESS])), [], 'the block of eth_getBalance is optional');
    const message = rpcProblems(request('eth_getStorageAt', [ADDRESS]))[0].message;
    assert.equal(message, 'eth_getStorageAt takes 3 params (address, position, block): missing position, block');
  });

  it('param types: booleans, addresses, hashes, slots, by-name params', () => {
    assert.deepEqual(brief(request('eth_getBlockByNumber', ['latest', 'true'])), [['param-type', 'error', '"true"']]);
    assert.deepEqual(brief(request('eth_getTransactionCount', ['0x1234', 'latest'])), [['address', 'error', '"0x1234"']]);
    assert.deepEqual(brief(request('eth_getTransactionCount', [ADDRESS.replace('f39F', 'F39f'), 'latest'])), [['address', 'warning', `"${ADDRESS.replace('f39F', 'F39f')}"`]]);
    assert.deepEqual(brief(request('eth_getBlockByHash', ['0xabcd', false])), [['hex', 'error', '"0xabcd"']]);
    assert.deepEqual(brief(request('eth_getStorageAt', [ADDRESS, 'slot9', 'latest'])), [['hex', 'error', '"slot9"']]);
    assert.deepEqual(brief(request('eth_getTransactionCount', [ADDRESS, 12])), [['param-type', 'error', '12']]);
    assert.deepEqual(brief(request('eth_getTransactionCount', '{ "address": "0x0" }')), [['params-type', 'error', '{ "address": "0x0" }']]);
  });

  it('hex quantities: leading zeros, decimals, no digits, not hex', () => {
    const cases: [string, RegExp][] = [
      ['0x01', /leading zero digits: write 0x1/],
      ['0x00', /leading zero digits: write 0x0/],
      ['0x', /has no digits/],
      ['0xzz', /is not hex/],
      ['100', /is decimal: write 0x64/],
    ];
    for (const [value, message] of cases) {
      const problems = rpcProblems(request('eth_getBlockByNumber', [value, false]));
      assert.equal(problems.length, 1, value);
      assert.equal(problems[0].text, `"${value}"`);
      assert.match(problems[0].message, message);
    }
    assert.deepEqual(brief(request('eth_sendTransaction', [{ from: ADDRESS, to: ADDRESS, value: '0x0de0b6b3a7640000' }])), [['hex', 'error', '"0x0de0b6b3a7640000"']]);
    assert.deepEqual(brief(request('eth_call', [{ to: ADDRESS, data: '0xabc' }, 'latest'])), [['hex', 'error', '"0xabc"']]);
  });

  it('block tags: an unknown tag, with a suggestion; tags are case-sensitive', () => {
    const problems = rpcProblems(request('eth_getBlockReceipts', ['Pending']));
    assert.deepEqual(problems.map((p) => [p.code, p.text]), [['block-tag', '"Pending"']]);
    assert.match(problems[0].message, /Did you mean "pending"\?/);
    assert.deepEqual(brief(request('eth_getBlockByNumber', ['head', false])), [['block-tag', 'error', '"head"']]);
  });

  it('eth_getLogs: range over 2,000 blocks when both ends are numbers (2,000 is fine), reversed range, field rules', () => {
    const range = (from: string, to: string) => request('eth_getLogs', [{ fromBlock: from, toBlock: to }]);
    assert.deepEqual(brief(range('0x1', '0x7d0')), [], 'blocks 1..2000: exactly 2,000');
    assert.deepEqual(brief(range('0x1', '0x7d1')), [['logs-range', 'error', '"0x1","toBlock":"0x7d1"']]);
    assert.deepEqual(brief(range('0x0', 'latest')), [], 'a tag end: the span is not known offline');
    assert.deepEqual(brief(range('0x10', '0x1')), [['logs-range', 'error', '"0x1"']]);
    assert.deepEqual(brief(range('0x1', '0x7d1'), { endpoints: ENDPOINTS, chosenEndpointId: 'ep:mock:dedicated' }), [['logs-range', 'warning', '"0x1","toBlock":"0x7d1"']]);
    assert.deepEqual(brief(request('eth_getLogs', [{ fromBlock: '0x1', blockHash: HASH }])), [['filter-blockhash', 'warning', '"0x1"']]);
    const ignoredRange = rpcProblems(request('eth_getLogs', [{ fromBlock: '0x10', toBlock: '0x1', blockHash: HASH }]));
    assert.deepEqual(ignoredRange.map((p) => [p.code, p.severity, p.text]), [['filter-blockhash', 'warning', '"0x10"'], ['filter-blockhash', 'warning', '"0x1"']], 'a reversed range is not checked: it is ignored');
    assert.match(ignoredRange[0].message, /^ignored: with blockHash the node reads that one block/);
    assert.deepEqual(brief(request('eth_getLogs', [{ fromBlok: '0x1' }])), [['filter-field', 'error', '"fromBlok"']]);
    assert.deepEqual(brief(request('eth_getLogs', [{ topics: [null, null, null, null, HASH] }])), [['topics', 'error', `"${HASH}"`]]);
    assert.deepEqual(brief(request('eth_getLogs', [{ topics: ['0x1234'] }])), [['hex', 'error', '"0x1234"']]);
    assert.deepEqual(brief(request('eth_getLogs', [{ fromBlock: { blockHash: HASH } }])), [['param-type', 'error', `{"blockHash":"${HASH}"}`]]);
    assert.deepEqual(brief(request('eth_getLogs', [{}])), [['filter-empty', 'warning', '{}']]);
  });

  it('eth_getBlockReceipts on a public endpoint: by @profile, by the named endpoint, by the endpoint chosen for Send', () => {
    const receipts = request('eth_getBlockReceipts', ['pending']);
    assert.deepEqual(brief(receipts), [], 'no endpoint known: nothing to say');
    assert.deepEqual(brief(`// @profile public\n${receipts}`), [['receipts-public', 'error', '"eth_getBlockReceipts"']]);
    assert.deepEqual(brief(`// @profile dedicated\n${receipts}`), []);
    assert.deepEqual(brief(`// @endpoint Mock node (public)\n${receipts}`, { endpoints: ENDPOINTS }), [['receipts-public', 'error', '"eth_getBlockReceipts"']]);
    assert.deepEqual(brief(`// @endpoint mock node (dedicated)\n${receipts}`, { endpoints: ENDPOINTS }), [], 'names match case-insensitively');
    assert.deepEqual(brief(receipts, { endpoints: ENDPOINTS, chosenEndpointId: 'ep:mock:public' }), [['receipts-public', 'error', '"eth_getBlockReceipts"']]);
    assert.deepEqual(brief(`// @profile dedicated\n${receipts}`, { endpoints: ENDPOINTS, chosenEndpointId: 'ep:mock:public' }), [], 'the file\'s directive wins');
    const inBatch = rpcProblems(`[${receipts}, ${request('eth_blockNumber', [], 2)}]`, { endpoints: ENDPOINTS, chosenEndpointId: 'ep:mock:public' });
    assert.deepEqual(inBatch.map((p) => [p.code, p.text]), [['receipts-public', '"eth_getBlockReceipts"']], 'in a batch too');
    assert.match(inBatch[0].message, /HTTP 403, -32004, for the whole batch/);
    assert.deepEqual(brief(`// @endpoint Alchemy\n${receipts}`, { endpoints: ENDPOINTS }), [['directive-endpoint', 'warning', 'Alchemy']]);
  });

  it('resolves the profile from a URL with a /dedicated/ path', () => {
    const doc = parseRpcDocument(`// @endpoint http://127.0.0.1:8545/dedicated/abc\n${request('eth_blockNumber', [])}`);
    assert.equal(resolveProfile(doc).profile, 'dedicated');
    assert.equal(resolveProfile(parseRpcDocument('// @endpoint http://127.0.0.1:8545/\n{}')).profile, undefined);
  });

  it('the envelope: jsonrpc, id, method, unknown members, shapes', () => {
    assert.deepEqual(brief('{ "id": 1, "method": "eth_blockNumber", "params": [] }'), [['jsonrpc-missing', 'warning', '{']]);
    assert.deepEqual(brief('{ "jsonrpc": "1.0", "id": 1, "method": "eth_blockNumber" }'), [['jsonrpc-version', 'error', '"1.0"']]);
    assert.deepEqual(brief('{ "jsonrpc": "2.0", "id": [1], "method": "eth_blockNumber" }'), [['id-type', 'error', '[1]']]);
    assert.deepEqual(brief('{ "jsonrpc": "2.0", "id": 1 }'), [['method-missing', 'error', '{']]);
    assert.deepEqual(brief('{ "jsonrpc": "2.0", "id": 1, "method": 5 }'), [['method-type', 'error', '5']]);
    assert.deepEqual(brief('{ "jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "param": [] }'), [['request-unknown-member', 'warning', '"param"']]);
    assert.deepEqual(brief('[]'), [['batch-empty', 'error', '[]']]);
    assert.deepEqual(brief('[1]'), [['request-shape', 'error', '1']]);
    assert.deepEqual(brief('"eth_blockNumber"'), [['request-shape', 'error', '"eth_blockNumber"']]);
  });

  it('transactions, typed data, control methods', () => {
    assert.deepEqual(brief(request('eth_sendTransaction', [{ to: ADDRESS, value: '0x1' }])), [['transaction-field', 'error', '{']]);
    assert.deepEqual(brief(request('eth_call', [{ to: ADDRESS, gasPrice: '0x1', maxFeePerGas: '0x2' }])), [['transaction-field', 'error', '"0x1"']]);
    assert.deepEqual(brief(request('eth_signTypedData_v4', [ADDRESS, { types: {}, domain: {}, message: {} }])), [['typed-data', 'error', '{']]);
    assert.deepEqual(brief(request('mock_mint', [ADDRESS, '12500000'])), [], 'a decimal string amount');
    assert.deepEqual(brief(request('mock_mint', [ADDRESS, 12.5])), [['param-type', 'error', '12.5']]);
    assert.deepEqual(brief(request('evm_increaseTime', [60])), []);
    assert.deepEqual(brief(request('evm_increaseTime', ['0x03c'])), [['hex', 'error', '"0x03c"']]);
    assert.deepEqual(brief(request('eth_feeHistory', [4, 'latest', [25, 150]])), [['param-type', 'error', '150']]);
    assert.deepEqual(brief(request('eth_sendRawTransactionSync', ['0x02', 0])), [['param-type', 'error', '0']]);
    assert.deepEqual(brief(request('mock_mint', [ADDRESS, '12345678901234567890'])), [], 'as a decimal string it is exact');
    assert.deepEqual(brief(`{ "jsonrpc": "2.0", "id": 1, "method": "mock_mint", "params": ["${ADDRESS}", 12345678901234567890] }`),
      [['number-precision', 'warning', '12345678901234567890']]);
  });

  it('a batch that uses an id twice', () => {
    const batch = `[${request('eth_chainId', [], 1)}, ${request('net_version', [], 2)}, ${request('eth_blockNumber', [], 1)}]`;
    assert.deepEqual(brief(batch), [['id-duplicate', 'warning', '1']]);
    const [problem] = analyzeRpcDocument(parseRpcDocument(batch));
    assert.equal(problem.offset, batch.lastIndexOf('"id": 1') + '"id": '.length, 'flagged on the second use');
    assert.deepEqual(brief(`${request('eth_chainId', [], 1)}\n${request('net_version', [], 1)}`), [], 'separate requests may share an id');
  });

  it('quick fixes: applying every offered fix leaves a clean file', () => {
    let text = [
      '{ "id": 1, "method": "eth_getBlockByNumbr", "params": ["0x01", "false"] }',
      `{ "jsonrpc": "2.0", "id": 2, "method": "eth_getLogs", "params": [{ "fromBlok": "100", "toBlock": "pendng", "address": "${ADDRESS}" }] }`,
      `{ "jsonrpc": "1.0", "id": 3, "method": "eth_getTransactionCount", "params": ["${ADDRESS.replace('f39F', 'F39f')}", "Pending"] }`,
      `{ "jsonrpc": "2.0", "id": 4, "method": "mock_mint", "params": ["${ADDRESS}", 12345678901234567890] }`,
      '{ "jsonrpc": "2.0", "id": 5, "method": "eth_getTransactionByBlockNumberAndIndex", "params": ["latest", "0x00"] }',
    ].join('\n');
    const titles = new Set<string>();
    for (let round = 0; round < 5; round++) {
      const fixes = analyzeRpcDocument(parseRpcDocument(text)).flatMap((p) => (p.fix ? [p.fix] : []));
      if (fixes.length === 0) break;
      for (const fix of fixes) titles.add(fix.title);
      // Apply from the end so earlier offsets stay valid.
      for (const fix of [...fixes].sort((a, b) => b.offset - a.offset)) text = text.slice(0, fix.offset) + fix.newText + text.slice(fix.offset + fix.length);
    }
    assert.deepEqual(brief(text), [], text);
    for (const title of ['Add "jsonrpc": "2.0"', 'Change to "eth_getBlockByNumber"', 'Change to "0x1"', 'Change to false', 'Change to "fromBlock"',
      'Change to "0x64"', 'Change to "pending"', 'Change to "2.0"', 'Use the EIP-55 checksum', 'Change to "0xab54a98ceb1f0ad2"', 'Change to "0x0"']) {
      assert.ok(titles.has(title), `${title} in ${[...titles].join(' | ')}`);
    }
    assert.match(text, /"params": \["0x1", false\]/);
    assert.match(text, new RegExp(`"params": \\["${ADDRESS}", "pending"\\]`));
  });
});
