// Transactions you can read, in a real VS Code with the bundled mock node: a token transfer found
// by hash shows its decoded transfer on the result row itself; Go to from an endpoint's row asks
// nothing; the transaction page of a capture moves from pre-confirmed to included and links the
// consumed authorization; a call decoded with an ABI from the workspace's Foundry output.
import * as assert from 'node:assert/strict';
import { hexlify, Interface, randomBytes } from 'ethers';
import * as vscode from 'vscode';
import { buildTypedData, STABLE_TOKEN_ABI } from '../../../mock-node/tokenKit/index';
import type { ChainExplorerApi } from '../../../extension/main';
import type { ExplorerNode } from '../../../extension/explorer/treeProvider';
import { api, rpc, showExplorer, waitFor } from './helpers';
import { COUNTER, CREATION_CODE, FAIL_REASON, RUNTIME_CODE } from '../../extension/counterContract';

const TOKEN = '0x3600000000000000000000000000000000000000';
const token = new Interface(STABLE_TOKEN_ABI);

async function receiptOf(url: string, hash: string): Promise<{ status: string; blockNumber: string }> {
  return waitFor(`the receipt of ${hash}`, async () => (await rpc(url, 'eth_getTransactionReceipt', [hash])) as { status: string; blockNumber: string } | null ?? undefined, 30_000);
}

