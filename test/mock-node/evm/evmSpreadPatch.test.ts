// The build's patch of @ethereumjs/evm (mock-node/package/evmSpreadPatch.mjs): it applies to the
// installed package (both of its builds), the EVM bundle carries it, and a package whose lines moved
// fails the build instead of going out unpatched.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

describe("the build's patch of @ethereumjs/evm's spread literals", () => {
  let patchEvmText: (text: string, file?: string) => string;

  before(async () => {
    ({ patchEvmText } = await import(join(ROOT, 'mock-node', 'package', 'evmSpreadPatch.mjs')));
  });

  for (const build of ['esm', 'cjs']) {
    it(`rewrites both literals of the installed package's ${build} build as Object.assign, and nothing else`, () => {
      const text = readFileSync(join(ROOT, 'node_modules', '@ethereumjs', 'evm', 'dist', build, 'evm.js'), 'utf8');
      const patched = patchEvmText(text);
      assert.doesNotMatch(patched, /\.\.\.interpreterRes\.runState/);
      assert.doesNotMatch(patched, /\.\.\.\{ codeAddress: message\.codeAddress \}/);
      assert.match(patched, /return Object\.assign\(\{\}, result, \{\n\s+runState: Object\.assign\(\{\}, interpreterRes\.runState, result, interpreter\._env\),/);
      assert.match(patched, /this\.runInterpreter\(Object\.assign\(\{ codeAddress: message\.codeAddress \}, message, \{ gasLimit \}\), \{/);
      const count = (source: string, what: string) => source.split(what).length - 1;
      assert.equal(count(patched, 'Object.assign('), count(text, 'Object.assign(') + 3, 'three Object.assign calls added');
      assert.equal(count(patched, '...'), count(text, '...') - 6, 'six spreads gone, no other');
    });
  }

  it('fails on a text whose lines moved, naming the file', () => {
    const text = readFileSync(join(ROOT, 'node_modules', '@ethereumjs', 'evm', 'dist', 'esm', 'evm.js'), 'utf8');
    assert.throws(() => patchEvmText(text.replace('...interpreterRes.runState,', '...interpreterRes.runState ,'), 'some/evm.js'), /runInterpreter's result is not where it was in some\/evm\.js/);
    assert.throws(() => patchEvmText(patchEvmText(text)), /is not where it was/);
  });

  it('the EVM bundle the build wrote carries it', () => {
    const bundle = readFileSync(join(ROOT, 'dist', 'mock-node-evm.js'), 'utf8');
    assert.match(bundle, /runInterpreter\(Object\.assign\(\{\s*codeAddress:/);
    assert.doesNotMatch(bundle, /\.\.\.interpreterRes\.runState/);
  });
});
