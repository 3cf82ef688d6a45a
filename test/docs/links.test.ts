// Every relative link and #anchor in README.md and docs/ resolves, checked by a maintained checker
// (remark-validate-links, run through remark-cli), not by code of ours. Offline: the repository
// option is off, so nothing is fetched and links to other sites are not followed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docPaths, ROOT } from './docFiles';

const REMARK_CLI = join(ROOT, 'node_modules', 'remark-cli', 'cli.js');
/** The plugin by path, so it also loads for a sample outside the repository. */
const VALIDATE_LINKS = join(ROOT, 'node_modules', 'remark-validate-links', 'index.js');

/** remark-validate-links over the files (relative to cwd): its exit code and its report. */
function validateLinks(cwd: string, files: string[]): { status: number | null; report: string } {
  const result = spawnSync(process.execPath, [
    REMARK_CLI, '--no-config', '--no-ignore', '--no-stdout', '--no-color', '--frail', '--quiet',
    '--use', `${VALIDATE_LINKS}=repository:false`, ...files,
  ], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, report: `${result.stdout}${result.stderr}` };
}

describe('docs: links', function () {
  this.timeout(60_000);

  it('every relative link and #anchor in README.md and docs/ resolves', () => {
    const { status, report } = validateLinks(ROOT, docPaths());
    assert.equal(status, 0, `remark-validate-links found broken links:\n${report}`);
  });

  it('the check fails on a page with a missing anchor, a missing page and a missing heading in another page', () => {
    const dir = mkdtempSync(join(tmpdir(), 'doc-links-'));
    try {
      writeFileSync(join(dir, 'other.md'), '# Other\n\n## Real heading\n');
      writeFileSync(join(dir, 'bad.md'), '# Bad\n\n[a](#nowhere) [b](./missing.md) [c](other.md#not-there) [d](other.md#real-heading) [e](#bad)\n');
      const { status, report } = validateLinks(dir, ['bad.md', 'other.md']);
      assert.notEqual(status, 0, report);
      assert.match(report, /#nowhere/);
      assert.match(report, /missing\.md/);
      assert.match(report, /#not-there/);
      assert.doesNotMatch(report, /real-heading/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
