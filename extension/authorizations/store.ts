// Where authorizations live across reloads: the records (terms, domain, order id, void flag,
// receipts: nothing secret) in the workspace state; each signature, a payment credential, in
// SecretStorage only; local signing keys, when the user chooses that route, in SecretStorage only
// (their addresses, which are public, in the global state so they can be listed).
import * as vscode from 'vscode';
import { getAddress, Wallet } from 'ethers';
import { InputError, type AuthorizationRecord } from './model';

const RECORDS_KEY = 'chainExplorer.authorizations';
const LOCAL_KEYS_KEY = 'chainExplorer.authorizations.localKeyAddresses';
const signatureSecret = (key: string): string => `chainExplorer.authorization.signature/${key}`;
const cancelSignatureSecret = (key: string): string => `chainExplorer.authorization.cancelSignature/${key}`;
const localKeySecret = (address: string): string => `chainExplorer.authorization.localKey/${address.toLowerCase()}`;

export class AuthorizationStore implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly state: vscode.Memento, private readonly global: vscode.Memento, private readonly secrets: vscode.SecretStorage) {}

  list(): AuthorizationRecord[] {
    return [...(this.state.get<AuthorizationRecord[]>(RECORDS_KEY) ?? [])];
  }

  get(key: string): AuthorizationRecord | undefined {
    return this.list().find((r) => r.key === key.toLowerCase());
  }

  async put(record: AuthorizationRecord): Promise<void> {
    const others = this.list().filter((r) => r.key !== record.key);
    await this.state.update(RECORDS_KEY, [...others, record]);
    this.emitter.fire();
  }

  async update(key: string, change: (record: AuthorizationRecord) => AuthorizationRecord): Promise<AuthorizationRecord> {
    const record = this.get(key);
    if (!record) throw new InputError(`no authorization ${key}`);
    const next = change({ ...record });
    await this.put(next);
    return next;
  }

  async delete(key: string): Promise<void> {
    await this.secrets.delete(signatureSecret(key));
    await this.secrets.delete(cancelSignatureSecret(key));
    await this.state.update(RECORDS_KEY, this.list().filter((r) => r.key !== key));
    this.emitter.fire();
  }

  async setSignature(key: string, signature: string): Promise<void> {
    await this.secrets.store(signatureSecret(key), signature);
  }

  async signature(key: string): Promise<string | undefined> {
    return this.secrets.get(signatureSecret(key));
  }

  /** The payer's CancelAuthorization signature, pasted from their wallet, until it is relayed. */
  async setCancelSignature(key: string, signature: string): Promise<void> {
    await this.secrets.store(cancelSignatureSecret(key), signature);
  }

  async cancelSignature(key: string): Promise<string | undefined> {
    return this.secrets.get(cancelSignatureSecret(key));
  }

  // Local keys -------------------------------------------------------------------------------

  localKeyAddresses(): string[] {
    return this.global.get<string[]>(LOCAL_KEYS_KEY) ?? [];
  }

  /** Keeps a private key in SecretStorage; returns its address. */
  async addLocalKey(privateKey: string): Promise<string> {
    let wallet: Wallet;
    try {
      wallet = new Wallet(privateKey.trim().startsWith('0x') ? privateKey.trim() : `0x${privateKey.trim()}`);
    } catch {
      throw new InputError('not a private key (32 bytes of hex)');
    }
    const address = getAddress(wallet.address);
    await this.secrets.store(localKeySecret(address), wallet.privateKey);
    const known = this.localKeyAddresses().filter((a) => a.toLowerCase() !== address.toLowerCase());
    await this.global.update(LOCAL_KEYS_KEY, [...known, address]);
    return address;
  }

  async localKey(address: string): Promise<string | undefined> {
    return this.secrets.get(localKeySecret(address));
  }

  async removeLocalKey(address: string): Promise<void> {
    await this.secrets.delete(localKeySecret(address));
    await this.global.update(LOCAL_KEYS_KEY, this.localKeyAddresses().filter((a) => a.toLowerCase() !== address.toLowerCase()));
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
