// Where the user's ABIs come from: the chainExplorer.contractAbis setting (address → file) and the
// workspace's build output (Foundry `out/`, Hardhat `artifacts/`). Builds the AbiBook the explorer
// decodes with, again whenever the setting or those files change.
import * as vscode from 'vscode';
import { readSettings, SECTION } from '../settings';
import { AbiBook } from './decoding';

/** Build output that holds ABIs (Hardhat's debug and build-info files hold none). */
const ARTIFACT_GLOB = '{**/out/**/*.json,**/artifacts/**/*.json}';
const SKIPPED = /(\/build-info\/|\.dbg\.json$|\/node_modules\/)/;
/** Artifacts read at most (a huge monorepo's output is not read whole). */
const MAX_FILES = 2000;

async function readJson(uri: vscode.Uri): Promise<unknown> {
  const bytes = await vscode.workspace.fs.readFile(uri);
  return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
}

/** Reads every configured and found ABI into a new book. */
export async function loadAbiBook(log: (message: string) => void): Promise<AbiBook> {
  const book = new AbiBook();
  const settings = readSettings();
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  for (const [address, file] of Object.entries(settings.contractAbis)) {
    const uri = /^[a-z][a-z0-9+.-]*:/i.test(file) || !folder ? vscode.Uri.file(file) : vscode.Uri.joinPath(folder, file);
    try {
      if (!book.add(await readJson(uri), vscode.workspace.asRelativePath(uri), address)) log(`contractAbis: ${file} holds no ABI`);
    } catch (error) {
      log(`contractAbis: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (settings.scanWorkspaceAbis && folder) {
    const files = await vscode.workspace.findFiles(ARTIFACT_GLOB, '**/node_modules/**', MAX_FILES);
    for (const uri of files.filter((f) => !SKIPPED.test(f.path)).sort((a, b) => a.path.localeCompare(b.path))) {
      try {
        book.add(await readJson(uri), vscode.workspace.asRelativePath(uri));
      } catch { /* not JSON, or not an artifact: skipped */ }
    }
  }
  for (const problem of book.problems) log(`ABI ${problem}`);
  return book;
}

/** Keeps `apply` fed with the current book: at start, on setting changes and on artifact changes. */
export function watchAbiSources(apply: (book: AbiBook) => void, log: (message: string) => void): vscode.Disposable & { reload(): Promise<void> } {
  let generation = 0;
  let timer: NodeJS.Timeout | undefined;
  const reload = (): Promise<void> => {
    const mine = ++generation;
    return loadAbiBook(log).then((book) => { if (mine === generation) apply(book); }, (error) => log(`ABIs: ${String(error)}`));
  };
  const soon = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void reload(), 500);
  };
  const watcher = vscode.workspace.createFileSystemWatcher(ARTIFACT_GLOB);
  const disposables = [
    watcher, watcher.onDidCreate(soon), watcher.onDidChange(soon), watcher.onDidDelete(soon),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.contractAbis`) || e.affectsConfiguration(`${SECTION}.scanWorkspaceAbis`)) void reload();
    }),
  ];
  void reload();
  return { reload, dispose: () => { if (timer) clearTimeout(timer); for (const d of disposables) d.dispose(); } };
}
