// The EVM's step loop (mock-node/execution/evm/syncStepLoop.ts) runs calls and transactions; a
// traced run (every tracer listens to each step) goes through @ethereumjs/evm's own loop. So a
// transaction's receipt comes from our loop and debug_traceTransaction re-runs it through the
// library's: on random programs (every opcode, jumps into data, stack underflows, out of gas,
// reverts, logs, storage, calls) both must agree on the status, the gas used, the output and the
// logs, and eth_call must answer what debug_traceCall answers.
import assert from 'node:assert/strict';
import type { RunningMockNode } from '../../../mock-node/index';
import { syncStepLoopRuns } from '../../../mock-node/execution/evm/syncStepLoop';
import { seededRandom } from '../../../mock-node/rpc/faults';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';

/** The opcodes programs use, with what each takes from the stack and puts back. */
const OPCODES: [opcode: number, takes: number, gives: number][] = [
  ...[0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0a, 0x0b].map((op): [number, number, number] => [op, 2, 1]), // ADD .. SIGNEXTEND
  [0x08, 3, 1], [0x09, 3, 1], // ADDMOD, MULMOD
  ...[0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18, 0x1a, 0x1b, 0x1c, 0x1d].map((op): [number, number, number] => [op, 2, 1]), // LT .. SAR
  [0x15, 1, 1], [0x19, 1, 1], // ISZERO, NOT
  [0x20, 2, 1], // KECCAK256
  ...[0x30, 0x32, 0x33, 0x34, 0x36, 0x38, 0x3a, 0x3d].map((op): [number, number, number] => [op, 0, 1]), // ADDRESS, ORIGIN, CALLER, CALLVALUE, CALLDATASIZE, CODESIZE, GASPRICE, RETURNDATASIZE
  [0x31, 1, 1], [0x35, 1, 1], [0x3b, 1, 1], [0x3f, 1, 1], // BALANCE, CALLDATALOAD, EXTCODESIZE, EXTCODEHASH
  [0x37, 3, 0], [0x39, 3, 0], [0x3c, 4, 0], [0x3e, 3, 0], // CALLDATACOPY, CODECOPY, EXTCODECOPY, RETURNDATACOPY
  [0x40, 1, 1], ...[0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x4a].map((op): [number, number, number] => [op, 0, 1]), // BLOCKHASH, COINBASE .. BLOBBASEFEE
  [0x50, 1, 0], [0x51, 1, 1], [0x52, 2, 0], [0x53, 2, 0], [0x54, 1, 1], [0x55, 2, 0], // POP, MLOAD, MSTORE, MSTORE8, SLOAD, SSTORE
  [0x56, 1, 0], [0x57, 2, 0], [0x58, 0, 1], [0x59, 0, 1], [0x5a, 0, 1], [0x5b, 0, 0], // JUMP, JUMPI, PC, MSIZE, GAS, JUMPDEST
  [0x5c, 1, 1], [0x5d, 2, 0], [0x5e, 3, 0], [0x5f, 0, 1], // TLOAD, TSTORE, MCOPY, PUSH0
  ...Array.from({ length: 16 }, (_, i): [number, number, number] => [0x80 + i, i + 1, i + 2]), // DUP1 .. DUP16
  ...Array.from({ length: 16 }, (_, i): [number, number, number] => [0x90 + i, i + 2, i + 2]), // SWAP1 .. SWAP16
  ...Array.from({ length: 5 }, (_, i): [number, number, number] => [0xa0 + i, i + 2, 0]), // LOG0 .. LOG4
  [0xf1, 7, 1], [0xfa, 6, 1], [0xf3, 2, 0], [0xfd, 2, 0], [0xfe, 0, 0], // CALL, STATICCALL, RETURN, REVERT, INVALID
];

function byte(value: number): string {
  return value.toString(16).padStart(2, '0');
}

/** PUSH1 .. PUSH4 of a small number: memory offsets and jump targets stay near the code. */
function smallPush(next: () => number): string {
  const size = 1 + Math.floor(next() * 4);
  return byte(0x5f + size) + Array.from({ length: size }, (_, k) => byte(k === size - 1 ? Math.floor(next() * 96) : 0)).join('');
}

/**
 * A program: opcodes fed with small pushes as they need them (most run; some still find the
 * stack short), and now and then a stray byte: an invalid opcode, or a PUSH swallowing what follows.
 */
