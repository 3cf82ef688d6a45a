// Faults on demand: latency (fixed and range), shares of 429 / 503, a method that times out,
// per profile and per method; mock_setFaults({}) clears; --faults FILE and the option.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningMockNode } from '../../../mock-node/index';
import { parseCommandLine } from '../../../mock-node/cli';
import { FaultInjector } from '../../../mock-node/rpc/faults';
import { post, rpc, rpcError, startTestNode } from '../../helpers/rpc';
import { TestSocket } from '../websocket/wsClient';

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe('faults', () => {
  let node: RunningMockNode;
  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(() => node.stop());

  it('adds latency to one method on one profile only', async () => {
    await rpc(node.url, 'mock_setFaults', [{ public: { eth_blockNumber: { latencyMs: 150 } } }]);
    const slow = await timed(() => rpc(node.url, 'eth_blockNumber'));
    const other = await timed(() => rpc(node.url, 'eth_chainId'));
    const dedicated = await timed(() => rpc(node.dedicatedUrl, 'eth_blockNumber'));
    console.log(`      injected 150 ms: measured ${slow.ms.toFixed(1)} ms; other method ${other.ms.toFixed(1)} ms; dedicated ${dedicated.ms.toFixed(1)} ms`);
    assert.ok(slow.ms >= 145, `latency applied (${slow.ms} ms)`);
    assert.equal(slow.value, '0x0');
  });

  it('a seed makes the draws repeat: the same requests meet the same faults', async () => {
    const statuses = async (spec: unknown) => {
      await rpc(node.dedicatedUrl, 'mock_setFaults', [spec]);
      const seen: number[] = [];
      for (let i = 0; i < 40; i++) seen.push((await post(node.url, { jsonrpc: '2.0', id: i, method: 'eth_chainId' })).status);
      return seen;
    };
    const rules = { public: { eth_chainId: { rate429: 0.4, rate503: 0.2 } } };
    const first = await statuses({ ...rules, seed: 7 });
    assert.deepEqual(await statuses({ ...rules, seed: 7 }), first, 'setting the same seed again replays the same faults');
    assert.deepEqual(new Set(first), new Set([200, 429, 503]));
    assert.notDeepEqual(await statuses({ ...rules, seed: 8 }), first, 'another seed, other faults');
    assert.equal((await rpc(node.url, 'mock_getFaults')).seed, 8);
    const bad = await rpcError(node.dedicatedUrl, 'mock_setFaults', [{ ...rules, seed: -1 }]);
    assert.deepEqual([bad.code, bad.message], [-32602, 'invalid faults: seed must be an integer from 0 to 4294967295']);
    assert.equal((await rpc(node.url, 'mock_getFaults')).seed, 8, 'the old rules stay in force');
  });

  it('a latency range draws within [min, max]', async () => {
    await rpc(node.url, 'mock_setFaults', [{ '*': { '*': { latencyMs: [40, 80] } } }]);
    const samples: number[] = [];
    for (let i = 0; i < 8; i++) samples.push((await timed(() => rpc(node.dedicatedUrl, 'eth_chainId'))).ms);
    console.log(`      latency [40, 80] ms: measured ${samples.map((s) => s.toFixed(0)).join(', ')} ms`);
    assert.ok(samples.every((ms) => ms >= 38));
    const injector = new FaultInjector({ '*': { '*': { latencyMs: [40, 80] } } }, () => 0.999);
    assert.equal(injector.decide('public', ['x']).delayMs, 80);
    assert.equal(new FaultInjector({ '*': { '*': { latencyMs: [40, 80] } } }, () => 0).decide('public', ['x']).delayMs, 40);
  });

  it('a share of requests answered 429 (Retry-After) or 503, then cleared with {}', async () => {
    await rpc(node.url, 'mock_setFaults', [{ dedicated: { eth_chainId: { rate429: 1, retryAfterSeconds: 7 } }, public: { eth_chainId: { rate503: 1 } } }]);
    const limited = await fetch(node.dedicatedUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'eth_chainId', params: [] }) });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '7');
    const body = (await limited.json()) as any;
    assert.equal(body.id, 3);
    assert.equal(body.error.code, -32005);
    assert.equal(body.error.message, 'request rate exceeded (injected fault)');
    const unavailable = await post(node.url, { jsonrpc: '2.0', id: 4, method: 'eth_chainId', params: [] });
    assert.equal(unavailable.status, 503);
    assert.deepEqual(unavailable.body.error, { code: -32002, message: 'service temporarily unavailable (injected fault)' });
    assert.equal((await post(node.url, { jsonrpc: '2.0', id: 5, method: 'eth_blockNumber', params: [] })).status, 200, 'other methods unaffected');
    assert.deepEqual(await rpc(node.url, 'mock_setFaults', [{}]), {});
    assert.equal((await post(node.url, { jsonrpc: '2.0', id: 6, method: 'eth_chainId', params: [] })).status, 200);
    assert.equal((await post(node.dedicatedUrl, { jsonrpc: '2.0', id: 6, method: 'eth_chainId', params: [] })).status, 200);
  });

  it('a share is a share: 50% of 400 requests fail, give or take', async () => {
    await rpc(node.url, 'mock_setFaults', [{ public: { '*': { rate503: 0.5 } } }]);
    let failed = 0;
    for (let i = 0; i < 400; i++) if ((await post(node.url, { jsonrpc: '2.0', id: i, method: 'eth_chainId', params: [] })).status === 503) failed++;
    console.log(`      rate503 0.5: ${failed} of 400 failed`);
    assert.ok(failed > 120 && failed < 280, `${failed} of 400`);
  });

  it('a method that times out: the connection is held, then closed without an answer', async () => {
    await rpc(node.url, 'mock_setFaults', [{ public: { eth_getLogs: { timeoutMs: 300 } } }]);
    const started = performance.now();
    const error = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{}] }) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const ms = performance.now() - started;
    console.log(`      timeoutMs 300: connection closed after ${ms.toFixed(1)} ms`);
    assert.ok(error instanceof Error, 'the request fails at the transport');
    assert.ok(ms >= 290);
    assert.deepEqual(await rpc(node.dedicatedUrl, 'eth_getLogs', [{}]), [], 'dedicated is unaffected');
  });

  it('a 503 carries Retry-After only when the rule sets retryAfterSeconds', async () => {
    await rpc(node.url, 'mock_setFaults', [{ public: { eth_chainId: { rate503: 1 }, eth_blockNumber: { rate503: 1, retryAfterSeconds: 4 } } }]);
    const plain = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) });
    assert.equal(plain.status, 503);
    assert.equal(plain.headers.get('retry-after'), null);
    const timed = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }) });
    assert.equal(timed.status, 503);
    assert.equal(timed.headers.get('retry-after'), '4');
  });

  it('over WebSocket an injected timeout is never answered and the socket stays usable', async () => {
    const socket = await TestSocket.open(node.wsUrl);
    try {
      await rpc(node.url, 'mock_setFaults', [{ public: { eth_getLogs: { timeoutMs: 100 } } }]);
      let answered = false;
      void socket.call('eth_getLogs', [{}]).then(() => (answered = true), () => (answered = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(answered, false);
      assert.equal(await socket.call('eth_chainId'), '0x7a69');
    } finally {
      socket.close();
    }
  });

  it('a bad spec is -32602 and keeps the old rules; mock_getFaults reads them', async () => {
    await rpc(node.url, 'mock_setFaults', [{ public: { eth_chainId: { latencyMs: 1 } } }]);
    const bad = await rpcError(node.url, 'mock_setFaults', [{ public: { eth_chainId: { rate429: 2 } } }]);
    assert.equal(bad.code, -32602);
    assert.match(bad.message, /rate429 must be a number from 0 to 1/);
    assert.equal((await rpcError(node.url, 'mock_setFaults', [{ mainnet: {} }])).code, -32602);
    assert.deepEqual(await rpc(node.url, 'mock_getFaults'), { public: { eth_chainId: { latencyMs: 1 } } });
  });

  it('mock_setFaults is never itself blocked by a fault, so faults can always be cleared', async () => {
    await rpc(node.url, 'mock_setFaults', [{ '*': { '*': { rate503: 1 } } }]);
    assert.equal((await post(node.url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).status, 503);
    assert.deepEqual(await rpc(node.url, 'mock_setFaults', [{}]), {});
  });

  it('faults from the option and from --faults FILE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faults-'));
    const file = join(dir, 'faults.json');
    writeFileSync(file, JSON.stringify({ public: { eth_chainId: { rate503: 1 } } }));
    const { options } = parseCommandLine(['--faults', file]);
    const faulty = await startTestNode(options);
    try {
      assert.equal((await post(faulty.url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).status, 503);
      assert.equal((await post(faulty.dedicatedUrl, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).status, 200);
    } finally {
      await faulty.stop();
    }
    await assert.rejects(startTestNode({ faults: { public: { eth_chainId: { nope: 1 } } } }), /unknown field public.eth_chainId.nope/);
  });
});
