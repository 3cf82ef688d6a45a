// The chain: sealed blocks, the block being built and its flashblocks, the transaction queue,
// the clock, and every change to them. Every change is a public method that runs through
// `exclusive` (one at a time: the builder is the only writer); the steps they are made of
// (start a block, seal it, rewind) are private, so nothing can run them outside the writer.
// Reads answer from immutable BlockRecords and never wait for the builder.
import { secureRandomHex } from '../secureRandom';
import { EventEmitter } from 'node:events';
import { concat, toBeHex } from 'ethers';
import type { MockNodeOptions } from '../options';
import { flashblocksPerBlock } from '../options';
import { StateTrie, type GenesisRoots } from '../state/stateTrie';
import { StateDraft, type AccountRecord } from '../state/worldState';
import { mergeKeys, type MissingKeys, retryFetching } from '../state/forkReads';
import { MissRecorder, runRecorded } from '../state/missRecorder';
import type { ForkBase } from './forkBase';
import type { StateLayer, StateReader } from '../state/worldState';
import { applyTransaction, type NativeContracts } from '../execution/execute';
import { applyOpStackTransaction, type ApplyTransaction } from '../execution/opStack/opStackExecution';
import { l1AttributesDeposit, l1OriginFor, storedL1Origin } from '../execution/opStack/l1Attributes';
import { presetByName, type OpStackRules } from '../presets/chainPresets';
import type { BlockEnvironment } from '../execution/nativeContract';
import { maxFeePerGas, priorityFeePerGas, validateStatic } from '../execution/transaction';
import type { Logger } from '../logger';
import { ChainError } from '../encoding/errors';
import { L1_ATTRIBUTES_DEPOSITOR } from '../encoding/depositTransaction';
import { nextBaseFee } from './baseFee';
import { BlockInProgress } from './blockInProgress';
import { HeadStateView } from './headState';
import { blockReceipt } from './blockReceipt';
import { ChainClock, MAX_TIMESTAMP } from './clock';
import { addressKey, type Hex } from '../encoding/hex';
import { TransactionQueue } from './transactionQueue';
import { HashIndex } from './hashIndex';
import { RecentHashes } from './recentHashes';
import { SealedBlock } from './sealedBlock';
import { SlotTimer } from './slotTimer';
import type { BlockRecord, IncludedTransaction, TransactionRecord } from './types';

/** Base's fee vault: where the sequencer's fees go on OP Stack chains. */
export const DEFAULT_COINBASE: Hex = '0x4200000000000000000000000000000000000011';

export interface ChainEvents {
  /** A flashblock was cut: the new pending snapshot and the transactions it added. */
  flashblock: [pending: BlockRecord, added: IncludedTransaction[]];
  /** A block was sealed. */
  block: [block: BlockRecord];
  /** A transaction entered the queue. */
  pendingTransaction: [tx: TransactionRecord];
  /** Canonical blocks were replaced (reorg, revert): the removed ones, newest first. */
  removed: [blocks: BlockRecord[]];
  /** The pending block was dropped and is built again (reorg, revert, a dropped transaction): the dropped snapshot. */
  pendingDropped: [pending: BlockRecord];
}

/**
 * How blocks seal (Anvil's mining modes). `interval`: every `blockMs`, with flashblocks inside;
 * `automine`: each accepted transaction seals its own block at once; `none`: only evm_mine /
 * anvil_mine seal (flashblocks still run on their timer when the node started in auto mode).
 */
/**
 * `answerFirst`: the caller answers a request with what the change returns and wants that as soon
 * as it is known; the rest of the change's work follows right after, before any other request is
 * served (Chain.finishing). Without it, the change's promise resolves once all of it is done.
 */
export interface AnswerOptions {
  answerFirst?: boolean;
}

export type MiningMode = { kind: 'interval'; blockMs: number } | { kind: 'automine' } | { kind: 'none' };

export interface GenesisAlloc {
  accounts: Map<Hex, AccountRecord>;
  storage: Map<Hex, Map<bigint, bigint>>;
  /** Its roots when they are known already (the default genesis's build-time constants, mock-node/genesis/). */
  roots?: GenesisRoots;
}

interface Waiter {
  resolve: (included: IncludedTransaction) => void;
  reject: (error: Error) => void;
}

/** A state change made outside any transaction (anvil_setBalance, mock_mint ...), kept to replay it in a reorg. */
export type SystemChange = (draft: StateDraft, env: BlockEnvironment) => void;

interface Snapshot {
  head: bigint;
  queued: TransactionRecord[];
  /** The system changes made since the head sealed (the current state evm_revert goes back to). */
  changes: SystemChange[];
  clock: ReturnType<ChainClock['save']>;
}

type ApplyResult = Awaited<ReturnType<typeof applyTransaction>>;

/** Where a transaction hash points: a kept block and position, or a pruned block's number. */
type Located = { block: SealedBlock; index: number } | { pruned: number };

/** Pruned blocks whose hash BLOCKHASH can still ask for (the EVM reaches 256 blocks back). */
const BLOCKHASH_WINDOW = 256;
/**
 * --history-blocks: how many of the newest pruned transactions and blocks a lookup by hash still
 * knows as pruned (4444 naming the block); older pruned hashes are forgotten and answer as
 * unknown ones do. Fixed sizes (about 1.3 MiB and 0.3 MiB, allocated at the first prune), so a
 * long run stays flat.
 */
export const REMEMBERED_PRUNED_TRANSACTIONS = 65_536;
export const REMEMBERED_PRUNED_BLOCKS = 16_384;

export class Chain extends EventEmitter<ChainEvents> {
  private readonly clock = new ChainClock();
  /** The sealed blocks kept, oldest first: blocks[i] is block number `oldest + i`. */
  private readonly blocks: SealedBlock[] = [];
  /** The number of blocks[0]: above the base once --history-blocks has pruned older blocks. */
  private oldest = 0;
  /** The number of the chain's first block: 0, or on a fork the fork block's. */
  private baseNumber = 0;
  private readonly byHash = new Map<Hex, SealedBlock>();
  /** The kept blocks' transactions: hash → block and position. */
  private readonly txIndex = new HashIndex();
  /** The newest pruned transactions' hashes → block number (a lookup says pruned, not unknown). */
  private readonly prunedTransactions = new RecentHashes(REMEMBERED_PRUNED_TRANSACTIONS);
  /** The newest pruned blocks' hashes → number. */
  private readonly prunedHashes = new RecentHashes(REMEMBERED_PRUNED_BLOCKS);
  /** Hashes of the newest pruned blocks by number, for BLOCKHASH. */
  private readonly prunedRecent = new Map<number, Hex>();
  private genesisBlock!: SealedBlock;
  private readonly queue = new TransactionQueue();
  private readonly waiters = new Map<Hex, Waiter[]>();
  private readonly snapshots = new Map<number, Snapshot>();
  /** System changes per block number (blocks above `safe` and the pending block), replayed by reorg(). */
  private readonly systemChanges = new Map<bigint, SystemChange[]>();
  private nextSnapshotId = 1;
  private building!: BlockInProgress;
  private pendingSnapshot!: BlockRecord;
  /** The head with the system changes made since it sealed (Anvil's current state), while there are any. */
  private changedHead: HeadStateView | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  /** Changes queued on the tail or running (exclusive), not yet done. */
  private queuedWork = 0;
  private finishingWork: Promise<void> | undefined;
  /** extraData() as last made, with what it was made from (the same for every block as a rule). */
  private madeExtraData: { denominator: unknown; elasticity: unknown; hex: Hex } | undefined;
  private timer: SlotTimer | undefined;
  private timersOn = false;
  /** While a timer tick runs: the slot its flashblock is announced at (slotTimer.ts). */
  private announceAt: { timer: SlotTimer; slotAt: number } | undefined;
  /** While a flashblock is cut and waits for its slot: the queued transactions it took (a replacement of one is too late). */
  private publishing: Set<TransactionRecord> | undefined;
  private perBlock: number;
  private mining: MiningMode;
  /** evm_setBlockGasLimit, anvil_setCoinbase, anvil_setNextBlockBaseFeePerGas: what the next blocks get. */
  private gasLimit: bigint;
  private coinbase: Hex = DEFAULT_COINBASE;
  private nextBaseFee: bigint | undefined;
  private initialClock = this.clock.save();
  private instance: Hex = '0x' + secureRandomHex(32);
  /** A preset's OP Stack rules (--chain base): every block opens with its L1-attributes deposit. */
  private readonly opStack: OpStackRules | undefined;
  /** How a transaction executes on this chain: chosen once, for the builder and the trace replay. */
  readonly applyTransaction: ApplyTransaction;

