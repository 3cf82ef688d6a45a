// Commands to start, stop and restart the bundled mock node.
import * as vscode from 'vscode';
import type { MockNodeOptionsInput, PendingIdentity } from '../../mock-node/index';
import type { MockNodeService } from './mockNodeService';

interface RestartChoice extends vscode.QuickPickItem {
  options: MockNodeOptionsInput;
}

const RESTART_CHOICES: RestartChoice[] = [
  { label: 'Default', description: 'pending block hash = partial block hash', options: {} },
  ...(['zero', 'null'] as PendingIdentity[]).map((identity) => ({
    label: `Pending identity: ${identity}`,
    description: identity === 'zero' ? 'pending hash is 32 zero bytes (as Base answers)' : 'pending number and hash are null',
    options: { pendingIdentity: identity },
  })),
  { label: 'Manual mode', description: 'no timers: blocks and flashblocks only by control methods', options: { auto: false } },
  { label: 'Slow flashblocks', description: 'a flashblock every 1000 ms, a block every 10 s', options: { flashblockMs: 1000, blockTimeMs: 10_000 } },
];

function report(error: unknown): void {
  void vscode.window.showErrorMessage(`Mock node: ${error instanceof Error ? error.message : String(error)}`);
}

export function registerMockNodeCommands(service: MockNodeService): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('chainExplorer.startMockNode', async (options?: MockNodeOptionsInput) => {
      try {
        const node = await vscode.window.withProgress(
          { location: { viewId: 'chainExplorer.rpcExplorer' }, title: 'Starting the mock node' },
          () => service.start(options ?? {}),
        );
        vscode.window.setStatusBarMessage(`Mock node running at ${node.url}`, 4000);
        return node.url;
      } catch (error) {
        report(error);
        return undefined;
      }
    }),
    vscode.commands.registerCommand('chainExplorer.stopMockNode', async () => {
      await service.stop();
    }),
    vscode.commands.registerCommand('chainExplorer.restartMockNode', async (options?: MockNodeOptionsInput) => {
      let chosen = options;
      if (!chosen) {
        const pick = await vscode.window.showQuickPick(RESTART_CHOICES, { placeHolder: 'Restart the mock node with…' });
        if (!pick) return undefined;
        chosen = pick.options;
      }
      try {
        return (await service.restart(chosen)).url;
      } catch (error) {
        report(error);
        return undefined;
      }
    }),
    vscode.commands.registerCommand('chainExplorer.showMockNodeOutput', () => service.output.show(true)),
    vscode.commands.registerCommand('chainExplorer.sendTestTransaction', async () => {
      const node = service.running;
      if (!node) {
        void vscode.window.showInformationMessage('Start the mock node first.');
        return undefined;
      }
      // 0.01 ETH between the first two dev accounts, through the node's own eth_sendTransaction.
      const [from, to] = node.accounts;
      try {
        const hash = await node.request('eth_sendTransaction', [{ from: from.address, to: to.address, value: `0x${(10n ** 16n).toString(16)}` }]) as string;
        service.output.info(`test transaction ${hash} (0.01 ETH ${from.address} → ${to.address})`);
        vscode.window.setStatusBarMessage(`Sent ${hash.slice(0, 10)}…`, 3000);
        return hash;
      } catch (error) {
        report(error);
        return undefined;
      }
    }),
  ];
}
