import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID } from './helpers';

describe('activation', () => {
  it('activates without starting anything heavy and registers the Chain commands', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `extension ${EXTENSION_ID} is installed`);
    const started = performance.now();
    const explorer = await extension.activate() as { activationMs: number; mockNode: { running: unknown } };
    console.log(`      activation: activate() ${explorer.activationMs.toFixed(1)} ms inside, ${(performance.now() - started).toFixed(1)} ms as seen by the test`);
    assert.equal(extension.isActive, true);
    assert.equal(explorer.mockNode.running, undefined, 'the mock node does not start at activation');
    const commands = await vscode.commands.getCommands(true);
    for (const command of ['chainExplorer.startMockNode', 'chainExplorer.stopMockNode', 'chainExplorer.restartMockNode', 'chainExplorer.pendingOn',
      'chainExplorer.pendingOff', 'chainExplorer.refresh', 'chainExplorer.addEndpoint', 'chainExplorer.removeEndpoint',
      'chainExplorer.renameEndpoint', 'chainExplorer.copyValue', 'chainExplorer.copyAsCurl', 'chainExplorer.openJson']) {
      assert.ok(commands.includes(command), `${command} is registered`);
    }
  });

  it('contributes a walkthrough whose steps name real commands and media', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const walkthrough = (extension.packageJSON.contributes.walkthroughs as { steps: { id: string; description: string; media: Record<string, string>; completionEvents?: string[] }[] }[])[0];
    assert.equal(walkthrough.steps.length, 5);
    // Steps complete on real events: the node running, pending on, a transaction seen, a capture.
    const completions = Object.fromEntries(walkthrough.steps.map((step) => [step.id, step.completionEvents ?? []]));
    assert.deepEqual(completions, {
      startMockNode: ['onContext:chainExplorer.mockNodeRunning'],
      followPending: ['onContext:chainExplorer.pending'],
      seeTransaction: ['onContext:chainExplorer.walkthrough.transactionSeen'],
      profiles: [],
      authorize: ['onContext:chainExplorer.walkthrough.authorizationCaptured'],
    });
    const commands = await vscode.commands.getCommands(true);
    for (const step of walkthrough.steps) {
      for (const [, command] of step.description.matchAll(/\(command:([\w.]+)\)/g)) assert.ok(commands.includes(command), `${command} exists`);
      const media = step.media.image ?? step.media.markdown;
      await vscode.workspace.fs.stat(vscode.Uri.joinPath(extension.extensionUri, media));
    }
  });
});
