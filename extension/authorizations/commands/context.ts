// What every authorization command shares: the services, and the steps several of them take
// (the authorization a command is about, the endpoint's chain, who signs for an address, sending).
import * as vscode from 'vscode';
import { getAddress, Wallet } from 'ethers';
import type { Endpoint, EndpointRegistry } from '../../rpc/endpoints';
import { AuthorizationChain } from '../chain';
import { isDevChain, isWellKnownDevAccount, realChainConfirmation } from '../safety';
import {
  deriveState, InputError, parseAddress, refusalFor, summary,
  type AuthorizationAction, type AuthorizationRecord, type DerivedState, type TxOutcome,
} from '../model';
import type { AuthorizationStore } from '../store';
import type { AuthorizationsTreeProvider } from '../view';
import type { Sighting } from '../evidence';
import type { InspectorDocuments } from './inspectorDocuments';
import type { Wizard } from './prompts';

/** A signer of typed data or transactions: an account the endpoint holds, or a key in SecretStorage. */
export type SignerChoice = 'endpoint' | 'local key';
export interface Signer {
  kind: SignerChoice;
  key?: string;
}

/** The argument of every command about one authorization (the view's node becomes this). */
export interface KeyArgs {
  key?: string;
}

export interface CommandOutcome {
  key: string;
  state?: DerivedState;
  tx?: TxOutcome;
  /** Where the transaction stood when the command returned (submitted, pre-confirmed, included…). */
  sighting?: Sighting;
}

export interface AuthorizationCommandDeps {
  store: AuthorizationStore;
  tree: AuthorizationsTreeProvider;
  registry: EndpointRegistry;
  output: vscode.LogOutputChannel;
  documents: InspectorDocuments;
}

/** What a command needs of its authorization beyond a state: its verb (for the quick pick) and why a record does not fit. */
export interface Requirement {
  verb: string;
  refusal(record: AuthorizationRecord, state: DerivedState): string | undefined;
}

const actionRequirement = (action: AuthorizationAction): Requirement => ({ verb: action, refusal: (_record, state) => refusalFor(action, state) });

