// The user-facing docs the doc tests read: README.md and every page under docs/.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** The storefront pages: the VSIX's README and the npm package's README. */
export const STOREFRONT_READMES = ['extension/README.md', 'mock-node/package/README.md'];

/** Paths relative to the repository root: README.md, docs/*.md in name order, then the storefront READMEs. */
export function docPaths(): string[] {
  const pages = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...pages.map((name) => `docs/${name}`), ...STOREFRONT_READMES];
}

export function readDoc(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** Every doc with its text, so a failure names the page. */
export function docs(): { path: string; text: string }[] {
  return docPaths().map((path) => ({ path, text: readDoc(path) }));
}
