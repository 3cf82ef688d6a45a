// @ethereumjs/evm analyses a contract's code each time a frame starts running it: where the
// JUMPDESTs are, each PUSH's immediate as a bigint, each byte's opcode entry. For a contract of
// USDC's size (FiatTokenV2_2 is 23 KiB) that is most of a call: a balanceOf through its proxy took
// 4.6 ms, 0.75 ms with the analysis kept. The analysis depends only on the code's bytes and the
// EVM's opcode table, and the interpreter only reads it, so it is kept here per code array (the
// state adapter hands the EVM one array per distinct code: draftStateManager.ts's CodeCache) and
// per opcode table (a new hardfork gets a new table). Code arrays that are not kept elsewhere
// (a creation's initcode) are analysed as before and dropped with their array (a WeakMap).
//
// The interpreter is not exported, so its prototype is taken from the first run that used one
// (installCodeAnalysisCache with a result's interpreter). A version of @ethereumjs/evm without
// this method is left as it is.

/** What the interpreter's analysis gives; opaque here (the interpreter reads it, never writes it). */
type Analysis = object;

interface AnalysingInterpreter {
  _getValidJumpDestinations(code: Uint8Array): Analysis;
  _evm?: { _opcodeMap?: object };
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
  const byTable = new WeakMap<object, WeakMap<Uint8Array, Analysis>>();
  prototype._getValidJumpDestinations = function keptAnalysis(this: AnalysingInterpreter, code: Uint8Array): Analysis {
    const table = this._evm?._opcodeMap;
    // No table to key on (another version's layout): analysed each time, as without the cache.
    if (table === undefined) return analyse.call(this, code);
    let kept = byTable.get(table);
    if (!kept) byTable.set(table, (kept = new WeakMap()));
    let analysis = kept.get(code);
    if (analysis === undefined) {
      analysis = analyse.call(this, code);
      analysesMade++;
      kept.set(code, analysis);
    }
    return analysis;
  };
  prototype[INSTALLED] = true;
}
