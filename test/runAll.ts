// `npm test`: every mocha suite (unit, integration, clients), then the suite inside a real VS Code,
// and one closing line `N passed, N failed` summed over both. Exits non-zero on any failure.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { runVsCodeSuite } from './vscode/runVsCodeTests';

const ROOT = join(__dirname, '..');

interface Counts {
  passed: number;
  failed: number;
  pending: number;
}

/** Mocha's failure report (from "N failing" to the end), so the closing lines name what failed. */
function failureReport(plain: string): string {
  const start = plain.search(/^\s*\d+ failing\s*$/m);
  if (start < 0) return '';
  const report = plain.slice(start).trim();
  return report.length > 6000 ? `${report.slice(0, 6000)}\n… (${report.length - 6000} more characters above)` : report;
}

/** Runs mocha as a child process (its own spec reporter output streams through) and reads its summary. */
function runMocha(): Promise<Counts & { exitCode: number; report: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--color'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
      const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(plain)?.[1] ?? 0);
      resolve({ passed: count('passing'), failed: count('failing'), pending: count('pending'), exitCode: code ?? 1, report: failureReport(plain) });
    });
  });
}

async function main(): Promise<void> {
  const mocha = await runMocha();
  if (mocha.exitCode !== 0 && mocha.failed === 0) mocha.failed = 1; // mocha crashed before counting
  let vscode: Counts = { passed: 0, failed: 0, pending: 0 };
  if (process.env.SKIP_VSCODE_TESTS === '1') {
    console.log('\nSKIP_VSCODE_TESTS=1: the real-VS-Code suite was not run.');
  } else {
    try {
      const result = await runVsCodeSuite();
      vscode = { passed: result.passed, failed: result.failed, pending: 0 };
    } catch (error) {
      console.error('The VS Code suite could not run:', error);
      vscode.failed = 1;
    }
  }
  // CI keeps only the end of the output: repeat mocha's failures there (the VS Code suites print their own last).
  if (mocha.report) console.log(`\nmocha's failures again (they scrolled by above):\n${mocha.report}`);
  const passed = mocha.passed + vscode.passed;
  const failed = mocha.failed + vscode.failed;
  console.log(`\nmocha: ${mocha.passed} passed, ${mocha.failed} failed, ${mocha.pending} pending; VS Code: ${vscode.passed} passed, ${vscode.failed} failed`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

void main();
