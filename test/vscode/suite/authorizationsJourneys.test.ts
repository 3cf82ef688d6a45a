// The authorization journeys of issue 10 in a real VS Code, driven through commands only, against
// the bundled mock node: the merchant is told the truth about payment (the capture's own evidence,
// stages up to confirmation, a capture in flight, a reorganization, an old cancel found at any
// depth), the wallet developer copies typed data and pastes signatures made in their own wallet,
// the buyer relays their own cancel, the Chain view's mock-node commands make every failed capture
// of the seed happen, and the safety rails (export location and mode, development keys and
// confirmations on other chains, the inspector's dry run).
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Interface, Wallet } from 'ethers';
import type { ChainExplorerApi } from '../../../extension/main';
import { vscodePrompts, type CommandOutcome, type InspectResult, type Prompts, type RevealResult } from '../../../extension/authorizations/commands';
import type { LifecycleState } from '../../../extension/authorizations/model';
import type { PastedVerdict } from '../../../extension/authorizations/pasted';
import { AuthorizationObserver, type AuthorizationNode } from '../../../extension/authorizations/view';
import { STABLE_TOKEN_ABI } from '../../../mock-node/tokenKit/index';
import type { RunningMockNode } from '../../../mock-node/index';
import { api, EXTENSION_ID, rpc, waitFor } from './helpers';

const token = new Interface(STABLE_TOKEN_ABI);
const ENDPOINT = 'ep:mock:public';
const run = <T>(id: string, arg?: unknown): Thenable<T> => vscode.commands.executeCommand<T>(`chainExplorer.authorizations.${id}`, arg);
const demo = <T>(id: string, arg?: unknown): Thenable<T> => vscode.commands.executeCommand<T>(`chainExplorer.mockNode.${id}`, arg);

/** Signs the copied eth_signTypedData_v4 JSON as a wallet does (EIP712Domain is implied by the domain). */
async function walletSigns(wallet: Wallet, json: string, change: (p: { domain: Record<string, unknown>; primaryType: string; message: Record<string, unknown> }) => void = () => undefined): Promise<string> {
  const payload = JSON.parse(json) as { types: Record<string, { name: string; type: string }[]>; domain: Record<string, unknown>; primaryType: string; message: Record<string, unknown> };
  change(payload);
  const { EIP712Domain: _domain, ...types } = payload.types;
  const primary = types[payload.primaryType] ?? Object.values(types)[0];
  return wallet.signTypedData(payload.domain, { [payload.primaryType]: primary }, payload.message);
}

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
function highS(signature: string): string {
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = parseInt(signature.slice(130), 16);
  return `${signature.slice(0, 66)}${(N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}`;
}

