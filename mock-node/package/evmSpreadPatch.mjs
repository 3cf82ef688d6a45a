// A build-time patch of @ethereumjs/evm's evm.js, in the EVM bundle only (dist/mock-node-evm.js;
// tests that import the sources run the package as published). Two object literals on every
// message's path, `{ ...a, ...b, key }` (runInterpreter's result) and `{ ...{ codeAddress }, ...message,
// gasLimit }` (_executeCall's message to runInterpreter), are written as Object.assign over a fixed
// start: the same keys in the same order, the same values.
//
// Why: on Node 20 (V8 11) every run of a literal that begins with a spread and then adds keys makes
// a hidden class of its own, allocated in old space and freed only by a full GC; its descriptor
// arrays, young, are kept alive by it through scavenges and promoted. For a warm eth_call that was
// about 20 KB promoted per call and most of the scavenges' time (callgc over 3,000 balanceOf calls
// on the CLI: 531 ms of scavenges, 89 ms with this patch). Object.assign onto a literal follows
// shared transitions: one class for every call. Node 24's V8 does not have the problem.
//
// Each replacement must match exactly once: a new version of the package that changed these lines
// fails the build here, to be looked at again, rather than going out unpatched.
import { readFileSync } from 'node:fs';

const REPLACEMENTS = [
  {
    what: "runInterpreter's result",
    from: `        return {
            ...result,
            runState: {
                ...interpreterRes.runState,
                ...result,
                ...interpreter._env,
            },
            exceptionError: interpreterRes.exceptionError,`,
    to: `        return Object.assign({}, result, {
            runState: Object.assign({}, interpreterRes.runState, result, interpreter._env),
            exceptionError: interpreterRes.exceptionError,`,
    // The literal's closing brace, right after its last key.
    closeFrom: `            returnValue: result.returnValue ?? new Uint8Array(0),
        };`,
    closeTo: `            returnValue: result.returnValue ?? new Uint8Array(0),
        });`,
  },
  {
    what: "_executeCall's message to runInterpreter",
    from: `            result = await this.runInterpreter({
                ...{ codeAddress: message.codeAddress },
                ...message,
                gasLimit,
            }, {`,
    to: `            result = await this.runInterpreter(Object.assign({ codeAddress: message.codeAddress }, message, { gasLimit }), {`,
  },
];

function replaceOnce(text, from, to, file, what) {
  const first = text.indexOf(from);
  if (first < 0 || text.indexOf(from, first + from.length) >= 0) {
    throw new Error(`evmSpreadPatch: ${what} is not where it was in ${file} (has @ethereumjs/evm changed?); see mock-node/package/evmSpreadPatch.mjs`);
  }
  return text.slice(0, first) + to + text.slice(first + from.length);
}

/** Applies the replacements to evm.js's text (exported for the test). */
export function patchEvmText(text, file = 'evm.js') {
  let patched = text;
  for (const { what, from, to, closeFrom, closeTo } of REPLACEMENTS) {
    patched = replaceOnce(patched, from, to, file, what);
    if (closeFrom) patched = replaceOnce(patched, closeFrom, closeTo, file, `${what} (its end)`);
  }
  return patched;
}

export const evmSpreadPatch = {
  name: 'ethereumjs-evm-spread-patch',
  setup(build) {
    build.onLoad({ filter: /@ethereumjs[\\/]evm[\\/]dist[\\/](esm|cjs)[\\/]evm\.js$/ }, (args) => ({
      contents: patchEvmText(readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
    }));
  },
};
