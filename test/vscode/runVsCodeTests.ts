// Runs the extension's test suite inside a real VS Code through @vscode/test-electron's runTests.
// By default runTests starts our code-server launcher (code-server from npm + Debian's Chromium,
// see shared VSCODE-TESTING.md); CHAIN_EXPLORER_VSCODE=desktop lets runTests download and use
// desktop VS Code instead; CHAIN_EXPLORER_VSCODE_LAUNCHER=/path picks another executable.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import * as esbuild from 'esbuild';
import { ensureVsCodeTools } from './installTools';
import { runUiTest } from './ui/uiTest';

const repoRoot = path.resolve(__dirname, '..', '..');
const suiteOutDir = path.join(repoRoot, 'dist', 'vscode-suite');

export interface SuiteResult {
  passed: number;
  failed: number;
}

/**
 * Builds every bundle with esbuild.mjs (the extension, the mock node library it loads, the
 * language server it starts), so `npm run test:vscode` tests current code.
 */
async function buildExtension(): Promise<void> {
  const result = spawnSync(process.execPath, [path.join(repoRoot, 'esbuild.mjs')], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('node esbuild.mjs failed');
}

/** `npm run package` (vsce, production bundles): the path of the VSIX it wrote. */
export function buildVsix(): string {
  const result = spawnSync('npm', ['run', 'package', '--silent'], { cwd: repoRoot, encoding: 'utf8' });
  const written = /Packaged: (\S+\.vsix)/.exec(result.stdout ?? '');
  if (result.status !== 0 || !written) throw new Error(`npm run package failed (${result.status}):\n${result.stdout}${result.stderr}`);
  const file = path.resolve(repoRoot, written[1]);
  console.log(`[vscode] built ${path.relative(repoRoot, file)} (${(fs.statSync(file).size / 1024).toFixed(0)} KiB)`);
  return file;
}

async function buildSuite(): Promise<string> {
  const suiteDir = path.join(__dirname, 'suite');
  const entries = fs.readdirSync(suiteDir).filter((f) => f === 'index.ts' || f.endsWith('.test.ts')).map((f) => path.join(suiteDir, f));
  fs.rmSync(suiteOutDir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: entries,
    outdir: suiteOutDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return path.join(suiteOutDir, 'index.js');
}

function useDesktop(): boolean {
  return process.env.CHAIN_EXPLORER_VSCODE === 'desktop';
}

function launcherPath(): string {
  return process.env.CHAIN_EXPLORER_VSCODE_LAUNCHER ?? path.join(__dirname, 'code-server-launcher.sh');
}

/** The mocha suite inside the extension host; counts come back through a JSON file. */
async function runExtensionHostSuite(extensionTestsPath: string): Promise<SuiteResult> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'chain-explorer-vscode-run-'));
  const workspace = path.join(work, 'workspace');
  fs.mkdirSync(workspace);
  const resultsFile = path.join(work, 'results.json');
  let exitCode = 0;
  try {
    exitCode = await runTests({
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath,
      launchArgs: [workspace, '--disable-extensions'],
      extensionTestsEnv: { CHAIN_EXPLORER_VSCODE_RESULTS: resultsFile },
      ...(useDesktop() ? {} : { vscodeExecutablePath: launcherPath() }),
    });
  } catch (error) {
    console.error(`[vscode] ${error instanceof Error ? error.message : String(error)}`);
    exitCode = 1;
  }
  let counts: SuiteResult = { passed: 0, failed: 0 };
  if (fs.existsSync(resultsFile)) {
    const parsed = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as SuiteResult;
    counts = { passed: parsed.passed, failed: parsed.failed };
  }
  fs.rmSync(work, { recursive: true, force: true });
  // A run that crashed, hung or never reported still counts as a failure.
  if (exitCode !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

export async function runVsCodeSuite(): Promise<SuiteResult> {
  await buildExtension();
  const extensionTestsPath = await buildSuite();
  if (!useDesktop() && !process.env.CHAIN_EXPLORER_VSCODE_LAUNCHER) ensureVsCodeTools();
  // CHAIN_EXPLORER_ONLY_UI_TEST=1 (while iterating on the UI test) skips the extension host suite.
  const onlyUi = process.env.CHAIN_EXPLORER_ONLY_UI_TEST === '1';
  const hostCounts = onlyUi ? { passed: 0, failed: 0 } : await runExtensionHostSuite(extensionTestsPath);
  if (!onlyUi) console.log(`[vscode] extension host suite: ${hostCounts.passed} passed, ${hostCounts.failed} failed`);
  // The UI test drives code-server's workbench page directly, so it has no desktop variant.
  if (useDesktop() || process.env.CHAIN_EXPLORER_VSCODE_LAUNCHER || process.env.CHAIN_EXPLORER_SKIP_UI_TEST === '1') return hostCounts;
  let uiCounts = { passed: 0, failed: 1 };
  try {
    // By default the UI test runs the extension as users get it: the VSIX built now, installed into
    // the test profile. CHAIN_EXPLORER_UI_FROM=folder runs it from the development folder instead.
    const vsix = process.env.CHAIN_EXPLORER_UI_FROM === 'folder' ? undefined : buildVsix();
    uiCounts = await runUiTest(repoRoot, { vsix });
  } catch (error) {
    console.error(`[vscode] UI test crashed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
  }
  console.log(`[vscode] UI test: ${uiCounts.passed} passed, ${uiCounts.failed} failed`);
  return { passed: hostCounts.passed + uiCounts.passed, failed: hostCounts.failed + uiCounts.failed };
}

if (require.main === module && process.argv.includes('--build-only')) {
  // For the "Extension Tests (desktop VS Code)" launch configuration.
  buildExtension().then(buildSuite).then(
    (index) => console.log(`built ${index}`),
    (error) => { console.error(error); process.exit(1); },
  );
} else if (require.main === module) {
  runVsCodeSuite().then(
    (result) => {
      console.log(`${result.passed} passed, ${result.failed} failed`);
      process.exit(result.failed > 0 ? 1 : 0);
    },
    (error) => {
      console.error(error instanceof Error ? error.stack ?? error.message : String(error));
      console.log('0 passed, 1 failed');
      process.exit(1);
    },
  );
}
