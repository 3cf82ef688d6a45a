// The getting-started walkthrough completes its steps on real events, not on button presses:
// each step's `completionEvents` names a context key (`onContext:`), which the feature that sees
// the event sets. The node-started and pending steps use the keys their features keep anyway
// (chainExplorer.mockNodeRunning, chainExplorer.pending); the events below exist for it alone.
import * as vscode from 'vscode';

export type WalkthroughEvent =
  /** The explorer showed a block holding at least one transaction. */
  | 'transactionSeen'
  /** An authorization's capture was found onchain with matching Transfer evidence. */
  | 'authorizationCaptured';

const marked = new Set<WalkthroughEvent>();

/** Sets `chainExplorer.walkthrough.<event>` once per session; later calls cost nothing. */
export function markWalkthroughEvent(event: WalkthroughEvent): void {
  if (marked.has(event)) return;
  marked.add(event);
  void vscode.commands.executeCommand('setContext', `chainExplorer.walkthrough.${event}`, true);
}