export const RECEIPT_TIMEOUT_MS = 30_000;

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** The address of a private key, or undefined when it is not one. */
export function keyAddress(privateKey: string): string | undefined {
  const trimmed = privateKey.trim();
  try {
    return new Wallet(trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`).address;
  } catch {
    return undefined;
  }
}

export const validAddress = (what: string) => (v: string): string | undefined => {
  try {
    parseAddress(v, what);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
};

export class CommandContext {
  constructor(readonly deps: AuthorizationCommandDeps) {}

  get store(): AuthorizationStore { return this.deps.store; }
  get output(): vscode.LogOutputChannel { return this.deps.output; }

  endpoint(id: string): Endpoint {
    const endpoint = this.deps.registry.get(id);
    if (!endpoint) throw new InputError(`endpoint ${id} is not available (start the mock node or add the endpoint)`);
    return endpoint;
  }

  chain(record: Pick<AuthorizationRecord, 'endpointId' | 'token'>): AuthorizationChain {
    const chain = this.deps.tree.observer.chainFor(record);
    if (!chain) throw new InputError(`endpoint ${record.endpointId} is not available (start the mock node or add the endpoint)`);
    return chain;
  }

  /** The endpoint, asked for when not given. */
  async endpointId(w: Wizard, given: string | undefined, options: vscode.QuickPickOptions): Promise<string> {
    if (given) return given;
    const endpoints = this.deps.registry.list();
    if (endpoints.length === 0) throw new InputError('no endpoint: start the mock node or add an endpoint first');
    return (await w.pick(endpoints.map((e) => ({ label: e.name, description: e.displayUrl, id: e.id })), options)).id;
  }

  /**
   * The record a command is about (asked for when not given), checked against what the command needs:
   * a state that allows its action, or a requirement of its own.
   */
  async target(w: Wizard, key: string | undefined, need: AuthorizationAction | Requirement): Promise<{ record: AuthorizationRecord; state: DerivedState }> {
    const { verb, refusal } = typeof need === 'string' ? actionRequirement(need) : need;
    const observer = this.deps.tree.observer;
    if (!key) {
      await this.deps.tree.refresh();
      const candidates = this.store.list().filter((r) => !refusal(r, observer.stateOf(r)));
      if (candidates.length === 0) throw new InputError(`no authorization can be used for ${verb} now`);
      key = (await w.pick(candidates.map((r) => ({
        label: r.orderId ? `Order ${r.orderId}` : summary(r),
        description: observer.stateOf(r).state,
        detail: `${summary(r)} · nonce ${r.authorization.nonce.slice(0, 18)}…`,
        key: r.key,
      })), { title: `${verb[0].toUpperCase()}${verb.slice(1)} Authorization`, placeHolder: `Authorization to ${verb}` })).key;
    }
    const record = this.store.get(key);
    if (!record) throw new InputError(`no authorization ${key}`);
    const { observation, error } = await observer.observe(record);
    const state = deriveState(record, observation);
    const why = refusal(record, state);
    if (why) throw new InputError(why);
    if (error && ['capture', 'cancel', 'sign'].includes(verb)) throw new InputError(error);
    return { record, state };
  }

  /** Accounts the endpoint can sign for (eth_accounts), plus the local keys' addresses. */
  async knownAccounts(chain: AuthorizationChain): Promise<{ address: string; where: string }[]> {
    const endpointAccounts = await chain.accounts();
    const local = this.store.localKeyAddresses();
    return [
      ...endpointAccounts.map((address) => ({ address, where: 'endpoint account' })),
      ...local.filter((a) => !endpointAccounts.includes(getAddress(a))).map((address) => ({ address, where: 'local key' })),
    ];
  }

  /** An account from the known ones, or one typed in. */
  async pickAccount(w: Wizard, chain: AuthorizationChain, title: string, what: string, exclude?: string): Promise<string> {
    const accounts = (await this.knownAccounts(chain)).filter((a) => a.address !== exclude);
    const enter = { label: '$(edit) Enter an address…', address: '' };
    const items = [...accounts.map((a) => ({ label: a.address, description: a.where, address: a.address })), enter];
    const pick = await w.pick(items, { title, placeHolder: what, ignoreFocusOut: true });
    if (pick.address) return pick.address;
    return w.input({ title, prompt: what, placeHolder: '0x…', ignoreFocusOut: true, validateInput: validAddress(what) });
  }

  /** A development chain: the bundled mock node's endpoint, or chain id 31337. */
  isDevChain(record: Pick<AuthorizationRecord, 'endpointId'>, chainId: bigint): boolean {
    return isDevChain(chainId, this.deps.registry.get(record.endpointId)?.source === 'mock');
  }

  /**
   * Before a capture or cancel: on a development chain the routine confirmation; on any other chain
   * one that shows amount, recipient and chain, which an argument object answers only with
   * `confirmed: true`.
   */
  async confirmSpend(w: Wizard, action: 'capture' | 'cancel', record: AuthorizationRecord, chainId: bigint, devChain: boolean, confirmed: boolean | undefined, routine?: string): Promise<void> {
    if (devChain) {
      if (routine) await w.consent(routine, action === 'capture' ? 'Capture' : 'Cancel onchain');
      return;
    }
    const message = realChainConfirmation(action, record, chainId);
    if (confirmed === true) return;
    if (!w.interactive) throw new InputError(`${message} Not sent: pass confirmed: true to do it.`);
    await w.consent(message, action === 'capture' ? `Capture on chain ${chainId}` : `Cancel on chain ${chainId}`);
  }

  /** True when the endpoint holds the account or a local key is kept for it. */
  async canSignFor(chain: AuthorizationChain, address: string): Promise<boolean> {
    return (await chain.accounts()).includes(getAddress(address)) || !!(await this.store.localKey(address));
  }

  /**
   * Decides who signs for `address`: the endpoint if it holds the account, else a local key (asked
   * for if missing). With `guard` on a chain that is not a development chain, a well-known
   * development key needs consent (`allowed`, or the user's confirmation): anyone can spend from it.
   */
  async signerFor(w: Wizard, chain: AuthorizationChain, address: string, choice: SignerChoice | undefined, role: string, privateKey?: string, guard?: { devChain: boolean; allowed?: boolean }): Promise<Signer> {
    if (guard && !guard.devChain && isWellKnownDevAccount(address) && guard.allowed !== true) {
      const message = `The ${role} ${address} is a well-known development account (the "test … junk" mnemonic): its key is public, and anyone can move funds from it on this chain.`;
      if (!w.interactive) throw new InputError(`${message} Refused: pass allowDevKeys: true to use it anyway.`);
      await w.consent(`${message} Use it anyway?`, 'Use the development key');
    }
    if (privateKey) await this.keepLocalKey(privateKey, address, role);
    const onEndpoint = (await chain.accounts()).includes(getAddress(address));
    // Not on the endpoint: a local key, asked for below when there is none yet.
    const kind = choice ?? (onEndpoint ? 'endpoint' : 'local key');
    if (kind === 'endpoint') {
      if (!onEndpoint) throw new InputError(`the endpoint does not hold the ${role}'s account ${address} (eth_accounts); use a local key`);
      return { kind };
    }
    let key = await this.store.localKey(address);
    if (!key && !w.interactive) {
      throw new InputError(`no local key for the ${role} ${address} and the endpoint does not hold the account: give privateKey or run Add Local Signing Key`);
    }
    if (!key) {
      const entered = await w.input({
        title: `Private key of the ${role} ${address}`,
        prompt: `The endpoint does not hold this account (eth_accounts). The key is kept in the secret storage only.`,
        password: true, ignoreFocusOut: true,
        validateInput: (v) => (keyAddress(v) === getAddress(address) ? undefined : `not the private key of ${address}`),
      });
      await this.keepLocalKey(entered, address, role);
      key = await this.store.localKey(address);
    }
    if (!key) throw new InputError(`no local key for ${address}`);
    return { kind: 'local key', key };
  }

  /** Keeps a private key in SecretStorage after checking it belongs to `address` (a wrong key changes nothing). */
  async keepLocalKey(privateKey: string, address: string, role: string): Promise<void> {
    const owner = keyAddress(privateKey);
    if (!owner) throw new InputError('not a private key (32 bytes of hex)');
    if (owner !== getAddress(address)) throw new InputError(`that private key is for ${owner}, not the ${role} ${address}`);
    await this.store.addLocalKey(privateKey);
    this.output.info(`local signing key for ${owner} kept in the secret storage`);
  }

  async signTyped(chain: AuthorizationChain, signer: Signer, address: string, payload: Parameters<AuthorizationChain['signTypedDataOnEndpoint']>[1]): Promise<string> {
    if (signer.kind === 'endpoint') return chain.signTypedDataOnEndpoint(address, payload);
    const wallet = new Wallet(signer.key!);
    const types = { [payload.primaryType]: [...(payload.types[payload.primaryType] ?? [])] };
    return wallet.signTypedData({ ...payload.domain, chainId: BigInt(payload.domain.chainId) }, types, payload.message);
  }

  async send(chain: AuthorizationChain, sender: Signer, from: string, data: string, gas?: bigint): Promise<string> {
    return sender.kind === 'endpoint' ? chain.sendFromEndpointAccount(from, data, gas) : chain.sendFromLocalKey(sender.key!, data, gas);
  }

  /** The record's state after a command, re-read from the chain. */
  async derived(key: string): Promise<DerivedState> {
    await this.deps.tree.refresh();
    const record = this.store.get(key);
    if (!record) throw new InputError(`no authorization ${key}`);
    return this.deps.tree.observer.stateOf(record);
  }
}
