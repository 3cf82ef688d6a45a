// The node's keccak-256 on bytes, for the hashing the node does most: trie nodes, transaction
// hashes, senders' addresses, headers. Almost every input is short (one to three 136-byte blocks),
// where a hasher object's set-up cost as much as the permutation: this is a one-shot sponge.
// It runs in WebAssembly (keccakWasm.ts: 64-bit lanes), compiled off the main thread from the
// first hash on. Until that is ready (a fresh node's few hashes before it listens), and where
// WebAssembly does not load, it runs over one reused state with the permutation written out in
// JavaScript (keccakF.ts), its bytes XORed in place (the lanes' layout on a little-endian
// machine); on a big-endian one without WebAssembly, @noble/hashes' keccak_256 answers. A long
// run of hashes before the compile is done (a state file loaded at start) loads the module at once
// instead: the JavaScript permutation, once hot, would cost a large optimizing compile.
import { keccakF1600 } from './keccakF';
import { INPUT, RATE, compileKeccakWasm, loadKeccakWasm, pagesFor, type KeccakWasm } from './keccakWasm';

const state = new Uint32Array(50);
const stateBytes = new Uint8Array(state.buffer);
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * The WebAssembly sponge: undefined until it is compiled (the first hash starts that, off the main
 * thread), null where it does not load.
 */
let wasm: KeccakWasm | null | undefined;
/** The compile under way (set by the first hash), until it settles. */
let compiling: Promise<void> | undefined;
/** Bumped by reloadKeccakBackend, so a compile started before it does not install its result. */
let generation = 0;
/** Its memory's bytes (made again when the memory grows). */
let memory = new Uint8Array(0);
/** Hashes the JavaScript permutation did while the module compiled. */
let hashedWhileCompiling = 0;
/** Past this many, the module is loaded on the spot (a synchronous compile, about 2 ms). */
export const HASHES_BEFORE_SYNCHRONOUS_LOAD = 64;

function install(loaded: KeccakWasm | null): void {
  wasm = loaded;
  if (loaded) memory = new Uint8Array(loaded.memory.buffer);
  compiling = undefined;
}

function startCompiling(): void {
  const mine = generation;
  hashedWhileCompiling = 0;
  compiling = compileKeccakWasm().then((loaded) => {
    if (mine === generation && wasm === undefined) install(loaded);
  });
}

/** Resolves once the backend is chosen for good (at once when no hash has asked for it yet). */
export function whenKeccakSettled(): Promise<void> {
  return compiling ?? Promise.resolve();
}

export function keccak256Bytes(data: Uint8Array): Uint8Array {
  if (absorbWasm(data)) return memory.slice(0, 32);
  return keccak256WithJavaScript(data);
}

/** keccak256Bytes(data) written into `out` at `at` (no array of its own). */
export function keccak256Into(data: Uint8Array, out: Uint8Array, at: number): void {
  const digest = absorbWasm(data) ? memory : keccak256Pending(data);
  for (let i = 0; i < 32; i++) out[at + i] = digest[i];
}

/** The fallback: the JavaScript permutation (the test suite checks it on its own). */
export function keccak256WithJavaScript(data: Uint8Array): Uint8Array {
  return keccak256Pending(data).slice(0, 32);
}

/** The digest in bytes 0..32 of an array that the next hash reuses. */
function keccak256Pending(data: Uint8Array): Uint8Array {
  if (!LITTLE_ENDIAN) return (require('@noble/hashes/sha3.js') as typeof import('@noble/hashes/sha3.js')).keccak_256(data);
  absorb(data);
  return stateBytes;
}

/** True when WebAssembly hashed `data`: the digest is then in memory[0..32). */
function absorbWasm(data: Uint8Array): boolean {
  if (!wasm) {
    if (wasm === null) return false;
    if (compiling === undefined) startCompiling();
    if (++hashedWhileCompiling <= HASHES_BEFORE_SYNCHRONOUS_LOAD) return false;
    install(loadKeccakWasm());
    if (!wasm) return false;
  }
  const length = data.length;
  const blocks = Math.floor(length / RATE) + 1;
  const end = INPUT + blocks * RATE;
  if (end > memory.length) {
    wasm.memory.grow(pagesFor(blocks) - wasm.memory.buffer.byteLength / 65536);
    memory = new Uint8Array(wasm.memory.buffer);
  }
  // Keccak's padding (not SHA-3's): 0x01 after the data, 0x80 on the last block's last byte.
  memory.set(data, INPUT);
  memory.fill(0, INPUT + length, end);
  memory[INPUT + length] = 0x01;
  memory[end - 1] |= 0x80;
  wasm.absorb(blocks);
  return true;
}

/** The sponge over `data`: the digest is the state's first 32 bytes afterwards. */
function absorb(data: Uint8Array): void {
  state.fill(0);
  const length = data.length;
  let at = 0;
  for (; length - at >= RATE; at += RATE) {
    for (let i = 0; i < RATE; i++) stateBytes[i] ^= data[at + i];
    keccakF1600(state);
  }
  const rest = length - at;
  for (let i = 0; i < rest; i++) stateBytes[i] ^= data[at + i];
  stateBytes[rest] ^= 0x01;
  stateBytes[RATE - 1] ^= 0x80;
  keccakF1600(state);
}

/**
 * Which implementation hashes: 'webassembly', 'javascript' (where WebAssembly does not load),
 * 'javascript while WebAssembly compiles', or 'not loaded yet' (before the first hash).
 */
export function keccakBackend(): 'webassembly' | 'javascript' | 'javascript while WebAssembly compiles' | 'not loaded yet' {
  if (wasm) return 'webassembly';
  if (wasm === null) return 'javascript';
  return compiling ? 'javascript while WebAssembly compiles' : 'not loaded yet';
}

/**
 * Forgets the backend chosen so far, so the next hash loads it again (the tests use it to watch a
 * fresh process's first hashes; a compile under way is then not installed).
 */
export function reloadKeccakBackend(): void {
  generation += 1;
  wasm = undefined;
  compiling = undefined;
  memory = new Uint8Array(0);
}