function program(next: () => number): string {
  let code = '';
  let depth = 0;
  const length = 8 + Math.floor(next() * 100);
  for (let i = 0; i < length; i++) {
    if (next() < 0.04) {
      code += byte(Math.floor(next() * 256));
      continue;
    }
    const [opcode, takes, gives] = OPCODES[Math.floor(next() * OPCODES.length)];
    const feed = next() < 0.97 ? Math.max(0, takes - depth) : 0;
    for (let k = 0; k < feed; k++) code += smallPush(next);
    depth = Math.max(0, depth + feed - takes) + gives;
    code += byte(opcode);
  }
  return `0x${code}`;
}

interface Trace {
  gasUsed: string;
  output?: string;
  error?: string;
  logs?: { topics: string[]; data: string }[];
}

describe("the EVM's step loop: our loop and the library's agree", function () {
  this.timeout(120_000);
  let node: RunningMockNode;
  let from: string;

  before(async () => {
    node = await startTestNode();
    from = node.accounts[0].address;
    await rpc(node.url, 'evm_setAutomine', [true]);
  });

  after(() => node.stop());

  it('runs calls and transactions through our loop and traces through the library loop', async () => {
    const target = '0x00000000000000000000000000000000005e0001';
    // PUSH1 42 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    await rpc(node.url, 'anvil_setCode', [target, '0x602a60005260206000f3']);
    // The loop is installed on the interpreter of the process's first run.
    await rpc(node.url, 'eth_call', [{ to: target }, 'latest']);
    const before = syncStepLoopRuns();
    assert.equal(await rpc(node.url, 'eth_call', [{ to: target }, 'latest']), `0x${'2a'.padStart(64, '0')}`);
    assert.equal(syncStepLoopRuns(), before + 1);
    const traced = await rpc<Trace>(node.url, 'debug_traceCall', [{ to: target }, 'latest', { tracer: 'callTracer' }]);
    assert.equal(traced.output, `0x${'2a'.padStart(64, '0')}`);
    assert.equal(syncStepLoopRuns(), before + 1, 'a traced run takes the library loop');
  });

  it('on 250 random programs: the same status, gas used, output and logs from a transaction (our loop) and its trace (the library loop)', async () => {
    // Seeded, so a failure names a program that can be run again.
    const next = seededRandom(0x5e9001);
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 250; i++) {
      const target = `0x${(0x5e1000 + i).toString(16).padStart(40, '0')}`;
      const code = program(next);
      await rpc(node.url, 'anvil_setCode', [target, code]);
      const data = `0x${Array.from({ length: 36 }, () => byte(Math.floor(next() * 256))).join('')}`;
      const call = { from, to: target, data, gas: '0x30d40' };
      const label = `program ${i} (${code}, calldata ${data})`;

      // eth_call (our loop) against debug_traceCall (the library's), on the same state.
      const traceOfCall = await rpc<Trace>(node.url, 'debug_traceCall', [call, 'latest', { tracer: 'callTracer' }]);
      if (traceOfCall.error === undefined) {
        assert.equal(await rpc(node.url, 'eth_call', [call, 'latest']), traceOfCall.output ?? '0x', label);
      } else {
        const refused = await rpcError(node.url, 'eth_call', [call, 'latest']);
        if (traceOfCall.error === 'execution reverted') assert.equal(refused.data ?? '0x', traceOfCall.output ?? '0x', label);
        else assert.ok(refused.message.length > 0, label);
      }

      const hash = await rpc<string>(node.url, 'eth_sendTransaction', [call]);
      const receipt = await rpc<{ status: string; gasUsed: string; logs: { topics: string[]; data: string }[] }>(node.url, 'eth_getTransactionReceipt', [hash]);
      const trace = await rpc<Trace>(node.url, 'debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
      assert.equal(receipt.gasUsed, trace.gasUsed, `${label}: gas used`);
      assert.equal(receipt.status === '0x1', trace.error === undefined, `${label}: status (trace error ${trace.error})`);
      assert.deepEqual(
        receipt.logs.map(({ topics, data: logData }) => ({ topics, data: logData })),
        (trace.logs ?? []).map(({ topics, data: logData }) => ({ topics, data: logData })),
        `${label}: logs`,
      );
      const outcome = (trace.error ?? 'success').replace(/ at .*/, '');
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    // The programs reach more than one kind of end, successes included.
    const ends = JSON.stringify([...outcomes]);
    for (const end of ['success', 'execution reverted', 'out of gas', 'invalid opcode', 'stack underflow']) assert.ok((outcomes.get(end) ?? 0) >= 5, `${end}: ${ends}`);
  });
});