describe('transactions you can read', function () {
  this.timeout(120_000);
  let explorer: ChainExplorerApi;
  let publicRow: ExplorerNode;

  before(async () => {
    explorer = await api();
    await showExplorer();
    await vscode.commands.executeCommand('chainExplorer.startMockNode');
    publicRow = await waitFor('the public endpoint', async () => (await explorer.tree.getChildren()).find((r) => r.spec.label === 'Mock node (public)'));
    await waitFor('its block row', async () => (await explorer.tree.getChildren(publicRow)).some((c) => /^latest #\d+$/.test(c.spec.label)));
  });

  after(async () => {
    await vscode.commands.executeCommand('chainExplorer.stopMockNode');
  });

  it('Go to from an endpoint row asks nothing, and a token transfer found by hash reads as the transfer on its row', async () => {
    const node = explorer.mockNode.running!;
    const [from, to] = node.accounts;
    const hash = await rpc(node.url, 'eth_sendTransaction', [{ from: from.address, to: TOKEN, data: token.encodeFunctionData('transfer', [to.address, 1_234_567n]) }]) as string;
    await receiptOf(node.url, hash);
    // Two endpoints: a Go to that asked which one would wait for a quick pick and never resolve.
    assert.equal(explorer.registry.list().length, 2);
    const outcome = await vscode.commands.executeCommand<{ ok: boolean; nodeId?: string }>('chainExplorer.goTo', publicRow, hash);
    assert.ok(outcome?.ok, JSON.stringify(outcome));
    const row = await waitFor('the result row', () => explorer.tree.node(outcome.nodeId!));
    const short = `${to.address.slice(0, 6)}…${to.address.slice(-4)}`;
    assert.equal(row.spec.label.toLowerCase(), `transfer 1.234567 usdc to ${short}`.toLowerCase(), 'the decoded call is the label: nothing to expand');
    assert.match(row.spec.description ?? '', /^success · #\d+ · tx 0x[0-9a-f]{8}…[0-9a-f]{6}$/);
    assert.match(row.spec.tooltip ?? '', new RegExp(hash));
    assert.equal(row.spec.copyValue, hash, 'the full hash is what Copy Value copies');
    const item = explorer.tree.getTreeItem(row);
    assert.match(String(item.contextValue), /^transaction\b/, 'the row offers Open Transaction Page');
  });

  it('the transaction page of a capture moves from pre-confirmed in a flashblock to included, and links the authorization', async () => {
    // Long blocks: the capture stays pre-confirmed in the pending block until the test mines.
    await vscode.commands.executeCommand('chainExplorer.restartMockNode', { blockTimeMs: 60_000, flashblockMs: 200 });
    const node = explorer.mockNode.running!;
    const endpoint = explorer.registry.list().find((e) => e.name === 'Mock node (public)')!;
    const [payer, merchant] = node.accounts;
    const message = { from: payer.address, to: merchant.address, value: 1_000_000n, validAfter: 0n, validBefore: BigInt(Math.floor(Date.now() / 1000) + 3600), nonce: hexlify(randomBytes(32)) };
    const read = async (name: string) => token.decodeFunctionResult(name, await rpc(node.url, 'eth_call', [{ to: TOKEN, data: token.encodeFunctionData(name, []) }, 'latest']) as string)[0] as string;
    const typed = buildTypedData('TransferWithAuthorization', { name: await read('name'), version: await read('version'), chainId: 31337n, verifyingContract: TOKEN }, message);
    const signature = await rpc(node.url, 'eth_signTypedData_v4', [payer.address, JSON.stringify(typed)]) as string;
    const data = token.encodeFunctionData('transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)', [
      message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, signature,
    ]);
    const hash = await rpc(node.url, 'eth_sendTransaction', [{ from: merchant.address, to: TOKEN, data }]) as string;
    await receiptOf(node.url, hash); // pre-confirmed: the receipt of the pending block
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('chainExplorer.openTransaction', endpoint.id, hash);
    const doc = editor.document;
    assert.equal(doc.uri.scheme, 'chain-tx');
    assert.match(doc.getText(), /Stage: +pre-confirmed in the pending block #\d+/);
    assert.match(doc.getText(), /Action: +transferWithAuthorization 1 USDC 0x\w{4}…\w{4} → 0x\w{4}…\w{4} · nonce 0x/);
    assert.match(doc.getText(), /Token movements \(1\)\n  Transfer 1 USDC/);
    assert.match(doc.getText(), new RegExp(`Authorization: +used: authorizer ${payer.address} nonce ${message.nonce} \\(open in Authorizations\\)`, 'i'));
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', doc.uri);
    assert.ok(links.some((l) => l.target?.toString().startsWith('command:chainExplorer.authorizations.show')), 'the authorization is a link');
    assert.ok(links.some((l) => l.target?.toString().startsWith('command:chainExplorer.goTo')), 'addresses and the block are links');

    await rpc(node.url, 'evm_mine', []);
    await waitFor('the page to say included', () => /Stage: +(included|safe|finalized) in block #\d+ \(1 confirmation\)/.test(doc.getText()), 20_000);
    assert.match(doc.getText(), /Status: +success/);
    assert.match(doc.getText(), /  fee: +0\.\d+ ETH/);
    // The trace: served, or said that it is not.
    assert.match(doc.getText(), /Call trace \(debug_traceTransaction, callTracer\)\n  (CALL |this endpoint does not serve debug_traceTransaction)/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Go to from the palette, with two endpoints and no row to go by, asks once this session and then uses that endpoint', async () => {
    assert.ok(explorer.registry.list().length >= 2, 'two endpoints: Go to cannot know which one');
    // No selected row (Go to would take its endpoint): focus the tree and clear its selection.
    const dedicated = explorer.registry.list().find((e) => e.name === 'Mock node (dedicated)')!;
    let first: Thenable<{ ok: boolean; nodeId?: string } | undefined>;
    for (let attempt = 1; ; attempt++) {
      await vscode.commands.executeCommand('chainExplorer.rpcExplorer.focus');
      await vscode.commands.executeCommand('list.clear');
      await waitFor('no selected row', () => explorer.treeView.selection.length === 0, 5000);
      let settled = false;
      first = vscode.commands.executeCommand<{ ok: boolean; nodeId?: string }>('chainExplorer.goTo', undefined, '1')
        .then((outcome) => { settled = true; return outcome; });
      // It asks: the quick pick waits for an answer.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      if (!settled) break;
      // It went without asking: a row was selected after the clear (seen once in CI, cause not
      // established; likely the previous Go to's reveal reapplied by a tree refresh). Try again;
      // a Go to that never asks fails on the third try.
      assert.ok(attempt < 3, 'the first Go to asks which endpoint');
    }
    // Choose the dedicated endpoint (the second item) as a person would, with the keyboard.
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const outcome = await first;
    assert.ok(outcome?.ok, JSON.stringify(outcome));
    assert.ok(outcome.nodeId!.startsWith(`${dedicated.id}/`), `went to ${outcome.nodeId} on the chosen endpoint`);
    // The second time it asks nothing: it resolves on its own, on the endpoint chosen before.
    await vscode.commands.executeCommand('chainExplorer.rpcExplorer.focus');
    await vscode.commands.executeCommand('list.clear');
    await waitFor('no selected row', () => explorer.treeView.selection.length === 0, 5000);
    const second = await Promise.race([
      vscode.commands.executeCommand<{ ok: boolean; nodeId?: string }>('chainExplorer.goTo', undefined, '1'),
      new Promise<'asked'>((resolve) => setTimeout(() => resolve('asked'), 10_000)),
    ]);
    if (second === 'asked') {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.fail('the second Go to asked again');
    }
    assert.ok(second?.ok && second.nodeId!.startsWith(`${dedicated.id}/`), JSON.stringify(second));
  });

  it('a transaction page is read only while it is seen: hidden it keeps its text, shown again it catches up once', async () => {
    // Still the long blocks of the test before: the transfer stays pre-confirmed until the test mines.
    const node = explorer.mockNode.running!;
    const endpoint = explorer.registry.list().find((e) => e.name === 'Mock node (public)')!;
    const [from, to] = node.accounts;
    const hash = await rpc(node.url, 'eth_sendTransaction', [{ from: from.address, to: TOKEN, data: token.encodeFunctionData('transfer', [to.address, 5n]) }]) as string;
    await receiptOf(node.url, hash);
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('chainExplorer.openTransaction', endpoint.id, hash);
    const page = editor.document;
    assert.match(page.getText(), /Stage: +pre-confirmed/);
    // Another editor in the same place: the page is open but not seen.
    const otherFile = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'another-editor.txt');
    await vscode.workspace.fs.writeFile(otherFile, new TextEncoder().encode('another editor\n'));
    const other = await vscode.workspace.openTextDocument(otherFile);
    await vscode.window.showTextDocument(other, { viewColumn: editor.viewColumn, preview: false });
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document === page), 'the page is hidden');
    await rpc(node.url, 'evm_mine', []);
    // A page that went on reading would say included within a flashblock or two.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    assert.match(explorer.pages.textOf(page.uri) ?? '', /Stage: +pre-confirmed/, 'a hidden page is not read');
    await vscode.window.showTextDocument(page, { viewColumn: editor.viewColumn, preview: false });
    await waitFor('the page shown again to say included', () => /Stage: +included in block #\d+/.test(explorer.pages.textOf(page.uri) ?? ''), 10_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(otherFile);
  });

  it('decodes a call to a deployed contract with the ABI of a Foundry artifact in the workspace; its deployment shows the created address, a failed call its revert reason', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const artifact = vscode.Uri.joinPath(folder, 'out', 'Counter.sol', 'Counter.json');
    await vscode.workspace.fs.writeFile(artifact, new TextEncoder().encode(JSON.stringify({ abi: JSON.parse(COUNTER.formatJson()), bytecode: { object: CREATION_CODE } })));
    try {
      await explorer.reloadAbis();
      const node = explorer.mockNode.running!;
      const from = node.accounts[2].address;
      /** Waits for the transaction's pre-confirmation, seals its block and waits until it is the head. */
      const sealed = async (hash: string): Promise<{ blockNumber: string; contractAddress?: string }> => {
        await receiptOf(node.url, hash);
        await rpc(node.url, 'evm_mine', []);
        const receipt = await receiptOf(node.url, hash) as unknown as { blockNumber: string; contractAddress?: string };
        await waitFor('its block sealed', async () => BigInt(await rpc(node.url, 'eth_blockNumber', []) as string) >= BigInt(receipt.blockNumber), 20_000);
        return receipt;
      };
      // A real deployment: the node runs the creation code (its EVM) and the contract runs the calls.
      const deploy = await rpc(node.url, 'eth_sendTransaction', [{ from, data: CREATION_CODE }]) as string;
      const contract = (await sealed(deploy)).contractAddress!;
      assert.equal(await rpc(node.url, 'eth_getCode', [contract, 'latest']), RUNTIME_CODE);
      const short = `${contract.slice(0, 6)}…${contract.slice(-4)}`.toLowerCase();
      const hash = await rpc(node.url, 'eth_sendTransaction', [{ from, to: contract, data: COUNTER.encodeFunctionData('setNumber', [42]) }]) as string;
      const failing = await rpc(node.url, 'eth_sendTransaction', [{ from, to: contract, data: COUNTER.encodeFunctionData('fail'), gas: '0x30000' }]) as string;
      await receiptOf(node.url, hash);
      await sealed(failing);
      assert.equal(BigInt(await rpc(node.url, 'eth_call', [{ to: contract, data: COUNTER.encodeFunctionData('number') }, 'latest']) as string), 42n);

      const goTo = async (target: string) => {
        const outcome = await vscode.commands.executeCommand<{ ok: boolean; nodeId?: string }>('chainExplorer.goTo', publicRow, target);
        assert.ok(outcome?.ok, JSON.stringify(outcome));
        return outcome.nodeId!;
      };
      // The deployment, found by hash: the created address leads its row, and is a link.
      const deployId = await goTo(deploy);
      const deployRow = await waitFor('the deployment row', () => explorer.tree.node(deployId));
      assert.equal(deployRow.spec.label.toLowerCase(), `create contract ${short} · ${(CREATION_CODE.length - 2) / 2} bytes`);
      const createdRow = (await explorer.tree.getChildren(deployRow)).find((c) => c.spec.label === 'created contract');
      assert.equal(createdRow?.spec.copyValue?.toLowerCase(), contract.toLowerCase());

      // The call, found by hash: the function from the workspace's ABI, its selector beside it.
      const callId = await goTo(hash);
      const row = await waitFor('the decoded row', () => {
        const found = explorer.tree.node(callId);
        return found && found.spec.label.startsWith('setNumber') ? found : undefined;
      });
      assert.equal(row.spec.label.toLowerCase(), `setnumber 42 · ${short}`);
      const call = (await explorer.tree.getChildren(row)).find((c) => c.spec.label.startsWith('call:'));
      assert.equal(call?.spec.label, 'call: setNumber');
      assert.equal(call?.spec.description, '0x3fb5c1cb · ABI out/Counter.sol/Counter.json');

      // Their block, found by number: the failed call's row says why it reverted.
      const block = Number((await rpc(node.url, 'eth_getTransactionReceipt', [failing]) as { blockNumber: string }).blockNumber);
      const blockId = await goTo(String(block));
      const blockRow = await waitFor('the block row', () => explorer.tree.node(blockId));
      const transactions = (await explorer.tree.getChildren(blockRow)).find((c) => c.spec.label === 'Transactions')!;
      const rows = await explorer.tree.getChildren(transactions);
      const failedRow = rows.find((r) => r.spec.copyValue === failing);
      assert.match(failedRow?.spec.description ?? '', new RegExp(`^reverted: ${FAIL_REASON} · 0x`));
      assert.equal((await explorer.tree.getChildren(failedRow!))[0].spec.label, `reverted: ${FAIL_REASON}`);
      assert.match(rows.find((r) => r.spec.copyValue === hash)?.spec.label ?? '', /^#\d+ setNumber 42 · /);
    } finally {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, 'out'), { recursive: true });
    }
  });
});
