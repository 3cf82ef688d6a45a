// Bad input never reaches an internal error: every method of the node, called on both profiles
// with params drawn (reproducibly, from a seed) out of a pool of wrong shapes and edge values,
// answers a result or a clear JSON-RPC error; nothing is logged as an internal error, and the
// node still serves afterwards. A -32603 here is a missing check in a method. Another seed:
// BAD_INPUT_SEED=n (60 seeds, 2.4 million calls, were clean when this was written).
import assert from 'node:assert/strict';
import type { LogEntry, RunningMockNode } from '../../../mock-node/index';
import { seededRandom } from '../../../mock-node/rpc/faults';
import { METHOD_CATALOG } from '../../../mock-node/catalog/index';
import { rpc, startTestNode } from '../../helpers/rpc';

const DEV = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TOKEN = '0x3600000000000000000000000000000000000000';

/** Wrong shapes and edge values, and a few right ones so that calls get past the first check. */
const POOL: unknown[] = [
  null, true, false, 0, 1, -1, 1.5, 2 ** 53, 1e300, '', ' ', 'latest', 'pending', 'earliest', 'safe', 'finalized', 'Latest',
  '0x', '0x0', '0x00', '0x1', '0x10', '0xzz', '0X1', '0x' + 'f'.repeat(64), '0x' + 'f'.repeat(65), '0x' + 'f'.repeat(200),
  DEV, DEV.toLowerCase(), TOKEN, '0x' + 'ab'.repeat(19), '0x' + 'ab'.repeat(32), 'abc', '\u0000', 'x'.repeat(2000),
  [], [1], ['0x1'], [null], [[DEV]], {}, { blockHash: '0x' + '00'.repeat(32) }, { blockHash: 5 }, { blockNumber: '0x0' },
  { blockNumber: 'pending', requireCanonical: 'yes' }, { fromBlock: '0x0', toBlock: 'latest' }, { fromBlock: 'latest', toBlock: '0x0' },
  { address: 123 }, { address: [DEV, 7] }, { topics: [[null, 5]] }, { topics: 'x' }, { blockHash: '0x' + '11'.repeat(32), fromBlock: '0x0' },
  { to: TOKEN, data: '0x70a08231' }, { to: TOKEN, data: '0x1234' }, { to: TOKEN, data: 7 }, { from: DEV, to: null, value: '0x1' },
  { from: DEV, to: TOKEN, gas: '0xffffffffffffffffffff' }, { from: DEV, value: '-0x1' }, { from: 5 }, { from: DEV, nonce: '0xffffffffffffffff' },
  { types: {}, primaryType: 'X', domain: {}, message: {} }, { types: { EIP712Domain: 5 }, primaryType: 'EIP712Domain', domain: {}, message: {} }, '{"types":1}',
  { public: { x: { rate429: 2 } } }, { seed: 1.5 }, { order: 'sideways' }, { leaveOut: 99 }, { __proto__: { polluted: 1 } }, { constructor: 1 }, { toString: 1 },
];

/** Not fuzzed: they read and write files named by their params (covered in the state file tests). */
const FILE_METHODS = new Set(['mock_dumpState', 'mock_loadState']);

/** Every method of the catalog but the file ones, and one that does not exist. */
const METHODS = METHOD_CATALOG.map((spec) => spec.name).filter((name) => !FILE_METHODS.has(name)).concat(['no_such_method']);

describe('bad input never reaches an internal error', function () {
  this.timeout(120_000);
  let node: RunningMockNode;
  const logged: LogEntry[] = [];
  before(async () => {
    node = await startTestNode({ logLevel: 'error', quiet: false, logSink: (entry) => logged.push(entry) });
  });
  after(() => node.stop());

  it('the cases this test found answer clear errors: a fractional blockCount, odd-length hex to sign, a nonce past 2^53 - 1', async () => {
    const cases: [string, unknown[], number, string][] = [
      ['eth_feeHistory', [1.5, 'latest'], -32602, 'invalid argument 0: blockCount must be a whole number'],
      ['personal_sign', ['0x1', DEV], -32602, 'invalid argument 0: hex string of odd length'],
      ['eth_sign', [DEV, '0x' + 'f'.repeat(65)], -32602, 'invalid argument 1: hex string of odd length'],
      ['eth_sendTransaction', [{ from: DEV, nonce: '0xffffffffffffffff' }], -32000, 'invalid transaction: nonce 18446744073709551615 is above 2^53 - 1, the largest this node takes'],
    ];
    for (const [method, params, code, message] of cases) {
      const reply = await node.core.handle({ jsonrpc: '2.0', id: 1, method, params }, 'dedicated');
      assert.deepEqual((reply.body as { error?: unknown }).error, { code, message }, method);
    }
  });

  it(`${METHODS.length} methods × 20,000 drawn param lists (seed 20261122) on both profiles: a result or a clear error`, async () => {
    const random = seededRandom(Number(process.env.BAD_INPUT_SEED ?? 20261122));
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const internal: string[] = [];
    const codes = new Map<number, number>();
    for (let i = 0; i < 20_000; i++) {
      const method = pick(METHODS);
      const params = Array.from({ length: Math.floor(random() * 4) }, () => pick(POOL));
      for (const profile of ['public', 'dedicated'] as const) {
        const reply = await node.core.handle({ jsonrpc: '2.0', id: i, method, params }, profile);
        const body = reply.body as { result?: unknown; error?: { code: unknown; message: unknown } } | undefined;
        if (!body) continue; // an injected timeout drawn by mock_setFaults: no answer is the fault's answer
        if (body.error) {
          assert.equal(typeof body.error.code, 'number', `${method}: error code`);
          assert.equal(typeof body.error.message, 'string', `${method}: error message`);
          codes.set(body.error.code as number, (codes.get(body.error.code as number) ?? 0) + 1);
          if (body.error.code === -32603) internal.push(`${method}: ${String(body.error.message)} (params ${JSON.stringify(params).slice(0, 160)})`);
        } else {
          assert.ok('result' in body, `${method}: a result or an error`);
        }
      }
      // A drawn fault spec would make later calls answer 429/503: clear it after each round.
      if (method === 'mock_setFaults') await node.core.handle({ jsonrpc: '2.0', id: 0, method: 'mock_setFaults', params: [{}] }, 'dedicated');
    }
    console.log(`      answers by error code: ${[...codes].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code}×${n}`).join(', ')}`);
    assert.deepEqual([...new Set(internal)].slice(0, 20), [], `${internal.length} internal errors`);
    assert.deepEqual(logged.map((entry) => entry.message), [], 'nothing logged as an internal error');
    assert.match(await rpc(node.url, 'eth_blockNumber'), /^0x[0-9a-f]+$/, 'the node still serves');
  });
});
