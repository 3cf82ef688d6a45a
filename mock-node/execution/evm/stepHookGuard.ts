// When a tracer listens, @ethereumjs/evm's step hook reads a REVERT's returned memory to report it,
// also for a REVERT whose gas check has just failed: a range of up to 2^256 bytes. That read throws
// a RangeError out of the run (debug_traceCall answered an internal error) or, for a range of a
// few GiB, allocates it. Such a REVERT ends out of gas and returns nothing, so its step is not
// reported: the guard skips the hook for a REVERT whose memory expansion its gas cannot pay. Every
// other step is reported as before.
const REVERT = 0xfd;

interface HookedInterpreter {
  _runStepHook(dynamicFee: bigint, gasLeft: bigint, memorySize: bigint): Promise<void>;
  _runState?: { opCode: number; stack: { peek(count: number): bigint[] } };
}

const INSTALLED = Symbol.for('chain-mock-node.stepHookGuard');

/** Memory's gas for `words` words (the yellow paper's C_mem). */
function memoryGas(words: bigint): bigint {
  return 3n * words + (words * words) / 512n;
}

/** The gas of expanding memory from `wordsNow` words to cover `length` bytes at `offset` (0 when it covers them already). */
export function memoryExpansionGas(offset: bigint, length: bigint, wordsNow: bigint): bigint {
  if (length === 0n) return 0n;
  const words = (offset + length + 31n) / 32n;
  return words > wordsNow ? memoryGas(words) - memoryGas(wordsNow) : 0n;
}

/** Whether reading `length` bytes at `offset` expands memory past what `gasLeft` can pay. */
export function unaffordableRead(offset: bigint, length: bigint, wordsNow: bigint, gasLeft: bigint): boolean {
  return memoryExpansionGas(offset, length, wordsNow) > gasLeft;
}

/** Guards the step hook of every interpreter that shares `interpreter`'s prototype; installed once. */
export function installStepHookGuard(interpreter: unknown): boolean {
  if (interpreter === null || typeof interpreter !== 'object') return false;
  const prototype = Object.getPrototypeOf(interpreter) as Partial<HookedInterpreter> & { [INSTALLED]?: true };
  if (prototype[INSTALLED]) return true;
  const hook = prototype._runStepHook;
  if (typeof hook !== 'function') return false;
  prototype._runStepHook = function guardedStepHook(this: HookedInterpreter, dynamicFee: bigint, gasLeft: bigint, memorySize: bigint): Promise<void> {
    const state = this._runState;
    if (state !== undefined && state.opCode === REVERT) {
      const [offset, length] = state.stack.peek(2);
      // memorySize: the words before this step (its gas check may already have counted the expansion).
      if (unaffordableRead(offset, length, memorySize, gasLeft)) return Promise.resolve();
    }
    return hook.call(this, dynamicFee, gasLeft, memorySize);
  };
  prototype[INSTALLED] = true;
  return true;
}
