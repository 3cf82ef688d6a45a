// No import circles in extension/ or mock-node/ (ARCHITECTURE.md: "modules that share a type import it
// from a third module"). Every relative import, export-from, `import type` and dynamic import() counts:
// a type-only circle is still two modules that cannot be read one after the other.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..', '..');

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** The relative module specifiers a file names, by any kind of import or re-export. */
function importedSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      specifiers.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      specifiers.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.filter((specifier) => specifier.startsWith('.'));
}

function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Every cycle's strongly connected component (Tarjan), as paths relative to `base`; empty when acyclic. */
function importCircles(base: string, folders: string[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const folder of folders) {
    for (const file of sourceFiles(join(base, folder))) {
      graph.set(file, importedSpecifiers(file).map((specifier) => resolveRelative(file, specifier)).filter((target): target is string => target !== undefined));
    }
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const strongConnect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        strongConnect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfImport = (graph.get(node) ?? []).includes(node);
      if (component.length > 1 || selfImport) components.push(component.map((path) => relative(base, path)).sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) strongConnect(node);
  return components;
}

describe('import circles', () => {
  for (const folder of ['extension', 'mock-node']) {
    it(`${folder}/ has none`, () => {
      const circles = importCircles(ROOT, [folder]);
      assert.deepEqual(circles, [], `modules that import each other (directly or through others):\n${circles.map((circle) => `  ${circle.join(', ')}`).join('\n')}`);
    });
  }

  it('finds a circle when there is one (the check itself can fail)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'circle-'));
    try {
      writeFileSync(join(folder, 'a.ts'), "import type { B } from './b';\nexport type A = { b?: B };\n");
      writeFileSync(join(folder, 'b.ts'), "export { type A } from './a';\nexport type B = number;\n");
      writeFileSync(join(folder, 'c.ts'), "import './b';\n");
      assert.deepEqual(importCircles(folder, ['.']), [['a.ts', 'b.ts']]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

// The mock node's layers, top to bottom (docs: the architecture page). A module may import from its own
// layer or any layer below it; an import that runs back up is a failure, named with its line.
const MOCK_NODE_LAYERS = ['rpc', 'chain', 'execution', 'state', 'upstream', 'presets', 'encoding'];

/** Every relative import between the layer folders under `base` that runs up, as `file -> target`. */
function importsRunningUp(base: string, layers: string[]): string[] {
  const rank = (path: string): number => layers.indexOf(relative(base, path).split(/[\\/]/)[0]);
  const found: string[] = [];
  for (const layer of layers) {
    const folder = join(base, layer);
    if (!existsSync(folder)) continue;
    for (const file of sourceFiles(folder)) {
      for (const specifier of importedSpecifiers(file)) {
        const target = resolveRelative(file, specifier);
        if (target === undefined) continue;
        const targetRank = rank(target);
        if (targetRank >= 0 && targetRank < rank(file)) found.push(`${relative(base, file)} -> ${relative(base, target)}`);
      }
    }
  }
  return found.sort();
}

describe('mock-node layers', () => {
  it(`every import between ${MOCK_NODE_LAYERS.join(' > ')} runs down`, () => {
    const upward = importsRunningUp(join(ROOT, 'mock-node'), MOCK_NODE_LAYERS);
    assert.deepEqual(upward, [], `imports that run back up the layers:\n${upward.map((line) => `  ${line}`).join('\n')}`);
  });

  it('finds an import that runs up (the check itself can fail)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'layers-'));
    try {
      for (const layer of ['top', 'bottom']) mkdirSync(join(folder, layer));
      writeFileSync(join(folder, 'top', 'a.ts'), "import { b } from '../bottom/b';\nexport const a = b;\n");
      writeFileSync(join(folder, 'bottom', 'b.ts'), "export const b = 1;\nexport type T = import('../top/a').A;\n");
      writeFileSync(join(folder, 'bottom', 'c.ts'), "import { b } from './b';\nexport const c = b;\n");
      assert.deepEqual(importsRunningUp(folder, ['top', 'bottom']), [join('bottom', 'b.ts') + ' -> ' + join('top', 'a.ts')]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
