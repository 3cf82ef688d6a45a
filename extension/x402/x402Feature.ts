// x402 in the editor: "Copy as x402 Payment Header" for a signed TransferWithAuthorization,
// "Inspect x402 Payment Header…" (a pasted header through the authorization inspector's checks plus
// the facilitator's), and the mock node's facilitator settlements shown in the Authorizations view
// as captures. Uses the authorization feature through its public API (store, observer, inspector,
// documents) only.
import * as vscode from 'vscode';
import { getAddress } from 'ethers';
import type { AuthorizationsApi } from '../authorizations/index';
import { captureCalldata } from '../authorizations/chain';
import { inspect, inspectionMarkdown, type InspectionInput } from '../authorizations/inspector';
import { authorizationKey, type AuthorizationRecord } from '../authorizations/model';
import type { AuthorizationNode } from '../authorizations/view';
import { RpcClient } from '../rpc/client';
import { describeRpcError } from '../rpc/errors';
import type { Endpoint, EndpointRegistry } from '../rpc/endpoints';
import { readSettings } from '../settings';
import { decodePaymentHeader, paymentHeaderChecks, paymentHeaderFor, PaymentHeaderError, type HeaderCheck } from './paymentHeader';
import { facilitatorInfo, findSettlements } from './settlements';

export interface CopyHeaderArgs {
  key: string;
  /** `resource.url` of the payload (optional in x402 v2). */
  resourceUrl?: string;
}

export interface InspectHeaderArgs {
  /** The header value (base64), the whole `PAYMENT-SIGNATURE: …` line, or the decoded JSON. */
  header?: string;
  /** The endpoint to check against (default: the bundled mock node's, else a pick). */
  endpointId?: string;
  /** Open the markdown document (default true). */
  show?: boolean;
}

export interface InspectHeaderResult {
  x402: HeaderCheck[];
  /** No check (x402's or the token's) failed: a facilitator's verify should pass now. */
  settleable: boolean;
  verdict: string;
  markdown: string;
}

export interface X402Api {
  /** Imports the settlements of the bundled mock node's facilitator; resolves to the keys added. */
  refreshSettlements(): Promise<string[]>;
  /** The last error a command reported (tests read it; users see it as a message). */
  lastError: string | undefined;
}

/** The facilitator URL of an endpoint: the endpoint's URL plus `/x402`. */
export function facilitatorUrlOf(endpoint: Pick<Endpoint, 'url'>): string {
  return `${endpoint.url.replace(/\/+$/, '')}/x402`;
}

const MARK: Record<HeaderCheck['status'], string> = { pass: 'pass', fail: '**FAIL**', warn: 'warn' };