  private constructor(
    readonly options: MockNodeOptions,
    readonly contracts: NativeContracts,
    private readonly stateTrie: StateTrie,
    private readonly logger: Logger,
    /** On a fork: the upstream, its fork block and its state (undefined on a chain of our own). */
    private forkBase?: ForkBase,
  ) {
    super();
    this.perBlock = flashblocksPerBlock(options);
    this.mining = options.auto ? { kind: 'interval', blockMs: options.blockTimeMs } : { kind: 'none' };
    this.gasLimit = options.gasLimit;
    this.opStack = options.chain === undefined ? undefined : presetByName(options.chain)?.opStack;
    this.applyTransaction = this.opStack ? applyOpStackTransaction : applyTransaction;
  }

  static async create(options: MockNodeOptions, contracts: NativeContracts, alloc: GenesisAlloc, logger: Logger, fork?: ForkBase): Promise<Chain> {
    const trie = new StateTrie();
    const chain = new Chain(options, contracts, trie, logger, fork);
    const state = await trie.genesis(alloc.accounts, alloc.storage, alloc.roots, fork?.state);
    if (fork) {
      chain.startFromFork(fork, state);
      await chain.startBlock();
      return chain;
    }
    const timestamp = BigInt(options.genesisTimestamp ?? Math.floor(Date.now() / 1000));
    const genesisParent: BlockRecord = {
      header: undefined as never,
      hash: '0x' + '00'.repeat(32),
      size: 0,
      transactions: [],
      logs: [],
      state,
      sealed: true,
      flashblockIndex: 0,
    };
    const genesis = new BlockInProgress(
      { number: 0n, parent: genesisParent, gasLimit: options.gasLimit, baseFeePerGas: options.initialBaseFee, coinbase: DEFAULT_COINBASE, extraData: chain.extraData() },
      timestamp,
    );
    genesis.flashblockIndex = 0;
    chain.addSealed(genesis.snapshot(true));
    await chain.startBlock();
    return chain;
  }

  /**
   * The fork block as the chain's first block: the upstream's header and hash as they are; its
   * state is the dev accounts (and the built-in token, when placed) over the upstream's.
   */
  private startFromFork(fork: ForkBase, state: StateLayer): void {
    this.forkBase = fork;
    this.baseNumber = Number(fork.header.number);
    this.oldest = this.baseNumber;
    this.addSealed({ header: fork.header, hash: fork.hash, size: fork.size, transactions: [], logs: [], state, sealed: true, flashblockIndex: 0 });
    // BLOCKHASH(N - 1) is known without asking: the fork block's parent hash.
    if (fork.header.number > 0n) this.prunedRecent.set(this.baseNumber - 1, fork.header.parentHash);
  }

  /** On a fork: the upstream, the fork block's number and the state fetched (undefined on a chain of our own). */
  get fork(): ForkBase | undefined {
    return this.forkBase;
  }

  /** Fetches forked state the way a run that missed it needs (one batch). */
  private readonly fetchMissing = (missing: MissingKeys): Promise<void> => this.forkBase!.state.fetch(missing);

  /**
   * anvil_reset({ forking }): the chain starts again from another fork (another block, or another
   * upstream): every block, the pool, snapshots, clock offsets and settings go, as reset() does.
   */
  refork(fork: ForkBase, alloc: GenesisAlloc): Promise<void> {
    return this.exclusive(async () => {
      const dropped = [...this.building.included.map((item) => item.tx), ...this.queue.clear()];
      const removed = [...this.blocks].reverse();
      for (const tx of dropped) this.rejectWaiters(tx.hash, new ChainError({ kind: 'transaction-dropped', reason: 'removed from the pool' }));
      const state = await this.stateTrie.genesis(alloc.accounts, alloc.storage, alloc.roots, fork.state);
      this.clearSealed();
      this.startFromFork(fork, state);
      if (removed.length > 0) this.emit('removed', removed);
      await this.startAfterReset();
    });
  }

  // ---- reads -------------------------------------------------------------------------------

  get latest(): BlockRecord {
    return this.blocks[this.blocks.length - 1];
  }

  /** The oldest sealed block kept (0 unless --history-blocks pruned older ones). */
  get oldestBlock(): bigint {
    return BigInt(this.oldest);
  }

  get pending(): BlockRecord {
    return this.pendingSnapshot;
  }

  /**
   * The block whose state a read at `block` sees: the head block with the system changes made
   * since it sealed (state setters change the current state at once, as on Anvil; the header's
   * stateRoot does not cover them until the next block seals them), any other block as it is.
   */
  stateView(block: BlockRecord): BlockRecord {
    const changed = this.changedHead;
    return changed !== undefined && changed.block === block ? changed : block;
  }

  get head(): bigint {
    return BigInt(this.oldest + this.blocks.length - 1);
  }

  /** Flashblocks per block in interval mining. */
  get flashblocksPerBlock(): number {
    return this.perBlock;
  }

  /** A random id of this chain's run, new after anvil_reset (anvil_metadata's instanceId). */
  get instanceId(): Hex {
    return this.instance;
  }

  /** Snapshots that evm_revert can still go back to: id and the head they keep. */
  snapshotHeads(): { id: number; head: bigint }[] {
    return [...this.snapshots].map(([id, snapshot]) => ({ id, head: snapshot.head }));
  }

  get miningMode(): MiningMode {
    return this.mining;
  }

  /** The gas limit of the block being built (and of the next ones, until evm_setBlockGasLimit). */
  get blockGasLimit(): bigint {
    return this.gasLimit;
  }

  /** The pool: transactions pre-confirmed in the pending block, then those still queued. */
  pool(): { preconfirmed: TransactionRecord[]; queued: TransactionRecord[] } {
    return { preconfirmed: userTransactions(this.pendingSnapshot.transactions), queued: this.queue.list() };
  }

  /** A sealed block of the canonical chain; undefined above the head; a block-pruned ChainError below the oldest kept. */
  blockByNumber(number: bigint): BlockRecord | undefined {
    if (number < 0n || number > this.head) return undefined;
    if (number < BigInt(this.oldest)) throw this.pruned(number);
    return this.blocks[Number(number) - this.oldest];
  }

