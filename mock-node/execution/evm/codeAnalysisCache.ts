// @ethereumjs/evm analyses a contract's code each time a frame starts running it: where the
// JUMPDESTs are, each PUSH's immediate as a bigint, each byte's opcode entry. For a contract of
// USDC's size (FiatTokenV2_2 is 23 KiB) that is most of a call: a balanceOf through its proxy took
// 4.6 ms, 0.75 ms with the analysis kept. The analysis depends only on the code's bytes and the
// EVM's opcode table, and the interpreter only reads it, so it is kept here per code array (the
// state adapter hands the EVM one array per distinct code: draftStateManager.ts's CodeCache) and
// per opcode table (a new hardfork gets a new table). A creation's initcode (a new array each
// time) is analysed as before and not kept.
//
// An analysis takes about 18 times its code's size (413 KiB for FiatTokenV2_2), so the analyses
// kept are bounded by the size of their code: KEPT_CODE_BYTES (about 18 MiB of analyses, some 45
// contracts of USDC's size, far more small ones), the least recently run dropped first.
//
// The interpreter is not exported, so its prototype is taken from the first run that used one
// (installCodeAnalysisCache with a result's interpreter). A version of @ethereumjs/evm without
// this method is left as it is.

/** The code bytes whose analyses are kept, per opcode table. */
export const KEPT_CODE_BYTES = 1024 * 1024;

/** What the interpreter's analysis gives; opaque here (the interpreter reads it, never writes it). */
type Analysis = object;

interface AnalysingInterpreter {
  _getValidJumpDestinations(code: Uint8Array): Analysis;
  _evm?: { _opcodeMap?: object };
  _env?: { isCreate?: boolean };
}

/** Analyses by code array, the least recently used first, within a budget of code bytes. */
export class KeptAnalyses {
  private readonly byCode = new Map<Uint8Array, Analysis>();
  private bytes = 0;

  constructor(private readonly budget: number = KEPT_CODE_BYTES) {}

  get(code: Uint8Array): Analysis | undefined {
    const analysis = this.byCode.get(code);
    if (analysis !== undefined) {
      this.byCode.delete(code);
      this.byCode.set(code, analysis);
    }
    return analysis;
  }

  keep(code: Uint8Array, analysis: Analysis): void {
    if (code.length > this.budget || this.byCode.has(code)) return;
    this.byCode.set(code, analysis);
    this.bytes += code.length;
    for (const oldest of this.byCode.keys()) {
      if (this.bytes <= this.budget) break;
      this.byCode.delete(oldest);
      this.bytes -= oldest.length;
    }
  }

  /** Code arrays kept, and their bytes. */
  get size(): { codes: number; bytes: number } {
    return { codes: this.byCode.size, bytes: this.bytes };
  }
}

const INSTALLED = Symbol.for('chain-mock-node.codeAnalysisCache');

/** Analyses made since the process started (a test reads it: a contract called again adds none). */
let analysesMade = 0;

export function codeAnalysesMade(): number {
  return analysesMade;
}

/**
 * Keeps the code analysis of every interpreter that shares `interpreter`'s prototype; installed
 * once. `interpreter` is a run's (an EVMResult's execResult.runState.interpreter).
 */
export function installCodeAnalysisCache(interpreter: unknown): void {
  if (interpreter === null || typeof interpreter !== 'object') return;
  const prototype = Object.getPrototypeOf(interpreter) as Partial<AnalysingInterpreter> & { [INSTALLED]?: true };
  const analyse = prototype._getValidJumpDestinations;
  if (prototype[INSTALLED] || typeof analyse !== 'function') return;
  const byTable = new WeakMap<object, KeptAnalyses>();
  prototype._getValidJumpDestinations = function keptAnalysis(this: AnalysingInterpreter, code: Uint8Array): Analysis {
    const table = this._evm?._opcodeMap;
    // No table to key on (another version's layout), or initcode (never run twice): analysed as without the cache.
    if (table === undefined || this._env?.isCreate === true) return analyse.call(this, code);
    let kept = byTable.get(table);
    if (!kept) byTable.set(table, (kept = new KeptAnalyses()));
    let analysis = kept.get(code);
    if (analysis === undefined) {
      analysis = analyse.call(this, code);
      analysesMade++;
      kept.keep(code, analysis);
    }
    return analysis;
  };
  prototype[INSTALLED] = true;
}
