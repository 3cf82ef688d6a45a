// Half-typed files are the normal state of an editor buffer: every analysis must answer for any
// text at any offset without throwing. Deterministic mutations (a seeded generator) of valid
// files: deletions, duplications and stray characters.
import * as assert from 'node:assert/strict';
import { analyzeAuthorization } from '../../../extension/language/server/authorizationDiagnostics';
import { authorizationCompletions, directiveCompletions, rpcCompletions } from '../../../extension/language/server/completion';
import { parseRpcDocument } from '../../../extension/language/server/document';
import { authorizationHover, rpcHover } from '../../../extension/language/server/hover';
import { sendLenses } from '../../../extension/language/server/lenses';
import { documentSymbols } from '../../../extension/language/server/symbols';
import { analyzeRpcDocument } from '../../../extension/language/server/rpcDiagnostics';

const RPC = `// @endpoint Mock node (public)
// @profile dedicated
{ "jsonrpc": "2.0", "id": 1, "method": "eth_getLogs", "params": [{ "fromBlock": "0x1", "toBlock": "pending", "address": ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"], "topics": [null, ["0x${'ab'.repeat(32)}"]] }] }
[
  { "jsonrpc": "2.0", "id": "a", "method": "eth_getTransactionCount", "params": ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", { "blockHash": "0x${'cd'.repeat(32)}" }] },
  { "jsonrpc": "2.0", "id": "b", "method": "eth_call", "params": [{ "to": "0x3600000000000000000000000000000000000000", "data": "0x70a08231" }, "latest"] }
]
/* block */ { "jsonrpc": "2.0", "id": 9, "method": "mock_mint", "params": ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", 12500000] }
`;

const AUTH = JSON.stringify({
  orderId: 'o-1',
  authorization: { from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', value: '12500000', validAfter: 1800000000, validBefore: '1800000960', nonce: `0x${'ab'.repeat(32)}` },
  signature: `0x${'11'.repeat(64)}1b`,
  primaryType: 'ReceiveWithAuthorization',
  domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: '0x3600000000000000000000000000000000000000' },
}, null, 2);

/** mulberry32: a small seeded generator, so a failure reproduces. */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutate(text: string, random: () => number): string {
  const at = Math.floor(random() * text.length);
  const span = 1 + Math.floor(random() * 12);
  switch (Math.floor(random() * 4)) {
    case 0: return text.slice(0, at) + text.slice(at + span);
    case 1: return text.slice(0, at) + text.slice(at, at + span) + text.slice(at);
    case 2: return text.slice(0, at) + '{["":,]}"\\/*'[Math.floor(random() * 12)] + text.slice(at);
    default: return text.slice(0, at);
  }
}

describe('language: any text, any offset', function () {
  // Thousands of variants; a generous limit for a loaded machine (nothing here measures speed).
  this.timeout(60_000);
  it('never throws on mutated .jsonrpc files (2,000 variants, every analysis at random offsets)', () => {
    const random = generator(20261122);
    for (let i = 0; i < 2000; i++) {
      let text = RPC;
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--) text = mutate(text, random);
      const offset = Math.floor(random() * (text.length + 1));
      try {
        const doc = parseRpcDocument(text);
        analyzeRpcDocument(doc, { endpoints: [{ id: 'ep:mock:public', name: 'Mock node (public)', profile: 'public' }], chosenEndpointId: 'ep:mock:public' });
        rpcHover(doc, offset, 1_800_000_000);
        rpcCompletions(doc, offset);
        directiveCompletions(text, offset, ['Mock node (public)']);
        sendLenses(doc, 'x');
        documentSymbols(doc);
        for (const problem of analyzeRpcDocument(doc)) if (problem.fix) assert.ok(problem.fix.offset >= 0 && problem.fix.offset + problem.fix.length <= text.length, 'a fix inside the text');
      } catch (error) {
        assert.fail(`variant ${i} at offset ${offset} threw ${(error as Error).stack}\n---\n${text}`);
      }
    }
  });

  it('never throws on mutated .authorization.json files', () => {
    const random = generator(3009);
    for (let i = 0; i < 2000; i++) {
      let text = AUTH;
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--) text = mutate(text, random);
      const offset = Math.floor(random() * (text.length + 1));
      try {
        for (const problem of analyzeAuthorization(text, { now: 1_800_000_100, name: 'the test clock' })) if (problem.fix) assert.ok(problem.fix.offset + problem.fix.length <= text.length, 'a fix inside the text');
        authorizationHover(text, offset, 1_800_000_100);
        authorizationCompletions(text, offset);
      } catch (error) {
        assert.fail(`variant ${i} at offset ${offset} threw ${(error as Error).stack}\n---\n${text}`);
      }
    }
  });
});