  /** A sealed block of the canonical chain by hash; a block-pruned ChainError for a pruned one. */
  blockByHash(hash: Hex): BlockRecord | undefined {
    const key = hash.toLowerCase();
    const found = this.byHash.get(key);
    if (found) return found;
    const pruned = this.prunedHashes.find(key);
    if (pruned !== undefined) throw this.pruned(BigInt(pruned));
    return undefined;
  }

  private pruned(number: bigint, subject?: string): ChainError {
    return new ChainError({ kind: 'block-pruned', number, oldest: BigInt(this.oldest), kept: this.options.historyBlocks, subject });
  }

  /** A kept transaction's block and position, or the number of the (remembered) pruned block it was in. */
  private locate(key: Hex): Located | undefined {
    let found: Located | undefined;
    this.txIndex.find(key, ({ block, position }) => {
      const sealed = this.blocks[block - this.oldest];
      if (!sealed?.hasTransactionAt(position, key)) return false;
      found = { block: sealed, index: position };
      return true;
    });
    if (found) return found;
    const pruned = this.prunedTransactions.find(key);
    return pruned === undefined ? undefined : { pruned };
  }

  safeNumber(): bigint {
    const n = this.head - BigInt(this.options.safeDepth);
    return n > BigInt(this.baseNumber) ? n : BigInt(this.baseNumber);
  }

  finalizedNumber(): bigint {
    const n = this.head - BigInt(this.options.finalizedDepth);
    return n > BigInt(this.baseNumber) ? n : BigInt(this.baseNumber);
  }

  /** A transaction that is sealed or pre-confirmed, with the block it is in. */
  findTransaction(hash: Hex): { block: BlockRecord; included: IncludedTransaction } | undefined {
    const key = hash.toLowerCase();
    const location = this.locate(key);
    if (location) {
      if ('pruned' in location) throw this.pruned(BigInt(location.pruned), `transaction ${key}`);
      return { block: location.block, included: location.block.transactionAt(location.index) };
    }
    // The block in progress indexes its transactions by hash; one counts only once the published
    // pending snapshot holds it (never a transaction of a flashblock still being cut).
    const pending = this.pendingSnapshot;
    const candidate = this.building.byHash.get(key);
    const included = candidate && pending.transactions[candidate.index] === candidate ? candidate : undefined;
    return included ? { block: pending, included } : undefined;
  }

  /** True when a transaction with this hash is sealed (kept or pruned) or pre-confirmed. */
  private isKnown(hash: Hex): boolean {
    const key = hash.toLowerCase();
    if (this.locate(key)) return true;
    const candidate = this.building.byHash.get(key);
    return candidate !== undefined && this.pendingSnapshot.transactions[candidate.index] === candidate;
  }

  /** A transaction still waiting in the queue. */
  queuedTransaction(hash: Hex): TransactionRecord | undefined {
    return this.queue.get(hash.toLowerCase());
  }

  queuedTransactions(): TransactionRecord[] {
    return this.queue.list();
  }

  /** The nonce the node would give a dev account's next transaction (pre-confirmed plus queued). */
  nextNonce(address: Hex): bigint {
    const sender = addressKey(address);
    return this.queue.nextNonce(sender, this.pendingSnapshot.state.account(sender).nonce);
  }

  /** The environment of the block being built (for pending calls) or of a sealed block. */
  environment(block: BlockRecord): BlockEnvironment {
    return {
      number: block.header.number,
      timestamp: block.header.timestamp,
      chainId: this.options.chainId,
      coinbase: block.header.miner,
      baseFeePerGas: block.header.baseFeePerGas,
      gasLimit: block.header.gasLimit,
      prevRandao: block.header.mixHash,
      blockHash: this.hashOfBlock,
      upstreamBlockHash: this.forkBase ? this.hashBelowFork : undefined,
    };
  }

  /** BLOCKHASH for the EVM: the hash of a sealed block of the canonical chain. */
  private readonly hashOfBlock = (number: bigint): Hex | undefined => {
    if (number < 0n || number > this.head) return undefined;
    if (number < BigInt(this.oldest)) return this.prunedRecent.get(Number(number));
    return this.blocks[Number(number) - this.oldest].hash;
  };

  /**
   * BLOCKHASH on a fork, of a block below the fork block: the fork block's parent hash, or the
   * upstream's hash of that block (fetched once and kept: upstream/upstreamState.ts).
   */
  private readonly hashBelowFork = async (number: bigint): Promise<Hex | undefined> => {
    const fork = this.forkBase;
    if (!fork || number < 0n || number >= fork.header.number) return undefined;
    if (number === fork.header.number - 1n) return fork.header.parentHash;
    return fork.state.blockHash(number);
  };

  /** The environment a call "at latest" runs in: geth uses the latest header. */
  baseFeeForNextBlock(): bigint {
    return this.pendingSnapshot.header.baseFeePerGas;
  }

  // ---- transaction intake ------------------------------------------------------------------

  /** Validates and queues a signed transaction; it runs in the next flashblock. */
  submit(tx: TransactionRecord): Hex {
    validateStatic(tx, this.options.chainId, this.gasLimit);
    if (this.queue.has(tx.hash) || this.isKnown(tx.hash)) throw new ChainError({ kind: 'already-known' });
    const state = this.pendingSnapshot.state;
    const account = state.account(tx.from);
    if (tx.nonce < account.nonce) {
      throw new ChainError({ kind: 'nonce-too-low', next: account.nonce, nonce: tx.nonce });
    }
    const existing = this.queue.sameNonce(tx);
    // Cut into a flashblock that is about to be published: as if it were pre-confirmed already.
    if (existing && this.publishing?.has(existing)) throw new ChainError({ kind: 'nonce-too-low', next: tx.nonce + 1n, nonce: tx.nonce });
    // geth's rule: a replacement raises both the fee cap and the tip by at least 10%.
    if (existing && (maxFeePerGas(tx) * 10n < maxFeePerGas(existing) * 11n || priorityFeePerGas(tx) * 10n < priorityFeePerGas(existing) * 11n)) {
      throw new ChainError({ kind: 'replacement-underpriced' });
    }
    if (!existing) {
      // geth's txpool errors: one sender cannot fill the queue, nor all senders together.
      if (this.queue.countFrom(tx.from) >= this.options.maxQueuedPerSender) throw new ChainError({ kind: 'account-limit-exceeded' });
      if (this.queue.size >= this.options.maxQueued) throw new ChainError({ kind: 'txpool-full' });
    }
    const baseFee = this.pendingSnapshot.header.baseFeePerGas;
    if (maxFeePerGas(tx) < baseFee) {
      throw new ChainError({ kind: 'fee-below-base-fee', from: tx.from, maxFeePerGas: maxFeePerGas(tx), baseFee });
    }
    const cost = tx.gasLimit * maxFeePerGas(tx) + tx.value;
    if (account.balance < cost) {
      throw new ChainError({ kind: 'insufficient-funds', balance: account.balance, cost });
    }
    if (existing) this.rejectWaiters(existing.hash, new ChainError({ kind: 'transaction-replaced' }));
    this.queue.add(tx);
    this.emit('pendingTransaction', tx);
    return tx.hash;
  }

  /**
   * submit(), then with automine on, seals the transaction's block before answering (a promise
   * then); otherwise the hash at once, with no promise or turn of the event loop per transaction.
   */
  accept(tx: TransactionRecord, options: AnswerOptions = {}): Hex | Promise<Hex> {
    if (this.forkBase) return this.acceptForked(tx);
    const hash = this.submit(tx);
    if (this.mining.kind !== 'automine') return hash;
    // answerFirst (JSON-RPC) with nothing else in the way: the hash is answered now and the block
    // sealed right after the answer is written (finishAfterAnswer), before any later request is served.
    if (options.answerFirst && this.idle()) {
      this.finishAfterAnswer(() => this.automine());
      return hash;
    }
    return this.exclusive(() => this.automine()).then(() => hash);
  }