export function activateX402(registry: EndpointRegistry, authorizations: AuthorizationsApi, output: vscode.LogOutputChannel): { api: X402Api; disposables: vscode.Disposable[] } {
  const { store, tree, treeView, documents } = authorizations;
  const client = (endpoint: Endpoint) => new RpcClient(endpoint.url, { timeoutMs: readSettings().requestTimeoutMs });
  const mockEndpoint = (): Endpoint | undefined => registry.list().find((e) => e.source === 'mock' && e.id === 'ep:mock:public');

  const api: X402Api = {
    lastError: undefined,
    async refreshSettlements() {
      const endpoint = mockEndpoint();
      if (!endpoint?.tokenAddress) return [];
      const facilitator = await facilitatorInfo(facilitatorUrlOf(endpoint));
      if (!facilitator) return [];
      const token = endpoint.tokenAddress.toLowerCase();
      const rpc = client(endpoint);
      const settlements = await findSettlements(rpc, facilitator, token, (payer, nonce) => store.get(authorizationKey(payer, nonce)) !== undefined);
      if (settlements.length === 0) return [];
      const chain = tree.observer.chainFor({ endpointId: endpoint.id, token });
      const domain = await chain!.domain();
      const added: string[] = [];
      for (const s of settlements) {
        const key = authorizationKey(s.authorization.from, s.authorization.nonce);
        if (store.get(key)) continue;
        await store.setSignature(key, s.signature);
        await store.put({
          key, endpointId: endpoint.id, endpointName: endpoint.name, token: getAddress(token), route: 'transferWithAuthorization',
          authorization: s.authorization, createdAt: Date.now(), primaryType: 'TransferWithAuthorization', domain,
          signed: true, signedWith: 'imported', orderId: `x402 ${s.transaction.slice(0, 10)}`, storedAt: Date.now(),
          capture: { hash: s.transaction, status: 'success', blockNumber: s.blockNumber },
        });
        output.info(`x402 settlement ${s.transaction} by facilitator ${s.facilitator} shown as a capture (${key})`);
        added.push(key);
      }
      await tree.refresh();
      return added;
    },
  };

  async function guard<T>(id: string, run: () => Promise<T>): Promise<T | undefined> {
    api.lastError = undefined;
    try {
      return await run();
    } catch (error) {
      const message = error instanceof PaymentHeaderError ? error.message : describeRpcError(error);
      api.lastError = message;
      output.warn(`x402 ${id}: ${message}`);
      void vscode.window.showErrorMessage(`x402: ${message}`);
      return undefined;
    }
  }

  async function copyPaymentHeader(arg?: AuthorizationNode | CopyHeaderArgs): Promise<string> {
    let key = arg && 'key' in arg ? arg.key : undefined;
    if (!key) {
      const candidates = store.list().filter((r) => r.signed && r.primaryType === 'TransferWithAuthorization');
      if (candidates.length === 0) throw new PaymentHeaderError('no signed TransferWithAuthorization authorization: draft one with the capture route transferWithAuthorization and sign it');
      const picked = await vscode.window.showQuickPick(candidates.map((r) => ({ label: r.orderId ? `Order ${r.orderId}` : r.authorization.nonce.slice(0, 18), description: `${r.authorization.value} to ${r.authorization.to}`, key: r.key })), { title: 'Copy as x402 Payment Header' });
      if (!picked) return '';
      key = picked.key;
    }
    const record = store.get(key);
    if (!record) throw new PaymentHeaderError(`no authorization ${key}`);
    if (record.primaryType !== 'TransferWithAuthorization') {
      throw new PaymentHeaderError(`x402's exact scheme settles with transferWithAuthorization, so it needs a TransferWithAuthorization signature; this one is ${record.primaryType ? `signed as ${record.primaryType}` : 'not signed'} (draft with the capture route transferWithAuthorization)`);
    }
    const signature = await store.signature(record.key);
    if (!signature || !record.domain) throw new PaymentHeaderError('the signature is missing from the secret storage');
    const header = paymentHeaderFor({ authorization: record.authorization, signature, domain: record.domain, issuedAt: Math.floor(record.createdAt / 1000) }, arg && 'resourceUrl' in arg ? arg.resourceUrl : undefined);
    await vscode.env.clipboard.writeText(header);
    output.info(`x402 payment header copied for ${record.key} (${header.length} characters; not logged: it is a payment credential)`);
    void vscode.window.showInformationMessage('x402 payment header copied (the PAYMENT-SIGNATURE value of x402 v2). It is a payment credential: whoever holds it can settle it.');
    return header;
  }

  async function chooseEndpoint(endpointId: string | undefined): Promise<Endpoint | undefined> {
    if (endpointId) {
      const endpoint = registry.get(endpointId);
      if (!endpoint) throw new PaymentHeaderError(`no endpoint ${endpointId}`);
      return endpoint;
    }
    const endpoints = registry.list();
    if (endpoints.length === 0) throw new PaymentHeaderError('no endpoint: start the mock node or add an endpoint first');
    const preferred = mockEndpoint();
    if (preferred) return preferred;
    if (endpoints.length === 1) return endpoints[0];
    const picked = await vscode.window.showQuickPick(endpoints.map((e) => ({ label: e.name, description: e.displayUrl, id: e.id })), { title: 'Check the payment against which endpoint?' });
    return picked ? registry.get(picked.id) : undefined;
  }

  async function inspectPaymentHeader(args: InspectHeaderArgs = {}): Promise<InspectHeaderResult | undefined> {
    const text = args.header ?? await vscode.window.showInputBox({
      title: 'Inspect x402 Payment Header', prompt: 'Paste the PAYMENT-SIGNATURE (or X-PAYMENT) header value', password: true, ignoreFocusOut: true,
    });
    if (text === undefined) return undefined;
    const decoded = decodePaymentHeader(text);
    const endpoint = await chooseEndpoint(args.endpointId);
    if (!endpoint) return undefined;
    const { payload } = decoded;
    const a = payload.authorization;
    const asset = payload.accepted?.asset ?? endpoint.tokenAddress?.toLowerCase();
    if (!asset) throw new PaymentHeaderError(`a v1 payload does not name the token and ${endpoint.name} has no token address (setting chainExplorer.tokenAddress)`);
    const chain = tree.observer.chainFor({ endpointId: endpoint.id, token: asset })!;
    const record: AuthorizationRecord = {
      key: authorizationKey(a.from, a.nonce), endpointId: endpoint.id, endpointName: endpoint.name, token: getAddress(asset), route: 'transferWithAuthorization',
      authorization: { from: getAddress(a.from), to: getAddress(a.to), value: a.value.toString(), validAfter: Number(a.validAfter), validBefore: Number(a.validBefore), nonce: a.nonce },
      createdAt: Date.now(), primaryType: 'TransferWithAuthorization', signed: true, signedWith: 'imported',
    };
    const input: InspectionInput = { record, signature: payload.signature };
    let x402: HeaderCheck[] = [];
    try {
      const facts = await chain.facts(record.authorization);
      const signedDomain = payload.accepted?.name && payload.accepted.version
        ? { name: payload.accepted.name, version: payload.accepted.version }
        : { name: facts.tokenName, version: facts.tokenVersion };
      record.domain = { ...signedDomain, chainId: (decoded.chainId ?? facts.chainId).toString(), verifyingContract: getAddress(asset) };
      input.chain = facts;
      input.symbol = await chain.symbol().catch(() => undefined);
      input.dryRun = await chain.dryRun(captureCalldata('transferWithAuthorization', record.authorization, payload.signature), record.authorization.to);
      x402 = paymentHeaderChecks(decoded, { chainId: facts.chainId, token: endpoint.tokenAddress?.toLowerCase() ?? asset, now: facts.now });
    } catch (error) {
      input.chainError = describeRpcError(error);
      input.chain = undefined;
    }
    const inspection = inspect(input);
    const failed = x402.filter((c) => c.status === 'fail');
    const settleable = inspection.capturable && failed.length === 0;
    const verdict = settleable
      ? 'A facilitator should verify and settle it now; only the settlement\'s receipt counts as paid.'
      : failed.length > 0
        ? `A facilitator would refuse it: ${failed.map((c) => c.label.replace(/^x402 /, '')).join(', ')}${inspection.capturable ? '' : `; and ${inspection.verdict.charAt(0).toLowerCase()}${inspection.verdict.slice(1)}`}`
        : inspection.verdict;
    const lines = [
      `# x402 payment header: x402 v${payload.version}, ${payload.payloadScheme} on ${payload.payloadNetwork}`, '',
      `**Verdict:** ${verdict}`, '', `Checked against ${endpoint.name}.`, '',
      '## x402 (what the facilitator adds)', '', '| result | check | detail |', '|---|---|---|',
      ...x402.map((c) => `| ${MARK[c.status]} | ${c.label} | ${c.detail.replace(/\|/g, '\\|')} |`), '',
      inspectionMarkdown(input, inspection).replace(/^# /, '## The token\'s checks: '),
    ];
    const markdown = lines.join('\n');
    if (args.show !== false) await documents.show(`x402-${a.nonce.slice(0, 10)}`, markdown);
    return { x402, settleable, verdict, markdown };
  }

  let refreshing: Promise<unknown> | undefined;
  const refreshQuietly = () => {
    refreshing ??= api.refreshSettlements().catch((error) => output.debug(`x402 settlements: ${describeRpcError(error)}`)).finally(() => { refreshing = undefined; });
  };
  // The view shows settlements as they happen: while it is visible, look every 5 s.
  const timer = setInterval(() => { if (treeView.visible && mockEndpoint()) refreshQuietly(); }, 5000);
  const disposables: vscode.Disposable[] = [
    vscode.commands.registerCommand('chainExplorer.x402.copyPaymentHeader', (arg?: AuthorizationNode | CopyHeaderArgs) => guard('copy', () => copyPaymentHeader(arg))),
    vscode.commands.registerCommand('chainExplorer.x402.inspectPaymentHeader', (arg?: InspectHeaderArgs) => guard('inspect', () => inspectPaymentHeader(arg))),
    vscode.commands.registerCommand('chainExplorer.x402.refreshSettlements', () => guard('settlements', () => api.refreshSettlements())),
    treeView.onDidChangeVisibility((e) => { if (e.visible) refreshQuietly(); }),
    registry.onDidChange(() => { if (treeView.visible) refreshQuietly(); }),
    { dispose: () => clearInterval(timer) },
  ];
  return { api, disposables };
}
