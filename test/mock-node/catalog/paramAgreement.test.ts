// The language server and the node accept and reject the same param values: for every method of
// the catalog and every param of a kind with a rule, each value of a pool is put in that position
// (the other params valid) and sent to the node and to the language server's diagnostics. The node
// rejects it when it answers -32602 naming that argument; the language server when it reports an
// error on that param. Both must agree.
import assert from 'node:assert/strict';
import { parseRpcDocument } from '../../../extension/language/server/document';
import { analyzeRpcDocument } from '../../../extension/language/server/rpcDiagnostics';
import { createMockNodeCore, type MockNodeCore } from '../../../mock-node/node';
import { METHOD_CATALOG, type MethodSpec } from '../../../mock-node/catalog/index';
import type { ParamKind } from '../../../mock-node/catalog/index';

const DEV = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const HASH = '0x' + 'ab'.repeat(32);

/** A value each kind accepts, used for the params around the one under test. */
const VALID: Record<ParamKind, unknown> = {
  block: 'latest', quantity: '0x1', integer: '0x1', amount: '0x1', address: DEV, hash: HASH, data: '0x', signedTransaction: '0x01', message: '0x',
  slot: '0x0', boolean: true, milliseconds: 1000, filter: {}, transaction: { from: DEV, to: DEV },
  typedData: { types: { T: [{ name: 'a', type: 'uint256' }] }, primaryType: 'T', domain: { name: 'x' }, message: { a: 1 } },
  percentiles: [], any: null,
};

/** Wrong shapes, edge values and right ones, for every kind with a rule. */
const POOL: unknown[] = [
  null, true, false, 0, 1, -1, 1.5, 2 ** 40, '', 'latest', 'pending', 'safe', 'finalized', 'earliest', 'Latest', 'pendng', '12',
  '0x', '0x0', '0x00', '0x1', '0x01', '0X1', '0xzz', '0x123', '0x' + 'f'.repeat(64), '0x' + 'f'.repeat(65), '0x' + '0'.repeat(65),
  DEV, DEV.toLowerCase(), '0x' + 'ab'.repeat(19), HASH, '0x' + 'ab'.repeat(31), 'hello', [], ['0x1'], {},
  { blockHash: HASH }, { blockHash: HASH, requireCanonical: true }, { blockHash: HASH, requireCanonical: 'yes' }, { blockNumber: '0x0' },
  { blockNumber: 'pending' }, { blockNumber: '0x00' }, { blockHash: '0x12' }, { blockHash: HASH, blockNumber: '0x0' },
];

const CHECKED: ReadonlySet<ParamKind> = new Set(['block', 'quantity', 'integer', 'amount', 'address', 'hash', 'data', 'signedTransaction', 'message', 'slot', 'boolean', 'milliseconds']);

/** Methods left out, and why. */
const LEFT_OUT = new Map<string, string>([
  ['mock_loadState', 'replaces the whole chain (the state file tests cover it)'],
  ['mock_dumpState', 'writes files'],
]);

function requestText(method: string, params: unknown[], index: number): { text: string; start: number; end: number } {
  const head = `{"jsonrpc":"2.0","id":1,"method":"${method}","params":[`;
  const parts = params.map((value) => JSON.stringify(value));
  const start = head.length + parts.slice(0, index).reduce((sum, part) => sum + part.length + 1, 0);
  return { text: `${head}${parts.join(',')}]}`, start, end: start + parts[index].length };
}

function languageServerRejects(method: string, params: unknown[], index: number): string | undefined {
  const { text, start, end } = requestText(method, params, index);
  const problem = analyzeRpcDocument(parseRpcDocument(text)).find((p) => p.severity === 'error' && p.offset >= start && p.offset < end);
  return problem?.message;
}

/**
 * Node checks beyond the param rules, on what a value means here (a range, whether a block exists):
 * the language server cannot know the chain, so they are not compared.
 */
const MEANING_CHECKS = [/blockCount must be from 1 to 1024/, /: block not found$/, /^time out too long/, /depth must be a whole number of at least 1/, /the balance would exceed 2\^255 - 1/,
  /block count must be at most 10000/, /interval must be at most a year/, /base fee must be below 2\^64/, /gas limit must be from 21000/];
const SKIP = Symbol('a check on meaning');

async function nodeRejects(core: MockNodeCore, method: string, params: unknown[], index: number): Promise<string | typeof SKIP | undefined> {
  const reply = await core.handle({ jsonrpc: '2.0', id: 1, method, params }, 'dedicated');
  const error = (reply.body as { error?: { code: number; message: string } }).error;
  if (!error || error.code !== -32602) return undefined;
  if (MEANING_CHECKS.some((pattern) => pattern.test(error.message))) return SKIP;
  return error.message.startsWith(`invalid argument ${index}`) ? error.message : undefined;
}

describe('catalog: the language server and the node accept and reject the same param values', function () {
  this.timeout(60_000);
  let core: MockNodeCore;
  before(async () => {
    core = await createMockNodeCore({ auto: false, quiet: true });
  });

  const methods = METHOD_CATALOG.filter((spec: MethodSpec) => spec.transport !== 'websocket' && !LEFT_OUT.has(spec.name));
  for (const spec of methods) {
    const positions = spec.params.map((param, index) => ({ param, index })).filter(({ param }) => CHECKED.has(param.kind));
    if (positions.length === 0) continue;
    it(`${spec.name}: ${positions.map(({ param }) => `${param.name} (${param.kind})`).join(', ')}`, async () => {
      const disagreements: string[] = [];
      for (const { param, index } of positions) {
        for (const value of POOL) {
          const params = spec.params.slice(0, Math.max(index + 1, spec.params.filter((p) => p.required).length)).map((p) => VALID[p.kind]);
          params[index] = value;
          const ls = languageServerRejects(spec.name, params, index);
          const node = await nodeRejects(core, spec.name, params, index);
          if (node !== SKIP && !!ls !== !!node) {
            disagreements.push(`${param.name} = ${JSON.stringify(value)}: node ${node ? `rejects (${node})` : 'accepts'}, language server ${ls ? `rejects (${ls})` : 'accepts'}`);
          }
        }
      }
      assert.deepEqual(disagreements, []);
    });
  }
});
