// The upstream's state at the fork block, fetched lazily and kept. An account (balance, nonce,
// code) or a storage slot is fetched the first time something reads it, in one JSON-RPC batch
// with everything else the same read was missing, always at the fork block (a number, never a
// tag), and kept. Values at a fixed block never change, so the cache may drop an entry (it does,
// oldest first, past its bound) and fetch it again later with the same answer. A fetched account
// whose code is an upgradeable proxy brings its proxy slots and its implementation's account in
// the same fetch (proxySlots.ts): every call of the proxy reads them.
import type { Hex } from '../encoding/hex';
import { quantity } from '../encoding/hex';
import { implementationIn, proxySlotsIn } from './proxySlots';
import { UpstreamError, upstreamData, upstreamQuantity, type UpstreamCall, type UpstreamClient } from './upstreamClient';

/** An account as the upstream has it at the fork block. */
export interface UpstreamAccount {
  readonly nonce: bigint;
  readonly balance: bigint;
  readonly code: Hex;
}

/** What one read needs that is not kept: accounts, and slots per account. */
export interface MissingKeys {
  accounts: Set<Hex>;
  slots: Map<Hex, Set<bigint>>;
}

/**
 * The cache's bound: accounts and slots kept, and code bytes (a contract's code can be 24 KiB).
 * Past either, the oldest fetched entries go first (a tenth of the bound at once).
 */
export interface UpstreamStateBounds {
  entries: number;
  codeBytes: number;
}

export const DEFAULT_UPSTREAM_STATE_BOUNDS: UpstreamStateBounds = { entries: 1_000_000, codeBytes: 256 * 1024 * 1024 };

/**
 * The longest a run waits at a miss for an upstream on this machine, in ms: past it, the run
 * notes the miss and goes on (a slow moment of the upstream holds the EVM no longer).
 */
const WAIT_AT_MISS_MS = 10;

/** Block hashes kept (BLOCKHASH reaches 256 blocks back; a fork only a few hundred blocks old asks for fewer). */
const MAX_BLOCK_HASHES = 512;

/** Most rounds a fetch adds for proxies (a proxy's slots, its implementation, a proxy behind a proxy). */
const PROXY_ROUNDS = 4;

export class UpstreamState {
  private readonly accounts = new Map<Hex, UpstreamAccount>();
  /** `address:slot` -> value. */
  private readonly slots = new Map<string, bigint>();
  private codeBytes = 0;
  /** The proxy slots each kept account's code reads (proxies only). */
  private readonly proxies = new Map<Hex, bigint[]>();
  /** Reads in flight, by key: a second read of the same key waits for the first. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Entries fetched since the start (tests and the bench read them). */
  fetched = 0;
  /** Hashes of blocks below the fork block that BLOCKHASH asked for (at most 256 are ever asked: BLOCKHASH's window). */
  private readonly blockHashes = new Map<bigint, Promise<Hex>>();

  constructor(
    private readonly client: UpstreamClient,
    /** The fork block's number. */
    readonly blockNumber: bigint,
    private readonly bounds: UpstreamStateBounds = DEFAULT_UPSTREAM_STATE_BOUNDS,
  ) {}

  /**
   * How long a run may wait at a miss: WAIT_AT_MISS_MS when the upstream is near (on this machine
   * by default: a round trip there costs less than a run), else undefined: a remote upstream is
   * never waited at, the run's misses go in one batch.
   */
  waitAtMissMs(): number | undefined {
    return this.client.settings.waitAtMisses ? WAIT_AT_MISS_MS : undefined;
  }

