// The authorization commands (category "Chain"): Draft, Sign, Store, Inspect, Capture, Cancel,
// Void offchain, Export, Import, Delete, Refresh, and adding / removing a local signing key. Each
// prompts the user; each also takes an optional argument object that answers the prompts (the
// in-VS-Code tests drive them that way), or the view's node. Bad input gets an error message and
// changes nothing. Signatures and keys never reach the output channel.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { getAddress, verifyTypedData, Wallet } from 'ethers';
import { TYPED_DATA_TYPES } from '../../mock-node/tokenKit/index';
import type { Endpoint, EndpointRegistry } from '../rpc/endpoints';
import { describeRpcError, RpcClientError } from '../rpc/errors';
import { readSettings } from '../settings';
import { AuthorizationChain, cancelCalldata, captureCalldata } from './chain';
import { inspect, inspectionMarkdown, recoverAuthorizationSigner, type Inspection, type InspectionInput } from './inspector';
import {
  authorizationKey, authorizationTypedData, cancelTypedData, CAPTURE_ROUTES, defaultWindow, deriveState, draftAuthorization,
  exportAuthorization, formatTokenAmount, InputError, isBytes32, normalizeV, parseAddress, parseTokenAmount, primaryTypeFor, refusal, routeFor, summary,
  type AuthorizationAction, type AuthorizationPrimaryType, type AuthorizationRecord, type CaptureRoute, type DerivedState,
  type DomainFields, type ExportedAuthorization, type TxOutcome,
} from './model';
import { parseImport, safeJson } from './exchange';
import type { AuthorizationStore } from './store';
import type { AuthorizationNode, AuthorizationsTreeProvider } from './view';

export const INSPECTOR_SCHEME = 'chain-authorization';

/** A signer of typed data or transactions: an account the endpoint holds, or a key in SecretStorage. */
export type SignerChoice = 'endpoint' | 'local key';

export interface DraftArgs {
  endpointId?: string;
  token?: string;
  payer?: string;
  merchant?: string;
  /** Token units, e.g. "12.50". */
  amount?: string;
  validAfter?: number;
  validBefore?: number;
  route?: CaptureRoute;
}

export interface KeyArgs {
  key: string;
}

export interface SignArgs extends KeyArgs {
  signer?: SignerChoice;
  /** With signer 'local key': a key to keep in SecretStorage first. */
  privateKey?: string;
}

export interface StoreArgs extends KeyArgs {
  orderId?: string;
}

export interface InspectArgs extends KeyArgs {
  /** Open the markdown document (default true). */
  show?: boolean;
}

export interface CaptureArgs extends KeyArgs {
  /** Submit even though the dry run reverts (the receipt then shows status 0x0). */
  force?: boolean;
  /** Who sends for the merchant; default: the endpoint when it holds the merchant's account. */
  sender?: SignerChoice;
  /** How long to wait for a receipt (ms). */
  timeoutMs?: number;
  /**
   * Capture by this route instead of the drafted one: allowed only when it is the route the
   * signature's type fits (e.g. transferWithAuthorization for a TransferWithAuthorization signature).
   */
  route?: CaptureRoute;
}

export interface CancelArgs extends KeyArgs {
  payerSigner?: SignerChoice;
  sender?: SignerChoice;
  timeoutMs?: number;
}

export interface ExportArgs extends KeyArgs {
  /** File to write; without it the user picks one. */
  path?: string;
  /** Skips the confirmation that the file holds a payment credential. */
  confirmed?: boolean;
}

export interface ImportArgs {
  /** The exported JSON (object or text) or the seed's stored-authorization shape. */
  json?: unknown;
  endpointId?: string;
}

export interface InspectResult {
  inspection: Inspection;
  state: DerivedState;
  markdown: string;
}

export interface CommandOutcome {
  key: string;
  state?: DerivedState;
  tx?: TxOutcome;
}

export interface AuthorizationCommandDeps {
  store: AuthorizationStore;
  tree: AuthorizationsTreeProvider;
  registry: EndpointRegistry;
  output: vscode.LogOutputChannel;
  documents: InspectorDocuments;
}

