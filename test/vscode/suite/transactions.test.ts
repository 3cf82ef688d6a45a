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

  it('decodes a call with the ABI of a Foundry artifact in the workspace', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const artifact = vscode.Uri.joinPath(folder, 'out', 'Counter.sol', 'Counter.json');
    const counter = new Interface(['function setNumber(uint256 newNumber)', 'function increment()']);
    await vscode.workspace.fs.writeFile(artifact, new TextEncoder().encode(JSON.stringify({ abi: counter.fragments.map((f) => JSON.parse(f.format('json'))), bytecode: { object: '0x' } })));
    try {
      await explorer.reloadAbis();
      const node = explorer.mockNode.running!;
      // The mock node has no EVM yet (issue 23): the call goes to an address without code, which
      // the node accepts as a plain transfer carrying calldata; the explorer decodes it by selector.
      const contract = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
      const hash = await rpc(node.url, 'eth_sendTransaction', [{ from: node.accounts[2].address, to: contract, data: counter.encodeFunctionData('setNumber', [42]) }]) as string;
      await rpc(node.url, 'evm_mine', []);
      await receiptOf(node.url, hash);
      const outcome = await vscode.commands.executeCommand<{ ok: boolean; nodeId?: string }>('chainExplorer.goTo', publicRow, hash);
      assert.ok(outcome?.ok, JSON.stringify(outcome));
      const row = await waitFor('the decoded row', () => {
        const found = explorer.tree.node(outcome.nodeId!);
        return found && found.spec.label.startsWith('setNumber') ? found : undefined;
      });
      assert.equal(row.spec.label.toLowerCase(), 'setnumber 42 · 0x5fbd…0aa3');
      const call = (await explorer.tree.getChildren(row)).find((c) => c.spec.label.startsWith('call:'));
      assert.equal(call?.spec.label, 'call: setNumber');
      assert.equal(call?.spec.description, 'ABI out/Counter.sol/Counter.json');
    } finally {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, 'out'), { recursive: true });
    }
  });
});
