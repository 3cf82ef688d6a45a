// Bad input never reaches an internal error: every method of the node, called on both profiles
// with params drawn (reproducibly, from a seed) out of a pool of wrong shapes and edge values,
// answers a result or a clear JSON-RPC error; nothing is logged as an internal error, and the
// node still serves afterwards. A -32603 here is a missing check in a method. Another seed:
// BAD_INPUT_SEED=n (60 seeds, 2.4 million calls, were clean when this was written).
// The second part mutates valid requests instead: one field at a time deep inside a transaction
// request, an access list, a log filter, typed data or a whole state dump is replaced, removed,
// retyped or duplicated, which reaches checks that random params stop short of.
import assert from 'node:assert/strict';
import type { LogEntry, RunningMockNode } from '../../../mock-node/index';
import { seededRandom } from '../../../mock-node/rpc/faults';
import { METHOD_CATALOG } from '../../../mock-node/catalog/index';
import { Wallet } from 'ethers';
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

  it('4,000 structured mutations of valid requests (seed 20261123): a result or a clear error, never -32603', async () => {
    const random = seededRandom(Number(process.env.BAD_INPUT_SEED ?? 20261123));
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const templates = await validRequests(node);
    const internal: string[] = [];
    let mutated = 0;
    for (let i = 0; i < 4000; i++) {
      const [method, valid] = pick(templates);
      const params = structuredClone(valid);
      const changes = 1 + Math.floor(random() * 3);
      for (let c = 0; c < changes; c++) mutate(params, random, pick);
      mutated++;
      const profile = i % 2 === 0 ? 'dedicated' : 'public';
      const reply = await node.core.handle({ jsonrpc: '2.0', id: i, method, params }, profile);
      const body = reply.body as { error?: { code: number; message: string } } | undefined;
      if (body?.error?.code === -32603) internal.push(`${method}: ${body.error.message} (params ${JSON.stringify(params).slice(0, 200)})`);
      if (method === 'mock_setFaults') await node.core.handle({ jsonrpc: '2.0', id: 0, method: 'mock_setFaults', params: [{}] }, 'dedicated');
    }
    assert.equal(mutated, 4000);
    assert.deepEqual([...new Set(internal)].slice(0, 20), [], `${internal.length} internal errors`);
    assert.deepEqual(logged.map((entry) => entry.message), [], 'nothing logged as an internal error');
    assert.match(await rpc(node.url, 'eth_blockNumber'), /^0x[0-9a-f]+$/, 'the node still serves');
  });
});

