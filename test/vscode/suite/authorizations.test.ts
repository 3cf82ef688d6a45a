// The Authorizations view and commands inside a real VS Code, against the bundled mock node started
// by its command: draft → sign → store → inspect → capture, draft → sign → cancel, the seed's
// TransferWithAuthorization-vs-receiveWithAuthorization mismatch caught before submission, the
// transferWithAuthorization route with a local key, export, and bad input changing nothing. The
// view's groups and the onchain state (authorizationState, balances) are checked over JSON-RPC.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Interface, Wallet } from 'ethers';
import type { ChainExplorerApi } from '../../../extension/main';
import { vscodePrompts, type CommandOutcome, type InspectResult, type Prompts } from '../../../extension/authorizations/commands';
import type { ExportedAuthorization, LifecycleState } from '../../../extension/authorizations/model';
import type { AuthorizationNode } from '../../../extension/authorizations/view';
import { buildTypedData, STABLE_TOKEN_ABI } from '../../../mock-node/tokenKit/index';
import { api, EXTENSION_ID, rpc, waitFor } from './helpers';

const token = new Interface(STABLE_TOKEN_ABI);
const ENDPOINT = 'ep:mock:public';
const run = <T>(id: string, arg?: unknown): Thenable<T> => vscode.commands.executeCommand<T>(`chainExplorer.authorizations.${id}`, arg);


/** One scripted answer: which prompt is expected (by kind and a pattern over its title/placeholder/prompt) and the answer. */
interface Step {
  kind: 'quickPick' | 'inputBox' | 'confirm';
  expect: RegExp;
  answer: (items: readonly vscode.QuickPickItem[], options: vscode.InputBoxOptions & vscode.QuickPickOptions) => unknown;
}

/** Prompts answered from a script, in order; a prompt the script does not expect fails the test. */
function scripted(steps: Step[], openFiles: vscode.Uri[] = []): Prompts & { remaining: () => number; problems: string[] } {
  const problems: string[] = [];
  const next = (kind: Step['kind'], text: string): Step | undefined => {
    const step = steps.shift();
    if (!step || step.kind !== kind || !step.expect.test(text)) {
      problems.push(`unexpected ${kind} "${text}" (expected ${step ? `${step.kind} ${step.expect}` : 'no more prompts'})`);
      return undefined;
    }
    return step;
  };
  const describe = (o: vscode.InputBoxOptions & vscode.QuickPickOptions): string => [o.title, o.placeHolder, o.prompt].filter(Boolean).join(' | ');
  return {
    problems,
    remaining: () => steps.length,
    quickPick: async <T extends vscode.QuickPickItem>(items: T[], options: vscode.QuickPickOptions) =>
      next('quickPick', describe(options))?.answer(items, options) as T | undefined,
    inputBox: async (options: vscode.InputBoxOptions) => next('inputBox', describe(options))?.answer([], options) as string | undefined,
    confirm: async (message: string) => Boolean(next('confirm', message)?.answer([], {})),
    saveDialog: async () => undefined,
    openDialog: async () => (openFiles.length ? openFiles.splice(0) : undefined),
  };
}

const pick = (label: string | RegExp) => (items: readonly vscode.QuickPickItem[]): vscode.QuickPickItem => {
  const found = items.find((i) => (typeof label === 'string' ? i.label === label : label.test(i.label)));
  if (!found) throw new Error(`no item ${label} in ${items.map((i) => i.label).join(', ')}`);
  return found;
};

