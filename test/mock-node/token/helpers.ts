// Shared helpers for the token's unit tests: the token against an in-memory storage, with the
// node's revert semantics (a failed call leaves storage as it was and logs nothing).
import { Wallet, hexlify, randomBytes, type TypedDataDomain } from 'ethers';
import { DEFAULT_MNEMONIC, defaultOptions, type TokenOptions } from '../../../mock-node/options';
import { DevAccounts } from '../../../mock-node/execution/devAccounts';
import { decodeRevertReason } from '../../../mock-node/execution/execute';
import { initialWarmSet } from '../../../mock-node/execution/evmGas';
import { intrinsicGas } from '../../../mock-node/execution/intrinsicGas';
import type { BlockEnvironment, CallOutcome, ContractStorage, NativeLog } from '../../../mock-node/execution/nativeContract';
import { TYPED_DATA_TYPES } from '../../../mock-node/tokenKit/index';
import { createStableToken, stableTokenInterface, type StableToken } from '../../../mock-node/execution/token/index';
import type { AuthorizationMessage } from '../../../mock-node/tokenKit/index';

export class MemoryStorage implements ContractStorage {
  slots = new Map<bigint, bigint>();
  get(slot: bigint): bigint {
    return this.slots.get(slot) ?? 0n;
  }
  set(slot: bigint, value: bigint): void {
    if (value === 0n) this.slots.delete(slot);
    else this.slots.set(slot, value);
  }
  snapshot(): Map<bigint, bigint> {
    return new Map(this.slots);
  }
}

export interface CallResultForTest {
  outcome: CallOutcome;
  logs: NativeLog[];
  reason: string | undefined;
  /** Intrinsic plus execution gas, what a receipt would show. */
  totalGas: bigint;
}

const accounts = new DevAccounts(DEFAULT_MNEMONIC, 5);
export const wallets: Wallet[] = accounts.list.map((a) => new Wallet(a.privateKey));
export const [owner, alice, bob, carol, dave] = wallets.map((w) => w.address.toLowerCase());

export class TokenHarness {
  readonly storage = new MemoryStorage();
  readonly token: StableToken;
  readonly options: TokenOptions;
  timestamp = 1_800_000_000n;
  chainId = 31337n;

  constructor(overrides: Partial<TokenOptions> = {}) {
    this.options = { ...defaultOptions().token, ...overrides };
    this.token = createStableToken(this.options, owner);
    this.token.genesis!({ storage: this.storage, chainId: this.chainId, devAccounts: accounts.addresses() });
  }

  env(): BlockEnvironment {
    return { number: 1n, timestamp: this.timestamp, chainId: this.chainId, coinbase: '0x' + '00'.repeat(20), baseFeePerGas: 1n };
  }

  raw(from: string, data: string, value = 0n): CallResultForTest {
    const before = this.storage.snapshot();
    const logs: NativeLog[] = [];
    const outcome = this.token.call({
      caller: from.toLowerCase(),
      origin: from.toLowerCase(),
      address: this.token.address,
      value,
      data,
      block: this.env(),
      isStatic: false,
      storage: this.storage,
      warm: initialWarmSet(from.toLowerCase(), this.token.address, this.env().coinbase, []),
      // This harness holds the token alone: every other account is externally owned.
      hasCode: (address) => address.toLowerCase() === this.token.address,
      emitLog: (log) => logs.push(log),
    });
    if (!outcome.ok) {
      this.storage.slots = before;
      logs.length = 0;
    }
    const reason = outcome.ok ? undefined : decodeRevertReason(outcome.revertData);
    return { outcome, logs, reason, totalGas: intrinsicGas(data, null) + outcome.gasUsed };
  }

  send(from: string, fn: string, args: unknown[] = []): CallResultForTest {
    return this.raw(from, stableTokenInterface().encodeFunctionData(fn, args));
  }

  /** Calls a view and returns its decoded first value. */
  view<T = unknown>(fn: string, args: unknown[] = []): T {
    const result = this.send(owner, fn, args);
    if (!result.outcome.ok) throw new Error(`view ${fn} reverted: ${result.reason}`);
    return stableTokenInterface().decodeFunctionResult(fn, result.outcome.returnData)[0] as T;
  }

  domain(): TypedDataDomain {
    return { name: this.options.name, version: this.options.version, chainId: this.chainId, verifyingContract: this.token.address };
  }

  async sign(
    signer: Wallet,
    primaryType: keyof typeof TYPED_DATA_TYPES,
    message: Record<string, unknown>,
  ): Promise<string> {
    const types = TYPED_DATA_TYPES[primaryType] as unknown as Record<string, { name: string; type: string }[]>;
    return signer.signTypedData(this.domain(), types, message);
  }
}

export function walletOf(address: string): Wallet {
  const wallet = wallets.find((w) => w.address.toLowerCase() === address.toLowerCase());
  if (!wallet) throw new Error(`no wallet for ${address}`);
  return wallet;
}

export function randomNonce(): string {
  return hexlify(randomBytes(32));
}

export type AuthorizationForTest = AuthorizationMessage;

export function authorizationArgs(a: AuthorizationForTest): unknown[] {
  return [a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce];
}

/** Splits a 65-byte r‖s‖v signature into [v, r, s] for the v,r,s overloads. */
export function vrs(signature: string): [number, string, string] {
  const bytes = signature.slice(2);
  return [parseInt(bytes.slice(128, 130), 16), '0x' + bytes.slice(0, 64), '0x' + bytes.slice(64, 128)];
}
