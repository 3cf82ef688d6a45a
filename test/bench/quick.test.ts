// `npm run bench -- --quick` as a smoke test: every section runs with small sizes and every
// figure of the table is produced (for Anvil too, where it is installed). It asserts nothing
// about the figures themselves: speed is measured by `npm run bench`, never asserted.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCliBuilt, ROOT } from '../helpers/cli';
import { findAnvil } from '../helpers/anvil';

interface BenchJson {
  command: string;
  machine: string;
  anvil: boolean;
  rows: { what: string; mock: number | null; anvilColumn: boolean; anvil: number | null }[];
}

describe('npm run bench -- --quick (smoke test)', () => {
  it('produces every figure of the table', async function () {
    this.timeout(600_000);
    ensureCliBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'bench-quick-'));
    const file = join(dir, 'bench.json');
    try {
      const output = await new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(ROOT, 'test', 'bench', 'run.ts'), '--quick', '--json', file], { cwd: ROOT });
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`bench exited with ${code}:\n${text}`))));
      });
      const result = JSON.parse(readFileSync(file, 'utf8')) as BenchJson;
      assert.match(output, /^command: npm run bench -- --quick/m);
      assert.match(output, /^machine: /m);
      assert.equal(result.anvil, findAnvil() !== undefined);
      assert.ok(result.rows.length >= 20, `${result.rows.length} rows`);
      for (const row of result.rows) {
        assert.ok(row.mock !== null && Number.isFinite(row.mock), `${row.what}: no mock node figure`);
        if (result.anvil && row.anvilColumn) assert.ok(row.anvil !== null && Number.isFinite(row.anvil), `${row.what}: no Anvil figure`);
        assert.ok(output.includes(`| ${row.what.replace(/\|/g, '\\|')}`), `the printed table lacks ${row.what}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
