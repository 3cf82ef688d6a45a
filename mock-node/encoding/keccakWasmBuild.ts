// The WebAssembly keccak sponge's bytes (keccakWasm.ts holds them as base64), emitted from the
// permutation's definition: theta, rho and pi (rotations from their (t+1)(t+2)/2 walk), chi and
// iota, one round written out over 64-bit locals inside a loop of 24, and the block loop around
// it. Not part of the node: test/mock-node/unit/keccak.test.ts checks that these bytes are the
// ones the node loads, so a change here shows until keccakWasm.ts carries it.
import { ROUND_HI, ROUND_LO } from './keccakF';
import { CONSTANTS, INPUT, RATE } from './keccakWasm';

// --- a few WebAssembly encodings ---
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

const I32 = 0x7f;
const I64 = 0x7e;
const op = {
  block: 0x02,
  loop: 0x03,
  end: 0x0b,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  i64Load: 0x29,
  i64Store: 0x37,
  i32Const: 0x41,
  i64Const: 0x42,
  i32Ne: 0x47,
  i32LtU: 0x49,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i64And: 0x83,
  i64Xor: 0x85,
  i64Rotl: 0x89,
  void: 0x40,
};

// Locals: 0 the block count (parameter), 1 the input pointer, 2 the round's byte offset, then the
// 25 lanes a, the 25 permuted lanes b, the 5 column parities c and d, all i64.
const BLOCKS = 0;
const POINTER = 1;
const ROUND = 2;
const a = (i: number) => 3 + i;
const b = (i: number) => 28 + i;
const c = (i: number) => 53 + i;
const D = 58;

/** rho's rotation of lane x + 5y, from its definition (the (t+1)(t+2)/2 walk over pi). */
function rotations(): number[] {
  const r = new Array<number>(25).fill(0);
  let x = 1;
  let y = 0;
  for (let t = 0; t < 24; t++) {
    r[x + 5 * y] = (((t + 1) * (t + 2)) / 2) % 64;
    [x, y] = [y, (2 * x + 3 * y) % 5];
  }
  return r;
}

/** The body of the one function: absorb each block, permute, write the digest's four lanes. */
function body(): number[] {
  const code: number[] = [];
  const get = (i: number) => code.push(op.localGet, i);
  const set = (i: number) => code.push(op.localSet, i);
  const r = rotations();
  // pointer = INPUT
  code.push(op.i32Const, ...sleb(INPUT));
  set(POINTER);
  code.push(op.loop, op.void);
  // a[i] ^= input lane i, for the rate's 17 lanes
  for (let i = 0; i < RATE / 8; i++) {
    get(a(i));
    get(POINTER);
    code.push(op.i64Load, 3, ...uleb(8 * i));
    code.push(op.i64Xor);
    set(a(i));
  }
  code.push(op.i32Const, 0);
  set(ROUND);
  code.push(op.loop, op.void);
  // theta: c[x] = xor of column x; d = c[x-1] ^ rotl(c[x+1], 1); a[x+5y] ^= d
  for (let x = 0; x < 5; x++) {
    get(a(x));
    for (let y = 1; y < 5; y++) {
      get(a(x + 5 * y));
      code.push(op.i64Xor);
    }
    set(c(x));
  }
  for (let x = 0; x < 5; x++) {
    get(c((x + 4) % 5));
    get(c((x + 1) % 5));
    code.push(op.i64Const, 1, op.i64Rotl, op.i64Xor);
    set(D);
    for (let y = 0; y < 5; y++) {
      get(a(x + 5 * y));
      get(D);
      code.push(op.i64Xor);
      set(a(x + 5 * y));
    }
  }
  // rho and pi: b[y + 5((2x + 3y) mod 5)] = rotl(a[x + 5y], r)
  for (let x = 0; x < 5; x++) {
    for (let y = 0; y < 5; y++) {
      const to = y + 5 * ((2 * x + 3 * y) % 5);
      get(a(x + 5 * y));
      if (r[x + 5 * y] !== 0) code.push(op.i64Const, ...sleb(r[x + 5 * y]), op.i64Rotl);
      set(b(to));
    }
  }
  // chi: a[x + 5y] = b[x + 5y] ^ (~b[x+1 + 5y] & b[x+2 + 5y])
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) {
      get(b(x + 5 * y));
      get(b(((x + 1) % 5) + 5 * y));
      code.push(op.i64Const, ...sleb(-1), op.i64Xor);
      get(b(((x + 2) % 5) + 5 * y));
      code.push(op.i64And, op.i64Xor);
      set(a(x + 5 * y));
    }
  }
  // iota: a[0] ^= the round's constant
  get(a(0));
  get(ROUND);
  code.push(op.i64Load, 3, ...uleb(CONSTANTS), op.i64Xor);
  set(a(0));
  // next round while round < 24 (the offset steps by 8 bytes)
  get(ROUND);
  code.push(op.i32Const, 8, op.i32Add);
  code.push(op.localSet, ROUND, op.localGet, ROUND);
  code.push(op.i32Const, ...sleb(24 * 8), op.i32LtU, op.brIf, 0, op.end);
  // next block while --blocks != 0
  get(POINTER);
  code.push(op.i32Const, ...sleb(RATE), op.i32Add);
  set(POINTER);
  get(BLOCKS);
  code.push(op.i32Const, 1, op.i32Sub);
  code.push(op.localSet, BLOCKS, op.localGet, BLOCKS);
  code.push(op.i32Const, 0, op.i32Ne, op.brIf, 0, op.end);
  // the digest: lanes 0..3 at address 0
  for (let i = 0; i < 4; i++) {
    code.push(op.i32Const, 0);
    get(a(i));
    code.push(op.i64Store, 3, ...uleb(8 * i));
  }
  code.push(op.end);
  const locals = [2, ...uleb(2), I32, ...uleb(56), I64];
  return [...uleb(locals.length + code.length), ...locals, ...code];
}

/** The module's bytes: one memory ("memory", the round constants at CONSTANTS) and absorb(blocks). */
export function keccakModuleBytes(): Uint8Array {
  const constants: number[] = [];
  for (let round = 0; round < 24; round++) {
    const lo = ROUND_LO[round] >>> 0;
    const hi = ROUND_HI[round] >>> 0;
    for (let i = 0; i < 4; i++) constants.push((lo >>> (8 * i)) & 0xff);
    for (let i = 0; i < 4; i++) constants.push((hi >>> (8 * i)) & 0xff);
  }
  const name = (s: string) => [...uleb(s.length), ...Buffer.from(s, 'latin1')];
  const functionBody = body();
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 1, I32, 0]), // type 0: (i32) -> ()
    ...section(3, [1, 0]), // function 0 has type 0
    ...section(5, [1, 0x00, 1]), // one memory, at least one page
    ...section(7, [2, ...name('memory'), 0x02, 0, ...name('absorb'), 0x00, 0]),
    ...section(10, [1, ...functionBody]),
    ...section(11, [1, 0x00, op.i32Const, ...sleb(CONSTANTS), op.end, ...uleb(constants.length), ...constants]),
  ]);
}
