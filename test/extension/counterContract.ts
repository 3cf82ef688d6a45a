// A small contract for the explorer's tests, assembled here (no compiler on these machines):
// Counter with setNumber(uint256) (stores it and emits NumberSet(uint256)), number() and fail()
// (reverts with Error("Counter: always fails")). CREATION_CODE deploys it: the node runs it.
import { id, Interface } from 'ethers';

export const COUNTER_ABI = [
  'function setNumber(uint256 newNumber)',
  'function number() view returns (uint256)',
  'function fail()',
  'event NumberSet(uint256 newNumber)',
];
export const COUNTER = new Interface(COUNTER_ABI);
export const FAIL_REASON = 'Counter: always fails';

type Item = number[] | { label: string } | { jumpTo: string };

const PUSH1 = 0x60, PUSH2 = 0x61, PUSH4 = 0x63, PUSH32 = 0x7f;
const op = {
  STOP: 0x00, SHR: 0x1c, EQ: 0x14, CALLDATALOAD: 0x35, CODECOPY: 0x39, MSTORE: 0x52, SLOAD: 0x54, SSTORE: 0x55,
  JUMPI: 0x57, JUMPDEST: 0x5b, DUP1: 0x80, LOG1: 0xa1, RETURN: 0xf3, REVERT: 0xfd,
};

const bytes = (hex: string): number[] => (hex.replace(/^0x/, '').match(/../g) ?? []).map((b) => parseInt(b, 16));
const push32 = (hex: string): number[] => [PUSH32, ...bytes(hex.replace(/^0x/, '').padEnd(64, '0'))];
const selector = (signature: string): number[] => [PUSH4, ...bytes(id(signature).slice(2, 10))];

/** Two passes: jump targets (PUSH2) resolved to the JUMPDESTs' offsets. */
function assemble(items: Item[]): string {
  const at = new Map<string, number>();
  let offset = 0;
  for (const item of items) {
    if ('label' in item) at.set(item.label, offset);
    else offset += 'jumpTo' in item ? 3 : item.length;
  }
  const out: number[] = [];
  for (const item of items) {
    if ('label' in item) continue;
    if ('jumpTo' in item) {
      const target = at.get(item.jumpTo)!;
      out.push(PUSH2, target >> 8, target & 0xff);
    } else out.push(...item);
  }
  return `0x${out.map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

const reason = Buffer.from(FAIL_REASON, 'utf8');

export const RUNTIME_CODE = assemble([
  [PUSH1, 0, op.CALLDATALOAD, PUSH1, 0xe0, op.SHR],
  [op.DUP1, ...selector('setNumber(uint256)'), op.EQ], { jumpTo: 'set' }, [op.JUMPI],
  [op.DUP1, ...selector('number()'), op.EQ], { jumpTo: 'get' }, [op.JUMPI],
  [op.DUP1, ...selector('fail()'), op.EQ], { jumpTo: 'fail' }, [op.JUMPI],
  [PUSH1, 0, op.DUP1, op.REVERT],
  { label: 'set' }, [op.JUMPDEST, PUSH1, 4, op.CALLDATALOAD, op.DUP1, PUSH1, 0, op.SSTORE, PUSH1, 0, op.MSTORE],
  [...push32(id('NumberSet(uint256)')), PUSH1, 0x20, PUSH1, 0, op.LOG1, op.STOP],
  { label: 'get' }, [op.JUMPDEST, PUSH1, 0, op.SLOAD, PUSH1, 0, op.MSTORE, PUSH1, 0x20, PUSH1, 0, op.RETURN],
  // Error(string): selector, offset 0x20, length, the text (under 32 bytes).
  { label: 'fail' }, [op.JUMPDEST, ...push32('08c379a0'), PUSH1, 0, op.MSTORE],
  [PUSH1, 0x20, PUSH1, 0x04, op.MSTORE, PUSH1, reason.length, PUSH1, 0x24, op.MSTORE],
  [...push32(reason.toString('hex')), PUSH1, 0x44, op.MSTORE, PUSH1, 0x64, PUSH1, 0, op.REVERT],
]);

/** Copies the runtime code after it into memory and returns it. */
export const CREATION_CODE = (() => {
  const size = (RUNTIME_CODE.length - 2) / 2;
  const prefix = 15;
  const init = [PUSH2, size >> 8, size & 0xff, PUSH2, 0, prefix, PUSH1, 0, op.CODECOPY, PUSH2, size >> 8, size & 0xff, PUSH1, 0, op.RETURN];
  return `0x${init.map((b) => b.toString(16).padStart(2, '0')).join('')}${RUNTIME_CODE.slice(2)}`;
})();