  /**
   * The upstream's hash of block `number` (below the fork block: the same whatever its latest is),
   * fetched once and kept; an UpstreamError when the upstream fails (then asked again next time).
   */
  blockHash(number: bigint): Promise<Hex> {
    let hash = this.blockHashes.get(number);
    if (!hash) {
      const shown = this.client.settings.shownUrl;
      hash = this.client.call('eth_getBlockByNumber', [quantity(number), false]).then((block) => {
        const value = (block as { hash?: unknown } | null)?.hash;
        if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(value)) throw new UpstreamError(`the fork's upstream ${shown} answered eth_getBlockByNumber(${quantity(number)}) without a block hash`);
        return value.toLowerCase() as Hex;
      });
      this.blockHashes.set(number, hash);
      hash.catch(() => this.blockHashes.delete(number));
      if (this.blockHashes.size > MAX_BLOCK_HASHES) this.blockHashes.delete(this.blockHashes.keys().next().value as bigint);
    }
    return hash;
  }

  /** A kept account; undefined when it was never fetched (or was dropped). */
  account(address: Hex): UpstreamAccount | undefined {
    return this.accounts.get(address);
  }

  /** A kept slot; undefined when it was never fetched (or was dropped). */
  storage(address: Hex, slot: bigint): bigint | undefined {
    return this.slots.get(slotKey(address, slot));
  }

  /** Entries kept now. */
  get size(): { accounts: number; slots: number; codeBytes: number } {
    return { accounts: this.accounts.size, slots: this.slots.size, codeBytes: this.codeBytes };
  }

  /**
   * Fetches what is missing (and not kept already) in one batch; an UpstreamError when the
   * upstream fails. Then, while any account it touched is a proxy whose slots or implementation
   * are not kept, fetches those too (one more batch a level; their failure is left to the read
   * that needs them).
   */
  async fetch(missing: MissingKeys): Promise<void> {
    await this.fetchOnce(missing);
    let touched = new Set<Hex>([...missing.accounts, ...missing.slots.keys()]);
    for (let round = 0; round < PROXY_ROUNDS; round++) {
      const next = this.proxyNeeds(touched);
      if (next.accounts.size === 0 && next.slots.size === 0) return;
      try {
        await this.fetchOnce(next);
      } catch {
        return;
      }
      touched = new Set<Hex>([...next.accounts, ...next.slots.keys()]);
    }
  }

  /** What the proxies among `addresses` read on every call and is not kept: their proxy slots, then their implementation's account. */
  private proxyNeeds(addresses: Iterable<Hex>): MissingKeys {
    const needs: MissingKeys = { accounts: new Set(), slots: new Map() };
    for (const address of addresses) {
      for (const slot of this.proxies.get(address) ?? []) {
        const value = this.storage(address, slot);
        if (value === undefined) {
          let slots = needs.slots.get(address);
          if (!slots) needs.slots.set(address, (slots = new Set()));
          slots.add(slot);
          continue;
        }
        const implementation = implementationIn(slot, value);
        if (implementation !== undefined && !this.accounts.has(implementation)) needs.accounts.add(implementation);
      }
    }
    return needs;
  }

  /** One batch of what `missing` names and is not kept (reads already in flight are waited for). */
  private async fetchOnce(missing: MissingKeys): Promise<void> {
    const tag = quantity(this.blockNumber);
    const calls: UpstreamCall[] = [];
    const apply: ((results: unknown[], at: number) => void)[] = [];
    const waits: Promise<void>[] = [];
    const mine: string[] = [];
    for (const address of missing.accounts) {
      if (this.accounts.has(address) || !this.claim(address, mine, waits)) continue;
      const at = calls.length;
      calls.push({ method: 'eth_getBalance', params: [address, tag] }, { method: 'eth_getTransactionCount', params: [address, tag] }, { method: 'eth_getCode', params: [address, tag] });
      apply.push((results) => {
        const shown = this.client.settings.shownUrl;
        const account: UpstreamAccount = {
          balance: upstreamQuantity(results[at], shown, `eth_getBalance(${address})`),
          nonce: upstreamQuantity(results[at + 1], shown, `eth_getTransactionCount(${address})`),
          code: upstreamData(results[at + 2], shown, `eth_getCode(${address})`),
        };
        this.keepAccount(address, account);
      });
    }
    for (const [address, slots] of missing.slots) {
      for (const slot of slots) {
        const key = slotKey(address, slot);
        if (this.slots.has(key) || !this.claim(key, mine, waits)) continue;
        const at = calls.length;
        calls.push({ method: 'eth_getStorageAt', params: [address, quantity(slot), tag] });
        apply.push((results) => this.keepSlot(key, upstreamQuantity(results[at], this.client.settings.shownUrl, `eth_getStorageAt(${address}, ${quantity(slot)})`)));
      }
    }
    if (calls.length > 0) {
      const read = this.client.batch(calls).then((results) => {
        for (const step of apply) step(results, 0);
      });
      const settled = read.then(() => undefined, () => undefined);
      for (const key of mine) this.inFlight.set(key, settled);
      try {
        await read;
      } finally {
        for (const key of mine) if (this.inFlight.get(key) === settled) this.inFlight.delete(key);
      }
    }
    // Another read fetching the same keys: its failure is seen when this read runs again and misses.
    if (waits.length > 0) await Promise.all(waits);
  }

  /** Whether this batch fetches `key` (then in `mine`); a key another read is fetching adds that read to `waits` instead. */
  private claim(key: string, mine: string[], waits: Promise<void>[]): boolean {
    const pending = this.inFlight.get(key);
    if (pending) {
      waits.push(pending);
      return false;
    }
    mine.push(key);
    return true;
  }

  private keepAccount(address: Hex, account: UpstreamAccount): void {
    this.accounts.set(address, account);
    const proxySlots = proxySlotsIn(account.code);
    if (proxySlots.length > 0) this.proxies.set(address, proxySlots);
    this.codeBytes += (account.code.length - 2) / 2;
    this.fetched++;
    this.bound();
  }

  private keepSlot(key: string, value: bigint): void {
    this.slots.set(key, value);
    this.fetched++;
    this.bound();
  }

  /** Drops the oldest tenth of the entries while the cache is past a bound. */
  private bound(): void {
    const { entries, codeBytes } = this.bounds;
    if (this.accounts.size + this.slots.size <= entries && this.codeBytes <= codeBytes) return;
    const dropAccounts = Math.ceil(this.accounts.size / 10);
    const dropSlots = Math.ceil(this.slots.size / 10);
    let n = 0;
    for (const [address, account] of this.accounts) {
      if (n++ >= dropAccounts) break;
      this.accounts.delete(address);
      this.proxies.delete(address);
      this.codeBytes -= (account.code.length - 2) / 2;
    }
    n = 0;
    for (const key of this.slots.keys()) {
      if (n++ >= dropSlots) break;
      this.slots.delete(key);
    }
  }
}

function slotKey(address: Hex, slot: bigint): string {
  return `${address}:${slot.toString(16)}`;
}
