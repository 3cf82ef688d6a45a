// The token's hot path without the ABI coder and with its own slot hashing: for every function of
// the ABI whose arguments are static words, the lean reader takes exactly the calldata ethers
// takes and reads the same values; the lean result writer writes what ethers writes; the slots
// are the token kit's.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Interface, type FunctionFragment } from 'ethers';
import * as kit from '../../../mock-node/tokenKit/index';
import * as slots from '../../../mock-node/execution/token/slots';
import { decodeStaticArgs, encodeStaticResult, staticTypes } from '../../../mock-node/execution/token/staticAbi';

const iface = new Interface(kit.STABLE_TOKEN_ABI as unknown as string[]);
const functions: FunctionFragment[] = [];
iface.forEachFunction((f) => functions.push(f));

const hex = (bytes: number) => '0x' + randomBytes(bytes).toString('hex');
const word = () => randomBytes(32).toString('hex');
const addressWord = () => '0'.repeat(24) + randomBytes(20).toString('hex');

/** ethers' reading, with addresses and bytes32 lowercased as the handlers use them; undefined when ethers refuses. */
function ethersArgs(fragment: FunctionFragment, data: string): unknown[] | undefined {
  try {
    return [...iface.decodeFunctionData(fragment, data)].map((v) => (typeof v === 'string' ? v.toLowerCase() : v));
  } catch {
    return undefined;
  }
}

describe('token hot path (lean ABI, slots)', () => {
  const leanInputs = functions.filter((f) => staticTypes(f.inputs, 'decode'));

  it('reads the arguments of the hot functions', () => {
    const names = leanInputs.map((f) => f.format('sighash'));
    for (const name of ['transfer(address,uint256)', 'balanceOf(address)', 'approve(address,uint256)',
      'receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)',
      'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)']) {
      assert.ok(names.includes(name), name);
    }
  });

  it('takes exactly the calldata ethers takes, and reads the same values', () => {
    let refused = 0;
    for (const fragment of leanInputs) {
      for (let round = 0; round < 40; round++) {
        const words = fragment.inputs.map((input) => (input.type === 'address' && round % 5 !== 4 ? addressWord() : word()));
        let data = fragment.selector + words.join('');
        if (round % 7 === 3) data = data.slice(0, data.length - 2 * (1 + (round % 40))); // short
        if (round % 11 === 5) data += 'ab'; // trailing byte
        if (round % 13 === 6) data = data.toUpperCase().replace('0X', '0x'); // upper case
        if (round % 17 === 8 && data.length > 12) data = data.slice(0, 12) + 'zz' + data.slice(14); // not hex
        if (round % 19 === 9) data += 'a'; // odd length
        const expected = ethersArgs(fragment, data);
        const lean = decodeStaticArgs(staticTypes(fragment.inputs, 'decode')!, data);
        assert.deepEqual(lean, expected, `${fragment.format('sighash')} ${data}`);
        if (!expected) refused++;
      }
    }
    assert.ok(refused > 20, 'some calldata was refused');
  });

  it('writes the results ethers writes, and leaves to ethers what it does not take', () => {
    const samples: Record<string, unknown[]> = {
      bool: [true, false, 1, 'x'],
      uint256: [0n, 1n, (1n << 256n) - 1n, 1n << 256n, -1n, 5],
      uint8: [0n, 6n, 255n, 256n],
      address: ['0x' + '00'.repeat(20), hex(20), '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0x1234'],
      bytes32: [hex(32), '0x' + 'AB'.repeat(32), '0x12'],
    };
    for (const fragment of functions) {
      const types = staticTypes(fragment.outputs, 'encode');
      if (!types || types.length !== 1) continue;
      for (const value of samples[types[0]]) {
        const lean = encodeStaticResult(types, [value]);
        let expected: string | undefined;
        try {
          expected = iface.encodeFunctionResult(fragment, [value]);
        } catch {
          expected = undefined;
        }
        if (lean !== undefined) assert.equal(lean, expected, `${fragment.format('sighash')} ${String(value)}`);
      }
    }
  });

  it('computes the token kit slots', () => {
    for (let i = 0; i < 50; i++) {
      const a = hex(20);
      const b = hex(20);
      const nonce = hex(32);
      assert.equal(slots.balanceSlot(a), kit.balanceSlot(a));
      assert.equal(slots.balanceSlot(a), kit.balanceSlot(a)); // kept
      assert.equal(slots.allowanceSlot(a, b), kit.allowanceSlot(a, b));
      assert.equal(slots.authorizationStateSlot(a, nonce), kit.authorizationStateSlot(a, nonce));
      assert.equal(slots.permitNonceSlot(a), kit.permitNonceSlot(a));
      assert.equal(slots.minterSlot(a), kit.minterSlot(a));
      assert.equal(slots.minterAllowedSlot(a), kit.minterAllowedSlot(a));
      assert.equal(slots.mappingSlot(BigInt(i) * 12345n, 7n), kit.mappingSlot(BigInt(i) * 12345n, 7n));
    }
    assert.throws(() => slots.mappingSlot('0x12345', 9n));
    assert.throws(() => slots.mappingSlot('0x' + '11'.repeat(33), 9n));
  });
});
