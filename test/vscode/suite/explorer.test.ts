// The explorer against the real bundled mock node, started by command as a user would.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getAddress, Interface } from 'ethers';
import * as vscode from 'vscode';
import WebSocket from 'ws';
import type { ChainExplorerApi } from '../../../extension/main';
import { api, childrenAt, countingProxy, nodeAt, rpc, showExplorer, sleep, waitFor, type CountingProxy } from './helpers';

const PUBLIC = 'Mock node (public)';

/** The test's own newFlashblocks subscription: the transaction hashes of each flashblock, in order. */
async function flashblockWatch(wsUrl: string): Promise<{ list: string[][]; close(): void }> {
  const socket = new WebSocket(wsUrl);
  await new Promise<void>((resolve, reject) => { socket.once('open', () => resolve()); socket.once('error', reject); });
  const list: string[][] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { method?: string; params?: { result?: { transactions?: ({ hash: string } | string)[] } } };
    if (message.method !== 'eth_subscription') return;
    list.push((message.params?.result?.transactions ?? []).map((t) => (typeof t === 'string' ? t : t.hash)));
  });
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newFlashblocks'] }));
  return { list, close: () => socket.close() };
}
const DEDICATED = 'Mock node (dedicated)';

describe('RPC explorer with the mock node', function () {
  this.timeout(90_000);
  let explorer: ChainExplorerApi;

  before(async () => {
    explorer = await api();
    await showExplorer();
  });

  after(async () => {
    await vscode.commands.executeCommand('chainExplorer.pendingOff');
    await vscode.commands.executeCommand('chainExplorer.stopMockNode');
  });

  it('starts the mock node by command and shows it as public and dedicated endpoints', async () => {
    const url = await vscode.commands.executeCommand<string>('chainExplorer.startMockNode');
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const roots = await explorer.tree.getChildren();
    assert.deepEqual(roots.map((r) => r.spec.label).slice(0, 2), [PUBLIC, DEDICATED]);
    const dedicated = roots[1];
    assert.match(explorer.registry.get(dedicated.spec.endpointId)?.displayUrl ?? '', /\/dedicated\/••••$/, 'the dedicated key is masked');
    assert.match(dedicated.spec.tooltip ?? '', /\/dedicated\/••••/);
    assert.ok(!JSON.stringify(roots.map((r) => r.spec)).includes(explorer.mockNode.running!.apiKey), 'the key appears nowhere in the tree');
  });

  it('shows the endpoint (chain id, client version, head) and the latest block', async () => {
    const children = await childrenAt(explorer, [PUBLIC]);
    const endpoint = await nodeAt(explorer, [PUBLIC]);
    // Short enough for a sidebar (the version is in the tooltip), and how it is followed: by
    // subscription (the mock node has a WebSocket), or polling while that connects.
    assert.match(endpoint!.spec.description ?? '', /^chain 31337 · (subscribed|polling, connecting)$/);
    assert.match(endpoint!.spec.tooltip ?? '', /chain-mock-node\/[\d.]+/);
    assert.equal(children[0].spec.label, 'Go to…', 'the search row first');
    const latest = children.find((c) => c.spec.kind === 'block')!;
    assert.match(latest.spec.label, /^latest #\d+$/);
    const blockChildren = await explorer.tree.getChildren(latest);
    assert.deepEqual(blockChildren.map((c) => c.spec.label), ['Transactions', 'Receipts', 'Logs', 'Header']);
    const header = await explorer.tree.getChildren(blockChildren[3]);
    const number = header.find((h) => h.spec.label === 'number');
    assert.match(number!.spec.description ?? '', /^\d+ {2}\(0x[0-9a-f]+\)$/);
    assert.match(header.find((h) => h.spec.label === 'timestamp')!.spec.description ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  });

  it('follows pending: the status bar says pending and the pending block gains the transactions a test sends', async () => {
    // Long blocks so the pending block is not sealed while the test watches it grow.
    await vscode.commands.executeCommand('chainExplorer.restartMockNode', { blockTimeMs: 60_000, flashblockMs: 200 });
    const node = explorer.mockNode.running!;
    await nodeAt(explorer, [PUBLIC, 'latest']);
    await vscode.commands.executeCommand('chainExplorer.pendingOn');
    await waitFor('the status bar to show pending', () => /pending #\d+\.\d+/.test(explorer.statusBarText() ?? ''));
    // The mock node has a WebSocket: followed by subscription, nothing is polled.
    await waitFor('the public endpoint followed by subscription', () => explorer.subscriptions.mode('ep:mock:public') === 'subscribed');
    assert.match((await nodeAt(explorer, [PUBLIC]))?.spec.description ?? '', / · subscribed$/, 'the endpoint row says it');
    assert.equal(explorer.poller.active, false, 'no polling while every expanded endpoint is followed by subscription');
    const [from, to] = node.accounts;
    for (let sent = 1; sent <= 3; sent++) {
      await rpc(node.url, 'eth_sendTransaction', [{ from: from.address, to: to.address, value: `0x${(sent * 1000).toString(16)}` }]);
      const txs = await waitFor(`the pending block to show ${sent} transaction(s)`, async () => {
        const list = await childrenAt(explorer, [PUBLIC, 'pending', 'Transactions']);
        return list.length === sent ? list : undefined;
      });
      assert.match(txs[sent - 1].spec.description ?? '', new RegExp(`nonce ${sent - 1}$`));
    }
    const status = explorer.statusBarText() ?? '';
    assert.match(status, /pending #\d+\.[1-9]\d*/, `status bar counts pending refreshes: ${status}`);
  });

  it('fires no tree change while pending is on and nothing changes (ten flashblocks with nothing new)', async () => {
    await waitFor('a quiet pending block', async () => (await childrenAt(explorer, [PUBLIC, 'pending', 'Transactions'])).length === 3);
    await sleep(500); // the last transaction's reads settle
    const flashblocks = await flashblockWatch(explorer.mockNode.running!.wsUrl);
    try {
      const eventsBefore = explorer.tree.changeEvents;
      const seen = flashblocks.list.length;
      await waitFor('ten more flashblocks', () => flashblocks.list.length >= seen + 10);
      assert.equal(explorer.tree.changeEvents, eventsBefore, 'unchanged data must not fire onDidChangeTreeData');
    } finally {
      flashblocks.close();
    }
  });

  it('shows the 403 node for receipts on the public profile and lists receipts on the dedicated one', async () => {
    const publicReceipts = await childrenAt(explorer, [PUBLIC, 'pending', 'Receipts']);
    assert.equal(publicReceipts.length, 1);
    assert.equal(publicReceipts[0].spec.label, 'needs a dedicated endpoint (HTTP 403)');
    const dedicatedReceipts = await waitFor('dedicated receipts', async () => {
      const list = await childrenAt(explorer, [DEDICATED, 'pending', 'Receipts']);
      return list.length === 3 ? list : undefined;
    });
    assert.ok(dedicatedReceipts.every((r) => /^success · gas 21000 · 0 logs$/.test(r.spec.description ?? '')), dedicatedReceipts.map((r) => r.spec.description).join('; '));
  });

  it('shows accounts with nonce at latest and pending side by side', async () => {
    const accounts = await waitFor('accounts', async () => {
      const list = await childrenAt(explorer, [PUBLIC, 'Accounts']);
      return list.length === 3 ? list : undefined;
    });
    assert.match(accounts[0].spec.description ?? '', /^nonce 0 \/ pending 3 · [\d.]+ ETH · [\d.]+ USDC$/);
  });

  it('shows a pending transaction within one flashblock of its pre-confirmation, by subscription', async () => {
    const node = explorer.mockNode.running!;
    await waitFor('subscribed', () => explorer.subscriptions.mode('ep:mock:public') === 'subscribed');
    const flashblocks = await flashblockWatch(node.wsUrl);
    try {
      const [from, to] = node.accounts;
      const hash = await rpc(node.url, 'eth_sendTransaction', [{ from: from.address, to: to.address, value: '0x7' }]) as string;
      await waitFor('the transaction in the tree', async () => {
        const list = await childrenAt(explorer, [PUBLIC, 'pending', 'Transactions']);
        return list.some((n) => JSON.stringify(n.spec).includes(hash)) || undefined;
      }, 10_000);
      const shownAfter = flashblocks.list.length;
      const confirmedIn = flashblocks.list.findIndex((txs) => txs.includes(hash));
      assert.ok(confirmedIn >= 0, 'the test saw the flashblock that pre-confirmed it');
      assert.ok(shownAfter - 1 - confirmedIn <= 1, `shown ${shownAfter - 1 - confirmedIn} flashblocks after its pre-confirmation`);
      assert.equal(explorer.poller.active, false, 'not by polling');
    } finally {
      flashblocks.close();
    }
  });

  describe('polling, counted at the node', () => {
    let proxy: CountingProxy;

    before(async () => {
      proxy = await countingProxy(explorer.mockNode.running!.url);
      // With pending off, nothing may reach the node: not even following latest.
      await vscode.workspace.getConfiguration('chainExplorer').update('followLatest', false, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('chainExplorer').update('endpoints', [{ name: 'Counted', url: proxy.url }], vscode.ConfigurationTarget.Global);
      await waitFor('the Counted endpoint', async () => nodeAt(explorer, ['Counted', 'pending']));
    });

    after(async () => {
      await vscode.workspace.getConfiguration('chainExplorer').update('endpoints', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('chainExplorer').update('followLatest', undefined, vscode.ConfigurationTarget.Global);
      await proxy.close();
    });

    it('polls while pending is on and stops when it is turned off', async () => {
      const before = proxy.count;
      await waitFor('requests while pending is on', () => proxy.count >= before + 5);
      await vscode.commands.executeCommand('chainExplorer.pendingOff');
      await waitFor('the poller to stop', () => !explorer.poller.active);
      await explorer.idle(); // the one refresh that shows latest
      await waitFor('no request in flight at the node', () => proxy.inFlight === 0);
      const afterOff = proxy.count;
      await sleep(1500);
      assert.equal(proxy.count, afterOff, 'no request reaches the node while pending is off');
      assert.match(explorer.statusBarText() ?? '', /latest #\d+/);
    });

    it('stops polling while the view is hidden and resumes when it shows again', async () => {
      await vscode.commands.executeCommand('chainExplorer.pendingOn');
      await waitFor('polling', () => explorer.poller.active);
      await vscode.commands.executeCommand('workbench.view.explorer');
      await waitFor('the poller to stop with the view hidden', () => !explorer.poller.active);
      await explorer.idle(); // the one refresh that turning pending on started
      await waitFor('no request in flight at the node', () => proxy.inFlight === 0);
      const hidden = proxy.count;
      await sleep(1000);
      assert.equal(proxy.count, hidden, 'no request while the view is hidden');
      await showExplorer();
      await waitFor('polling again', () => explorer.poller.active);
      await waitFor('requests again', () => proxy.count > hidden);
    });

    it('survives the node being stopped and started again', async () => {
      await vscode.commands.executeCommand('chainExplorer.pendingOn');
      const port = explorer.mockNode.running!.port;
      await vscode.commands.executeCommand('chainExplorer.stopMockNode');
      const roots = await explorer.tree.getChildren();
      assert.deepEqual(roots.map((r) => r.spec.label), ['Counted'], 'the mock endpoints leave with the node');
      await waitFor('the Counted endpoint to show the failure', async () => {
        const block = await nodeAt(explorer, ['Counted', 'pending']);
        const endpoint = await nodeAt(explorer, ['Counted']);
        return /HTTP 502|unreachable/.test(`${endpoint?.spec.description} ${block?.spec.description}`) || undefined;
      });
      await vscode.commands.executeCommand('chainExplorer.startMockNode');
      assert.equal(explorer.mockNode.running!.port, port, 'restarted on the same port');
      await waitFor('the Counted endpoint to recover', async () => {
        const block = await nodeAt(explorer, ['Counted', 'pending']);
        return block && /^pending #\d+$/.test(block.spec.label) && block.spec.description !== 'error';
      }, 40_000);
      const roots2 = await explorer.tree.getChildren();
      assert.deepEqual(roots2.map((r) => r.spec.label), [PUBLIC, DEDICATED, 'Counted']);
      assert.match((await childrenAt(explorer, [PUBLIC])).find((c) => c.spec.kind === 'block')?.spec.label ?? '', /^pending #\d+$/);
    });
  });

  it('decodes the token events of a transfer in the pending block, and reads the token storage slots', async () => {
    const node = explorer.mockNode.running!;
    const [from, to] = node.accounts;
    const token = new Interface(['function transfer(address to, uint256 value) returns (bool)']);
    await rpc(node.url, 'eth_sendTransaction', [{ from: from.address, to: node.tokenAddress, data: token.encodeFunctionData('transfer', [to.address, 2_500_000n]) }]);
    const transfer = await waitFor('the decoded Transfer under Logs', async () => {
      const filters = await childrenAt(explorer, [PUBLIC, 'pending', 'Logs']);
      const logs = filters[0] ? await explorer.tree.getChildren(filters[0]) : [];
      return logs.find((l) => l.spec.label.startsWith('Transfer '));
    });
    assert.equal(transfer.spec.label, `Transfer 2.5 USDC ${getAddress(from.address).slice(0, 6)}…${getAddress(from.address).slice(-4)} → ${getAddress(to.address).slice(0, 6)}…${getAddress(to.address).slice(-4)}`);
    const slots = await childrenAt(explorer, [PUBLIC, 'Storage']);
    const supply = slots.find((n) => n.spec.label.startsWith('token totalSupply'));
    const onChain = BigInt(await rpc(node.url, 'eth_getStorageAt', [node.tokenAddress, '0xb', 'latest']) as string);
    assert.equal(supply?.spec.description, onChain.toString());
    assert.ok(onChain > 0n);
  });

  describe('following latest, Go to, Reveal Transaction', () => {
    before(async () => {
      await vscode.commands.executeCommand('chainExplorer.pendingOff');
      await vscode.commands.executeCommand('chainExplorer.restartMockNode', { blockTimeMs: 1000 });
    });

    it('follows latest without any click: the block node shows two new heads as they come', async () => {
      assert.equal(explorer.pending.on, false);
      const first = await waitFor('latest #N', async () => {
        const b = await nodeAt(explorer, [PUBLIC, 'latest #']);
        return b ? Number(/#(\d+)/.exec(b.spec.label)?.[1]) : undefined;
      });
      await waitFor('latest #N+2', async () => {
        const b = explorer.tree.node(`${(await nodeAt(explorer, [PUBLIC]))!.id}/block`);
        return b && Number(/#(\d+)/.exec(b.spec.label)?.[1]) >= first + 2;
      }, 20_000);
      assert.equal(explorer.subscriptions.mode('ep:mock:public'), 'subscribed', 'new heads come by subscription');
      assert.equal(explorer.poller.active, false, 'nothing polled with pending off: the endpoint is followed by newHeads');
    });

    it('goes to a transaction by command and reveals it, selected, with its receipt status', async () => {
      const node = explorer.mockNode.running!;
      const token = new Interface(['function transfer(address to, uint256 value) returns (bool)']);
      const hash = await rpc(node.url, 'eth_sendTransaction', [{ from: node.accounts[0].address, to: node.tokenAddress, data: token.encodeFunctionData('transfer', [node.accounts[1].address, 1_000_000n]) }]) as string;
      await waitFor('the transfer mined', async () => (await rpc(node.url, 'eth_getTransactionReceipt', [hash])) !== null);
      const endpointId = (await nodeAt(explorer, [PUBLIC]))!.spec.endpointId;
      const outcome = await vscode.commands.executeCommand<{ ok: boolean; nodeId: string }>('chainExplorer.goTo', endpointId, hash);
      assert.equal(outcome.ok, true);
      await waitFor('the result selected', () => explorer.treeView.selection[0]?.id === outcome.nodeId);
      assert.match(explorer.treeView.selection[0].spec.description ?? '', /^success · #\d+ · /);
    });

    it('reveals a transaction for other features by endpoint name and hash', async () => {
      const hash = await vscode.commands.executeCommand<string>('chainExplorer.sendTestTransaction');
      await waitFor('the test transaction mined', async () => (await rpc(explorer.mockNode.running!.url, 'eth_getTransactionReceipt', [hash])) !== null);
      const outcome = await vscode.commands.executeCommand<{ ok: boolean; nodeId: string }>('chainExplorer.revealTransaction', DEDICATED, hash);
      assert.equal(outcome.ok, true);
      assert.match(outcome.nodeId, new RegExp(`/found/transaction/${hash}$`));
      await waitFor('the result selected', () => explorer.treeView.selection[0]?.id === outcome.nodeId);
    });

    it('reveals a Go to result while a busy chain is followed at pending (the tree refreshing four times a second)', async () => {
      // Go to reveals once the tree has been quiet for 300 ms; with a transaction in every
      // flashblock it changes every 200 ms or so, and Go to used to wait for good.
      const node = explorer.mockNode.running!;
      const [from, to] = [node.accounts[3].address, node.accounts[4].address];
      await vscode.commands.executeCommand('chainExplorer.pendingOn');
      await waitFor('the pending block shown', () => nodeAt(explorer, [PUBLIC, 'pending']));
      let sending = true;
      const traffic = (async () => {
        while (sending) {
          await rpc(node.url, 'eth_sendTransaction', [{ from, to, value: '0x1' }]);
          await sleep(80);
        }
      })();
      try {
        // Busy: the tree refreshes four times a second or more.
        await waitFor('the tree refreshing with the flashblocks', async () => {
          const before = explorer.tree.changeEvents;
          await sleep(1000);
          return explorer.tree.changeEvents - before >= 4;
        });
        const goTo = vscode.commands.executeCommand<{ ok: boolean; nodeId: string }>('chainExplorer.goTo', PUBLIC, to);
        const outcome = await Promise.race([goTo, sleep(15_000).then(() => undefined)]);
        assert.ok(outcome, 'Go to finished within 15 s');
        assert.equal(outcome.ok, true);
        await waitFor('the result selected', () => explorer.treeView.selection[0]?.id === outcome.nodeId);
      } finally {
        sending = false;
        await traffic;
        await vscode.commands.executeCommand('chainExplorer.pendingOff');
      }
    });
  });

  describe('the three pending shapes', () => {
    it('partial: the pending block has a hash of its own', async () => {
      await vscode.commands.executeCommand('chainExplorer.restartMockNode', { pendingIdentity: 'partial' });
      await vscode.commands.executeCommand('chainExplorer.pendingOn');
      const block = await waitFor('pending #N', async () => {
        const b = await nodeAt(explorer, [PUBLIC, 'pending']);
        return b && /^pending #\d+$/.test(b.spec.label) ? b : undefined;
      });
      assert.match(block.spec.description ?? '', /^0x[0-9a-f]{8}…[0-9a-f]{6} · \d+ tx$/);
    });

    it('zero: a zero hash is shown as "not sealed"', async () => {
      await vscode.commands.executeCommand('chainExplorer.restartMockNode', { pendingIdentity: 'zero' });
      const block = await waitFor('not sealed', async () => {
        const b = await nodeAt(explorer, [PUBLIC, 'pending']);
        return b && /^not sealed · \d+ tx$/.test(b.spec.description ?? '') ? b : undefined;
      });
      assert.match(block.spec.label, /^pending #\d+$/);
      await waitFor('the dedicated endpoint (new key after the restart) read again', async () =>
        /^chain 31337( · (subscribed|polling.*))?$/.test((await nodeAt(explorer, [DEDICATED]))?.spec.description ?? ''));
    });

    it('null: a null number is shown as "pending (latest+1)"', async () => {
      await vscode.commands.executeCommand('chainExplorer.restartMockNode', { pendingIdentity: 'null' });
      const block = await waitFor('pending (latest+1)', async () => {
        const b = await nodeAt(explorer, [PUBLIC, 'pending (latest+1)']);
        return b;
      });
      assert.match(block.spec.description ?? '', /^hash null · \d+ tx$/);
      await waitFor('status bar pending #N.k', () => /pending #\d+\.\d+/.test(explorer.statusBarText() ?? ''));
    });
  });

  it('sends a test transaction by command and shows it in the pending block', async () => {
    const hash = await vscode.commands.executeCommand<string>('chainExplorer.sendTestTransaction');
    assert.match(hash, /^0x[0-9a-f]{64}$/);
    await waitFor('the test transaction in the pending block', async () => {
      const txs = await childrenAt(explorer, [PUBLIC, 'pending', 'Transactions']);
      return txs.some((t) => t.spec.copyValue === hash);
    });
  });

  it('writes the mock node\'s own log lines to the output channel at the channel\'s level, without secrets', async () => {
    const hash = await vscode.commands.executeCommand<string>('chainExplorer.sendTestTransaction');
    // Seal its block now: the node may run with long blocks here (an earlier test's restart).
    const node = explorer.mockNode.running!;
    await rpc(node.url, 'evm_mine', []);
    const receipt = await waitFor('the receipt', async () => (await rpc(node.url, 'eth_getTransactionReceipt', [hash]) as { blockNumber: string; blockHash: string } | null) ?? undefined);
    const folder = explorer.logUri.fsPath;
    const logText = () => fs.readdirSync(folder).filter((f) => f.endsWith('.log')).map((f) => fs.readFileSync(path.join(folder, f), 'utf8')).join('\n');
    const sealed = `[node] block ${Number(receipt.blockNumber)} sealed hash=${receipt.blockHash}`;
    const text = await waitFor('the node\'s lines for the transaction and its block in the output channel log', () => {
      const now = fs.existsSync(folder) ? logText() : '';
      return now.includes(`[node] transaction ${hash} queued`) && now.includes(sealed) && now;
    });
    assert.match(text, new RegExp(`\\[info\\] \\[node\\] transaction ${hash} queued from=0x[0-9a-f]{40} to=0x[0-9a-f]{40} nonce=\\d+`));
    assert.match(text, new RegExp(`\\[info\\] \\[node\\] block ${Number(receipt.blockNumber)} sealed hash=${receipt.blockHash} transactions=[1-9]`));
    // The channel is at Info: the node does not log (or even format) its per-call debug lines.
    assert.ok(!/\[node\] eth_getBlockByNumber/.test(text), 'per-call debug lines at the Info level');
    assert.ok(!text.includes(explorer.mockNode.running!.apiKey), 'the dedicated key reached the log');
  });

  it('opens a block as JSON in a read-only editor', async () => {
    const block = await nodeAt(explorer, [PUBLIC, 'pending']);
    await vscode.commands.executeCommand('chainExplorer.openJson', block);
    const editor = await waitFor('the JSON editor', () => vscode.window.activeTextEditor?.document.uri.scheme === 'chain-explorer-json' && vscode.window.activeTextEditor);
    const json = JSON.parse(editor.document.getText()) as { parentHash: string; transactions: unknown[] };
    assert.match(json.parentHash, /^0x[0-9a-f]{64}$/);
    assert.equal(editor.document.languageId, 'json');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