describe('Authorization journeys from the commands alone', function () {
  this.timeout(180_000);
  let explorer: ChainExplorerApi;
  let node: RunningMockNode;
  let url: string;
  const lastError = (): string => explorer.authorizations.commands.lastError ?? '';

  async function call(fn: string, args: unknown[], tag = 'pending'): Promise<ReturnType<Interface['decodeFunctionResult']>> {
    const data = token.encodeFunctionData(fn, args);
    return token.decodeFunctionResult(fn, await rpc(url, 'eth_call', [{ to: node.tokenAddress, data }, tag]) as string);
  }
  const balance = async (account: string): Promise<bigint> => (await call('balanceOf', [account]))[0] as bigint;

  async function stateOf(key: string) {
    await explorer.authorizations.tree.refresh();
    return explorer.authorizations.tree.observer.stateOf(explorer.authorizations.store.get(key)!);
  }
  async function expectState(key: string, state: LifecycleState): Promise<void> {
    const groups = await explorer.authorizations.groups();
    assert.ok(groups[state].includes(key), `${key} is ${state}; groups: ${JSON.stringify(groups)}`);
  }
  /** Draft → sign (the endpoint's account) → store; returns the key. */
  async function stored(payer: string, merchant: string, amount: string, orderId: string, route?: string): Promise<string> {
    const key = await run<string>('draft', { endpointId: ENDPOINT, payer, merchant, amount, ...(route ? { route } : {}) });
    assert.ok(key, lastError());
    assert.equal((await run<CommandOutcome>('sign', { key }))?.state?.state, 'Signed', lastError());
    assert.equal((await run<CommandOutcome>('store', { key, orderId }))?.state?.state, 'Stored', lastError());
    return key;
  }
  async function restart(options: Record<string, unknown>): Promise<void> {
    url = await vscode.commands.executeCommand<string>('chainExplorer.restartMockNode', options);
    node = explorer.mockNode.running!;
    await waitFor('the mock endpoint', () => explorer.registry.get(ENDPOINT));
  }

  before(async () => {
    explorer = await api();
    url = await vscode.commands.executeCommand<string>('chainExplorer.startMockNode');
    node = explorer.mockNode.running!;
    await vscode.commands.executeCommand('workbench.view.extension.chain');
    await vscode.commands.executeCommand('chainExplorer.authorizations.focus');
  });

  after(async () => {
    explorer.authorizations.commands.ui = vscodePrompts;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('chainExplorer.stopMockNode');
  });

  it('wrong answer 1: a second signature for the same nonce, paying someone else, is "Consumed elsewhere: not paid", naming its transaction', async () => {
    const [payer, merchant, stranger] = [node.accounts[1].address, node.accounts[2].address, Wallet.createRandom().address];
    const key = await stored(payer, merchant, '2', 'order-twice');
    const a = explorer.authorizations.store.get(key)!.authorization;
    const merchantBefore = await balance(merchant);
    // The payer signs TransferWithAuthorization with the same nonce to another recipient and submits it.
    const domain = explorer.authorizations.store.get(key)!.domain!;
    const other = { ...a, to: stranger };
    const payload = JSON.stringify({
      types: {
        EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'version', type: 'string' }, { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' }],
        TransferWithAuthorization: ['from:address', 'to:address', 'value:uint256', 'validAfter:uint256', 'validBefore:uint256', 'nonce:bytes32'].map((f) => ({ name: f.split(':')[0], type: f.split(':')[1] })),
      },
      primaryType: 'TransferWithAuthorization', domain, message: { ...other, validAfter: String(other.validAfter), validBefore: String(other.validBefore) },
    });
    const signature = await rpc(url, 'eth_signTypedData_v4', [payer, payload]) as string;
    const data = token.encodeFunctionData('transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)',
      [other.from, other.to, BigInt(other.value), other.validAfter, other.validBefore, other.nonce, signature]);
    const hash = await rpc(url, 'eth_sendTransaction', [{ from: payer, to: node.tokenAddress, data }]) as string;
    await waitFor('the second transfer sealed', async () => {
      const receipt = await rpc(url, 'eth_getTransactionReceipt', [hash]) as { blockNumber: string } | null;
      return receipt && Number(BigInt(receipt.blockNumber)) <= Number(BigInt(await rpc(url, 'eth_blockNumber') as string));
    }, 20_000);
    assert.equal(await balance(merchant), merchantBefore, 'the merchant was not paid');
    await waitFor('Consumed elsewhere, its transaction found', async () => (await stateOf(key)).consumedBy?.hash === hash, 30_000);
    await expectState(key, 'Consumed elsewhere');
    const derived = await stateOf(key);
    assert.equal(derived.consumedBy?.hash, hash);
    assert.match(derived.note, new RegExp(`^not paid: the nonce was consumed by ${hash} .*which moved 2 to ${stranger.toLowerCase()}, not 2 to ${merchant}`));
    assert.equal(await run('capture', { key }), undefined);
    assert.match(lastError(), /only a stored authorization can be captured \(it is Consumed elsewhere\)/);
  });

  it('the wallet developer: Copy Typed Data → their own wallet → Paste Signature: the inspector refuses v 0/1, high s, a wrong signer, type or domain before anything is sent, then accepts', async () => {
    const payerWallet = new Wallet(node.accounts[3].privateKey);
    const merchant = node.accounts[2].address;
    const key = await run<string>('draft', { endpointId: ENDPOINT, payer: payerWallet.address, merchant, amount: '1.25' });
    const json = await run<string>('copyTypedData', { key });
    assert.ok(json, lastError());
    const copied = JSON.parse(json) as { primaryType: string; domain: { chainId: string }; types: Record<string, unknown> };
    assert.equal(copied.primaryType, 'ReceiveWithAuthorization');
    assert.ok(copied.types.EIP712Domain, 'with EIP712Domain, as eth_signTypedData_v4 takes it');
    const good = await walletSigns(payerWallet, json);
    const v = parseInt(good.slice(130), 16);
    const countBefore = await rpc(url, 'eth_getTransactionCount', [merchant, 'pending']);
    const refusals: [string, string, RegExp][] = [
      ['v 0/1', `${good.slice(0, 130)}0${v - 27}`, /v is [01], the token accepts 27 or 28/],
      ['high s', highS(good), /upper half/],
      ['wrong signer', await walletSigns(new Wallet(node.accounts[5].privateKey), json), new RegExp(`not the payer ${payerWallet.address}`)],
      ['wrong type', await walletSigns(payerWallet, json.replace(/ReceiveWithAuthorization/g, 'TransferWithAuthorization')), /signed as TransferWithAuthorization but the capture route is receiveWithAuthorization/],
      ['wrong domain', await walletSigns(payerWallet, json, (p) => { p.domain.chainId = '1'; }), new RegExp(`not the payer ${payerWallet.address}`)],
    ];
    for (const [name, signature, reason] of refusals) {
      const verdict = await run<PastedVerdict>('pasteSignature', { key, message: 'authorization', signature, show: name === 'wrong type' });
      assert.ok(verdict, `${name}: ${lastError()}`);
      assert.equal(verdict.accepted, false, name);
      assert.ok(verdict.checks.some((c) => c.status === 'fail' && reason.test(c.detail)), `${name}: ${JSON.stringify(verdict.checks)}`);
      await expectState(key, 'Drafted');
    }
    const document = await waitFor('the verdict document', () => vscode.window.activeTextEditor?.document.uri.scheme === 'chain-authorization' && vscode.window.activeTextEditor.document);
    assert.match(document.getText(), /\*\*Verdict:\*\* Refused: .*Nothing was kept or sent/);
    assert.equal(await explorer.authorizations.store.signature(key), undefined, 'a refused signature is not kept');
    const accepted = await run<PastedVerdict>('pasteSignature', { key, message: 'authorization', signature: good, show: false });
    assert.equal(accepted.accepted, true, JSON.stringify(accepted.checks));
    assert.equal(explorer.authorizations.store.get(key)!.signedWith, 'pasted');
    assert.equal(await rpc(url, 'eth_getTransactionCount', [merchant, 'pending']), countBefore, 'nothing was sent');
    await expectState(key, 'Signed');
    await run('store', { key, orderId: 'order-wallet' });
    const captured = await run<CommandOutcome>('capture', { key });
    assert.equal(captured?.tx?.status, 'success', lastError());
    assert.equal(captured.state?.state, 'Used');
  });

  it("after a capture, the authorization reveals its transaction in the RPC Explorer (receipt status and block), also once its block is no longer latest", async () => {
    const [payer, merchant] = [node.accounts[1].address, node.accounts[2].address];
    const key = await stored(payer, merchant, '0.5', 'order-reveal');
    const menuOf = (state: LifecycleState): string[] => String(explorer.authorizations.tree.getTreeItem({ kind: 'authorization', key, state }).contextValue).split(' ');
    assert.ok(!menuOf('Stored').includes('reveal'), 'nothing to reveal before a transaction');
    assert.equal(await run('revealTransaction', { key }), undefined);
    assert.match(lastError(), /no transaction was sent or found for this authorization yet \(it is Stored\)/);
    const captured = await run<CommandOutcome>('capture', { key });
    assert.equal(captured?.tx?.status, 'success', lastError());
    const hash = captured.tx!.hash;
    const block = captured.tx!.blockNumber!;
    await rpc(url, 'evm_mine', [3]);
    assert.ok(Number(BigInt(await rpc(url, 'eth_blockNumber') as string)) > block, 'its block is no longer latest');
    await expectState(key, 'Used');
    assert.ok(menuOf('Used').includes('reveal'), menuOf('Used').join(' '));
    // From the view's context menu: the node is the argument, and the only transaction needs no choice.
    const revealed = await run<RevealResult>('revealTransaction', { kind: 'authorization', key, state: 'Used' } satisfies AuthorizationNode);
    assert.ok(revealed, lastError());
    assert.equal(revealed.role, 'capture');
    assert.equal(revealed.hash, hash);
    assert.ok(revealed.outcome?.ok, JSON.stringify(revealed.outcome));
    const nodeId = revealed.outcome.nodeId;
    assert.match(nodeId, new RegExp(`/found/transaction/${hash}$`));
    await waitFor('the capture selected in the RPC Explorer', () => explorer.treeView.selection[0]?.id === nodeId);
    assert.match(explorer.treeView.selection[0].spec.description ?? '', new RegExp(`^success · #${block} · `));
    assert.equal(await run('revealTransaction', { key, transaction: 'cancel' }), undefined);
    assert.match(lastError(), /no cancel transaction \(it has: capture\)/);
  });

  it('the buyer signs the cancellation in their wallet and relays it themselves', async () => {
    const payerWallet = new Wallet(node.accounts[3].privateKey);
    const merchant = node.accounts[2].address;
    const key = await stored(payerWallet.address, merchant, '3', 'order-buyer-cancel');
    const json = await run<string>('copyTypedData', { key, message: 'cancel' });
    assert.equal(JSON.parse(json).primaryType, 'CancelAuthorization');
    const wrong = await run<PastedVerdict>('pasteSignature', { key, message: 'cancel', signature: await walletSigns(new Wallet(node.accounts[6].privateKey), json), show: false });
    assert.equal(wrong.accepted, false);
    assert.match(wrong.checks[0].detail, /not the payer/);
    const ok = await run<PastedVerdict>('pasteSignature', { key, message: 'cancel', signature: await walletSigns(payerWallet, json), show: false });
    assert.equal(ok.accepted, true, JSON.stringify(ok.checks));
    const canceled = await run<CommandOutcome>('cancel', { key, relayer: 'payer' });
    assert.equal(canceled?.tx?.status, 'success', lastError());
    const receipt = await rpc(url, 'eth_getTransactionReceipt', [canceled.tx.hash]) as { from: string };
    assert.equal(receipt.from.toLowerCase(), payerWallet.address.toLowerCase(), 'the buyer sent it');
    await expectState(key, 'Canceled');
  });

  it("the Chain view's mock-node commands make each failed capture of the seed happen; Inspect and Capture show the token's reason", async () => {
    const menus = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { menus: { 'view/title': { command: string; when: string }[] } } }).contributes.menus['view/title'];
    for (const id of ['sendToken', 'pauseToken', 'unpauseToken', 'blocklist', 'unblocklist', 'advanceTime']) {
      assert.ok(menus.some((m) => m.command === `chainExplorer.mockNode.${id}` && /chainExplorer\.rpcExplorer/.test(m.when)), `${id} is in the Chain view`);
    }
    const [payer, merchant, elsewhere] = [node.accounts[4].address, node.accounts[2].address, node.accounts[7].address];
    const key = await stored(payer, merchant, '1', 'order-demo');
    const reasonOf = async (): Promise<string | undefined> => (await run<InspectResult>('inspect', { key, show: false })).inspection.checks.find((c) => c.id === 'dryRun')?.detail;
    const cannotCapture = async (reason: string): Promise<void> => {
      assert.equal(await reasonOf(), `reverts: ${reason}`);
      assert.equal(await run('capture', { key }), undefined);
      assert.ok(lastError().includes(reason), lastError());
    };
    // The payer moves the funds away: all of them.
    const all = await balance(payer);
    const units = `${all / 1_000_000n}.${(all % 1_000_000n).toString().padStart(6, '0')}`;
    assert.match(await demo<string>('sendToken', { from: payer, to: elsewhere, amount: units }) ?? '', /^0x/, explorer.tokenDemo.lastError);
    await waitFor('the funds moved', async () => (await balance(payer)) === 0n);
    await cannotCapture('ERC20: transfer amount exceeds balance');
    await demo('sendToken', { from: elsewhere, to: payer, amount: units });
    await waitFor('the funds back', async () => (await balance(payer)) === all);
    // The token is paused.
    assert.equal(await demo('pauseToken'), true, explorer.tokenDemo.lastError);
    await cannotCapture('Pausable: paused');
    await demo('unpauseToken');
    // The payer is blocklisted.
    assert.equal(await demo('blocklist', { account: payer }), payer, explorer.tokenDemo.lastError);
    await cannotCapture('Blacklistable: account is blacklisted');
    await demo('unblocklist', { account: payer });
    assert.match(await reasonOf() ?? '', /^succeeds/, 'capturable again');
    // Time passes beyond validBefore.
    assert.equal(await demo('advanceTime', { minutes: 16 }), 16, explorer.tokenDemo.lastError);
    await expectState(key, 'Expired');
    assert.equal(await reasonOf(), 'reverts: FiatTokenV2: authorization is expired');
    assert.equal(await demo('advanceTime', { minutes: 0 }), undefined);
    assert.match(explorer.tokenDemo.lastError ?? '', /minutes must be a whole number above 0/);
  });

  it("wrong answer 5: .authorization.json diagnostics use the chain's clock for the file's chain and token, and say which clock", async () => {
    const key = await stored(node.accounts[1].address, node.accounts[2].address, '0.5', 'order-clock');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'auth-clock-')), 'order-clock.authorization.json');
    await run('export', { key, path: file, confirmed: true });
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(document);
    await explorer.language.whenReady();
    // The chain's clock jumps past validBefore; this computer's clock does not.
    await rpc(url, 'evm_increaseTime', [3600]);
    await rpc(url, 'evm_mine');
    await run('refresh');
    const expired = await waitFor('expired by the chain\'s block time', () => vscode.languages.getDiagnostics(document.uri)
      .find((d) => String(typeof d.code === 'object' ? d.code.value : d.code) === 'expired'), 30_000);
    assert.match(expired.message, /^expired by block time of Mock node \((public|dedicated)\): validBefore/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('safety: Export defaults outside the workspace, warns naming .gitignore inside it, and writes mode 0600 also over an existing file', async () => {
    const key = await stored(node.accounts[1].address, node.accounts[2].address, '0.5', 'order-export');
    let offered: vscode.Uri | undefined;
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'auth-export-')), 'order-export.authorization.json');
    const ui: Prompts = {
      ...vscodePrompts,
      quickPick: async (items) => items.find((i) => (i as unknown as { key?: string }).key === key),
      confirm: async () => true,
      saveDialog: async (options) => { offered = options.defaultUri; return vscode.Uri.file(target); },
    };
    explorer.authorizations.commands.ui = ui;
    try {
      await run('export');
    } finally {
      explorer.authorizations.commands.ui = vscodePrompts;
    }
    assert.ok(offered, lastError());
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    assert.ok(folders.length > 0, 'the test window has a workspace');
    assert.ok(folders.every((f) => path.relative(f, offered!.fsPath).startsWith('..')), `${offered.fsPath} is outside ${folders.join(', ')}`);
    assert.equal(offered.fsPath, path.join(os.homedir(), 'order-export.authorization.json'));
    assert.equal(fs.statSync(target).mode & 0o777, 0o600);
    const inside = path.join(folders[0], `export-${randomBytes(4).toString('hex')}.authorization.json`);
    assert.equal(await run('export', { key, path: inside, confirmed: true }), undefined);
    assert.match(lastError(), /inside the workspace folder .*\.gitignore/);
    assert.equal(fs.existsSync(inside), false, 'nothing written');
    fs.writeFileSync(inside, '{}', { mode: 0o644 });
    fs.chmodSync(inside, 0o644);
    try {
      assert.ok(await run('export', { key, path: inside, confirmed: true, insideWorkspace: true }), lastError());
      assert.equal(fs.statSync(inside).mode & 0o777, 0o600, 'narrowed when overwriting');
      assert.equal(JSON.parse(fs.readFileSync(inside, 'utf8')).orderId, 'order-export');
    } finally {
      fs.rmSync(inside, { force: true });
    }
  });

  it('safety: the inspector says its dry run sends the signature, and it can be turned off per endpoint', async () => {
    const key = await stored(node.accounts[1].address, node.accounts[2].address, '0.25', 'order-dry-run');
    const on = await run<InspectResult>('inspect', { key, show: false });
    assert.match(on.markdown, /The dry run sends the signature to Mock node \(public\)/);
    assert.match(on.inspection.checks.find((c) => c.id === 'dryRun')?.detail ?? '', /^succeeds/);
    const config = vscode.workspace.getConfiguration('chainExplorer');
    await config.update('authorizations.dryRunOff', ['Mock node (public)'], vscode.ConfigurationTarget.Workspace);
    try {
      const off = await run<InspectResult>('inspect', { key, show: false });
      assert.equal(off.inspection.checks.find((c) => c.id === 'dryRun')?.detail, 'off for this endpoint');
      assert.match(off.markdown, /Dry run off for Mock node \(public\).*the signature was not sent/);
    } finally {
      await config.update('authorizations.dryRunOff', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('safety: on a chain that is not a development chain, dev keys and a capture need explicit consent showing amount, recipient and chain', async () => {
    const lib = require(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'mock-node-lib.js')) as typeof import('../../../mock-node/index');
    const other = await lib.startMockNode({ port: 0, chainId: 8453, quiet: true });
    const config = vscode.workspace.getConfiguration('chainExplorer');
    const before = config.get<unknown[]>('endpoints');
    try {
      await config.update('endpoints', [{ name: 'Chain 8453 (test)', url: other.url }], vscode.ConfigurationTarget.Workspace);
      const endpoint = await waitFor('the endpoint', () => explorer.registry.list().find((e) => e.name === 'Chain 8453 (test)'));
      const [payer, merchant] = [other.accounts[1].address, other.accounts[2].address];
      const key = await run<string>('draft', { endpointId: endpoint.id, token: other.tokenAddress, payer, merchant, amount: '4' });
      assert.ok(key, lastError());
      assert.equal(await run('sign', { key }), undefined);
      assert.match(lastError(), new RegExp(`The payer ${payer} is a well-known development account .*Refused: pass allowDevKeys: true`));
      assert.equal((await run<CommandOutcome>('sign', { key, allowDevKeys: true }))?.state?.state, 'Signed', lastError());
      await run('store', { key, orderId: 'order-8453' });
      assert.equal(await run('capture', { key }), undefined);
      assert.match(lastError(), new RegExp(`Capture 4 USDC from ${payer} to the recipient ${merchant} on chain 8453 \\(Chain 8453 \\(test\\)\\)\\? This is not the mock node.*pass confirmed: true`));
      assert.equal(await run('capture', { key, confirmed: true }), undefined);
      assert.match(lastError(), /The merchant .* is a well-known development account/);
      const captured = await run<CommandOutcome>('capture', { key, confirmed: true, allowDevKeys: true });
      assert.equal(captured?.tx?.status, 'success', lastError());
      // The interactive path asks, showing the same sentence.
      const second = await run<string>('draft', { endpointId: endpoint.id, token: other.tokenAddress, payer, merchant, amount: '1' });
      await run('sign', { key: second, allowDevKeys: true });
      await run('store', { key: second, orderId: 'order-8453-b' });
      const asked: string[] = [];
      explorer.authorizations.commands.ui = { ...vscodePrompts, confirm: async (message) => { asked.push(message); return false; } };
      try {
        assert.equal(await run('capture', { kind: 'authorization', key: second, state: 'Stored' } satisfies AuthorizationNode), undefined);
      } finally {
        explorer.authorizations.commands.ui = vscodePrompts;
      }
      assert.match(asked[0] ?? '', /^Capture 1 USDC from .* to the recipient .* on chain 8453/);
      assert.equal(lastError(), '', 'declining is not an error');
      await run('void', { key: second });
    } finally {
      await config.update('endpoints', before && (before as unknown[]).length ? before : undefined, vscode.ConfigurationTarget.Workspace);
      await other.stop();
    }
  });

  it('wrong answers 2 and 3: stages submitted → pre-confirmed → included, a second capture refused while in flight, surviving a reload, and a reorg moves it back', async () => {
    await restart({ auto: false });
    const [payer, merchant] = [node.accounts[1].address, node.accounts[2].address];
    const key = await stored(payer, merchant, '5', 'order-stages');
    const capturing = run<CommandOutcome>('capture', { key, timeoutMs: 90_000 });
    const hash = await waitFor('the capture sent', () => explorer.authorizations.store.get(key)?.capture?.hash);
    await waitFor('submitted', async () => (await stateOf(key)).inFlight?.stage === 'submitted');
    assert.equal((await stateOf(key)).state, 'Stored');
    // A second capture is refused, and the view's menu no longer offers Capture.
    assert.equal(await run('capture', { key }), undefined);
    assert.match(lastError(), new RegExp(`in flight \\(${hash} submitted, not in a block yet\\).*a second capture is refused`));
    const item = explorer.authorizations.tree.getTreeItem({ kind: 'authorization', key, state: 'Stored' });
    assert.ok(!String(item.contextValue).split(' ').includes('capture'), String(item.contextValue));
    // A flashblock pre-confirms it: still not paid.
    await rpc(url, 'mock_flashblock');
    await waitFor('pre-confirmed', async () => (await stateOf(key)).inFlight?.stage === 'pre-confirmed');
    await expectState(key, 'Stored');
    // A window reload in the middle: a fresh observer over the same stored records sees it in flight.
    const reloaded = new AuthorizationObserver(explorer.authorizations.store, explorer.registry);
    await reloaded.refresh();
    assert.equal(reloaded.stateOf(explorer.authorizations.store.get(key)!).inFlight?.hash, hash);
    // Sealed: paid.
    await rpc(url, 'evm_mine');
    const outcome = await capturing;
    assert.equal(outcome?.tx?.status, 'success', lastError());
    assert.equal(outcome.sighting?.stage, 'included');
    await expectState(key, 'Used');
    assert.match((await stateOf(key)).note, new RegExp(`^paid: ${hash} included in block \\d+ \\(1 confirmation; not yet at the endpoint's safe block`));
    // A reorganization takes it out of its block: back in flight (the node puts it in the pending block), not paid.
    await rpc(url, 'mock_reorg', [1, { leaveOut: [hash] }]);
    await expectState(key, 'Stored');
    assert.equal((await stateOf(key)).inFlight?.stage, 'pre-confirmed');
    await rpc(url, 'evm_mine');
    await expectState(key, 'Used');
  });

  it('wrong answer 4: an old cancel is found at any depth (ranges the endpoint accepts, its -32005 honoured), not shown as Used', async () => {
    await restart({ auto: false, limits: { public: { maxLogBlockRange: 50 } } });
    const [payer, merchant] = [node.accounts[1].address, node.accounts[2].address];
    const key = await stored(payer, merchant, '1', 'order-old-cancel');
    const canceling = run<CommandOutcome>('cancel', { key, timeoutMs: 60_000 });
    const hash = await waitFor('the cancel sent', () => explorer.authorizations.store.get(key)?.cancel?.hash);
    await rpc(url, 'mock_flashblock');
    await rpc(url, 'evm_mine');
    assert.equal((await canceling)?.tx?.status, 'success', lastError());
    await rpc(url, 'evm_mine', [300]);
    // Export, remove and import it back: no transaction of ours in the record, only the chain to ask.
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'auth-old-')), 'old.authorization.json');
    await run('export', { key, path: file, confirmed: true });
    assert.equal(await run('delete', { key }), key);
    assert.equal(await run<string>('import', { json: fs.readFileSync(file, 'utf8'), endpointId: ENDPOINT }), key, lastError());
    await expectState(key, 'Canceled');
    assert.match((await stateOf(key)).note, new RegExp(`cancelAuthorization ${hash} confirmed in block`));
    assert.equal(explorer.authorizations.store.get(key)!.consumerHash, hash, 'what was found is kept');
    await restart({});
  });
});
