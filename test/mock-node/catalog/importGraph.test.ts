// The import graph keeps its layers: chain/, state/ and execution/ never import rpc/ (their errors
// are ChainErrors, mapped to JSON-RPC at the edge in rpc/chainErrors.ts); the language server never
// imports vscode, and what it takes from the mock node loads neither the chain nor Express; the
// extension reads its settings in extension/settings.ts only.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier a file imports or re-exports (type-only imports included). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1] ?? m[2]);
}

function resolveLocal(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return undefined;
}

const rel = (file: string) => relative(ROOT, file).split('\\').join('/');

describe('the import graph', () => {
  it('has no arrow from mock-node/chain, state or execution to mock-node/rpc', () => {
    const arrows: string[] = [];
    for (const layer of ['chain', 'state', 'execution']) {
      for (const file of sourceFiles(join(ROOT, 'mock-node', layer))) {
        for (const specifier of specifiers(file)) {
          const target = resolveLocal(file, specifier);
          if (target && rel(target).startsWith('mock-node/rpc/')) arrows.push(`${rel(file)} -> ${rel(target)}`);
        }
      }
    }
    assert.deepEqual(arrows, []);
  });

  it('the language server reaches no vscode, no Express and no chain, through any chain of imports', () => {
    const seen = new Set<string>();
    const found: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const specifier of specifiers(file)) {
        if (specifier === 'vscode' || specifier === 'express' || specifier === 'ws') found.push(`${rel(file)} imports ${specifier}`);
        const target = resolveLocal(file, specifier);
        if (!target) continue;
        if (/^mock-node\/(chain\/chain|node|rpc\/server|rpc\/handler)\.ts$/.test(rel(target))) found.push(`${rel(file)} -> ${rel(target)}`);
        visit(target);
      }
    };
    for (const file of sourceFiles(join(ROOT, 'extension', 'language', 'server'))) visit(file);
    assert.ok(seen.has(join(ROOT, 'mock-node', 'catalog', 'methods.ts')), 'the language server reads the catalog');
    assert.deepEqual(found, []);
  });

  it('the extension reads and writes its settings only in extension/settings.ts', () => {
    const readers = sourceFiles(join(ROOT, 'extension'))
      .filter((file) => rel(file) !== 'extension/settings.ts' && /\bgetConfiguration\(/.test(readFileSync(file, 'utf8')))
      .map(rel);
    assert.deepEqual(readers, []);
  });
});
