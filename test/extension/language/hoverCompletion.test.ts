import * as assert from 'node:assert/strict';
import { authorizationCompletions, directiveCompletions, rpcCompletions } from '../../../extension/language/server/completion';
import { parseRpcDocument } from '../../../extension/language/server/document';
import { Interface } from 'ethers';
import { EVENT_TOPICS, STABLE_TOKEN_ABI } from '../../../mock-node/tokenKit/index';
import { authorizationHover, describeContractCall, describeQuantity, describeTokenCall, rpcHover } from '../../../extension/language/server/hover';
import { cursor, request } from './helpers';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

function hoverAt(marked: string, now?: number) {
  const { text, offset } = cursor(marked);
  return rpcHover(parseRpcDocument(text), offset, now);
}

function completeAt(marked: string) {
  const { text, offset } = cursor(marked);
  const entries = rpcCompletions(parseRpcDocument(text), offset);
  return { text, offset, entries, labels: entries.map((e) => e.label) };
}

describe('language: hover', () => {
  it('a hex quantity as decimal; as a UTC date when it looks like Unix seconds', () => {
    const number = hoverAt('{ "method": "eth_getBlockByNumber", "params": ["0x1b|4", false] }');
    assert.ok(number);
    assert.match(number.markdown, /`0x1b4` = \*\*436\*\*/);
    assert.match(number.markdown, /param 0 · \*\*block\*\*: Block number in hex, or `latest`, `pending`/);
    assert.doesNotMatch(number.markdown, /Unix seconds/);
    const { text } = cursor('{ "method": "evm_setNextBlockTimestamp", "params": ["0x6b49d2|00"] }');
    const stamp = hoverAt('{ "method": "evm_setNextBlockTimestamp", "params": ["0x6b49d2|00"] }', 1_800_000_000);
    assert.ok(stamp);
    assert.match(stamp.markdown, /\*\*1800000000\*\* \(1,800,000,000\)/);
    assert.match(stamp.markdown, /as Unix seconds: 2027-01-15 08:00:00 UTC \(in 0 s\)/);
    assert.equal(text.substr(stamp.offset, stamp.length), '"0x6b49d200"');
  });

  it('token amounts in 6-decimal units (mock_mint), ether units for wei-sized values', () => {
    const mint = hoverAt(`{ "method": "mock_mint", "params": ["${ADDRESS}", "0xbebc2|0"] }`);
    assert.match(mint!.markdown, /`0xbebc20` = \*\*12500000\*\*/);
    assert.match(mint!.markdown, /token amount: 12\.5 \(6 decimals\)/);
    const decimal = hoverAt(`{ "method": "mock_mint", "params": ["${ADDRESS}", "7800|00"] }`);
    assert.match(decimal!.markdown, /token amount: 0\.78 \(6 decimals\)/);
    assert.match(describeQuantity('0xde0b6b3a7640000')!, /in ether units: 1$/);
  });

  it('token call data decoded with the token\'s ABI (amounts in token units); token event topics named', () => {
    const data = new Interface(STABLE_TOKEN_ABI).encodeFunctionData('transfer', [ADDRESS, 12_500_000n]);
    const call = hoverAt(`{ "method": "eth_call", "params": [{ "to": "0x3600000000000000000000000000000000000000", "data": "${data.slice(0, 20)}|${data.slice(20)}" }, "latest"] }`);
    assert.match(call!.markdown, /token call \*\*transfer\(address,uint256\)\*\*/);
    assert.match(call!.markdown, /- value: `12500000` = 12\.5 tokens/);
    assert.match(call!.markdown, new RegExp(`- to: \`${ADDRESS}\``));
    assert.equal(describeTokenCall('0xdeadbeef'), undefined);
    const topic = EVENT_TOPICS.Transfer;
    const hover = hoverAt(`{ "method": "eth_getLogs", "params": [{ "topics": [["${topic.slice(0, 10)}|${topic.slice(10)}"]] }] }`);
    assert.match(hover!.markdown, /topic 0 of the token's event \*\*Transfer\(address,address,uint256\)\*\*/);
  });

  it('other call data: a deployment\'s creation code, else the selector of the function called', () => {
    const deploy = hoverAt('{ "method": "eth_sendTransaction", "params": [{ "from": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "data": "0x6080|604052" }] }');
    assert.match(deploy!.markdown, /creation code \(5 bytes\): this transaction deploys a contract/);
    const call = hoverAt(`{ "method": "eth_call", "params": [{ "to": "${ADDRESS}", "data": "0xdead|beef0000000000000000000000000000000000000000000000000000000000000001" }, "latest"] }`);
    assert.match(call!.markdown, /contract call, selector `0xdeadbeef` \(not a function of the token's ABI\), 32 bytes of arguments/);
    assert.doesNotMatch(call!.markdown, /creation code/);
    assert.equal(describeContractCall('0xabc', false), undefined, 'an odd-length hex string is not call data');
  });

  it('a method with the seed\'s param table; tags; filter fields', () => {
    const method = hoverAt('{ "method": "eth_getTransactionC|ount", "params": [] }');
    assert.match(method!.markdown, /\| 1 \| block \| yes \| Block number in hex, or `latest`, `pending`, `safe`, `finalized`, `earliest` \|/);
    assert.match(method!.markdown, /avoids nonce gaps/);
    const tag = hoverAt('{ "method": "eth_getBlockReceipts", "params": ["pen|ding"] }');
    assert.match(tag!.markdown, /pre-confirmed transactions, refreshed about every 200 ms/);
    const field = hoverAt('{ "method": "eth_getLogs", "params": [{ "block|Hash": "0x1" }] }');
    assert.match(field!.markdown, /\*\*blockHash\*\* \(eth_getLogs filter\)/);
    assert.equal(hoverAt('{ "method": "eth_getLogs", "par|ams": [] }'), undefined);
  });

  it('inside a batch and the second of several requests', () => {
    const marked = `${request('eth_blockNumber', [])}\n[${request('eth_chainId', [], 2)}, { "jsonrpc": "2.0", "id": 3, "method": "eth_getBalance", "params": ["${ADDRESS}", "0x1|0"] }]`;
    const hover = hoverAt(marked);
    assert.match(hover!.markdown, /eth_getBalance\*\* param 1 · \*\*block\*\*/);
    assert.match(hover!.markdown, /\*\*16\*\*/);
  });

  it('authorization fields: the amount in token units, window times as dates, signature parts', () => {
    const sig = `0x${'11'.repeat(32)}${'22'.repeat(32)}1c`;
    const marked = `{ "authorization": { "value": "12500|000", "validBefore": 1800000960 }, "signature": "${sig}" }`;
    const { text, offset } = cursor(marked);
    const value = authorizationHover(text, offset, 1_800_000_000);
    assert.match(value!.markdown, /\*\*12\.5\*\* tokens \(12500000 base units, 6 decimals\)/);
    const before = authorizationHover(text, text.indexOf('1800000960') + 3, 1_800_000_000);
    assert.match(before!.markdown, /2027-01-15 08:16:00 UTC \(in 16 min\)/);
    const signature = authorizationHover(text, text.indexOf(sig) + 5, 1_800_000_000);
    assert.match(signature!.markdown, /v = 28/);
    const key = authorizationHover(text, text.indexOf('"authorization"') + 2, 0);
    assert.match(key!.markdown, /The transfer authorization the payer signed/);
  });
});

describe('language: completion', () => {
  it('block tags, pending included, for a block param, replacing the string being typed', () => {
    const { text, entries, labels } = completeAt(`{ "method": "eth_getTransactionCount", "params": ["${ADDRESS}", "pe|"] }`);
    assert.deepEqual(labels, ['latest', 'pending', 'safe', 'finalized', 'earliest']);
    const pending = entries.find((e) => e.label === 'pending')!;
    assert.equal(pending.insertText, '"pending"');
    assert.equal(text.substr(pending.offset, pending.length), '"pe"');
    const open = completeAt(`{ "method": "eth_getBlockByNumber", "params": [| ] }`);
    assert.ok(open.labels.includes('pending'));
    assert.equal(open.entries[0].length, 0);
  });

  it('method names, the seed\'s five reads sorted first', () => {
    const { entries } = completeAt('{ "jsonrpc": "2.0", "id": 1, "method": "eth_get|" }');
    const sorted = [...entries].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label)).map((e) => e.label);
    assert.deepEqual(sorted.slice(0, 5).sort(), ['eth_getBlockByNumber', 'eth_getBlockReceipts', 'eth_getLogs', 'eth_getStorageAt', 'eth_getTransactionCount']);
    assert.ok(sorted.includes('mock_flashblock'));
  });

  it('eth_getLogs filter fields (those not yet present) and tags for fromBlock/toBlock', () => {
    const fields = completeAt('{ "method": "eth_getLogs", "params": [{ "fromBlock": "pending", "|" }] }');
    assert.deepEqual(fields.labels, ['toBlock', 'address', 'topics', 'blockHash']);
    assert.equal(fields.entries[0].insertText, '"toBlock": ');
    const tags = completeAt('{ "method": "eth_getLogs", "params": [{ "fromBlock": "|" }] }');
    assert.ok(tags.labels.includes('pending'));
  });

  it('request members, booleans, batches, and a request snippet outside any request', () => {
    assert.deepEqual(completeAt('{ "method": "eth_chainId", "|" }').labels, ['jsonrpc', 'id', 'params']);
    assert.deepEqual(completeAt('{ "method": "eth_getBlockByNumber", "params": ["latest", |] }').labels, ['true', 'false']);
    assert.ok(completeAt('[{ "method": "eth_chainId" }, { "method": "eth_getBlockReceipts", "params": ["|"] }]').labels.includes('pending'));
    const outside = completeAt(`${request('eth_chainId', [])}\n|`);
    assert.deepEqual(outside.labels, ['request']);
    assert.equal(outside.entries[0].snippet, true);
  });

  it('directive values: endpoint names and profiles', () => {
    const { text, offset } = cursor('// @endpoint Mock|\n{}');
    const entries = directiveCompletions(text, offset, ['Mock node (public)', 'Mock node (dedicated)'])!;
    assert.deepEqual(entries.map((e) => e.label), ['Mock node (public)', 'Mock node (dedicated)']);
    assert.equal(text.substr(entries[0].offset, entries[0].length), 'Mock');
    const profile = cursor('// @profile |');
    assert.deepEqual(directiveCompletions(profile.text, profile.offset, [])!.map((e) => e.label), ['public', 'dedicated']);
    const elsewhere = cursor('{ "method": "|" }');
    assert.equal(directiveCompletions(elsewhere.text, elsewhere.offset, []), undefined);
  });

  it('authorization files: members and the primaryType / captureRoute values', () => {
    const top = cursor('{ "orderId": "1", "|" }');
    assert.deepEqual(authorizationCompletions(top.text, top.offset).map((e) => e.label), ['authorization', 'signature', 'domain', 'primaryType', 'captureRoute']);
    const inner = cursor('{ "authorization": { "from": "0x", "|" } }');
    assert.deepEqual(authorizationCompletions(inner.text, inner.offset).map((e) => e.label), ['to', 'value', 'validAfter', 'validBefore', 'nonce']);
    const type = cursor('{ "primaryType": "|" }');
    assert.deepEqual(authorizationCompletions(type.text, type.offset).map((e) => e.label), ['ReceiveWithAuthorization', 'TransferWithAuthorization']);
  });

  it('authorization files: the domain values of Base and Base Sepolia USDC (the --chain presets)', () => {
    const at = (field: string, quotedValue = true) => {
      const c = cursor(`{ "domain": { "${field}": ${quotedValue ? '"|"' : '|'} } }`);
      return authorizationCompletions(c.text, c.offset);
    };
    assert.deepEqual(at('verifyingContract').map((e) => [e.label, e.detail]), [
      ['0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 'USDC on Base (8453)'],
      ['0x036CbD53842c5426634e7929541eC2318f3dCF7e', 'USDC on Base Sepolia (84532)'],
    ]);
    assert.deepEqual(at('name').map((e) => e.label), ['USD Coin', 'USDC']);
    assert.deepEqual(at('version').map((e) => [e.label, e.detail]), [['2', 'USDC on Base (8453), USDC on Base Sepolia (84532)']]);
    assert.deepEqual(at('chainId', false).map((e) => [e.label, e.insertText]), [['8453', '8453'], ['84532', '84532']]);
  });
});
