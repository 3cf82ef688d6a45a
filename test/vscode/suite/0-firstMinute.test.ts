// The first minute, from the fresh profile the runner gives every run (this file sorts first, so
// nothing has started the mock node or touched the tree before): Start Mock Node shows the
// started endpoint expanded, with its latest block row, without a click.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChainExplorerApi } from '../../../extension/main';
import { api, showExplorer, waitFor } from './helpers';

describe('the first minute (fresh profile)', function () {
  this.timeout(90_000);
  let explorer: ChainExplorerApi;

  before(async () => {
    explorer = await api();
    await showExplorer();
  });

  after(async () => {
    await vscode.commands.executeCommand('chainExplorer.stopMockNode');
  });

  it('Start Mock Node shows the started endpoint expanded with its latest block, the other one collapsed', async () => {
    assert.equal(explorer.registry.list().length, 0, 'a fresh profile has no endpoint');
    await vscode.commands.executeCommand('chainExplorer.startMockNode');
    const roots = await waitFor('both endpoints', async () => {
      const list = await explorer.tree.getChildren();
      return list.length === 2 ? list : undefined;
    });
    const [publicRow, dedicatedRow] = roots;
    assert.equal(publicRow.spec.label, 'Mock node (public)');
    assert.equal(explorer.tree.getTreeItem(publicRow).collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'the started endpoint opens by itself');
    assert.equal(explorer.tree.getTreeItem(dedicatedRow).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    // VS Code asks for an expanded row's children at once: the block row is there without a click.
    const block = await waitFor('the latest block row', async () => {
      const children = await explorer.tree.getChildren((await explorer.tree.getChildren())[0]);
      return children.find((c) => /^latest #\d+$/.test(c.spec.label));
    });
    assert.match(explorer.tree.getTreeItem(block).description?.toString() ?? '', /^0x[0-9a-f]{8}…[0-9a-f]{6} · \d+ tx$/);
  });
});