/** Valid requests with structure worth mutating, built against the running node. */
async function validRequests(node: RunningMockNode): Promise<[string, unknown[]][]> {
  const wallet = new Wallet(node.accounts[9].privateKey);
  const other = node.accounts[8].address;
  const hash = '0x' + '00'.repeat(31) + '01';
  await rpc(node.url, 'eth_sendTransaction', [{ from: DEV, to: other, value: '0x1' }]);
  await rpc(node.url, 'evm_mine');
  const latest = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
  const raw = await wallet.signTransaction({ to: other, value: 1n, gasLimit: 30_000, chainId: 31337, nonce: 0, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, accessList: [{ address: TOKEN, storageKeys: [hash] }] });
  const state = await rpc(node.url, 'mock_dumpState');
  const typed = {
    types: {
      EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'version', type: 'string' }, { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' }],
      TransferWithAuthorization: [
        { name: 'from', type: 'address' }, { name: 'to', type: 'address' }, { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' }, { name: 'validBefore', type: 'uint256' }, { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'TransferWithAuthorization',
    domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: TOKEN },
    message: { from: DEV, to: other, value: '1000', validAfter: '0', validBefore: '99999999999', nonce: hash },
  };
  const request = { from: DEV, to: other, value: '0x1', gas: '0x7530', maxFeePerGas: '0x2540be400', maxPriorityFeePerGas: '0x1', data: '0x', accessList: [{ address: TOKEN, storageKeys: [hash] }], type: '0x2' };
  return [
    ['eth_sendTransaction', [request]],
    ['eth_sendTransaction', [{ from: DEV, to: other, gasPrice: '0x3b9aca00', type: '0x1', accessList: [{ address: TOKEN, storageKeys: [] }] }]],
    ['eth_call', [{ from: DEV, to: TOKEN, data: '0x70a08231' + DEV.slice(2).toLowerCase().padStart(64, '0') }, 'latest']],
    ['eth_estimateGas', [request, 'pending']],
    ['eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: [TOKEN], topics: [['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'], null, ['0x' + other.slice(2).toLowerCase().padStart(64, '0')]] }]],
    ['eth_getLogs', [{ blockHash: latest.hash, address: TOKEN }]],
    ['eth_getStorageAt', [TOKEN, '0xb', { blockHash: latest.hash, requireCanonical: true }]],
    ['eth_getBalance', [DEV, { blockNumber: latest.number }]],
    ['eth_feeHistory', ['0x4', 'latest', [25, 75]]],
    ['eth_getBlockByNumber', ['pending', true]],
    ['eth_signTypedData_v4', [DEV, typed]],
    ['eth_signTypedData_v4', [DEV, JSON.stringify(typed)]],
    ['personal_sign', ['0x68656c6c6f', DEV]],
    ['eth_sendRawTransaction', [raw]],
    ['eth_sendRawTransactionSync', [raw, 50]],
    ['evm_mine', [{ blocks: 1, timestamp: '0x' + (BigInt(latest.timestamp) + 100n).toString(16) }]],
    ['evm_increaseTime', ['0x10']],
    ['mock_reorg', [1, { order: 'same', leaveOut: 0 }]],
    ['mock_setFaults', [{ public: { rate503: 0.5 } }]],
    ['anvil_setBalance', [DEV, '0xde0b6b3a7640000']],
    ['mock_mint', [other, '0x10']],
    ['mock_loadState', [state]],
  ];
}

const TWISTS: ((value: unknown) => unknown)[] = [
  () => null,
  () => undefined,
  (v) => (typeof v === 'string' ? Number.parseInt(v, 16) || 7 : String(v)),
  (v) => (typeof v === 'string' ? v.toUpperCase() : v),
  (v) => (typeof v === 'string' && v.startsWith('0x') ? v.slice(2) : v),
  (v) => (typeof v === 'string' && v.startsWith('0x') ? v.slice(0, -1) : v),
  (v) => (typeof v === 'string' && v.startsWith('0x') ? '0x0' + v.slice(2) : v),
  (v) => (typeof v === 'string' && v.startsWith('0x') ? v + 'zz' : v),
  () => '0x' + 'f'.repeat(64),
  () => '0x1' + '0'.repeat(64),
  () => -1,
  () => 1.5,
  (v) => (Array.isArray(v) ? Object.fromEntries(v.map((item, i) => [i, item])) : v && typeof v === 'object' ? Object.values(v) : [v]),
  (v) => (Array.isArray(v) ? [...v, ...v] : v),
  (v) => (Array.isArray(v) ? [] : v && typeof v === 'object' ? {} : v),
];

/** Changes one place inside `params`: a pool value, a twist of what is there, removal, or an extra key. */
function mutate(params: unknown[], random: () => number, pick: <T>(list: readonly T[]) => T): void {
  const places: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (value: unknown, depth: number) => {
    if (depth > 8 || !value || typeof value !== 'object') return;
    for (const key of Array.isArray(value) ? value.keys() : Object.keys(value)) {
      places.push({ parent: value as Record<string, unknown>, key });
      walk((value as Record<string | number, unknown>)[key], depth + 1);
    }
  };
  walk(params, 0);
  if (places.length === 0) return;
  // Deep places are many (a state dump): weigh every depth alike by picking a place, then a twist.
  const { parent, key } = pick(places);
  const current = (parent as Record<string | number, unknown>)[key];
  const choice = random();
  if (choice < 0.35) (parent as Record<string | number, unknown>)[key] = pick(POOL);
  else if (choice < 0.8) (parent as Record<string | number, unknown>)[key] = pick(TWISTS)(current);
  else if (choice < 0.92) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  } else if (!Array.isArray(parent)) parent[`extra${Math.floor(random() * 3)}`] = pick(POOL);
}