/** The inspector's read-only markdown documents, served from memory. */
export class InspectorDocuments implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '_Run Chain: Inspect Authorization again._\n';
  }

  /** Opens (or updates) the document named after the order, or the nonce for one not stored yet. */
  async show(name: string, markdown: string): Promise<vscode.TextDocument> {
    const uri = vscode.Uri.from({ scheme: INSPECTOR_SCHEME, path: `/${name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60)}.md` });
    this.contents.set(uri.toString(), markdown);
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    await vscode.window.showTextDocument(document, { preview: true });
    return document;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** The address of a private key, or undefined when it is not one. */
function keyAddress(privateKey: string): string | undefined {
  const trimmed = privateKey.trim();
  try {
    return new Wallet(trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`).address;
  } catch {
    return undefined;
  }
}
const title = (step: number, steps: number): string => `Draft Authorization (${step}/${steps})`;
const RECEIPT_TIMEOUT_MS = 30_000;

/**
 * The prompts the commands use: VS Code's own by default. The in-VS-Code tests swap in scripted
 * answers to walk the interactive path (the same code, only the UI primitive replaced).
 */
export interface Prompts {
  quickPick<T extends vscode.QuickPickItem>(items: T[], options: vscode.QuickPickOptions): Thenable<T | undefined>;
  inputBox(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  /** A modal warning with one action; true when the user chose it. */
  confirm(message: string, action: string): Thenable<boolean>;
  saveDialog(options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined>;
  openDialog(options: vscode.OpenDialogOptions): Thenable<vscode.Uri[] | undefined>;
}

export const vscodePrompts: Prompts = {
  quickPick: (items, options) => vscode.window.showQuickPick(items, options),
  inputBox: (options) => vscode.window.showInputBox(options),
  confirm: async (message, action) => (await vscode.window.showWarningMessage(message, { modal: true }, action)) === action,
  saveDialog: (options) => vscode.window.showSaveDialog(options),
  openDialog: (options) => vscode.window.showOpenDialog(options),
};

/** Thrown when the user dismisses a prompt: nothing happens and nothing is reported. */
class Dismissed extends Error {}

function answered<T>(value: T | undefined): T {
  if (value === undefined) throw new Dismissed();
  return value;
}

export class AuthorizationCommands {
  /** The last error a command reported (tests read it; users see it as a message). */
  lastError: string | undefined;
  /** The prompts (VS Code's; replaceable by tests). */
  ui: Prompts = vscodePrompts;

  constructor(private readonly deps: AuthorizationCommandDeps) {}

  register(): vscode.Disposable[] {
    const c = (id: string, run: (...args: never[]) => Promise<unknown>): vscode.Disposable =>
      vscode.commands.registerCommand(`chainExplorer.authorizations.${id}`, (...args: unknown[]) => this.guard(id, () => run(...(args as never[]))));
    return [
      c('draft', (args?: DraftArgs) => this.draft(args)),
      c('sign', (arg?: AuthorizationNode | SignArgs) => this.sign(arg)),
      c('store', (arg?: AuthorizationNode | StoreArgs) => this.storeForOrder(arg)),
      c('inspect', (arg?: AuthorizationNode | InspectArgs) => this.inspect(arg)),
      c('capture', (arg?: AuthorizationNode | CaptureArgs) => this.capture(arg)),
      c('cancel', (arg?: AuthorizationNode | CancelArgs) => this.cancel(arg)),
      c('void', (arg?: AuthorizationNode | KeyArgs) => this.voidOffchain(arg)),
      c('export', (arg?: AuthorizationNode | ExportArgs) => this.exportOne(arg)),
      c('import', (args?: ImportArgs) => this.importOne(args)),
      c('delete', (arg?: AuthorizationNode | KeyArgs) => this.deleteOne(arg)),
      c('refresh', () => this.deps.tree.refresh()),
      c('addLocalKey', (privateKey?: string) => this.addLocalKey(privateKey)),
      c('removeLocalKey', (address?: string) => this.removeLocalKey(address)),
    ];
  }

  /** Runs a command: expected failures become one error message; the view is refreshed after. */
  private async guard<T>(id: string, run: () => Promise<T>): Promise<T | undefined> {
    this.lastError = undefined;
    try {
      return await run();
    } catch (error) {
      if (error instanceof Dismissed) return undefined;
      const message = error instanceof InputError || error instanceof RpcClientError ? describeRpcError(error) : error instanceof Error ? error.message : String(error);
      this.lastError = message;
      this.deps.output.warn(`authorization ${id}: ${message}`);
      void vscode.window.showErrorMessage(`Authorization: ${message}`);
      return undefined;
    } finally {
      if (id !== 'refresh') await this.deps.tree.refresh();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers

  private endpoint(id: string): Endpoint {
    const endpoint = this.deps.registry.get(id);
    if (!endpoint) throw new InputError(`endpoint ${id} is not available (start the mock node or add the endpoint)`);
    return endpoint;
  }

  private chain(record: Pick<AuthorizationRecord, 'endpointId' | 'token'>): AuthorizationChain {
    const chain = this.deps.tree.observer.chainFor(record);
    if (!chain) throw new InputError(`endpoint ${record.endpointId} is not available (start the mock node or add the endpoint)`);
    return chain;
  }

  /** The record a command is about, checked against the state the command needs. */
  private async target(arg: AuthorizationNode | KeyArgs | undefined, action: AuthorizationAction): Promise<{ record: AuthorizationRecord; state: DerivedState }> {
    let key: string | undefined;
    if (arg && 'key' in arg) key = arg.key;
    if (!key) {
      await this.deps.tree.refresh();
      const candidates = this.deps.store.list().filter((r) => !refusal(action, this.deps.tree.observer.stateOf(r).state));
      if (candidates.length === 0) throw new InputError(`no authorization can be used for ${action} now`);
      const pick = answered(await this.ui.quickPick(candidates.map((r) => ({
        label: r.orderId ? `Order ${r.orderId}` : summary(r),
        description: this.deps.tree.observer.stateOf(r).state,
        detail: `${summary(r)} · nonce ${r.authorization.nonce.slice(0, 18)}…`,
        key: r.key,
      })), { title: `${action[0].toUpperCase()}${action.slice(1)} Authorization`, placeHolder: `Authorization to ${action}` }));
      key = pick.key;
    }
    const record = this.deps.store.get(key);
    if (!record) throw new InputError(`no authorization ${key}`);
    const { observation, error } = await this.deps.tree.observer.observe(record);
    const state = deriveState(record, observation);
    const why = refusal(action, state.state);
    if (why) throw new InputError(why);
    if (error && ['capture', 'cancel', 'sign'].includes(action)) throw new InputError(error);
    return { record, state };
  }

  /** Accounts the endpoint can sign for (eth_accounts), plus the local keys' addresses. */
  private async knownAccounts(chain: AuthorizationChain): Promise<{ address: string; where: string }[]> {
    const endpointAccounts = await chain.accounts();
    const local = this.deps.store.localKeyAddresses();
    return [
      ...endpointAccounts.map((address) => ({ address, where: 'endpoint account' })),
      ...local.filter((a) => !endpointAccounts.includes(getAddress(a))).map((address) => ({ address, where: 'local key' })),
    ];
  }

  private async pickAccount(chain: AuthorizationChain, step: number, steps: number, what: string, exclude?: string): Promise<string> {
    const accounts = (await this.knownAccounts(chain)).filter((a) => a.address !== exclude);
    const enter = { label: '$(edit) Enter an address…', address: '' };
    const items = [...accounts.map((a) => ({ label: a.address, description: a.where, address: a.address })), enter];
    const pick = answered(await this.ui.quickPick(items, { title: title(step, steps), placeHolder: what, ignoreFocusOut: true }));
    if (pick.address) return pick.address;
    return answered(await this.ui.inputBox({
      title: title(step, steps), prompt: what, placeHolder: '0x…', ignoreFocusOut: true,
      validateInput: (v) => { try { parseAddress(v, what); return undefined; } catch (e) { return (e as Error).message; } },
    }));
  }

  /** Decides who signs for `address`: the endpoint if it holds the account, else a local key (asked for if missing). */
  private async signerFor(chain: AuthorizationChain, address: string, choice: SignerChoice | undefined, role: string, interactive: boolean, privateKey?: string): Promise<{ kind: SignerChoice; key?: string }> {
    if (privateKey) await this.keepLocalKey(privateKey, address, role);
    const onEndpoint = (await chain.accounts()).includes(getAddress(address));
    // Not on the endpoint: a local key, asked for below when there is none yet.
    const kind = choice ?? (onEndpoint ? 'endpoint' : 'local key');
    if (kind === 'endpoint') {
      if (!onEndpoint) throw new InputError(`the endpoint does not hold the ${role}'s account ${address} (eth_accounts); use a local key`);
      return { kind };
    }
    let key = await this.deps.store.localKey(address);
    if (!key && !interactive) {
      throw new InputError(`no local key for the ${role} ${address} and the endpoint does not hold the account: give privateKey or run Add Local Signing Key`);
    }
    if (!key) {
      const entered = answered(await this.ui.inputBox({
        title: `Private key of the ${role} ${address}`,
        prompt: `The endpoint does not hold this account (eth_accounts). The key is kept in the secret storage only.`,
        password: true, ignoreFocusOut: true,
        validateInput: (v) => (keyAddress(v) === getAddress(address) ? undefined : `not the private key of ${address}`),
      }));
      await this.keepLocalKey(entered, address, role);
      key = await this.deps.store.localKey(address);
    }
    if (!key) throw new InputError(`no local key for ${address}`);
    return { kind: 'local key', key };
  }

  /** Keeps a private key in SecretStorage after checking it belongs to `address` (a wrong key changes nothing). */
  private async keepLocalKey(privateKey: string, address: string, role: string): Promise<void> {
    const owner = keyAddress(privateKey);
    if (!owner) throw new InputError('not a private key (32 bytes of hex)');
    if (owner !== getAddress(address)) throw new InputError(`that private key is for ${owner}, not the ${role} ${address}`);
    await this.deps.store.addLocalKey(privateKey);
    this.deps.output.info(`local signing key for ${owner} kept in the secret storage`);
  }

  private async signTyped(chain: AuthorizationChain, signer: { kind: SignerChoice; key?: string }, address: string, payload: ReturnType<typeof authorizationTypedData>): Promise<string> {
    if (signer.kind === 'endpoint') return chain.signTypedDataOnEndpoint(address, payload);
    const wallet = new Wallet(signer.key!);
    const types = { [payload.primaryType]: [...(payload.types[payload.primaryType] ?? [])] };
    return wallet.signTypedData({ ...payload.domain, chainId: BigInt(payload.domain.chainId) }, types, payload.message);
  }

  private async send(chain: AuthorizationChain, sender: { kind: SignerChoice; key?: string }, from: string, data: string, gas?: bigint): Promise<string> {
    return sender.kind === 'endpoint' ? chain.sendFromEndpointAccount(from, data, gas) : chain.sendFromLocalKey(sender.key!, data, gas);
  }

  private async derived(key: string): Promise<DerivedState> {
    await this.deps.tree.refresh();
    const record = this.deps.store.get(key);
    if (!record) throw new InputError(`no authorization ${key}`);
    return this.deps.tree.observer.stateOf(record);
  }

  // ---------------------------------------------------------------------------------------------
  // Draft

  async draft(args: DraftArgs = {}): Promise<string> {
    const interactive = args.payer === undefined;
    const steps = 7;
    let endpointId = args.endpointId;
    if (!endpointId) {
      const endpoints = this.deps.registry.list();
      if (endpoints.length === 0) throw new InputError('no endpoint: start the mock node or add an endpoint first');
      const pick = answered(await this.ui.quickPick(endpoints.map((e) => ({ label: e.name, description: e.displayUrl, id: e.id })),
        { title: title(1, steps), placeHolder: 'Endpoint (the chain the authorization is for)', ignoreFocusOut: true }));
      endpointId = pick.id;
    }
    const endpoint = this.endpoint(endpointId);
    const defaultToken = endpoint.tokenAddress ?? readSettings().tokenAddress;
    const tokenText = args.token ?? (interactive
      ? answered(await this.ui.inputBox({
        title: title(2, steps), prompt: 'Token address (EIP-3009)', value: defaultToken, ignoreFocusOut: true,
        validateInput: (v) => { try { parseAddress(v, 'token address'); return undefined; } catch (e) { return (e as Error).message; } },
      }))
      : defaultToken);
    if (!tokenText) throw new InputError('token address is missing (set chainExplorer.tokenAddress or give one)');
    const token = parseAddress(tokenText, 'token address');
    const chain = new AuthorizationChain(this.chain({ endpointId, token }).client, token);
    const payer = args.payer ?? await this.pickAccount(chain, 3, steps, 'Payer (signs the authorization)');
    const merchant = args.merchant ?? (interactive ? await this.pickAccount(chain, 4, steps, 'Merchant (the only party that may capture)', getAddress(payer)) : undefined);
    if (merchant === undefined) throw new InputError('merchant is missing');
    const amount = args.amount ?? (interactive
      ? answered(await this.ui.inputBox({
        title: title(5, steps), prompt: 'Amount in token units (6 decimals)', placeHolder: '12.50', ignoreFocusOut: true,
        validateInput: (v) => { try { parseTokenAmount(v); return undefined; } catch (e) { return (e as Error).message; } },
      }))
      : undefined);
    if (amount === undefined) throw new InputError('amount is missing');
    // The token checks the window against block time: take "now" from the chain when it answers.
    const now = await chain.now().catch(() => nowSeconds());
    let window = defaultWindow(now);
    if (args.validAfter !== undefined || args.validBefore !== undefined) {
      window = { validAfter: args.validAfter ?? window.validAfter, validBefore: args.validBefore ?? window.validBefore };
    } else if (interactive) {
      const pick = answered(await this.ui.quickPick([
        { label: 'Default window', description: '60 s before now to 15 min after (block time)', custom: false },
        { label: 'Custom window…', description: 'minutes before and after now', custom: true },
      ], { title: title(6, steps), placeHolder: 'Validity window', ignoreFocusOut: true }));
      if (pick.custom) {
        const minutes = (prompt: string, value: string): Thenable<string | undefined> => this.ui.inputBox({
          title: title(6, steps), prompt, value, ignoreFocusOut: true,
          validateInput: (v) => (/^\d+(\.\d+)?$/.test(v.trim()) ? undefined : 'a number of minutes'),
        });
        const before = Number(answered(await minutes('validAfter: minutes before now', '1')));
        const after = Number(answered(await minutes('validBefore: minutes after now', '15')));
        window = { validAfter: Math.floor(now - before * 60), validBefore: Math.floor(now + after * 60) };
      }
    }
    let route = args.route;
    if (!route) {
      route = interactive
        ? answered(await this.ui.quickPick([
          { label: 'receiveWithAuthorization', description: 'default: only the merchant can capture; the payer signs ReceiveWithAuthorization', route: 'receiveWithAuthorization' as const },
          { label: 'transferWithAuthorization', description: 'anyone can relay the capture; the payer signs TransferWithAuthorization', route: 'transferWithAuthorization' as const },
        ], { title: title(7, steps), placeHolder: 'Capture route (decides the typed data the payer signs)', ignoreFocusOut: true })).route
        : 'receiveWithAuthorization';
    }
    if (!CAPTURE_ROUTES.includes(route)) throw new InputError(`capture route must be ${CAPTURE_ROUTES.join(' or ')}`);
    // A fresh cryptographically random nonce for every attempt.
    const nonce = `0x${randomBytes(32).toString('hex')}`;
    const authorization = draftAuthorization({ payer, merchant, amount, ...window, nonce, route, token });
    const key = authorizationKey(authorization.from, authorization.nonce);
    if (this.deps.store.get(key)) throw new InputError('nonce collision: draft again');
    await this.deps.store.put({
      key, endpointId, endpointName: endpoint.name, token, route, authorization, createdAt: Date.now(),
    });
    this.deps.output.info(`authorization drafted: ${formatTokenAmount(BigInt(authorization.value))} from ${authorization.from} to ${authorization.to}, nonce ${authorization.nonce}, ${route}`);
    return key;
  }

  // ---------------------------------------------------------------------------------------------
  // Sign

  async sign(arg?: AuthorizationNode | SignArgs): Promise<CommandOutcome> {
    const { record } = await this.target(arg, 'sign');
    const args = arg && 'key' in arg && !('kind' in arg) ? arg as SignArgs : undefined;
    const chain = this.chain(record);
    const domain = await chain.domain();
    const primaryType = primaryTypeFor(record.route);
    const a = record.authorization;
    const signer = await this.signerFor(chain, a.from, args?.signer, 'payer', !args, args?.privateKey);
    const payload = authorizationTypedData(primaryType, domain, a);
    // Some wallets answer v as 0/1; the token accepts only 27/28 (the same signature, re-encoded).
    const signature = normalizeV(await this.signTyped(chain, signer, a.from, payload));
    // The wallet's answer is checked before it is kept: it must recover the payer.
    const candidate: AuthorizationRecord = { ...record, primaryType, domain };
    const recovered = recoverAuthorizationSigner(candidate, primaryType, signature);
    if (!recovered || recovered !== getAddress(a.from)) throw new InputError(`the signature recovers ${recovered ?? 'nobody'}, not the payer ${a.from}`);
    await this.deps.store.setSignature(record.key, signature);
    await this.deps.store.put({ ...candidate, signed: true, signedWith: signer.kind });
    this.deps.output.info(`authorization signed as ${primaryType} by ${a.from} (${signer.kind}); domain ${domain.name} v${domain.version} chain ${domain.chainId}; signature kept in the secret storage`);
    return { key: record.key, state: await this.derived(record.key) };
  }

  // ---------------------------------------------------------------------------------------------
  // Store

  async storeForOrder(arg?: AuthorizationNode | StoreArgs): Promise<CommandOutcome> {
    const { record } = await this.target(arg, 'store');
    const args = arg && 'key' in arg && !('kind' in arg) ? arg as StoreArgs : undefined;
    const taken = (id: string): boolean => this.deps.store.list().some((r) => r.key !== record.key && r.orderId === id);
    const orderId = (args?.orderId ?? answered(await this.ui.inputBox({
      title: 'Store Authorization', prompt: 'Order id this payment is for', ignoreFocusOut: true,
      validateInput: (v) => (!v.trim() ? 'an order id' : taken(v.trim()) ? 'another authorization is stored for that order' : undefined),
    }))).trim();
    if (!orderId) throw new InputError('order id is empty');
    if (taken(orderId)) throw new InputError(`another authorization is already stored for order ${orderId}: a nonce is never reused for another order, and an order has one authorization`);
    if (!(await this.deps.store.signature(record.key))) throw new InputError('the signature is missing from the secret storage');
    await this.deps.store.put({ ...record, orderId, storedAt: Date.now() });
    this.deps.output.info(`authorization stored for order ${orderId} (payer ${record.authorization.from}, nonce ${record.authorization.nonce})`);
    return { key: record.key, state: await this.derived(record.key) };
  }

  // ---------------------------------------------------------------------------------------------
  // Inspect

  async inspect(arg?: AuthorizationNode | InspectArgs): Promise<InspectResult> {
    const { record } = await this.target(arg, 'inspect');
    const args = arg && 'key' in arg && !('kind' in arg) ? arg as InspectArgs : undefined;
    const signature = await this.deps.store.signature(record.key);
    const input: InspectionInput = { record, signature };
    const chain = this.deps.tree.observer.chainFor(record);
    if (!chain) {
      input.chainError = `endpoint ${record.endpointName} is not available`;
    } else {
      try {
        input.chain = await chain.facts(record.authorization);
        input.symbol = await chain.symbol().catch(() => undefined);
        if (signature) input.dryRun = await chain.dryRun(captureCalldata(record.route, record.authorization, signature), record.authorization.to);
      } catch (error) {
        input.chainError = describeRpcError(error);
        input.chain = undefined;
      }
    }
    await this.deps.tree.refresh();
    input.state = this.deps.tree.observer.stateOf(record);
    const inspection = inspect(input);
    const markdown = inspectionMarkdown(input, inspection);
    const docName = `authorization-${record.orderId ? `order-${record.orderId}` : record.authorization.nonce.slice(0, 10)}`;
    if (args?.show !== false) await this.deps.documents.show(docName, markdown);
    return { inspection, state: input.state, markdown };
  }

  // ---------------------------------------------------------------------------------------------
  // Capture

  async capture(arg?: AuthorizationNode | CaptureArgs): Promise<CommandOutcome> {
    let { record } = await this.target(arg, 'capture');
    const args = arg && 'key' in arg && !('kind' in arg) ? arg as CaptureArgs : undefined;
    // A signature whose type does not fit the route (the seed's pair) can still be captured by the
    // route it does fit: offer that switch before anything is sent.
    const fitting = record.primaryType ? routeFor(record.primaryType) : record.route;
    if (args?.route !== undefined && args.route !== record.route) {
      if (args.route !== fitting) throw new InputError(`the signature is ${record.primaryType ?? 'unknown'}: it can only be captured by ${fitting}`);
      record = await this.deps.store.update(record.key, (r) => ({ ...r, route: fitting }));
    } else if (!args && fitting !== record.route) {
      const message = `This authorization was signed as ${record.primaryType}, which ${record.route} rejects (FiatTokenV2: invalid signature). Capture it with ${fitting} instead?`;
      if (await this.ui.confirm(message, `Capture with ${fitting}`)) record = await this.deps.store.update(record.key, (r) => ({ ...r, route: fitting }));
    }
    const signature = await this.deps.store.signature(record.key);
    if (!signature) throw new InputError('the signature is missing from the secret storage');
    const a = record.authorization;
    const chain = this.chain(record);
    const data = captureCalldata(record.route, a, signature);
    const dryRun = await chain.dryRun(data, a.to);
    if (!dryRun.ok && !args?.force) {
      if (args) throw new InputError(`the dry run of ${record.route} reverts: ${dryRun.reason}; nothing was sent`);
      if (!(await this.ui.confirm(`The dry run of ${record.route} reverts: ${dryRun.reason}. Submit anyway? The transaction will fail and cost gas.`, 'Submit anyway'))) throw new Dismissed();
    }
    const sender = await this.signerFor(chain, a.to, args?.sender, 'merchant', !args);
    const hash = await this.send(chain, sender, a.to, data, dryRun.ok ? undefined : 200_000n);
    await this.deps.store.update(record.key, (r) => ({ ...r, capture: { hash, status: 'pending' } }));
    this.deps.output.info(`capture sent by ${a.to}: ${hash} (${record.route})`);
    let tx = await chain.waitForReceipt(hash, args?.timeoutMs ?? RECEIPT_TIMEOUT_MS);
    if (tx.status === 'reverted') {
      const again = await chain.dryRun(data, a.to).catch(() => undefined);
      tx = { ...tx, reason: again && !again.ok ? again.reason : dryRun.ok ? undefined : dryRun.reason };
    }
    await this.deps.store.update(record.key, (r) => ({ ...r, capture: tx }));
    const amount = `${formatTokenAmount(BigInt(a.value))}`;
    if (tx.status === 'success') {
      this.deps.output.info(`capture ${hash} succeeded in block ${tx.blockNumber}: paid ${amount} for order ${record.orderId}`);
      void vscode.window.showInformationMessage(`Paid: captured ${amount} for order ${record.orderId} (receipt status 0x1, block ${tx.blockNumber}).`);
    } else if (tx.status === 'reverted') {
      this.deps.output.warn(`capture ${hash} failed (status 0x0)${tx.reason ? `: ${tx.reason}` : ''}`);
      void vscode.window.showErrorMessage(`Capture failed: receipt status 0x0${tx.reason ? ` (${tx.reason})` : ''}. Order ${record.orderId} is not paid.`);
    } else {
      void vscode.window.showWarningMessage(`Capture ${hash} has no receipt yet: order ${record.orderId} is not paid until a successful receipt arrives.`);
    }
    return { key: record.key, tx, state: await this.derived(record.key) };
  }

  // ---------------------------------------------------------------------------------------------
  // Cancel: the payer signs CancelAuthorization, the merchant relays cancelAuthorization

  async cancel(arg?: AuthorizationNode | CancelArgs): Promise<CommandOutcome> {
    const { record } = await this.target(arg, 'cancel');
    const args = arg && 'key' in arg && !('kind' in arg) ? arg as CancelArgs : undefined;
    const a = record.authorization;
    const chain = this.chain(record);
    if (!args) {
      if (!(await this.ui.confirm(`Cancel the authorization${record.orderId ? ` for order ${record.orderId}` : ''} onchain? The payer ${a.from} signs a cancellation and the merchant relays it; the nonce is then consumed for good.`, 'Cancel onchain'))) throw new Dismissed();
    }
    const domain = await chain.domain();
    const payerSigner = await this.signerFor(chain, a.from, args?.payerSigner, 'payer', !args);
    const cancelSignature = normalizeV(await this.signTyped(chain, payerSigner, a.from, cancelTypedData(domain, a.from, a.nonce)));
    const types = { CancelAuthorization: [...TYPED_DATA_TYPES.CancelAuthorization.CancelAuthorization] };
    const recovered = verifyTypedData({ ...domain, chainId: BigInt(domain.chainId) }, types, { authorizer: a.from, nonce: a.nonce }, cancelSignature);
    if (recovered !== getAddress(a.from)) throw new InputError(`the cancellation signature recovers ${recovered}, not the payer ${a.from}`);
    const data = cancelCalldata(a.from, a.nonce, cancelSignature);
    const dryRun = await chain.dryRun(data, a.to);
    if (!dryRun.ok) throw new InputError(`the dry run of cancelAuthorization reverts: ${dryRun.reason}; nothing was sent`);
    const sender = await this.signerFor(chain, a.to, args?.sender, 'merchant', !args);
    const hash = await this.send(chain, sender, a.to, data);
    await this.deps.store.update(record.key, (r) => ({ ...r, cancel: { hash, status: 'pending' } }));
    this.deps.output.info(`cancelAuthorization relayed by ${a.to}: ${hash}`);
    const tx = await chain.waitForReceipt(hash, args?.timeoutMs ?? RECEIPT_TIMEOUT_MS);
    await this.deps.store.update(record.key, (r) => ({ ...r, cancel: tx }));
    if (tx.status === 'success') void vscode.window.showInformationMessage(`Canceled onchain in block ${tx.blockNumber}: a later capture reverts.`);
    else void vscode.window.showErrorMessage(`cancelAuthorization ${hash}: ${tx.status === 'pending' ? 'no receipt yet' : 'failed (status 0x0)'}.`);
    return { key: record.key, tx, state: await this.derived(record.key) };
  }

  // ---------------------------------------------------------------------------------------------
  // Void offchain

  async voidOffchain(arg?: AuthorizationNode | KeyArgs): Promise<CommandOutcome> {
    const { record } = await this.target(arg, 'void');
    const args = arg && 'key' in arg && !('kind' in arg) ? arg : undefined;
    if (!args) {
      if (!(await this.ui.confirm('Void this authorization in your own records? It will never be submitted, but the nonce stays unused onchain until it expires or the payer cancels it.', 'Void offchain'))) throw new Dismissed();
    }
    await this.deps.store.put({ ...record, voided: true });
    this.deps.output.info(`authorization voided offchain${record.orderId ? ` (order ${record.orderId})` : ''}; nonce ${record.authorization.nonce} stays unused onchain`);
    return { key: record.key, state: await this.derived(record.key) };
  }

  // ---------------------------------------------------------------------------------------------
  // Export (the only way the signature leaves the secret storage) and Import

  async exportOne(arg?: AuthorizationNode | ExportArgs): Promise<ExportedAuthorization> {
    const { record } = await this.target(arg, 'export');
    const args = arg && 'key' in arg && !('kind' in arg) ? arg as ExportArgs : undefined;
    const signature = await this.deps.store.signature(record.key);
    if (!signature) throw new InputError('the signature is missing from the secret storage');
    if (!args?.confirmed) {
      if (!(await this.ui.confirm('The exported file holds the signature, a payment credential: anyone with it can capture the payment. Export?', 'Export with signature'))) throw new Dismissed();
    }
    let target = args?.path;
    if (!target) {
      const base = vscode.workspace.workspaceFolders?.[0]?.uri;
      const name = `${record.orderId ?? record.authorization.nonce.slice(2, 14)}.authorization.json`;
      const uri = answered(await this.ui.saveDialog({
        title: 'Export Authorization', filters: { 'Authorization JSON': ['json'] },
        ...(base ? { defaultUri: vscode.Uri.joinPath(base, name) } : {}),
      }));
      target = uri.fsPath;
    }
    const exported = exportAuthorization(record, signature);
    await fs.writeFile(target, `${JSON.stringify(exported, null, 2)}\n`, { mode: 0o600 });
    this.deps.output.info(`authorization exported with its signature to ${target}`);
    return exported;
  }

  async importOne(args: ImportArgs = {}): Promise<string> {
    let json = args.json;
    if (json === undefined) {
      const [uri] = answered(await this.ui.openDialog({ canSelectMany: false, filters: { 'Authorization JSON': ['json'] }, title: 'Import Authorization' }));
      json = await fs.readFile(uri.fsPath, 'utf8');
    }
    const parsed = parseImport(typeof json === 'string' ? safeJson(json) : json);
    let endpointId = args.endpointId;
    if (!endpointId) {
      const endpoints = this.deps.registry.list();
      if (endpoints.length === 0) throw new InputError('no endpoint: start the mock node or add an endpoint first');
      endpointId = answered(await this.ui.quickPick(endpoints.map((e) => ({ label: e.name, description: e.displayUrl, id: e.id })), { placeHolder: 'Endpoint the authorization is for' })).id;
    }
    const endpoint = this.endpoint(endpointId);
    const token = parsed.domain?.verifyingContract ?? endpoint.tokenAddress;
    if (!token) throw new InputError('the token address is unknown: the JSON has no domain.verifyingContract');
    const chain = new AuthorizationChain(this.chain({ endpointId, token }).client, getAddress(token));
    const domain = parsed.domain ?? await chain.domain();
    const base: AuthorizationRecord = {
      key: authorizationKey(parsed.authorization.from, parsed.authorization.nonce), endpointId, endpointName: endpoint.name,
      token: getAddress(token), route: parsed.captureRoute, authorization: parsed.authorization, createdAt: Date.now(), domain,
    };
    // Without a stated primaryType, take the type the signature actually recovers the payer under,
    // else the seed's envelope type.
    let primaryType = parsed.primaryType;
    if (!primaryType) {
      const matches = (['ReceiveWithAuthorization', 'TransferWithAuthorization'] as const)
        .filter((t) => recoverAuthorizationSigner(base, t, parsed.signature) === getAddress(parsed.authorization.from));
      primaryType = matches[0] ?? 'TransferWithAuthorization';
    }
    if (this.deps.store.get(base.key)) throw new InputError('an authorization with this payer and nonce is already in the list');
    if (parsed.orderId && this.deps.store.list().some((r) => r.orderId === parsed.orderId)) throw new InputError(`another authorization is already stored for order ${parsed.orderId}`);
    await this.deps.store.setSignature(base.key, parsed.signature);
    await this.deps.store.put({
      ...base, primaryType, signed: true, signedWith: 'imported',
      ...(parsed.orderId ? { orderId: parsed.orderId, storedAt: Date.now() } : {}),
    });
    this.deps.output.info(`authorization imported: payer ${base.authorization.from}, nonce ${base.authorization.nonce}, ${primaryType} for ${base.route}`);
    return base.key;
  }

  async deleteOne(arg?: AuthorizationNode | KeyArgs): Promise<string> {
    const { record } = await this.target(arg, 'delete');
    if (!(arg && 'key' in arg && !('kind' in arg))) {
      if (!(await this.ui.confirm('Remove this authorization and its signature from this workspace?', 'Remove'))) throw new Dismissed();
    }
    await this.deps.store.delete(record.key);
    return record.key;
  }

  async addLocalKey(privateKey?: string): Promise<string> {
    const key = privateKey ?? answered(await this.ui.inputBox({
      title: 'Add Local Signing Key', prompt: 'Private key (kept in the secret storage only; use test keys)', password: true, ignoreFocusOut: true,
    }));
    const address = await this.deps.store.addLocalKey(key);
    this.deps.output.info(`local signing key for ${address} kept in the secret storage`);
    return address;
  }

  async removeLocalKey(address?: string): Promise<string> {
    const known = this.deps.store.localKeyAddresses();
    const chosen = address ?? answered(await this.ui.quickPick(known.map((label) => ({ label })), { placeHolder: 'Local signing key to remove' })).label;
    if (!known.some((a) => a.toLowerCase() === chosen.toLowerCase())) throw new InputError(`no local key for ${chosen}`);
    await this.deps.store.removeLocalKey(chosen);
    this.deps.output.info(`local signing key for ${chosen} removed`);
    return chosen;
  }
}
