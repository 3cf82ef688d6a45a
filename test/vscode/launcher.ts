// The "VS Code executable" that @vscode/test-electron's runTests starts (through
// code-server-launcher.sh): reads the arguments VS Code would get, starts code-server, runs the
// extension test suite inside it in headless Chromium, and exits with the suite's code.
import * as path from 'node:path';
import { openBrowser, runSuiteInWorkbench, workbenchUrl } from './browserDriver';
import { startCodeServer } from './codeServer';
import { ensureVsCodeTools } from './installTools';

interface LaunchArgs {
  extensionDevelopmentPath?: string;
  extensionTestsPath?: string;
  folder?: string;
}

export function parseLaunchArgs(argv: string[]): LaunchArgs {
  const parsed: LaunchArgs = {};
  for (const arg of argv) {
    const match = /^--([^=]+)=(.*)$/.exec(arg);
    if (match) {
      if (match[1] === 'extensionDevelopmentPath') parsed.extensionDevelopmentPath = path.resolve(match[2]);
      if (match[1] === 'extensionTestsPath') parsed.extensionTestsPath = path.resolve(match[2]);
      continue; // Electron-only flags (--no-sandbox, --user-data-dir=…) do not apply to code-server.
    }
    if (!arg.startsWith('-')) parsed.folder = path.resolve(arg);
  }
  return parsed;
}

/** Environment variables handed on to the extension host (test result file and the like). */
function extensionEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('CHAIN_EXPLORER_') && value !== undefined) env[key] = value;
  }
  return env;
}

async function main(): Promise<number> {
  const args = parseLaunchArgs(process.argv.slice(2));
  if (!args.extensionDevelopmentPath || !args.extensionTestsPath) {
    console.error('usage: code-server-launcher --extensionDevelopmentPath=DIR --extensionTestsPath=FILE [folder]');
    return 2;
  }
  const timeoutMs = Number(process.env.CHAIN_EXPLORER_VSCODE_TIMEOUT_MS ?? 300_000);
  const folder = args.folder ?? args.extensionDevelopmentPath;
  const tools = ensureVsCodeTools();
  const verbose = process.env.CHAIN_EXPLORER_VSCODE_VERBOSE === '1';
  const server = await startCodeServer(tools, {
    folder,
    log: (line) => { if (verbose) console.log(`[code-server] ${line}`); },
  });
  // Whatever fails from here on, the code-server process group is stopped.
  let browser: Awaited<ReturnType<typeof openBrowser>> | undefined;
  try {
    browser = await openBrowser(tools.chromium);
    const url = workbenchUrl({
      origin: server.origin, host: server.host, port: server.port, folder,
      extensionDevelopmentPath: args.extensionDevelopmentPath,
      extensionTestsPath: args.extensionTestsPath,
      extensionEnvironment: extensionEnvironment(),
    });
    return await runSuiteInWorkbench(browser.page, url, timeoutMs, (line) => console.log(line));
  } finally {
    await browser?.close();
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.stack ?? error.message : String(error));
    process.exit(1);
  },
);
