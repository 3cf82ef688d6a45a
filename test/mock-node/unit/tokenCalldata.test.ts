// The token's function table and calldata reader without ethers (functionTable.ts, calldata.ts)
// against ethers' Interface of the same ABI, which the node used before: the same functions and
// selectors, the same calldata refused, the same values read, the same arguments unreadable (an
// error ethers defers until the value is used), and the same return data written.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { AbiCoder, Interface, type FunctionFragment, type Result } from 'ethers';
import { STABLE_TOKEN_ABI } from '../../../mock-node/tokenKit/index';
import { tokenFunctions, parseFunctionFragment } from '../../../mock-node/execution/token/functionTable';
import { decodeArguments, encodeResults, functionCodec, UnreadableArgument, type AbiType } from '../../../mock-node/execution/token/calldata';
import { NativePathDeclined } from '../../../mock-node/execution/nativeContract';
import { TokenHarness, alice, bob } from '../token/helpers';

const iface = new Interface(STABLE_TOKEN_ABI as unknown as string[]);
const fragments: FunctionFragment[] = [];
iface.forEachFunction((f) => fragments.push(f));
const coder = AbiCoder.defaultAbiCoder();

/** A deterministic pseudo-random source, so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const word = (value: bigint) => value.toString(16).padStart(64, '0');
const hexOf = (bytes: number) => randomBytes(bytes).toString('hex');

/** A value of `type` for ethers to encode. */
function valueOf(type: string, next: () => number): unknown {
  switch (type) {
    case 'address':
      return '0x' + hexOf(20);
    case 'uint256':
      return next() < 0.3 ? BigInt(Math.floor(next() * 1000)) : BigInt('0x' + hexOf(32));
    case 'uint8':
      return BigInt(Math.floor(next() * 256));
    case 'bytes32':
      return '0x' + hexOf(32);
    case 'bool':
      return next() < 0.5;
    case 'bytes':
      return '0x' + hexOf(Math.floor(next() * 100));
    case 'string':
      return ['', 'USD Coin', 'é€😀'.repeat(Math.floor(next() * 20)), 'x'.repeat(Math.floor(next() * 70))][Math.floor(next() * 4)];
    case 'address[]':
      return Array.from({ length: Math.floor(next() * 4) }, () => '0x' + hexOf(20));
  }
  throw new Error(type);
}

/** Calldata ethers wrote, then perhaps broken in one of the ways a caller can break it. */
function calldata(fragment: FunctionFragment, next: () => number): string {
  const data = iface.encodeFunctionData(fragment, fragment.inputs.map((input) => valueOf(input.type, next)));
  const body = data.slice(10);
  const words = body.length / 64;
  const at = (i: number) => 64 * Math.min(Math.max(i, 0), Math.max(words - 1, 0));
  const put = (i: number, w: string) => (words === 0 ? body : body.slice(0, at(i)) + w + body.slice(at(i) + 64));
  const pick = () => Math.floor(next() * words);
  switch (Math.floor(next() * 12)) {
    case 0:
      return data;
    case 1:
      return data.slice(0, data.length - 2 * (1 + Math.floor(next() * 70))); // cut short
    case 2:
      return data + hexOf(1 + Math.floor(next() * 40)); // trailing bytes
    case 3:
      return fragment.selector + put(pick(), 'ff' + hexOf(31)); // a word with high bits (a dirty address, a huge offset or length)
    case 4:
      return fragment.selector + put(pick(), word(BigInt(Math.floor(next() * 400)))); // an offset or length anywhere
    case 5:
      return fragment.selector + put(pick(), word(2n ** 53n - 1n + BigInt(Math.floor(next() * 3)))); // around 2^53
    case 6:
      return fragment.selector + put(pick(), word(BigInt(Math.floor(next() * 8)) * 32n)); // an offset on a word boundary
    case 7:
      return fragment.selector + put(pick(), 'c3' + '28'.repeat(31)); // invalid UTF-8 (and a dirty word)
    case 8:
      return fragment.selector + put(pick(), word(1n) ); // a count of one
    case 9:
      return data.toUpperCase().replace('0X', '0x');
    case 10:
      return data.slice(0, 12) + 'zz' + data.slice(14);
    default:
      return data + 'a';
  }
}

type Read = { refused: true } | { refused: false; values: unknown[] };
const UNREADABLE = 'unreadable';

/** One read value with every address and hex lowercased, an unreadable one as UNREADABLE. */
function normalize(value: unknown): unknown {
  if (value instanceof UnreadableArgument) return UNREADABLE;
  if (typeof value === 'string') return value.startsWith('0x') ? value.toLowerCase() : value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      try {
        out.push(normalize(value[i]));
      } catch {
        out.push(UNREADABLE);
      }
    }
    return out;
  }
  return value;
}

function readEach(values: ArrayLike<unknown>, length: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < length; i++) {
    try {
      out.push(normalize(values[i]));
    } catch {
      out.push(UNREADABLE);
    }
  }
  return out;
}

function ethersRead(fragment: FunctionFragment, data: string): Read {
  let result: Result;
  try {
    result = iface.decodeFunctionData(fragment, data);
  } catch {
    return { refused: true };
  }
  return { refused: false, values: readEach(result, fragment.inputs.length) };
}

function leanRead(types: readonly AbiType[], data: string): Read {
  const values = decodeArguments(types, data);
  return values === undefined ? { refused: true } : { refused: false, values: readEach(values, types.length) };
}

