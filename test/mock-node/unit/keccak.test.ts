// keccak-256 (mock-node/encoding/keccak.ts: the WebAssembly sponge of keccakWasm.ts, and its
// fallback, the written-out JavaScript permutation of keccakF.ts) gives @noble/hashes' and ethers'
// answers for every length across the 136-byte block boundaries, the known empty-input digest,
// and results that later calls do not overwrite; the module the node loads is the one
// keccakWasmBuild.ts emits from the permutation's definition.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { keccak256 } from 'ethers';
import { HASHES_BEFORE_SYNCHRONOUS_LOAD, keccak256Bytes, keccak256Into, keccak256WithJavaScript, keccakBackend, reloadKeccakBackend, whenKeccakSettled } from '../../../mock-node/encoding/keccak';
import { KECCAK_WASM_BASE64, loadKeccakWasm } from '../../../mock-node/encoding/keccakWasm';
import { keccakModuleBytes } from '../../../mock-node/encoding/keccakWasmBuild';

const hex = (bytes: Uint8Array) => '0x' + Buffer.from(bytes).toString('hex');

describe('keccak-256', () => {
  it('hashes the empty input to the known digest', () => {
    assert.equal(hex(keccak256Bytes(new Uint8Array())), '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  });

  it('agrees with @noble/hashes for every length from 0 to 700 bytes (random data)', () => {
    for (let length = 0; length <= 700; length++) {
      const data = randomBytes(length);
      assert.equal(hex(keccak256Bytes(data)), hex(keccak_256(data)), `length ${length}`);
    }
  });

  it('agrees with ethers on inputs at and around the block size, and on a view into a larger buffer', () => {
    for (const length of [135, 136, 137, 271, 272, 273, 4096]) {
      const data = randomBytes(length);
      assert.equal(hex(keccak256Bytes(data)), keccak256(data));
    }
    const big = randomBytes(300);
    const view = big.subarray(7, 207);
    assert.equal(hex(keccak256Bytes(view)), keccak256(Uint8Array.from(view)));
  });

  it('keccak256Into writes the same digest at an offset and touches nothing else', () => {
    for (const length of [0, 1, 31, 32, 135, 136, 137, 300]) {
      const data = randomBytes(length);
      const out = new Uint8Array(40).fill(0xee);
      keccak256Into(data, out, 3);
      assert.equal(hex(out.subarray(3, 35)), hex(keccak_256(data)), `length ${length}`);
      assert.deepEqual([...out.subarray(0, 3), ...out.subarray(35)], [0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee]);
    }
  });

  it('returns a fresh array: a later hash does not change an earlier result', () => {
    const first = keccak256Bytes(Uint8Array.of(1));
    const copy = hex(first);
    keccak256Bytes(Uint8Array.of(2));
    assert.equal(hex(first), copy);
    assert.equal(first.length, 32);
  });

  it('hashes in WebAssembly here, with the module keccakWasmBuild.ts emits', () => {
    assert.equal(Buffer.from(keccakModuleBytes()).toString('base64'), KECCAK_WASM_BASE64);
    assert.notEqual(loadKeccakWasm(), null);
  });

  it('the first hashes answer at once in JavaScript while WebAssembly compiles off the main thread, which then takes over', async () => {
    reloadKeccakBackend();
    assert.equal(keccakBackend(), 'not loaded yet');
    const data = randomBytes(200);
    assert.equal(hex(keccak256Bytes(data)), hex(keccak_256(data)));
    assert.equal(keccakBackend(), 'javascript while WebAssembly compiles');
    await whenKeccakSettled();
    assert.equal(keccakBackend(), 'webassembly');
    assert.equal(hex(keccak256Bytes(data)), hex(keccak_256(data)));
  });

  it('a long run of hashes before the compile is done loads the module on the spot', () => {
    reloadKeccakBackend();
    for (let i = 0; i < HASHES_BEFORE_SYNCHRONOUS_LOAD; i++) keccak256Bytes(Uint8Array.of(i));
    assert.equal(keccakBackend(), 'javascript while WebAssembly compiles');
    const data = randomBytes(300);
    assert.equal(hex(keccak256Bytes(data)), hex(keccak_256(data)));
    assert.equal(keccakBackend(), 'webassembly');
  });

  it('a compile started before reloadKeccakBackend does not install its result over a later choice', async () => {
    reloadKeccakBackend();
    keccak256Bytes(Uint8Array.of(1));
    const first = whenKeccakSettled();
    reloadKeccakBackend();
    await first;
    assert.equal(keccakBackend(), 'not loaded yet');
    keccak256Bytes(Uint8Array.of(2));
    await whenKeccakSettled();
    assert.equal(keccakBackend(), 'webassembly');
  });

  it('grows the WebAssembly memory for a long input and still hashes short ones after it', async () => {
    keccak256Bytes(Uint8Array.of(0));
    await whenKeccakSettled();
    assert.equal(keccakBackend(), 'webassembly');
    for (const length of [70_000, 300_000, 33, 136]) {
      const data = randomBytes(length);
      assert.equal(hex(keccak256Bytes(data)), hex(keccak_256(data)), `length ${length}`);
    }
  });

  it('the JavaScript fallback agrees with @noble/hashes for every length from 0 to 700 bytes', () => {
    for (let length = 0; length <= 700; length++) {
      const data = randomBytes(length);
      assert.equal(hex(keccak256WithJavaScript(data)), hex(keccak_256(data)), `length ${length}`);
    }
    const first = keccak256WithJavaScript(Uint8Array.of(1));
    const copy = hex(first);
    keccak256WithJavaScript(Uint8Array.of(2));
    assert.equal(hex(first), copy);
  });
});