  /**
   * On a fork: fetches what the transaction reads (a trial run over pending, thrown away) before it
   * is queued, so the flashblock that runs it rarely waits for the upstream; then accept() as usual.
   */
  private async acceptForked(tx: TransactionRecord): Promise<Hex> {
    validateStatic(tx, this.options.chainId, this.gasLimit);
    await runRecorded(this.fetchMissing, () => this.pendingSnapshot.state, (reader) => {
      const trial = new StateDraft(reader);
      const result = applyTransaction(trial, tx, this.environment(this.pendingSnapshot), this.contracts, this.gasLimit, 0, 0);
      return result instanceof Promise ? result.then(() => undefined) : undefined;
    });
    const hash = await retryFetching(this.fetchMissing, () => this.submit(tx));
    if (this.mining.kind === 'automine') await this.exclusive(() => this.automine());
    return hash;
  }

  /**
   * On a fork, one queued transaction in a flashblock: run on a child of the flashblock's draft;
   * when it read state not fetched, fetch it and run again; only a complete run is merged.
   * The upstream failing: the transaction is dropped with that reason (undefined).
   */
  private async applyForked(draft: StateDraft, base: StateLayer, tx: TransactionRecord, env: BlockEnvironment, gasLeft: bigint, logCount: number, index: number): Promise<ApplyResult | undefined> {
    try {
      // Merged only after a run that missed nothing: a run over empty values is thrown away whole.
      const { result, trial } = await runRecorded(this.fetchMissing, () => draft, async (reader) => {
        const trial = new StateDraft(reader);
        const result = await this.applyTransaction(trial, tx, env, this.contracts, gasLeft, logCount, index);
        // The flashblock's commit compares with the block's state: what it will read, fetched now.
        const before = new MissRecorder(base);
        trial.readWhatCommitCompares(before);
        mergeKeys(reader.missing, before.missing);
        return { result, trial };
      });
      if (!('problem' in result)) trial.mergeInto(draft);
      return result;
    } catch (error) {
      this.logger.warn(`transaction ${tx.hash} dropped: ${(error as Error).message}`);
      return undefined;
    }
  }

