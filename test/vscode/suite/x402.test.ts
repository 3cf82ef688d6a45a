// x402 inside a real VS Code, against the bundled mock node: copy a signed TransferWithAuthorization
// as an x402 payment header (to the clipboard), inspect it back from the clipboard, refuse one
// signed as ReceiveWithAuthorization, and see a settlement made through the node's facilitator in
// the Authorizations view as a capture.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { Wallet, getAddress, hexlify } from 'ethers';
import type { ChainExplorerApi } from '../../../extension/main';
import type { CommandOutcome } from '../../../extension/authorizations/commands';
import type { InspectHeaderResult } from '../../../extension/x402/x402Feature';
import { TYPED_DATA_TYPES } from '../../../mock-node/tokenKit/index';
import { api, rpc, waitFor } from './helpers';

const ENDPOINT = 'ep:mock:public';
const authorization = <T>(id: string, arg?: unknown): Thenable<T> => vscode.commands.executeCommand<T>(`chainExplorer.authorizations.${id}`, arg);
const x402 = <T>(id: string, arg?: unknown): Thenable<T> => vscode.commands.executeCommand<T>(`chainExplorer.x402.${id}`, arg);

describe('x402 payment headers and facilitator settlements', function () {
  this.timeout(120_000);
  let explorer: ChainExplorerApi;
  let facilitatorUrl: string;

  before(async () => {
    explorer = await api();
    if (!explorer.mockNode.running) await vscode.commands.executeCommand('chainExplorer.startMockNode');
    facilitatorUrl = explorer.mockNode.running!.x402!.url;
    await vscode.commands.executeCommand('workbench.view.extension.chain');
    await vscode.commands.executeCommand('chainExplorer.authorizations.focus');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('chainExplorer.stopMockNode');
  });

  it('copies a signed TransferWithAuthorization as an x402 header and inspects it back from the clipboard', async () => {
    const node = explorer.mockNode.running!;
    const key = await authorization<string>('draft', { endpointId: ENDPOINT, payer: node.accounts[1].address, merchant: node.accounts[2].address, amount: '0.5', route: 'transferWithAuthorization' });
    assert.ok(key, explorer.authorizations.commands.lastError);
    const signed = await authorization<CommandOutcome>('sign', { key });
    assert.equal(signed?.state?.state, 'Signed', explorer.authorizations.commands.lastError);

    const header = await x402<string>('copyPaymentHeader', { key });
    assert.ok(header, explorer.x402.lastError);
    assert.equal(await vscode.env.clipboard.readText(), header, 'the header is on the clipboard');
    const payload = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
    assert.equal(payload.x402Version, 2);
    assert.equal(payload.accepted.network, 'eip155:31337');
    assert.equal(payload.accepted.amount, '500000');
    assert.equal(payload.payload.signature, await explorer.authorizations.store.signature(key));

    const inspected = await x402<InspectHeaderResult>('inspectPaymentHeader', { header: await vscode.env.clipboard.readText(), endpointId: ENDPOINT });
    assert.ok(inspected, explorer.x402.lastError);
    assert.equal(inspected.settleable, true, inspected.markdown);
    assert.ok(inspected.x402.every((c) => c.status === 'pass'), JSON.stringify(inspected.x402));
    assert.match(inspected.markdown, /x402 v2, exact on eip155:31337/);
    assert.match(inspected.markdown, /Signature recovers from \| pass|pass \| Signature recovers from/);
    assert.ok(!inspected.markdown.includes((await explorer.authorizations.store.signature(key))!.slice(2)), 'the document never shows the signature');
    const shown = await waitFor('the inspection document', () => vscode.window.activeTextEditor?.document.getText().includes('# x402 payment header') || undefined);
    assert.ok(shown);

    // The node's facilitator agrees with the inspector.
    const verify = await fetch(`${facilitatorUrl}/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x402Version: 2, paymentPayload: payload, paymentRequirements: payload.accepted }) });
    assert.deepEqual(await verify.json(), { isValid: true, payer: node.accounts[1].address });

    // A tampered header is caught by the same checks.
    const tampered = { ...payload, accepted: { ...payload.accepted, payTo: node.accounts[3].address } };
    const refused = await x402<InspectHeaderResult>('inspectPaymentHeader', { header: Buffer.from(JSON.stringify(tampered)).toString('base64'), endpointId: ENDPOINT, show: false });
    assert.equal(refused.settleable, false);
    assert.equal(refused.x402.find((c) => c.id === 'x402.payTo')?.status, 'fail');
    assert.match(refused.verdict, /A facilitator would refuse it: payTo/);
  });

  it('refuses a ReceiveWithAuthorization signature and a header that is not one, with clear messages', async () => {
    const node = explorer.mockNode.running!;
    const key = await authorization<string>('draft', { endpointId: ENDPOINT, payer: node.accounts[1].address, merchant: node.accounts[2].address, amount: '1' });
    await authorization('sign', { key });
    assert.equal(await x402('copyPaymentHeader', { key }), undefined);
    assert.match(explorer.x402.lastError ?? '', /needs a TransferWithAuthorization signature; this one is signed as ReceiveWithAuthorization/);
    assert.equal(await x402('inspectPaymentHeader', { header: 'bm90IGpzb24=', endpointId: ENDPOINT }), undefined);
    assert.match(explorer.x402.lastError ?? '', /not JSON/);
  });

  it('shows a settlement made through the node\'s facilitator as a capture in the Authorizations view', async () => {
    const node = explorer.mockNode.running!;
    const payer = new Wallet(node.accounts[4].privateKey);
    const merchant = node.accounts[2].address;
    const now = Math.floor(Date.now() / 1000);
    const domain = { name: node.options.token.name, version: node.options.token.version, chainId: 31337, verifyingContract: getAddress(node.tokenAddress) };
    const message = { from: payer.address, to: merchant, value: '333000', validAfter: '0', validBefore: String(now + 300), nonce: hexlify(randomBytes(32)) };
    const signature = await payer.signTypedData(domain, TYPED_DATA_TYPES.TransferWithAuthorization as never, message);
    const accepted = { scheme: 'exact', network: 'eip155:31337', amount: '333000', asset: domain.verifyingContract, payTo: merchant, maxTimeoutSeconds: 300, extra: { name: domain.name, version: domain.version } };
    const response = await fetch(`${facilitatorUrl}/settle`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x402Version: 2, paymentPayload: { x402Version: 2, accepted, payload: { signature, authorization: message } }, paymentRequirements: accepted }),
    });
    const settled = await response.json() as { success: boolean; transaction: string };
    assert.equal(settled.success, true, JSON.stringify(settled));

    const key = `${payer.address.toLowerCase()}:${message.nonce.toLowerCase()}`;
    const added = await x402<string[]>('refreshSettlements');
    assert.deepEqual(added, [key], explorer.x402.lastError);
    const record = explorer.authorizations.store.get(key)!;
    assert.equal(record.capture?.hash, settled.transaction);
    assert.equal(record.orderId, `x402 ${settled.transaction.slice(0, 10)}`);
    assert.equal(await explorer.authorizations.store.signature(key), signature);
    // Paid only on the chain's evidence: the settlement's AuthorizationUsed and Transfer, in a sealed block.
    const sealedIn = await waitFor('the settlement sealed', async () => {
      const latest = BigInt(await rpc(node.url, 'eth_blockNumber') as string);
      const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [settled.transaction]) as { status: string; blockNumber: string } | null;
      return receipt && BigInt(receipt.blockNumber) <= latest ? receipt : undefined;
    });
    assert.equal(sealedIn.status, '0x1');
    await waitFor('the settlement shown as paid', async () => (await explorer.authorizations.groups()).Used.includes(key));
    const state = explorer.authorizations.tree.observer.stateOf(explorer.authorizations.store.get(key)!);
    assert.match(state?.note ?? '', new RegExp(`^paid: .*${settled.transaction.slice(0, 10)}`, 'i'), JSON.stringify(state));
    assert.deepEqual(await x402<string[]>('refreshSettlements'), [], 'imported once');
  });
});
