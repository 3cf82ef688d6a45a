// keccak-256's sponge as a small WebAssembly module: its permutation works on 64-bit lanes with
// native rotations. V8 compiles it with its baseline compiler off the main thread from the first
// hash on (the few hashes before it is ready run the JavaScript permutation), so a fresh node's
// hashes run compiled code, where the JavaScript permutation (keccakF.ts) ran interpreted and then
// cost a large optimizing compile. The bytes are here (made
// by keccakWasmBuild.ts, checked by the keccak test), so the module loads the same from the CLI
// bundle, the single executable and the extension host. Where WebAssembly is missing or refuses
// it, loadKeccakWasm answers null and keccak.ts keeps the JavaScript permutation.

/** Bytes absorbed per permutation: 1600 bits of state minus twice the 256-bit output. */
export const RATE = 136;
/** Where the round constants lie in the module's memory (24 lanes). */
export const CONSTANTS = 512;
/** Where the padded input starts; the digest is written at 0. */
export const INPUT = 1024;
const PAGE = 65536;

/** The module: absorb(blocks) runs the sponge over `blocks` padded blocks at INPUT and writes the digest at 0. */
export interface KeccakWasm {
  memory: WebAssembly.Memory;
  absorb(blocks: number): void;
}

/** keccakModuleBytes() (keccakWasmBuild.ts), base64. */
export const KECCAK_WASM_BASE64 =
  'AGFzbQEAAAABBQFgAX8AAwIBAAUDAQABBxMCBm1lbW9yeQIABmFic29yYgAACrEIAa4IAgJ/OH5BgAghAQNAIAMgASkDAIUhAyAEIAEpAwiFIQQgBSABKQMQhSEFIAYgASkDGIUhBiAHIAEpAyCFIQcgCCABKQMohSEIIAkgASkDMIUhCSAKIAEpAziFIQogCyABKQNAhSELIAwgASkDSIUhDCANIAEpA1CFIQ0gDiABKQNYhSEOIA8gASkDYIUhDyAQIAEpA2iFIRAgESABKQNwhSERIBIgASkDeIUhEiATIAEpA4ABhSETQQAhAgNAIAMgCIUgDYUgEoUgF4UhNSAEIAmFIA6FIBOFIBiFITYgBSAKhSAPhSAUhSAZhSE3IAYgC4UgEIUgFYUgGoUhOCAHIAyFIBGFIBaFIBuFITkgOSA2QgGJhSE6IAMgOoUhAyAIIDqFIQggDSA6hSENIBIgOoUhEiAXIDqFIRcgNSA3QgGJhSE6IAQgOoUhBCAJIDqFIQkgDiA6hSEOIBMgOoUhEyAYIDqFIRggNiA4QgGJhSE6IAUgOoUhBSAKIDqFIQogDyA6hSEPIBQgOoUhFCAZIDqFIRkgNyA5QgGJhSE6IAYgOoUhBiALIDqFIQsgECA6hSEQIBUgOoUhFSAaIDqFIRogOCA1QgGJhSE6IAcgOoUhByAMIDqFIQwgESA6hSERIBYgOoUhFiAbIDqFIRsgAyEcIAhCJIkhLCANQgOJISMgEkIpiSEzIBdCEokhKiAEQgGJISYgCUIsiSEdIA5CCokhLSATQi2JISQgGEICiSE0IAVCPokhMCAKQgaJIScgD0IriSEeIBRCD4khLiAZQj2JISUgBkIciSEhIAtCN4khMSAQQhmJISggFUIViSEfIBpCOIkhLyAHQhuJISsgDEIUiSEiIBFCJ4khMiAWQgiJISkgG0IOiSEgIBwgHUJ/hSAeg4UhAyAdIB5Cf4UgH4OFIQQgHiAfQn+FICCDhSEFIB8gIEJ/hSAcg4UhBiAgIBxCf4UgHYOFIQcgISAiQn+FICODhSEIICIgI0J/hSAkg4UhCSAjICRCf4UgJYOFIQogJCAlQn+FICGDhSELICUgIUJ/hSAig4UhDCAmICdCf4UgKIOFIQ0gJyAoQn+FICmDhSEOICggKUJ/hSAqg4UhDyApICpCf4UgJoOFIRAgKiAmQn+FICeDhSERICsgLEJ/hSAtg4UhEiAsIC1Cf4UgLoOFIRMgLSAuQn+FIC+DhSEUIC4gL0J/hSArg4UhFSAvICtCf4UgLIOFIRYgMCAxQn+FIDKDhSEXIDEgMkJ/hSAzg4UhGCAyIDNCf4UgNIOFIRkgMyA0Qn+FIDCDhSEaIDQgMEJ/hSAxg4UhGyADIAIpA4AEhSEDIAJBCGohAiACQcABSQ0ACyABQYgBaiEBIABBAWshACAAQQBHDQALQQAgAzcDAEEAIAQ3AwhBACAFNwMQQQAgBjcDGAsLyAEBAEGABAvAAQEAAAAAAAAAgoAAAAAAAACKgAAAAAAAgACAAIAAAACAi4AAAAAAAAABAACAAAAAAIGAAIAAAACACYAAAAAAAICKAAAAAAAAAIgAAAAAAAAACYAAgAAAAAAKAACAAAAAAIuAAIAAAAAAiwAAAAAAAICJgAAAAAAAgAOAAAAAAACAAoAAAAAAAICAAAAAAAAAgAqAAAAAAAAACgAAgAAAAICBgACAAAAAgICAAAAAAACAAQAAgAAAAAAIgACAAAAAgA==';

/** The module instantiated, or null where WebAssembly is missing or refuses it. */
export function loadKeccakWasm(): KeccakWasm | null {
  try {
    if (typeof WebAssembly !== 'object') return null;
    return instantiate(new WebAssembly.Module(Buffer.from(KECCAK_WASM_BASE64, 'base64')));
  } catch {
    return null;
  }
}

/**
 * loadKeccakWasm's answer, compiled off the main thread (WebAssembly.compile): the node's first
 * hashes, at start, need not wait for V8 to set WebAssembly up (about 2 ms here).
 */
export function compileKeccakWasm(): Promise<KeccakWasm | null> {
  if (typeof WebAssembly !== 'object') return Promise.resolve(null);
  let compiled: Promise<WebAssembly.Module>;
  try {
    compiled = WebAssembly.compile(Buffer.from(KECCAK_WASM_BASE64, 'base64'));
  } catch {
    return Promise.resolve(null);
  }
  return compiled.then(instantiate, () => null).catch(() => null);
}

function instantiate(module: WebAssembly.Module): KeccakWasm | null {
  const { memory, absorb } = new WebAssembly.Instance(module).exports as { memory: unknown; absorb: unknown };
  if (!(memory instanceof WebAssembly.Memory) || typeof absorb !== 'function') return null;
  return { memory, absorb: absorb as (blocks: number) => void };
}

/** Pages the memory needs for `blocks` padded blocks of input. */
export function pagesFor(blocks: number): number {
  return Math.ceil((INPUT + blocks * RATE) / PAGE);
}