describe('Authorizations view with the mock node', function () {
  this.timeout(120_000);
  let explorer: ChainExplorerApi;
  let url: string;
  let tokenAddress: string;
  let payer: string;
  let merchant: string;

  async function call(fn: string, args: unknown[], tag = 'pending'): Promise<ReturnType<Interface['decodeFunctionResult']>> {
    const data = token.encodeFunctionData(fn, args);
    return token.decodeFunctionResult(fn, await rpc(url, 'eth_call', [{ to: tokenAddress, data }, tag]) as string);
  }
  const balance = async (account: string): Promise<bigint> => (await call('balanceOf', [account]))[0] as bigint;
  const consumed = async (authorizer: string, nonce: string): Promise<boolean> => (await call('authorizationState', [authorizer, nonce]))[0] as boolean;
  const nonceOf = (key: string): string => key.split(':')[1];

  /** The view's groups as VS Code renders them: group label → item keys, and the group's count badge. */
  async function viewGroups(): Promise<Map<LifecycleState, { count: string; keys: string[] }>> {
    const tree = explorer.authorizations.tree;
    const groups = new Map<LifecycleState, { count: string; keys: string[] }>();
    for (const group of tree.getChildren()) {
      if (group.kind !== 'group') continue;
      const item = tree.getTreeItem(group);
      const keys = tree.getChildren(group).map((n: AuthorizationNode) => (n.kind === 'authorization' ? n.key : ''));
      groups.set(group.state, { count: String(item.description), keys });
    }
    return groups;
  }

  async function expectState(key: string, state: LifecycleState): Promise<void> {
    const groups = await explorer.authorizations.groups();
    assert.ok(groups[state].includes(key), `${key} is ${state}; groups: ${JSON.stringify(groups)}`);
    const view = await viewGroups();
    assert.ok(view.get(state)?.keys.includes(key), `the view shows it under ${state}`);
  }

  before(async () => {
    explorer = await api();
    url = await vscode.commands.executeCommand<string>('chainExplorer.startMockNode');
    const node = explorer.mockNode.running!;
    tokenAddress = node.tokenAddress;
    payer = node.accounts[1].address;
    merchant = node.accounts[2].address;
    await vscode.commands.executeCommand('workbench.view.extension.chain');
    await vscode.commands.executeCommand('chainExplorer.authorizations.focus');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('chainExplorer.stopMockNode');
  });

  it('registers every authorization command it contributes, in the Chain category', async () => {
    const contributed = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { commands: { command: string; category: string }[] } })
      .contributes.commands.filter((c) => c.command.startsWith('chainExplorer.authorizations.'));
    assert.equal(contributed.length, 17, 'the sixteen lifecycle commands and Show Authorization (the transaction page links to it)');
    const registered = await vscode.commands.getCommands(true);
    for (const c of contributed) {
      assert.ok(registered.includes(c.command), `${c.command} is registered`);
      assert.equal(c.category, 'Chain');
    }
  });

  it('shows its welcome (no groups) while empty, and the eight lifecycle groups once there is an authorization', async () => {
    assert.equal(explorer.authorizations.treeView.visible, true, 'the Authorizations view is open');
    assert.equal(explorer.authorizations.store.list().length, 0, 'a fresh workspace');
    assert.deepEqual(explorer.authorizations.tree.getChildren(), [], 'no groups: VS Code shows the welcome');
    const key = await run<string>('draft', { endpointId: ENDPOINT, payer, merchant, amount: '0.01' });
    const groups = await viewGroups();
    assert.deepEqual([...groups.keys()], ['Drafted', 'Signed', 'Stored', 'Used', 'Canceled', 'Consumed elsewhere', 'Voided offchain', 'Expired']);
    assert.deepEqual(groups.get('Drafted'), { count: '1', keys: [key] });
    assert.equal(await run('delete', { key }), key, 'a draft can be removed');
    assert.equal(explorer.authorizations.store.get(key), undefined);
  });

  it('rejects bad input with a clear error and changes nothing', async () => {
    const before = explorer.authorizations.store.list().length;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ endpointId: ENDPOINT, payer, merchant, amount: '1.0000001' }, /more than 6 decimals/],
      [{ endpointId: ENDPOINT, payer: '0x1234', merchant, amount: '1' }, /payer "0x1234" is not an address/],
      [{ endpointId: ENDPOINT, payer, merchant: payer, amount: '1' }, /must be different/],
      [{ endpointId: 'ep:nowhere', payer, merchant, amount: '1' }, /endpoint ep:nowhere is not available/],
    ];
    for (const [args, message] of cases) {
      assert.equal(await run('draft', args), undefined);
      assert.match(explorer.authorizations.commands.lastError ?? '', message);
    }
    assert.equal(await run('sign', { key: 'nobody:0x00' }), undefined);
    assert.match(explorer.authorizations.commands.lastError ?? '', /no authorization/);
    assert.equal(explorer.authorizations.store.list().length, before);
  });

  it('draft → sign → store → inspect → capture: paid only by a successful receipt, the nonce consumed', async () => {
    const key = await run<string>('draft', { endpointId: ENDPOINT, payer, merchant, amount: '12.5' });
    assert.ok(key, explorer.authorizations.commands.lastError);
    const record = explorer.authorizations.store.get(key)!;
    assert.equal(record.route, 'receiveWithAuthorization');
    assert.match(record.authorization.nonce, /^0x[0-9a-f]{64}$/);
    assert.equal(record.authorization.validBefore - record.authorization.validAfter, 960, 'default window: 60 s before to 15 min after');
    await expectState(key, 'Drafted');

    const signed = await run<CommandOutcome>('sign', { key });
    assert.equal(signed?.state?.state, 'Signed', explorer.authorizations.commands.lastError);
    const signature = await explorer.authorizations.store.signature(key);
    assert.match(signature ?? '', /^0x[0-9a-f]{130}$/);
    assert.ok(!JSON.stringify(explorer.authorizations.store.list()).includes(signature!.slice(2)), 'the signature is not in the workspace state');
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('chainExplorer')).includes(signature!.slice(2)), 'nor in the settings');
    assert.equal(explorer.authorizations.store.get(key)!.primaryType, 'ReceiveWithAuthorization');
    assert.equal(await consumed(payer, nonceOf(key)), false, 'signing changes nothing onchain');

    const stored = await run<CommandOutcome>('store', { key, orderId: 'order-1001' });
    assert.equal(stored?.state?.state, 'Stored');
    await expectState(key, 'Stored');

    const inspected = await run<InspectResult>('inspect', { key });
    assert.ok(inspected, explorer.authorizations.commands.lastError);
    assert.deepEqual(inspected.inspection.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.detail}`), []);
    assert.equal(inspected.inspection.capturable, true);
    assert.equal(inspected.inspection.recovered, payer);
    const editor = await waitFor('the inspector document', () => vscode.window.activeTextEditor?.document.uri.scheme === 'chain-authorization' && vscode.window.activeTextEditor);
    assert.match(editor.document.getText(), /\*\*Verdict:\*\* A capture now should succeed/);
    assert.ok(!editor.document.getText().includes(signature!.slice(2, 40)), 'the inspector never shows the signature');

    const [payerBefore, merchantBefore] = [await balance(payer), await balance(merchant)];
    const captured = await run<CommandOutcome>('capture', { key });
    assert.equal(captured?.tx?.status, 'success', explorer.authorizations.commands.lastError);
    assert.equal(captured.state?.state, 'Used');
    const receipt = await rpc(url, 'eth_getTransactionReceipt', [captured.tx.hash]) as { status: string; from: string; logs: { topics: string[] }[] };
    assert.equal(receipt.status, '0x1');
    assert.equal(receipt.from.toLowerCase(), merchant.toLowerCase(), 'the merchant submitted it');
    assert.equal(await consumed(payer, nonceOf(key)), true);
    assert.equal(await balance(payer), payerBefore - 12_500_000n);
    assert.equal(await balance(merchant), merchantBefore + 12_500_000n);
    await expectState(key, 'Used');
    const view = await viewGroups();
    assert.equal(view.get('Used')?.count, String(view.get('Used')?.keys.length));
  });

  it('draft → sign → cancel: the payer signs CancelAuthorization, the merchant relays it, a later capture would revert', async () => {
    const key = await run<string>('draft', { endpointId: ENDPOINT, payer, merchant, amount: '3' });
    await run('sign', { key });
    await expectState(key, 'Signed');
    const [payerBefore, merchantBefore] = [await balance(payer), await balance(merchant)];
    const canceled = await run<CommandOutcome>('cancel', { key });
    assert.equal(canceled?.tx?.status, 'success', explorer.authorizations.commands.lastError);
    assert.equal(canceled.state?.state, 'Canceled');
    const receipt = await rpc(url, 'eth_getTransactionReceipt', [canceled.tx.hash]) as { from: string };
    assert.equal(receipt.from.toLowerCase(), merchant.toLowerCase(), 'the merchant relayed it');
    assert.equal(await consumed(payer, nonceOf(key)), true);
    assert.equal(await balance(payer), payerBefore);
    assert.equal(await balance(merchant), merchantBefore);
    await expectState(key, 'Canceled');
    const inspected = await run<InspectResult>('inspect', { key, show: false });
    const dryRun = inspected.inspection.checks.find((c) => c.id === 'dryRun');
    assert.equal(dryRun?.detail, 'reverts: FiatTokenV2: authorization is used or canceled');
    assert.equal(await run('capture', { key }), undefined, 'a canceled authorization is not captured');
    assert.match(explorer.authorizations.commands.lastError ?? '', /only a stored authorization can be captured \(it is Canceled\)/);
  });

  it("flags the seed's TransferWithAuthorization + receiveWithAuthorization pair before submission; forced, it fails with status 0x0 and stays Stored; captured by the fitting route it is paid", async () => {
    const latest = await rpc(url, 'eth_getBlockByNumber', ['latest', false]) as { timestamp: string };
    const now = Number(BigInt(latest.timestamp));
    const authorization = {
      from: payer, to: merchant, value: '2000000', validAfter: now - 60, validBefore: now + 900,
      nonce: `0x${randomBytes(32).toString('hex')}`,
    };
    const [name, version] = [(await call('name', [], 'latest'))[0] as string, (await call('version', [], 'latest'))[0] as string];
    // The seed's envelope: primaryType TransferWithAuthorization, signed by the payer's wallet (the node's dev account).
    const payload = buildTypedData('TransferWithAuthorization', { name, version, chainId: 31337n, verifyingContract: tokenAddress }, authorization);
    const signature = await rpc(url, 'eth_signTypedData_v4', [payer, JSON.stringify(payload)]) as string;
    const key = await run<string>('import', { endpointId: ENDPOINT, json: { orderId: 'seed-order-7', authorization, signature } });
    assert.ok(key, explorer.authorizations.commands.lastError);
    assert.equal(explorer.authorizations.store.get(key)!.primaryType, 'TransferWithAuthorization', 'detected from the signature');
    await expectState(key, 'Stored');

    const inspected = await run<InspectResult>('inspect', { key, show: false });
    const typeCheck = inspected.inspection.checks.find((c) => c.id === 'primaryType')!;
    assert.equal(typeCheck.status, 'fail');
    assert.match(typeCheck.detail, /signed as TransferWithAuthorization but the capture route is receiveWithAuthorization/);
    assert.equal(inspected.inspection.checks.find((c) => c.id === 'dryRun')?.detail, 'reverts: FiatTokenV2: invalid signature');
    assert.equal(inspected.inspection.capturable, false);

    const sentBefore = await rpc(url, 'eth_getTransactionCount', [merchant, 'pending']);
    assert.equal(await run('capture', { key }), undefined, 'not submitted while the dry run reverts');
    assert.match(explorer.authorizations.commands.lastError ?? '', /dry run of receiveWithAuthorization reverts: FiatTokenV2: invalid signature; nothing was sent/);
    assert.equal(await rpc(url, 'eth_getTransactionCount', [merchant, 'pending']), sentBefore);

    const payerBefore = await balance(payer);
    const forced = await run<CommandOutcome>('capture', { key, force: true });
    assert.equal(forced?.tx?.status, 'reverted');
    assert.equal(forced.tx.reason, 'FiatTokenV2: invalid signature');
    assert.equal((await rpc(url, 'eth_getTransactionReceipt', [forced.tx.hash]) as { status: string }).status, '0x0');
    assert.equal(forced.state?.state, 'Stored', 'a failed capture leaves it unchanged');
    assert.equal(await consumed(payer, authorization.nonce), false);
    assert.equal(await balance(payer), payerBefore);

    // The route the signature fits still works: Capture from the view offers transferWithAuthorization.
    const ui = scripted([{ kind: 'confirm', expect: /signed as TransferWithAuthorization, which receiveWithAuthorization rejects \(FiatTokenV2: invalid signature\)\. Capture it with transferWithAuthorization instead\?/, answer: () => true }]);
    explorer.authorizations.commands.ui = ui;
    let switched: CommandOutcome | undefined;
    try {
      switched = await run<CommandOutcome>('capture', { kind: 'authorization', key, state: 'Stored' } satisfies AuthorizationNode);
    } finally {
      explorer.authorizations.commands.ui = vscodePrompts;
    }
    assert.deepEqual(ui.problems, []);
    assert.equal(ui.remaining(), 0);
    assert.equal(switched?.tx?.status, 'success', explorer.authorizations.commands.lastError);
    assert.equal(explorer.authorizations.store.get(key)!.route, 'transferWithAuthorization');
    assert.equal(await balance(payer), payerBefore - 2_000_000n);
    assert.equal(await consumed(payer, authorization.nonce), true);
    await expectState(key, 'Used');
  });

  it('a payer the endpoint does not hold needs a local key: with an argument object it says so instead of prompting', async () => {
    const stranger = Wallet.createRandom();
    const key = await run<string>('draft', { endpointId: ENDPOINT, payer: stranger.address, merchant, amount: '1' });
    assert.equal(await run('sign', { key }), undefined);
    assert.match(explorer.authorizations.commands.lastError ?? '', new RegExp(`no local key for the payer ${stranger.address} and the endpoint does not hold the account`));
    await expectState(key, 'Drafted');
    const signed = await run<CommandOutcome>('sign', { key, privateKey: stranger.privateKey });
    assert.equal(signed?.state?.state, 'Signed', explorer.authorizations.commands.lastError);
    assert.equal(explorer.authorizations.store.get(key)!.signedWith, 'local key');
    await run('removeLocalKey', stranger.address);
  });

  it('transferWithAuthorization route, signed with a local key kept in the secret storage, captured and exported', async () => {
    const node = explorer.mockNode.running!;
    const localPayer = node.accounts[3];
    const key = await run<string>('draft', { endpointId: ENDPOINT, payer: localPayer.address, merchant, amount: '0.75', route: 'transferWithAuthorization' });
    // Someone else's key is refused and nothing is kept.
    const wrongKey = node.accounts[5];
    assert.equal(await run('sign', { key, signer: 'local key', privateKey: wrongKey.privateKey }), undefined);
    assert.match(explorer.authorizations.commands.lastError ?? '', new RegExp(`that private key is for ${wrongKey.address}, not the payer`));
    assert.ok(!explorer.authorizations.store.localKeyAddresses().includes(wrongKey.address), 'the wrong key was not kept');
    await expectState(key, 'Drafted');
    const signed = await run<CommandOutcome>('sign', { key, signer: 'local key', privateKey: localPayer.privateKey });
    assert.equal(signed?.state?.state, 'Signed', explorer.authorizations.commands.lastError);
    assert.equal(explorer.authorizations.store.get(key)!.signedWith, 'local key');
    assert.equal(explorer.authorizations.store.get(key)!.primaryType, 'TransferWithAuthorization');
    assert.ok(explorer.authorizations.store.localKeyAddresses().includes(localPayer.address));
    assert.ok(!JSON.stringify(explorer.authorizations.store.list()).includes(localPayer.privateKey.slice(2)), 'no key in the workspace state');
    await run('store', { key, orderId: 'order-1002' });
    const merchantBefore = await balance(merchant);
    const captured = await run<CommandOutcome>('capture', { key });
    assert.equal(captured?.tx?.status, 'success', explorer.authorizations.commands.lastError);
    assert.equal(await balance(merchant), merchantBefore + 750_000n);
    await expectState(key, 'Used');

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'auth-export-')), 'order-1002.authorization.json');
    const exported = await run<ExportedAuthorization>('export', { key, path: file, confirmed: true });
    const written = JSON.parse(fs.readFileSync(file, 'utf8')) as ExportedAuthorization;
    assert.deepEqual(written, exported);
    assert.equal(written.orderId, 'order-1002');
    assert.equal(written.signature, await explorer.authorizations.store.signature(key));
    assert.equal(written.primaryType, 'TransferWithAuthorization');
    await run('removeLocalKey', localPayer.address);
    assert.ok(!explorer.authorizations.store.localKeyAddresses().includes(localPayer.address));

    // Removed, then imported back from the exported file through the open dialog: the token's
    // AuthorizationUsed log tells the view it was captured (no receipt of ours in the record now).
    assert.equal(await run('delete', { key }), key);
    assert.equal(await explorer.authorizations.store.signature(key), undefined, 'its signature left the secret storage too');
    const ui = scripted([{ kind: 'quickPick', expect: /Endpoint the authorization is for/, answer: pick('Mock node (public)') }], [vscode.Uri.file(file)]);
    explorer.authorizations.commands.ui = ui;
    try {
      assert.equal(await run<string>('import'), key, explorer.authorizations.commands.lastError);
    } finally {
      explorer.authorizations.commands.ui = vscodePrompts;
    }
    assert.deepEqual(ui.problems, []);
    const imported = explorer.authorizations.store.get(key)!;
    assert.equal(imported.capture, undefined);
    assert.equal(imported.signedWith, 'imported');
    assert.equal(imported.orderId, 'order-1002');
    await expectState(key, 'Used');
    assert.match(explorer.authorizations.tree.observer.stateOf(imported).note, /^paid: 0x[0-9a-f]{64} (included|confirmed) in block \d+/, 'found by the AuthorizationUsed log, with the transfer in the same transaction');
  });

  it("not yet valid: the inspector shows the token's reason from the dry run; void keeps the nonce unused onchain", async () => {
    const latest = await rpc(url, 'eth_getBlockByNumber', ['latest', false]) as { timestamp: string };
    const now = Number(BigInt(latest.timestamp));
    const key = await run<string>('draft', { endpointId: ENDPOINT, payer, merchant, amount: '1', validAfter: now + 3600, validBefore: now + 7200 });
    await run('sign', { key });
    await run('store', { key, orderId: 'order-1003' });
    // One order, one authorization: a second one for the same order is refused and stays Signed.
    const second = await run<string>('draft', { endpointId: ENDPOINT, payer, merchant, amount: '1' });
    await run('sign', { key: second });
    assert.equal(await run('store', { key: second, orderId: 'order-1003' }), undefined);
    assert.match(explorer.authorizations.commands.lastError ?? '', /another authorization is already stored for order order-1003/);
    await expectState(second, 'Signed');
    const inspected = await run<InspectResult>('inspect', { key, show: false });
    assert.equal(inspected.inspection.checks.find((c) => c.id === 'window')?.status, 'fail');
    assert.equal(inspected.inspection.checks.find((c) => c.id === 'dryRun')?.detail, 'reverts: FiatTokenV2: authorization is not yet valid');
    assert.equal(await run('capture', { key, route: 'transferWithAuthorization' }), undefined);
    assert.match(explorer.authorizations.commands.lastError ?? '', /the signature is ReceiveWithAuthorization: it can only be captured by receiveWithAuthorization/);
    assert.equal(explorer.authorizations.store.get(key)!.route, 'receiveWithAuthorization', 'unchanged');
    const voided = await run<CommandOutcome>('void', { key });
    assert.equal(voided?.state?.state, 'Voided offchain');
    assert.equal(await consumed(payer, nonceOf(key)), false);
    const groups = await viewGroups();
    assert.ok(groups.get('Voided offchain')!.keys.includes(key));
    assert.ok(groups.get('Signed')!.keys.includes(second));
  });

  it('the interactive path: Draft asks seven steps with the defaults, then the view node drives Sign, Store and Capture', async () => {
    const steps: Step[] = [
      { kind: 'quickPick', expect: /Draft Authorization \(1\/7\) \| Endpoint/, answer: pick('Mock node (public)') },
      {
        kind: 'inputBox', expect: /\(2\/7\) \| Token address/,
        answer: (_items, options) => { assert.equal(options.value, tokenAddress, "defaults to the mock node's token"); return options.value; },
      },
      {
        kind: 'quickPick', expect: /\(3\/7\) \| Payer/,
        answer: (items) => { assert.ok(items.some((i) => i.description === 'endpoint account')); return pick(payer)(items); },
      },
      {
        kind: 'quickPick', expect: /\(4\/7\) \| Merchant/,
        answer: (items) => { assert.ok(!items.some((i) => i.label === payer), 'the payer is not offered as merchant'); return pick(merchant)(items); },
      },
      {
        kind: 'inputBox', expect: /\(5\/7\) .*Amount in token units \(6 decimals\)/,
        answer: (_items, options) => {
          assert.match(String(options.validateInput?.('1.0000001')), /more than 6 decimals/);
          assert.equal(options.validateInput?.('4.2'), undefined);
          return '4.2';
        },
      },
      { kind: 'quickPick', expect: /\(6\/7\) \| Validity window/, answer: pick('Default window') },
      {
        kind: 'quickPick', expect: /\(7\/7\) \| Capture route/,
        answer: (items) => { assert.equal(items[0].label, 'receiveWithAuthorization', 'the default route comes first'); return items[0]; },
      },
    ];
    const ui = scripted(steps);
    const commands = explorer.authorizations.commands;
    commands.ui = ui;
    try {
      const key = await run<string>('draft');
      assert.deepEqual(ui.problems, []);
      assert.ok(key, commands.lastError);
      assert.equal(ui.remaining(), 0);
      assert.equal(explorer.authorizations.store.get(key)!.authorization.value, '4200000');
      const nodeOf = async (state: LifecycleState): Promise<AuthorizationNode> => {
        const group = explorer.authorizations.tree.getChildren().find((g) => g.kind === 'group' && g.state === state)!;
        const node = explorer.authorizations.tree.getChildren(group).find((n) => n.kind === 'authorization' && n.key === key);
        assert.ok(node, `the view shows ${key} under ${state}`);
        return node;
      };
      // The context menu passes the view's node: the endpoint holds the payer, so Sign asks nothing.
      assert.equal((await run<CommandOutcome>('sign', await nodeOf('Drafted')))?.state?.state, 'Signed', commands.lastError);
      // A dismissed prompt changes nothing.
      steps.push({ kind: 'inputBox', expect: /Order id/, answer: () => undefined });
      assert.equal(await run('store', await nodeOf('Signed')), undefined);
      assert.equal(commands.lastError, undefined, 'dismissing is not an error');
      await expectState(key, 'Signed');
      steps.push({ kind: 'inputBox', expect: /Order id/, answer: () => 'order-ui-1' });
      assert.equal((await run<CommandOutcome>('store', await nodeOf('Signed')))?.state?.state, 'Stored');
      const captured = await run<CommandOutcome>('capture', await nodeOf('Stored'));
      assert.equal(captured?.tx?.status, 'success', commands.lastError);
      await expectState(key, 'Used');
      assert.deepEqual(ui.problems, []);
      assert.equal(ui.remaining(), 0);
    } finally {
      commands.ui = vscodePrompts;
    }
  });

  it('Stored → Expired when the chain clock passes validBefore; the dry run then gives the token reason', async () => {
    const key = await run<string>('draft', { endpointId: ENDPOINT, payer, merchant, amount: '1.5' });
    await run('sign', { key });
    await run('store', { key, orderId: 'order-1004' });
    await expectState(key, 'Stored');
    await rpc(url, 'evm_increaseTime', [3600]);
    await rpc(url, 'evm_mine', []);
    await waitFor('Expired', async () => (await explorer.authorizations.groups()).Expired.includes(key));
    await expectState(key, 'Expired');
    const inspected = await run<InspectResult>('inspect', { key, show: false });
    assert.equal(inspected.inspection.checks.find((c) => c.id === 'dryRun')?.detail, 'reverts: FiatTokenV2: authorization is expired');
    assert.equal(await consumed(payer, nonceOf(key)), false, 'expiry changes nothing onchain');
    assert.equal(await run('cancel', { key }), undefined);
    assert.match(explorer.authorizations.commands.lastError ?? '', /only an unused authorization that has not expired can be canceled \(it is Expired\)/);
  });
});
