// The explorer in a real VS Code against endpoints that misbehave (a small hostile server on
// loopback): one that hangs, answers HTML, HTTP 500, malformed JSON, 100 MB, or results of the
// wrong types. Each shows one clear message under its own row, no notification pops up, and a
// well-behaved endpoint next to them keeps working.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChainExplorerApi } from '../../../extension/main';
import { startHostileServer, type HostilePath, type HostileServer } from '../../helpers/hostileServer';
import { api, showExplorer, waitFor } from './helpers';

const EXPECTED: Record<HostilePath, RegExp> = {
  hang: /^timed out after 3000 ms$/,
  html: /^eth_\w+: bad response: an HTML page, not JSON-RPC \(is the URL an RPC endpoint\?\)$/,
  status500: /^HTTP 500$/,
  malformed: /^eth_\w+: bad response: not JSON \(/,
  huge: /^eth_\w+: bad response: the answer is larger than 16777216 bytes; not read$/,
  wrongtypes: /^the endpoint answered something this view cannot show: /,
};

describe('RPC explorer against hostile endpoints', function () {
  this.timeout(120_000);
  let explorer: ChainExplorerApi;
  let hostile: HostileServer;
  const notifications: string[] = [];
  const originals = {
    error: vscode.window.showErrorMessage,
    warning: vscode.window.showWarningMessage,
    info: vscode.window.showInformationMessage,
  };

  before(async () => {
    explorer = await api();
    await showExplorer();
    hostile = await startHostileServer();
    // Count every notification the extension would show while the hostile endpoints are listed.
    const count = (kind: string) => (message: string) => {
      notifications.push(`${kind}: ${message}`);
      return Promise.resolve(undefined);
    };
    Object.assign(vscode.window, { showErrorMessage: count('error'), showWarningMessage: count('warning'), showInformationMessage: count('info') });
    const config = vscode.workspace.getConfiguration('chainExplorer');
    await config.update('requestTimeoutMs', 3000, vscode.ConfigurationTarget.Global);
    await config.update('endpoints', [
      ...(Object.keys(EXPECTED) as HostilePath[]).map((path) => ({ name: `Hostile ${path}`, url: hostile.url(path) })),
    ], vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('chainExplorer.startMockNode');
  });

  after(async () => {
    Object.assign(vscode.window, { showErrorMessage: originals.error, showWarningMessage: originals.warning, showInformationMessage: originals.info });
    const config = vscode.workspace.getConfiguration('chainExplorer');
    await config.update('endpoints', undefined, vscode.ConfigurationTarget.Global);
    await config.update('requestTimeoutMs', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('chainExplorer.stopMockNode');
    await hostile.close();
  });

  it('each hostile endpoint shows one clear message under its row; the mock node beside them still works; no notification', async () => {
    const roots = await waitFor('every endpoint listed', async () => {
      const list = await explorer.tree.getChildren();
      return list.length >= 8 ? list : undefined;
    });
    for (const [path, expected] of Object.entries(EXPECTED) as [HostilePath, RegExp][]) {
      const root = roots.find((r) => r.spec.label === `Hostile ${path}`);
      assert.ok(root, `Hostile ${path} is listed`);
      const children = await explorer.tree.getChildren(root);
      assert.equal(children.length, 1, `${path}: one child`);
      assert.equal(children[0].spec.kind, 'error', `${path}: an error node`);
      assert.match(children[0].spec.label, expected, path);
    }
    const mock = roots.find((r) => r.spec.label === 'Mock node (public)');
    const mockChildren = await explorer.tree.getChildren(mock);
    assert.match(mockChildren.find((c) => c.spec.kind === 'block')?.spec.label ?? '', /^latest #\d+$/, 'the well-behaved endpoint still shows its block');
    assert.deepEqual(notifications, [], 'no notification');
  });

  it('while polling, the hostile endpoints back off instead of being asked every tick, and the view keeps updating', async () => {
    // Expanded endpoints are the ones polled.
    for (const root of await explorer.tree.getChildren()) await explorer.tree.getChildren(root);
    const before = { ...hostile.requests };
    await vscode.commands.executeCommand('chainExplorer.pendingOn');
    try {
      await waitFor('the status bar to follow pending on the mock node', () => /pending #\d+\.\d+/.test(explorer.statusBarText() ?? ''), 20_000);
      const ticksBefore = explorer.poller.ticks;
      await waitFor('25 poll ticks', () => explorer.poller.ticks >= ticksBefore + 25, 90_000);
      for (const path of ['html', 'status500', 'malformed', 'wrongtypes'] as HostilePath[]) {
        // Each failed read is a few requests (block, overview); a back-off sits out 1, 3, 7, … ticks.
        const asked = hostile.requests[path] - before[path];
        assert.ok(asked < 25, `${path} asked ${asked} times in 25 ticks (it backs off)`);
      }
      assert.ok((await explorer.tree.getChildren()).length >= 8, 'the view is not blank');
      assert.deepEqual(notifications, [], 'no notification');
    } finally {
      await vscode.commands.executeCommand('chainExplorer.pendingOff');
    }
  });
});