  /** Resolves once the transaction is pre-confirmed (in a flashblock); rejects on timeout or drop. */
  waitForPreconfirmation(hash: Hex, timeoutMs: number): Promise<IncludedTransaction> {
    const found = this.findTransaction(hash);
    if (found) return Promise.resolve(found.included);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.removeWaiter(hash, waiter);
        reject(new ChainError({ kind: 'not-preconfirmed', hash, timeoutMs }));
      }, timeoutMs);
      const waiter: Waiter = {
        resolve: (included) => {
          clearTimeout(timer);
          resolve(included);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const list = this.waiters.get(hash) ?? [];
      list.push(waiter);
      this.waiters.set(hash, list);
    });
  }

  // ---- building ----------------------------------------------------------------------------

  /** Cuts one flashblock now: executes what is queued onto the pending block. */
  cutFlashblock(): Promise<BlockRecord> {
    return this.exclusive(() => this.flashblock());
  }

  /**
   * Seals `count` blocks (the first with everything queued, at `timestamp` when given), as evm_mine
   * does; with `intervalSeconds` (anvil_mine) the clock moves that far forward before each block.
   */
  mine(count = 1, timestamp?: bigint, intervalSeconds?: bigint): Promise<BlockRecord> {
    return this.exclusive(async () => {
      if (timestamp !== undefined) this.checkNextTimestamp(timestamp);
      if (intervalSeconds !== undefined) {
        const now = this.clock.now();
        const total = intervalSeconds * BigInt(count);
        if (now + total > MAX_TIMESTAMP) throw new ChainError({ kind: 'clock-overflow', now, seconds: total });
      }
      let last = this.latest;
      for (let i = 0; i < count; i++) {
        if (intervalSeconds !== undefined) this.clock.increase(intervalSeconds);
        if (timestamp !== undefined && i === 0) this.clock.setNextTimestamp(timestamp);
        await this.flashblock();
        last = await this.seal();
        // A turn of the event loop between blocks: evm_mine(10000) takes seconds, and requests
        // (reads never wait for the writer) are answered meanwhile.
        if (i + 1 < count) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      return last;
    });
  }

  /**
   * Applies a state change outside any transaction (anvil_setBalance, mock_mint ...) to the
   * current state: the head's (reads at `latest` see it at once, no block is made) and the
   * pending block's. All or nothing: a change that throws leaves the chain as it was, and the
   * error is the caller's. Resolves once the change is committed; with `answerFirst`, once it is
   * made, the commit following before any other request is served (chain.finishing).
   */
  applySystemChange(change: SystemChange, options: AnswerOptions = {}): Promise<void> {
    if (options.answerFirst && !this.forkBase && this.idle()) {
      // answerFirst (a JSON-RPC setter) with nothing queued: the change is made on drafts now (a
      // change that throws is the caller's error, and nothing changed), the promise resolves, and
      // the drafts are committed right after the answer is written (finishAfterAnswer).
      try {
        const env = this.environment(this.pendingSnapshot);
        const head = this.latest;
        const headBase = this.stateView(head).state;
        const draft = new StateDraft(this.building.state);
        change(draft, env);
        const headDraft = new StateDraft(headBase);
        change(headDraft, env);
        this.finishAfterAnswer(() => this.commitSystemChange(change, draft, head, headBase, headDraft));
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.exclusive(async () => {
      const env = this.environment(this.pendingSnapshot);
      // On a fork, a change over state not fetched yet runs again once what it missed is fetched.
      const changeOver = async (base: StateReader): Promise<StateDraft> => {
        let draft = new StateDraft(base);
        const run = (reader: StateReader) => {
          draft = new StateDraft(reader);
          change(draft, env);
          if (this.forkBase) draft.readWhatCommitCompares(reader);
        };
        if (this.forkBase) await runRecorded(this.fetchMissing, () => base, run);
        else run(base);
        return draft;
      };
      const draft = await changeOver(this.building.state);
      // The same change on the head's current state (what `latest` reads see), as Anvil changes
      // its current state without a block; the pending block holds it over its pre-confirmed
      // transactions, so the block that seals next carries it.
      const head = this.latest;
      const headBase = this.stateView(head).state;
      const headDraft = await changeOver(headBase);
      await this.commitSystemChange(change, draft, head, headBase, headDraft);
    });
  }

  /** A system change made on drafts of the pending block's state and of the head's, committed to both. */
  private async commitSystemChange(change: SystemChange, draft: StateDraft, head: BlockRecord, headBase: StateLayer, headDraft: StateDraft): Promise<void> {
    this.recordSystemChange(this.building.number, change);
    this.building.setState(await this.stateTrie.commit(this.building.state, draft), draft);
    const headState = await this.stateTrie.commit(headBase, headDraft);
    this.changedHead = headState === head.state ? undefined : new HeadStateView(head, headState);
    this.pendingSnapshot = this.building.snapshot(false);
    this.emit('flashblock', this.pendingSnapshot, []);
  }

  // ---- the clock (evm_increaseTime, evm_setNextBlockTimestamp) -------------------------------

  /** Moves the clock forward; answers the total offset in seconds. */
  increaseTime(seconds: bigint): Promise<bigint> {
    return this.exclusive(async () => {
      const now = this.clock.now();
      if (now + seconds > MAX_TIMESTAMP) throw new ChainError({ kind: 'clock-overflow', now, seconds });
      return this.clock.increase(seconds);
    });
  }

  /** The next block gets exactly this timestamp; it must be after the latest block's. */
  setNextBlockTimestamp(timestamp: bigint): Promise<void> {
    return this.exclusive(async () => {
      this.checkNextTimestamp(timestamp);
      this.clock.setNextTimestamp(timestamp);
    });
  }

  /** The chain's clock now, in Unix seconds (the wall clock plus evm_increaseTime offsets); a read, no change. */
  now(): bigint {
    return this.clock.now();
  }

  /** The clock's offset and pending exact timestamp (what --state saves). */
  clockState(): ReturnType<ChainClock['save']> {
    return this.clock.save();
  }

  private checkNextTimestamp(timestamp: bigint): void {
    if (timestamp > MAX_TIMESTAMP) throw new ChainError({ kind: 'timestamp-too-large', timestamp });
    const latest = this.latest.header.timestamp;
    if (timestamp <= latest) throw new ChainError({ kind: 'timestamp-not-after-latest', timestamp, latest });
  }

  /** Starts the timers the mining mode needs (flashblocks, and blocks in interval mining). */
  startTimers(): void {
    this.timersOn = true;
    this.restartTimer();
    // The first cut's cold work (planting the genesis tries) in the idle time before the first
    // slot, not inside that slot's cut.
    const interval = this.timerInterval();
    if (interval !== undefined) setTimeout(() => void this.exclusive(async () => this.stateTrie.prepare()), interval / 2).unref();
  }

  stopTimers(): void {
    this.timersOn = false;
    this.clearTimer();
  }

  /**
   * evm_setAutomine / evm_setIntervalMining: changes how blocks seal. Turning automine on seals
   * what is pending and queued at once.
   */
  setMiningMode(mode: MiningMode): Promise<void> {
    return this.exclusive(async () => {
      this.mining = mode;
      if (mode.kind === 'interval') this.perBlock = flashblocksPerBlock({ blockTimeMs: mode.blockMs, flashblockMs: this.flashblockInterval(mode.blockMs) });
      this.restartTimer();
      if (mode.kind === 'automine') await this.automine();
    });
  }

  /** evm_setBlockGasLimit: the pending block is built again under the new limit, and so are the next ones. */
  setBlockGasLimit(gasLimit: bigint): Promise<void> {
    return this.exclusive(async () => {
      this.gasLimit = gasLimit;
      await this.rebuildPending();
    });
  }

  /** anvil_setCoinbase: the pending block (built again) and the next ones pay their tips to `coinbase`. */
  setCoinbase(coinbase: Hex): Promise<void> {
    return this.exclusive(async () => {
      this.coinbase = coinbase;
      await this.rebuildPending();
    });
  }

  /** anvil_setNextBlockBaseFeePerGas: the pending block (built again) gets this base fee; later ones follow the rule from it. */
  setNextBlockBaseFee(baseFee: bigint): Promise<void> {
    return this.exclusive(async () => {
      this.nextBaseFee = baseFee;
      await this.rebuildPending();
    });
  }

  /**
   * anvil_dropTransaction / anvil_dropAllTransactions: removes matching transactions from the pool
   * (queued, or pre-confirmed in the pending block, which is then built again without them).
   * Answers the hashes removed.
   */
  dropTransactions(match: (tx: TransactionRecord) => boolean): Promise<Hex[]> {
    return this.exclusive(async () => {
      const dropped: Hex[] = [];
      for (const tx of this.queue.list()) {
        if (!match(tx)) continue;
        this.queue.remove(tx);
        dropped.push(tx.hash);
      }
      const included = this.building.included.map((item) => item.tx);
      if (included.some(match)) {
        for (const tx of included) if (match(tx)) dropped.push(tx.hash);
        await this.rebuildPending(included.filter((tx) => !match(tx)));
      }
      for (const hash of dropped) this.rejectWaiters(hash, new ChainError({ kind: 'transaction-dropped', reason: 'removed from the pool' }));
      return dropped;
    });
  }

  /**
   * anvil_reset (no fork): back to genesis. Every block above it, the pending block, the queue,
   * snapshots, clock offsets and the gas limit, coinbase and base fee settings are dropped; the
   * mining mode stays.
   */
  reset(): Promise<void> {
    return this.exclusive(async () => {
      const dropped = [...(await this.rewindTo(BigInt(this.oldest))), ...this.queue.clear()];
      if (this.oldest > this.baseNumber) this.restartFromGenesis();
      for (const tx of dropped) this.rejectWaiters(tx.hash, new ChainError({ kind: 'transaction-dropped', reason: 'removed from the pool' }));
      await this.startAfterReset();
    });
  }

  /** Flashblock interval inside a block of `blockMs` (one flashblock per block when flashblocks are off). */
  private flashblockInterval(blockMs: number): number {
    return this.options.flashblockMs > 0 ? Math.min(this.options.flashblockMs, blockMs) : blockMs;
  }

  private timerInterval(): number | undefined {
    if (this.mining.kind === 'interval') return this.flashblockInterval(this.mining.blockMs);
    if (this.mining.kind === 'none' && this.options.auto) return this.options.flashblockMs;
    return undefined;
  }

  private clearTimer(): void {
    this.timer?.stop();
    this.timer = undefined;
  }

  /** Flashblocks on fixed slots: each is cut just before its slot and announced at it; a missed slot is skipped (slotTimer.ts). */
  private restartTimer(): void {
    this.clearTimer();
    const interval = this.timerInterval();
    if (!this.timersOn || interval === undefined) return;
    const timer: SlotTimer = new SlotTimer(interval, (slotAt): Promise<void> =>
      this.exclusive(() => this.tick(timer, slotAt)).catch((error: unknown) =>
        this.logger.error('flashblock failed', { error: (error as Error)?.stack ?? String(error) }),
      ),
    );
    this.timer = timer;
    timer.start();
  }

  // ---- snapshots (evm_snapshot / evm_revert) ----------------------------------------------

  /** Taken at once when no change is queued or running (a snapshot is between changes, never inside one). */
  takeSnapshot(): number | Promise<number> {
    if (this.idle()) return this.snapshotNow();
    return this.exclusive(async () => this.snapshotNow());
  }

  private snapshotNow(): number {
    const id = this.nextSnapshotId++;
    const queued = [...this.pendingSnapshot.transactions.map((item) => item.tx), ...this.queue.list()];
    const changes = (this.systemChanges.get(this.building.number) ?? []).slice();
    this.snapshots.set(id, { head: this.head, queued, changes, clock: this.clock.save() });
    return id;
  }

  /**
   * evm_revert: whether snapshot `id` was there, once the chain is rewound to it. With
   * `answerFirst` (JSON-RPC) and nothing else queued, that answer is given at once and the chain
   * rewound right after it is written (finishAfterAnswer).
   */
  revertToSnapshot(id: number, options: AnswerOptions = {}): boolean | Promise<boolean> {
    if (options.answerFirst && this.idle()) {
      const snapshot = this.takeSnapshotForRevert(id);
      if (snapshot) this.finishAfterAnswer(() => this.revertTo(snapshot));
      return snapshot !== undefined;
    }
    return this.exclusive(async () => {
      const snapshot = this.takeSnapshotForRevert(id);
      if (snapshot) await this.revertTo(snapshot);
      return snapshot !== undefined;
    });
  }

  /** The snapshot `id`, with it and every later one dropped; undefined when there is none. */
  private takeSnapshotForRevert(id: number): Snapshot | undefined {
    const snapshot = this.snapshots.get(id);
    if (!snapshot) return undefined;
    if (snapshot.head < BigInt(this.oldest)) throw this.pruned(snapshot.head, `snapshot ${id}'s head`);
    for (const key of [...this.snapshots.keys()]) if (key >= id) this.snapshots.delete(key);
    return snapshot;
  }

  private async revertTo(snapshot: Snapshot): Promise<void> {
    await this.rewindTo(snapshot.head);
    this.queue.clear();
    for (const tx of snapshot.queued) this.queue.add(tx);
    this.clock.restore(snapshot.clock);
    // The state setters' changes made before the snapshot come back with it (Anvil's snapshot is of its current state).
    await this.startBlock(snapshot.changes);
  }

  /**
   * Drops every sealed block above `number` and the pending block (their transactions are
   * returned). A step of a change: the caller starts a new block afterwards.
   */
  private async rewindTo(number: bigint): Promise<TransactionRecord[]> {
    const removed: BlockRecord[] = [];
    const returned: TransactionRecord[] = this.building.included.map((item) => item.tx);
    while (this.head > number) {
      const block = this.blocks.pop()!;
      this.byHash.delete(block.hash);
      const n = Number(block.header.number);
      for (let i = 0; i < block.transactionCount; i++) this.txIndex.remove(block.transactionHash(i), n, i);
      removed.push(block);
    }
    for (const block of [...removed].reverse()) returned.unshift(...block.transactions.map((item) => item.tx));
    for (const key of [...this.systemChanges.keys()]) if (key > number) this.systemChanges.delete(key);
    if (removed.length > 0) this.emit('removed', removed);
    this.emit('pendingDropped', this.pendingSnapshot);
    return returned;
  }

  /** Runs work after every change before it has finished (changes, and reads that want one consistent picture). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    this.queuedWork++;
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined).then(this.workDone);
    return run;
  }

  private readonly workDone = (): void => {
    this.queuedWork--;
  };

  /** No change is queued or running. */
  private idle(): boolean {
    return this.queuedWork === 0;
  }

  /**
   * Undefined, or the end of a change whose answer went out before its work was done
   * (finishAfterAnswer). Whoever serves requests waits for it before serving the next one, so
   * every request sees the chain as if the change had finished before its answer.
   */
  get finishing(): Promise<void> | undefined {
    return this.finishingWork;
  }

  /**
   * The rest of a change whose answer is already known (an automined transaction's hash): run on
   * the next turn of the event loop, once the answer is written, while the client reads it. The
   * block is sealed in the time a client takes between two requests instead of before the first
   * answer. Only when nothing else is queued (idle()), so the work runs as soon as it is due.
   */
  private finishAfterAnswer(work: () => Promise<void>): void {
    const done: Promise<void> = this.exclusive(async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      await work();
    }).then(
      () => undefined,
      (error: unknown) => this.logger.error('finishing a change after its answer failed', { error: (error as Error)?.stack ?? String(error) }),
    ).then(() => {
      if (this.finishingWork === done) this.finishingWork = undefined;
    });
    this.finishingWork = done;
  }

  /**
   * Starts a new block over the current head and cuts its flashblock 0. A step of a change.
   * `replay`: system changes to apply to the new block before its transactions (reorg).
   */
  private async startBlock(replay: SystemChange[] = []): Promise<void> {
    const parent = this.latest;
    const baseFee = this.nextBaseFee ?? nextBaseFee(
      { baseFeePerGas: parent.header.baseFeePerGas, gasUsed: parent.header.gasUsed, gasLimit: parent.header.gasLimit },
      { elasticity: this.options.baseFeeElasticity, denominator: this.options.baseFeeDenominator, minBaseFee: this.options.minBaseFee },
    );
    this.building = new BlockInProgress(
      { number: parent.header.number + 1n, parent, gasLimit: this.gasLimit, baseFeePerGas: baseFee, coinbase: this.coinbase, extraData: this.extraData() },
      this.clock.stampFor(parent.header.timestamp),
    );
    if (replay.length > 0) await this.replaySystemChanges(replay);
    // Replayed changes are over the new head's state alone: that is the head's current state.
    this.changedHead = this.building.state === parent.state ? undefined : new HeadStateView(parent, this.building.state);
    // The new block is pending at once, before its first flashblock is cut: a seal and the end of
    // the sealed block's pending view are one step. (A timer's cut waits for its slot before it is
    // published; meanwhile `pending` would still be the block just sealed.)
    this.pendingSnapshot = this.building.snapshot(false);
    await this.flashblock();
  }

  private recordSystemChange(number: bigint, change: SystemChange): void {
    const list = this.systemChanges.get(number);
    if (list) list.push(change);
    else this.systemChanges.set(number, [change]);
    const safe = this.safeNumber();
    for (const key of this.systemChanges.keys()) if (key <= safe) this.systemChanges.delete(key);
  }

  /** Applies recorded system changes to the block being built (each one alone; one that fails now is skipped). */
  private async replaySystemChanges(changes: SystemChange[]): Promise<void> {
    const block = this.building;
    const env = block.environment(this.options.chainId);
    const draft = new StateDraft(block.state);
    for (const change of changes) {
      const child = draft.child();
      try {
        change(child, env);
        child.mergeInto(draft);
        this.recordSystemChange(block.number, change);
      } catch {
        // The change no longer applies on the new chain: it is dropped, like a reverted transaction.
      }
    }
    block.setState(await this.stateTrie.commit(block.state, draft), draft);
  }

  // ---- reorgs (mock_reorg) and restore (--state) --------------------------------------------

  /**
   * Replaces the newest `depth` sealed blocks with new ones at the same heights (a reorg).
   * `arrange` gets the transactions of the replaced blocks (oldest block first) and says which go
   * into each new block and which return to the queue. Each new block is stamped one second after
   * the block it replaces, so every replaced hash changes. Blocks at or below `safe` are never
   * replaced. Emits `removed` (the old blocks), then `block` for each new one.
   */
  reorg(
    depth: number,
    arrange: (blocks: TransactionRecord[][]) => { blocks: TransactionRecord[][]; returned: TransactionRecord[] },
  ): Promise<{ removed: BlockRecord[]; added: BlockRecord[]; returned: TransactionRecord[] }> {
    return this.exclusive(async () => {
      if (!Number.isSafeInteger(depth) || depth < 1) throw new ChainError({ kind: 'reorg-depth-invalid' });
      const head = this.head;
      const safe = this.safeNumber();
      const deepest = head - safe;
      if (BigInt(depth) > deepest) {
        throw new ChainError({
          kind: 'reorg-too-deep', depth, head, safe, finalized: this.finalizedNumber(), safeDepth: this.options.safeDepth, finalizedDepth: this.options.finalizedDepth,
        });
      }
      const base = head - BigInt(depth);
      if (base < BigInt(this.oldest)) throw this.pruned(base, 'the block the reorg builds on');
      const old = this.blocks.slice(Number(base) + 1 - this.oldest);
      const replay = old.map((block) => this.systemChanges.get(block.header.number) ?? []);
      const pendingReplay = this.systemChanges.get(head + 1n) ?? [];
      const plan = arrange(old.map((block) => userTransactions(block.transactions)));
      const pendingTxs = userTransactions(this.building.included);
      const queued = this.queue.clear();
      const clock = this.clock.save();
      const nextBaseFeeSetting = this.nextBaseFee;
      this.nextBaseFee = undefined;
      await this.rewindTo(base);
      const added: BlockRecord[] = [];
      for (let i = 0; i < old.length; i++) {
        for (const tx of plan.blocks[i] ?? []) this.queue.add(tx);
        this.clock.setNextTimestamp(old[i].header.timestamp + 1n);
        await this.startBlock(replay[i]);
        // Auto mode caps each flashblock's gas: cut more flashblocks while the queue still makes progress.
        while (this.queue.size > 0 && this.building.flashblockIndex < this.perBlock - 1) await this.flashblock();
        const sealed = this.addSealed(this.building.snapshot(true));
        this.emit('block', sealed);
        added.push(sealed);
      }
      this.clock.restore(clock);
      this.nextBaseFee = nextBaseFeeSetting;
      for (const tx of [...plan.returned, ...pendingTxs, ...queued]) if (!this.queue.has(tx.hash)) this.queue.add(tx);
      await this.startBlock(pendingReplay);
      return { removed: old, added, returned: plan.returned };
    });
  }

  /** What every reset ends with (anvil_reset, a new fork): no snapshots or changes, the start's clock and settings, a new instance, a new pending block. */
  private async startAfterReset(): Promise<void> {
    this.snapshots.clear();
    this.systemChanges.clear();
    this.clock.restore(this.initialClock);
    this.gasLimit = this.options.gasLimit;
    this.coinbase = DEFAULT_COINBASE;
    this.nextBaseFee = undefined;
    this.instance = '0x' + secureRandomHex(32);
    await this.startBlock();
  }

  /**
   * --state: replaces the whole chain with restored sealed blocks (genesis first), the queue, the
   * clock, and `current`: the system changes made over the newest block since it sealed.
   */
  restore(blocks: BlockRecord[], queued: TransactionRecord[], clock: ReturnType<ChainClock['save']>, current: SystemChange[] = []): Promise<void> {
    return this.exclusive(async () => {
      this.clearSealed();
      this.snapshots.clear();
      this.queue.clear();
      this.oldest = Number(blocks[0].header.number);
      for (const block of blocks) this.addSealed(block);
      for (const tx of queued) this.queue.add(tx);
      this.clock.restore(clock);
      await this.startBlock(current);
    });
  }

  /** The state trie every layer's root comes from (--state restore rebuilds layers through it). */
  get trie(): StateTrie {
    return this.stateTrie;
  }

  // ---- internals ---------------------------------------------------------------------------

  private async tick(timer: SlotTimer, slotAt: number): Promise<void> {
    if (timer !== this.timer) return; // the timers restarted while this tick waited its turn
    this.announceAt = { timer, slotAt };
    try {
      if (this.mining.kind === 'interval' && this.building.flashblockIndex >= this.perBlock - 1) {
        await this.seal();
      } else {
        await this.flashblock();
      }
    } finally {
      this.announceAt = undefined;
    }
  }

  private async flashblock(): Promise<BlockRecord> {
    const block = this.building;
    if (!block.timestampFixed) block.timestamp = this.clock.stampFor(block.params.parent.header.timestamp);
    // What this cut takes stays queued until the flashblock is published (below): until then it
    // is what reads see, a queued transaction.
    const taken = new Set<TransactionRecord>();
    this.publishing = taken;
    try {
      return await this.cutAndPublish(block, taken);
    } finally {
      this.publishing = undefined;
    }
  }

  private async cutAndPublish(block: BlockInProgress, taken: Set<TransactionRecord>): Promise<BlockRecord> {
    const env = block.environment(this.options.chainId, this.hashOfBlock, this.forkBase ? this.hashBelowFork : undefined);
    const draft = new StateDraft(block.state);
    const added: IncludedTransaction[] = [];
    const dropped: { tx: TransactionRecord; reason: 'nonce too low' | 'insufficient funds for gas * price + value' | "the fork's upstream did not answer" }[] = [];
    let gasUsed = block.gasUsed;
    const gasCap = this.flashblockGasCap(block.flashblockIndex + 1);
    let logCount = block.logs.length;
    let progress = true;
    // On an OP Stack chain flashblock 0 holds the block's L1-attributes deposit alone.
    if (this.opStack !== undefined && block.flashblockIndex === -1) {
      added.push(await this.l1AttributesDeposit(block, draft, env));
      progress = false;
    }
    while (progress && this.queue.size > taken.size) {
      progress = false;
      // An indexed loop over the queue's snapshot: the array iterator's optimized code met another
      // kind of array later and was thrown away (a deopt of this whole function).
      const queued = this.queue.list();
      for (let q = 0; q < queued.length; q++) {
        const tx = queued[q];
        if (taken.has(tx)) continue;
        const index = block.included.length + added.length;
        let result: ApplyResult;
        if (this.forkBase) {
          const forked = await this.applyForked(draft, block.state, tx, env, gasCap - gasUsed, logCount, index);
          if (!forked) {
            taken.add(tx);
            dropped.push({ tx, reason: "the fork's upstream did not answer" });
            continue;
          }
          result = forked;
        } else {
          const applied = this.applyTransaction(draft, tx, env, this.contracts, gasCap - gasUsed, logCount, index);
          // Only a transaction that meets EVM code is asynchronous.
          result = applied instanceof Promise ? await applied : applied;
        }
        if ('problem' in result) {
          if (result.problem === 'nonce-too-low' || result.problem === 'insufficient-funds') {
            taken.add(tx);
            dropped.push({ tx, reason: result.problem === 'nonce-too-low' ? 'nonce too low' : 'insufficient funds for gas * price + value' });
          }
          continue;
        }
        taken.add(tx);
        gasUsed += result.receipt.gasUsed;
        logCount += result.receipt.logs.length;
        added.push({
          tx,
          index,
          receipt: blockReceipt(result.receipt, gasUsed),
        });
        progress = true;
      }
    }
    if (added.length > 0 && !(added.length === 1 && added[0].tx.deposit)) block.timestampFixed = true;
    const state = await this.stateTrie.commit(block.state, draft);
    block.append(added, state);
    block.flashblockIndex++;
    // A timer's flashblock is published at its slot, however long its cut took: until then reads
    // see the previous flashblock and its transactions as queued (one view, never half of each).
    const announce = this.announceAt;
    this.announceAt = undefined;
    if (announce) await announce.timer.waitForSlot(announce.slotAt);
    for (const tx of taken) this.queue.remove(tx);
    this.pendingSnapshot = block.snapshot(false);
    for (let i = 0; i < added.length; i++) this.resolveWaiters(added[i].tx.hash, added[i]);
    for (const { tx, reason } of dropped) this.rejectWaiters(tx.hash, new ChainError({ kind: 'transaction-dropped', reason }));
    this.emit('flashblock', this.pendingSnapshot, added);
    return this.pendingSnapshot;
  }

  /**
   * Runs the block's L1-attributes deposit (its origin follows the parent's, as L1Block stored it)
   * as transaction 0. On a fork, L1Block's slots and the depositor come from the upstream: what the
   * deposit reads is fetched and it runs again, as a queued transaction does (applyForked); a
   * failure of the upstream fails the cut (a block cannot go without its deposit).
   */
  private async l1AttributesDeposit(block: BlockInProgress, draft: StateDraft, env: BlockEnvironment): Promise<IncludedTransaction> {
    if (!this.forkBase) return this.l1AttributesDepositOn(block, draft, env);
    const { included, trial } = await runRecorded(this.fetchMissing, () => draft, async (reader) => {
      const trial = new StateDraft(reader);
      const included = await this.l1AttributesDepositOn(block, trial, env);
      const before = new MissRecorder(block.state);
      trial.readWhatCommitCompares(before);
      mergeKeys(reader.missing, before.missing);
      return { included, trial };
    });
    trial.mergeInto(draft);
    return included;
  }

  private async l1AttributesDepositOn(block: BlockInProgress, draft: StateDraft, env: BlockEnvironment): Promise<IncludedTransaction> {
    const rules = this.opStack!;
    const origin = l1OriginFor(block.timestamp, storedL1Origin(draft), rules.l1);
    const tx = l1AttributesDeposit(origin, rules, draft.account(L1_ATTRIBUTES_DEPOSITOR).nonce);
    let result = this.applyTransaction(draft, tx, env, this.contracts, block.params.gasLimit, 0, 0);
    if (result instanceof Promise) result = await result;
    if ('problem' in result) throw new Error(`L1-attributes deposit not applied: ${result.problem}`);
    return { tx, index: 0, receipt: blockReceipt(result.receipt, result.receipt.gasUsed) };
  }

  private async seal(): Promise<BlockRecord> {
    const block = this.building;
    if (!block.timestampFixed) block.timestamp = this.clock.stampFor(block.params.parent.header.timestamp);
    this.clock.consumeNextTimestamp(block.timestamp);
    const sealed = this.addSealed(block.snapshot(true));
    this.nextBaseFee = undefined;
    this.emit('block', sealed);
    await this.startBlock();
    return sealed;
  }

  /** Keeps a sealed block as compact bytes (sealedBlock.ts), indexes it, and prunes past --history-blocks. */
  private addSealed(record: BlockRecord): SealedBlock {
    const block = SealedBlock.of(record);
    if (block.header.number === BigInt(this.baseNumber)) this.genesisBlock = block;
    this.blocks.push(block);
    this.byHash.set(block.hash, block);
    const n = Number(block.header.number);
    for (let i = 0; i < block.transactionCount; i++) this.txIndex.add(block.transactionHash(i), n, i);
    this.prune();
    return block;
  }

  /**
   * Drops the oldest blocks past --history-blocks: their bodies, states and index entries go; the
   * newest pruned hashes are remembered in fixed-size memories (so a lookup says pruned).
   */
  private prune(): void {
    const keep = this.options.historyBlocks;
    if (keep <= 0) return;
    while (this.blocks.length > keep) {
      const block = this.blocks.shift()!;
      this.oldest++;
      this.byHash.delete(block.hash);
      const n = Number(block.header.number);
      for (let i = 0; i < block.transactionCount; i++) {
        const hash = block.transactionHash(i);
        this.txIndex.remove(hash, n, i);
        this.prunedTransactions.add(hash, n);
      }
      block.forgetRendered();
      this.prunedHashes.add(block.hash, n);
      this.prunedRecent.set(n, block.hash);
      this.prunedRecent.delete(n - BLOCKHASH_WINDOW);
    }
  }

  /** Entries held by the history's indexes (a bounded --history-blocks run keeps these flat; tests and the bench read them). */
  historySizes(): { blocks: number; indexedTransactions: number; rememberedPrunedTransactions: number; rememberedPrunedBlocks: number; blockHashWindow: number } {
    return {
      blocks: this.blocks.length,
      indexedTransactions: this.txIndex.size,
      rememberedPrunedTransactions: this.prunedTransactions.size,
      rememberedPrunedBlocks: this.prunedHashes.size,
      blockHashWindow: this.prunedRecent.size,
    };
  }

  private clearSealed(): void {
    this.blocks.length = 0;
    this.oldest = this.baseNumber;
    this.byHash.clear();
    this.txIndex.clear();
    this.prunedTransactions.clear();
    this.prunedHashes.clear();
    this.prunedRecent.clear();
  }

  /** anvil_reset after pruning: the chain is genesis alone again (every later block has gone). */
  private restartFromGenesis(): void {
    const removed = [...this.blocks].reverse();
    this.clearSealed();
    this.addSealed(this.genesisBlock);
    if (removed.length > 0) this.emit('removed', removed);
  }

  /**
   * Gas the block may hold after flashblock `index`: as on Base, flashblock j gets up to
   * (j+1)/N of the gas limit in auto mode, so a burst spreads over the block; manual mode has no cap.
   */
  private flashblockGasCap(index: number): bigint {
    const gasLimit = this.building.params.gasLimit;
    if (this.mining.kind !== 'interval') return gasLimit;
    const share = BigInt(Math.min(index + 1, this.perBlock));
    return (gasLimit * share) / BigInt(this.perBlock);
  }

  /** Automine: executes what is queued and seals it as a block of its own (nothing to seal: nothing happens). */
  private async automine(): Promise<void> {
    if (this.mining.kind !== 'automine') return;
    if (this.queue.size > 0) await this.flashblock();
    if (this.building.included.length > 0) await this.seal();
  }

  /**
   * Drops the pending block and builds it again over the same parent: `keep` (by default its
   * transactions) first, then the queue; the block's system changes are replayed. A step of a change.
   */
  private async rebuildPending(keep: TransactionRecord[] = userTransactions(this.building.included)): Promise<void> {
    const number = this.building.number;
    const replay = this.systemChanges.get(number) ?? [];
    this.systemChanges.delete(number);
    const queued = this.queue.clear();
    this.emit('pendingDropped', this.pendingSnapshot);
    for (const tx of [...keep, ...queued]) this.queue.add(tx);
    await this.startBlock(replay);
  }

  /** OP Stack (Holocene) extraData: version 0, then the EIP-1559 denominator and elasticity as uint32. */
  private extraData(): Hex {
    const { baseFeeDenominator, baseFeeElasticity } = this.options;
    const made = this.madeExtraData;
    if (made && made.denominator === baseFeeDenominator && made.elasticity === baseFeeElasticity) return made.hex;
    const hex = concat(['0x00', toBeHex(baseFeeDenominator, 4), toBeHex(baseFeeElasticity, 4)]) as Hex;
    this.madeExtraData = { denominator: baseFeeDenominator, elasticity: baseFeeElasticity, hex };
    return hex;
  }

  private resolveWaiters(hash: Hex, included: IncludedTransaction): void {
    const list = this.waiters.get(hash);
    if (!list) return;
    this.waiters.delete(hash);
    for (const waiter of list) waiter.resolve(included);
  }

  private rejectWaiters(hash: Hex, error: Error): void {
    const list = this.waiters.get(hash);
    if (!list) return;
    this.waiters.delete(hash);
    for (const waiter of list) waiter.reject(error);
  }

  private removeWaiter(hash: Hex, waiter: Waiter): void {
    const list = this.waiters.get(hash);
    if (!list) return;
    const remaining = list.filter((w) => w !== waiter);
    if (remaining.length) this.waiters.set(hash, remaining);
    else this.waiters.delete(hash);
  }
}

/** A block's transactions less its deposits: what a reorg or a rebuild queues again (a new block makes its own deposit). */
function userTransactions(included: readonly IncludedTransaction[]): TransactionRecord[] {
  const out: TransactionRecord[] = [];
  for (let i = 0; i < included.length; i++) if (included[i].tx.deposit === undefined) out.push(included[i].tx);
  return out;
}
