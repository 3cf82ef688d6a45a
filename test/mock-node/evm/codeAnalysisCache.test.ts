// The EVM keeps each contract's code analysis (mock-node/execution/evm/codeAnalysisCache.ts): a
// contract called again is not analysed again, and what the kept analysis says is what a fresh
// one says: a JUMPDEST is a target, a 0x5b byte inside a PUSH's data is not.
import assert from 'node:assert/strict';
import type { RunningMockNode } from '../../../mock-node/index';
import { KeptAnalyses, codeAnalysesMade } from '../../../mock-node/execution/evm/codeAnalysisCache';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';

// PUSH1 0 CALLDATALOAD JUMP | PUSH1 0x5b (a 0x5b at 5, inside the push) STOP | JUMPDEST (at 7)
// PUSH1 42 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
const JUMPER = '0x60003556605b005b602a60005260206000f3';
const FIRST = '0x00000000000000000000000000000000000a0001';
const SAME_CODE = '0x00000000000000000000000000000000000a0002';
const OTHER_CODE = '0x00000000000000000000000000000000000a0003';
const CALLER = '0x0000000000000000000000000000000000001234';

function jumpTo(to: string, target: number): Record<string, string> {
  return { from: CALLER, to, data: `0x${target.toString(16).padStart(64, '0')}` };
}

describe('the EVM keeps code analyses', () => {
  let node: RunningMockNode;

  before(async () => {
    node = await startTestNode();
    await rpc(node.url, 'anvil_setCode', [FIRST, JUMPER]);
    await rpc(node.url, 'anvil_setCode', [SAME_CODE, JUMPER]);
    // The same program with a trailing STOP: other bytes, another analysis.
    await rpc(node.url, 'anvil_setCode', [OTHER_CODE, `${JUMPER}00`]);
  });

  after(() => node.stop());

  it('answers a jump to a JUMPDEST and refuses one into PUSH data, the same from a kept analysis', async () => {
    const answers: unknown[] = [];
    const refusals: unknown[] = [];
    for (let round = 0; round < 3; round++) {
      answers.push(await rpc(node.url, 'eth_call', [jumpTo(FIRST, 7), 'latest']));
      refusals.push(await rpcError(node.url, 'eth_call', [jumpTo(FIRST, 5), 'latest']));
    }
    assert.deepEqual(answers, Array(3).fill(`0x${'2a'.padStart(64, '0')}`));
    assert.match((refusals[0] as { message: string }).message, /invalid JUMP/i);
    assert.deepEqual(refusals.slice(1), [refusals[0], refusals[0]]);
  });

  it('analyses a code once, whatever address holds it, and other code anew', async () => {
    await rpc(node.url, 'eth_call', [jumpTo(FIRST, 7), 'latest']);
    const before = codeAnalysesMade();
    for (let i = 0; i < 5; i++) {
      await rpc(node.url, 'eth_call', [jumpTo(FIRST, 7), 'latest']);
      await rpc(node.url, 'eth_call', [jumpTo(SAME_CODE, 7), 'latest']);
    }
    assert.equal(codeAnalysesMade(), before);
    assert.equal(await rpc(node.url, 'eth_call', [jumpTo(OTHER_CODE, 7), 'latest']), `0x${'2a'.padStart(64, '0')}`);
    assert.equal(codeAnalysesMade(), before + 1);
  });

  it('keeps analyses within a budget of code bytes, dropping the least recently run first', () => {
    const kept = new KeptAnalyses(100);
    const code = (n: number) => new Uint8Array(n);
    const [a, b, c, huge] = [code(40), code(40), code(40), code(101)];
    kept.keep(a, { of: 'a' });
    kept.keep(b, { of: 'b' });
    assert.deepEqual(kept.get(a), { of: 'a' }); // a is now the most recent
    kept.keep(c, { of: 'c' }); // 120 bytes: b, the least recent, goes
    assert.equal(kept.get(b), undefined);
    assert.deepEqual(kept.get(a), { of: 'a' });
    assert.deepEqual(kept.get(c), { of: 'c' });
    assert.deepEqual(kept.size, { codes: 2, bytes: 80 });
    kept.keep(huge, { of: 'huge' }); // larger than the whole budget: not kept, nothing dropped
    assert.equal(kept.get(huge), undefined);
    assert.deepEqual(kept.size, { codes: 2, bytes: 80 });
  });
});
