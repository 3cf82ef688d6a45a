// The test index the extension host loads (the @vscode/test-electron contract: export run()).
// Runs every bundled *.test.js beside it with mocha and writes the counts for the outer runner.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export interface SuiteCounts {
  passed: number;
  failed: number;
  pending: number;
}

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  const grep = process.env.CHAIN_EXPLORER_VSCODE_GREP;
  if (grep) mocha.grep(grep);
  const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort();
  for (const file of files) mocha.addFile(path.join(__dirname, file));
  const counts = await new Promise<SuiteCounts>((resolve) => {
    const runner = mocha.run(() => {
      resolve({ passed: runner.stats?.passes ?? 0, failed: runner.stats?.failures ?? 0, pending: runner.stats?.pending ?? 0 });
    });
  });
  const resultsFile = process.env.CHAIN_EXPLORER_VSCODE_RESULTS;
  if (resultsFile) fs.writeFileSync(resultsFile, JSON.stringify(counts));
  console.log(`[vscode suite] ${counts.passed} passing, ${counts.failed} failing`);
  if (counts.failed > 0 || counts.passed === 0) throw new Error(`${counts.failed} of ${counts.passed + counts.failed} tests failed`);
}