describe('token calldata without ethers (function table, dynamic arguments, results)', () => {
  it('has every function of the ABI, with ethers\' signature, selector, types and payability', () => {
    const table = tokenFunctions();
    assert.equal(table.length, fragments.length);
    for (const fragment of fragments) {
      const fn = table.find((f) => f.signature === fragment.format('sighash'));
      assert.ok(fn, fragment.format('sighash'));
      assert.equal(fn.selector, fragment.selector, fn.signature);
      assert.deepEqual(fn.inputs, fragment.inputs.map((p) => p.type), fn.signature);
      assert.deepEqual(fn.outputs, fragment.outputs.map((p) => p.type), fn.signature);
      assert.equal(fn.payable, fragment.payable, fn.signature);
    }
    assert.throws(() => parseFunctionFragment('function f(uint16 x)'), /uint16/);
    assert.throws(() => parseFunctionFragment('event Transfer(address indexed from)'));
  });

  it('refuses, reads and defers what ethers does, for the functions with dynamic arguments', () => {
    const next = random(22);
    const dynamic = fragments.filter((f) => f.inputs.some((p) => p.type === 'bytes' || p.type === 'string' || p.type.endsWith('[]')));
    assert.ok(dynamic.length >= 8, 'the bytes-signature forms, the initializers and upgradeToAndCall');
    const seen = { refused: 0, read: 0, unreadable: 0 };
    for (const fragment of dynamic) {
      const fn = tokenFunctions().find((f) => f.signature === fragment.format('sighash'))!;
      for (let round = 0; round < 300; round++) {
        const data = calldata(fragment, next);
        const expected = ethersRead(fragment, data);
        assert.deepEqual(leanRead(fn.inputs, data), expected, `${fn.signature} ${data}`);
        if (expected.refused) seen.refused++;
        else if (JSON.stringify(expected.values, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)).includes(UNREADABLE)) seen.unreadable++;
        else seen.read++;
      }
    }
    assert.ok(seen.refused > 100 && seen.read > 100 && seen.unreadable > 50, JSON.stringify(seen));
  });

  it('throws an unreadable argument when a handler uses it, and only then', () => {
    const fn = tokenFunctions().find((f) => f.signature === 'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)')!;
    const data = iface.encodeFunctionData(fn.signature, ['0x' + hexOf(20), '0x' + hexOf(20), 1n, 0n, 9n, '0x' + hexOf(32), '0x' + hexOf(65)]);
    const dirty = data.slice(0, 10) + 'ff' + data.slice(12);
    const args = decodeArguments(fn.inputs, dirty)!;
    assert.equal(args.length, 7);
    assert.equal(args[2], 1n);
    assert.throws(() => args[0], UnreadableArgument);
  });

  it('a call whose handler uses an unreadable argument runs in the EVM; one that never uses it runs natively', () => {
    const h = new TokenHarness();
    const fn = 'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)';
    const data = iface.encodeFunctionData(fn, [alice, bob, 1n, 0n, 2n ** 40n, '0x' + hexOf(32), '0x' + hexOf(65)]);
    assert.throws(() => h.raw(bob, data.slice(0, 10) + 'ff' + data.slice(12)), NativePathDeclined);
    const initialize = iface.encodeFunctionData('initialize', ['a', 'b', 'c', 6, alice, alice, alice, alice]);
    const owner = 10 + 7 * 64; // newOwner, the head's last word
    assert.equal(initialize.slice(owner + 24, owner + 64), alice.slice(2));
    const dirtyOwner = initialize.slice(0, owner) + 'ff' + initialize.slice(owner + 2);
    const notUtf8 = dirtyOwner.slice(0, dirtyOwner.length - 64) + 'ff' + dirtyOwner.slice(dirtyOwner.length - 62); // the last string's byte
    for (const data of [dirtyOwner, notUtf8]) assert.equal(h.raw(bob, data).reason, 'FiatToken: contract is already initialized');
  });

  it('writes the return data ethers writes: words and strings', () => {
    const strings = ['', 'USD Coin', 'x'.repeat(31), 'y'.repeat(32), 'z'.repeat(33), 'é€😀 and more text than one word holds', '\uDC00 alone', 'a\uD800'];
    for (const fragment of fragments.filter((f) => f.outputs.length > 0)) {
      const fn = tokenFunctions().find((f) => f.signature === fragment.format('sighash'))!;
      const codec = functionCodec(fn.inputs, fn.outputs);
      const samples = fn.outputs[0] === 'string' ? strings : [valueOf(fn.outputs[0], random(7)), valueOf(fn.outputs[0], random(8))];
      for (const sample of samples) {
        const value = fn.outputs[0] === 'address' ? (sample as string).toLowerCase() : sample;
        let expected: string | undefined;
        try {
          expected = iface.encodeFunctionResult(fragment, [value]);
        } catch {
          expected = undefined;
        }
        let lean: string | undefined;
        try {
          lean = codec.encode([value]);
        } catch {
          lean = undefined;
        }
        assert.equal(lean, expected, `${fn.signature} ${JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
      }
    }
    assert.throws(() => encodeResults(['uint8'], [256n]));
    assert.throws(() => encodeResults(['bool', 'uint256'], [true]));
  });

  it('writes calldata with a bytes argument as ethers does (the traced SignatureChecker call)', () => {
    const fn = parseFunctionFragment('function isValidSignatureNow(address signer, bytes32 digest, bytes signature) view returns (bool)');
    const checker = new Interface(['function isValidSignatureNow(address signer, bytes32 digest, bytes signature) view returns (bool)']);
    for (const length of [0, 1, 32, 64, 65, 66, 200]) {
      const values = ['0x' + hexOf(20), '0x' + hexOf(32), '0x' + hexOf(length)];
      assert.equal(fn.selector + functionCodec([], fn.inputs).encode(values).slice(2), checker.encodeFunctionData('isValidSignatureNow', values));
    }
    assert.equal(encodeResults(['bool'], [true]), coder.encode(['bool'], [true]));
  });
});
