// --state FILE and mock_dumpState: the whole chain as one JSON file, so a demo chain survives
// restarts. The file holds every sealed block (header, signed transactions, receipts) with the
// state changes it made (genesis: the full state), the transactions not yet sealed (pre-confirmed
// and queued, in order; they go back into the queue on load), the clock offset, and what state
// setters changed since the newest block sealed (`current`, applied again on load). Token state
// is in the token's storage slots, so it comes along with the state. Loading rebuilds every state
// layer through the state trie and checks each block's state root and hash, so a restored chain
// answers reads at every block and can still be reorged or reverted.
// Writes are atomic: a temp file beside the target, fsync, rename, fsync of the directory; the
// target is either the old complete file or the new complete file, never half of one.
import { secureRandomHex } from '../secureRandom';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Chain, SystemChange } from './chain';
import type { BlockHeader } from '../encoding/header';
import { hashHeader } from '../encoding/header';
import type { Hex } from '../encoding/hex';
import type { BlockRecord, IncludedTransaction, LogRecord, ReceiptRecord, TransactionRecord } from './types';
import { encodeReceipt } from './blockInProgress';
import { bloomOfLogs } from '../encoding/bloom';
import { hexBytes } from '../encoding/bytes';
import { orderedTrieRoot } from '../encoding/tries';
import { decodeImpersonated, decodeRawTransaction } from '../execution/transaction';
import { scrubSecrets } from '../redact';
import { checkSavedStateShape, StateFileError } from '../state/savedStateShape';
import { decodeDepositTransaction } from '../encoding/depositTransaction';
import { depositRecord } from '../execution/opStack/l1Attributes';
import { PRUNED_STATE_VERSION, STATE_FORMAT, STATE_VERSION, STATE_VERSIONS, type HexMap, type SavedBlock, type SavedReceipt, type SavedState, type StateChanges } from '../state/savedState';
import type { MockNodeOptions } from '../options';
import { StateDraft, type AccountRecord, type StateLayer } from '../state/worldState';
import { loadedSystemChange, savedSystemChange } from './systemChanges';

/** node:fs/promises, required when a state file is first read or written (it loads readline and more: start-up without a state file need not). */
const fsPromises = (): typeof import('node:fs/promises') => require('node:fs/promises') as typeof import('node:fs/promises');

export { StateFileError };

const BIGINT_HEADER_FIELDS = ['difficulty', 'number', 'gasLimit', 'gasUsed', 'timestamp', 'baseFeePerGas', 'blobGasUsed', 'excessBlobGas'] as const;

const hx = (value: bigint | number) => '0x' + value.toString(16);

function sameAccount(a: AccountRecord, b: AccountRecord): boolean {
  return a.nonce === b.nonce && a.balance === b.balance && a.code === b.code;
}

/** What `next` changed relative to `previous` (an ancestor layer). */
export function stateChanges(previous: StateLayer | undefined, next: StateLayer): StateChanges {
  const changes: StateChanges = { accounts: {}, storage: {} };
  if (previous === next) return changes;
  const addresses = new Set<Hex>();
  const slots = new Map<Hex, Set<bigint>>();
  for (let layer: StateLayer | undefined = next; layer && layer !== previous; layer = layer.parent) {
    for (const address of layer.accounts.keys()) addresses.add(address);
    for (const [address, written] of layer.storageChanges) {
      let set = slots.get(address);
      if (!set) slots.set(address, (set = new Set()));
      for (const slot of written.keys()) set.add(slot);
    }
  }
  for (const address of addresses) {
    const now = next.account(address);
    if (previous && sameAccount(previous.account(address), now)) continue;
    changes.accounts[address] = [hx(now.nonce), hx(now.balance), now.code];
  }
  for (const [address, set] of slots) {
    const out: HexMap = {};
    for (const slot of set) {
      const value = next.storage(address, slot);
      if (previous ? previous.storage(address, slot) === value : value === 0n) continue;
      out[hx(slot)] = hx(value);
    }
    if (Object.keys(out).length) changes.storage[address] = out;
  }
  return changes;
}

function saveReceipt(receipt: ReceiptRecord): SavedReceipt {
  const saved: SavedReceipt = {
    status: receipt.status,
    gasUsed: hx(receipt.gasUsed),
    cumulativeGasUsed: hx(receipt.cumulativeGasUsed),
    effectiveGasPrice: hx(receipt.effectiveGasPrice),
    logs: receipt.logs.map((log) => ({ address: log.address, topics: log.topics, data: log.data })),
    logsBloom: receipt.logsBloom,
    contractAddress: receipt.contractAddress,
  };
  if (receipt.revertReason !== undefined) saved.revertReason = receipt.revertReason;
  if (receipt.revertData !== undefined) saved.revertData = receipt.revertData;
  if (receipt.deposit !== undefined) saved.deposit = { depositNonce: hx(receipt.deposit.depositNonce), depositReceiptVersion: hx(BigInt(receipt.deposit.depositReceiptVersion)) };
  const l1 = receipt.l1Fee;
  if (l1 !== undefined) {
    saved.l1Fee = {
      l1Fee: hx(l1.l1Fee), l1GasPrice: hx(l1.l1GasPrice), l1GasUsed: hx(l1.l1GasUsed),
      l1BaseFeeScalar: hx(l1.l1BaseFeeScalar), l1BlobBaseFee: hx(l1.l1BlobBaseFee), l1BlobBaseFeeScalar: hx(l1.l1BlobBaseFeeScalar),
      operatorFeeScalar: hx(l1.operatorFeeScalar), operatorFeeConstant: hx(l1.operatorFeeConstant),
    };
  }
  return saved;
}

/** The chain as a SavedState. Call inside chain.exclusive() for a consistent picture. */
export function exportState(chain: Chain, options: MockNodeOptions): SavedState {
  const blocks: SavedBlock[] = [];
  let previous: StateLayer | undefined;
  // With --history-blocks the file starts at the oldest block kept, with the full state after it.
  const oldest = chain.oldestBlock;
  for (let n = oldest; n <= chain.head; n++) {
    const block = chain.blockByNumber(n)!;
    const header: Record<string, string> = {};
    for (const [key, value] of Object.entries(block.header)) header[key] = typeof value === 'bigint' ? hx(value) : (value as string);
    blocks.push({
      hash: block.hash,
      size: block.size,
      flashblockIndex: block.flashblockIndex,
      header,
      transactions: block.transactions.map((item) => [item.tx.encoded, item.tx.from]),
      receipts: block.transactions.map((item) => saveReceipt(item.receipt)),
      state: stateChanges(previous, block.state),
      ...(block.systemChanges ? { systemChanges: block.systemChanges.map(savedSystemChange) } : {}),
    });
    previous = block.state;
  }
  // The pending block's deposit is not kept: the block is built again, with its own, on restore.
  const unsealed = [...chain.pending.transactions.filter((item) => item.tx.deposit === undefined).map((item) => item.tx), ...chain.queuedTransactions()];
  const clock = chain.clockState();
  // The state setters' changes since the newest block sealed (the current state, not in any block yet).
  const latest = chain.latest;
  const current = stateChanges(latest.state, chain.stateView(latest).state);
  const changedNow = Object.keys(current.accounts).length > 0 || Object.keys(current.storage).length > 0;
  return {
    format: STATE_FORMAT,
    version: oldest === 0n ? STATE_VERSION : PRUNED_STATE_VERSION,
    savedAt: new Date().toISOString(),
    chainId: hx(options.chainId),
    tokenAddress: options.token.address,
    blocks,
    queue: unsealed.map((tx) => [tx.encoded, tx.from]),
    clock: { offset: clock.offset.toString(), next: clock.next === undefined ? null : clock.next.toString() },
    ...(changedNow ? { current } : {}),
  };
}

function decodeTransaction([encoded, from]: [string, string], where: string): TransactionRecord {
  const sender = from.toLowerCase();
  // The intake's own decoder first: the sender recovered with libsecp256k1 (signatures.ts), about
  // 70 µs a transaction. ethers' parser recovered it in JavaScript, some milliseconds each: a file
  // of 5,000 transactions took 14 s to load.
  let signed: TransactionRecord | undefined;
  let problem: Error | undefined;
  try {
    signed = decodeRawTransaction(encoded);
  } catch (error) {
    problem = error as Error;
  }
  // The sender is recovered from the signature; the file's copy must agree with it.
  if (signed && signed.from.toLowerCase() === sender) return signed;
  try {
    // An impersonated sender's transaction carries no real signature (Anvil's fixed one, or none):
    // the file's sender is its sender.
    const impersonated = decodeImpersonated(encoded, sender);
    if (impersonated) return impersonated;
  } catch (error) {
    problem ??= error as Error;
  }
  if (signed) throw new StateFileError(`${where}: transaction ${signed.hash} is signed by ${signed.from.toLowerCase()}, not by ${sender} as the file says`);
  throw new StateFileError(`${where}: cannot decode a transaction: ${scrubSecrets(problem?.message ?? 'unreadable')}`);
}

/** A deposit transaction (OP Stack, type 0x7e) from its bytes; its record's nonce is its receipt's depositNonce. */
function decodeDeposit([encoded, from]: [string, string], depositNonce: bigint, where: string): TransactionRecord {
  let tx: TransactionRecord;
  try {
    tx = depositRecord(decodeDepositTransaction(hexBytes(encoded)), depositNonce);
  } catch (error) {
    throw new StateFileError(`${where}: cannot decode a deposit: ${(error as Error).message}`);
  }
  if (tx.from !== from.toLowerCase()) throw new StateFileError(`${where}: deposit ${tx.hash} is from ${tx.from}, not from ${from} as the file says`);
  return tx;
}

/** Checks what the header commits to besides the state: transactions, receipts, logs bloom, gas used. */
async function verifyBlockContents(header: BlockHeader, transactions: IncludedTransaction[], logs: LogRecord[], where: string): Promise<void> {
  for (const { receipt, index } of transactions) {
    if (receipt.logsBloom !== bloomOfLogs(receipt.logs)) throw new StateFileError(`${where}: receipt ${index}'s logsBloom does not match its logs`);
  }
  const gasUsed = transactions.length ? transactions[transactions.length - 1].receipt.cumulativeGasUsed : 0n;
  if (gasUsed !== header.gasUsed) throw new StateFileError(`${where}: the receipts use ${gasUsed} gas, the header says ${header.gasUsed}`);
  if (bloomOfLogs(logs) !== header.logsBloom.toLowerCase()) throw new StateFileError(`${where}: the logs do not match the header's logsBloom`);
  const [transactionsRoot, receiptsRoot] = await Promise.all([
    orderedTrieRoot(transactions.map((item) => item.tx.encoded)),
    orderedTrieRoot(transactions.map((item) => encodeReceipt(item.tx.type, item.receipt))),
  ]);
  if (transactionsRoot !== header.transactionsRoot.toLowerCase()) throw new StateFileError(`${where}: the transactions do not match the header's transactionsRoot`);
  if (receiptsRoot !== header.receiptsRoot.toLowerCase()) throw new StateFileError(`${where}: the receipts do not match the header's receiptsRoot`);
}

function applyChanges(draft: StateDraft, changes: StateChanges): void {
  for (const [address, [nonce, balance, code]] of Object.entries(changes.accounts)) {
    draft.setAccount(address, { nonce: BigInt(nonce), balance: BigInt(balance), code });
  }
  for (const [address, slots] of Object.entries(changes.storage)) {
    for (const [slot, value] of Object.entries(slots)) draft.setStorage(address, BigInt(slot), BigInt(value));
  }
}

/**
 * Rebuilds the chain from a SavedState. Every field's type is checked first; then every block is
 * verified against its header: hash, state root, transactionsRoot, receiptsRoot, logsBloom (the
 * block's and each receipt's), gas used and each transaction's signer. Nothing changes unless all hold.
 */
const ZERO_PARENT_HASH = '0x' + '00'.repeat(32);

export async function importState(chain: Chain, options: MockNodeOptions, raw: unknown, source = 'state file'): Promise<{ blocks: number; queued: number }> {
  const candidate = raw as Partial<SavedState> | null | undefined;
  if (typeof candidate !== 'object' || candidate === null || candidate.format !== STATE_FORMAT) throw new StateFileError(`${source} is not a chain-mock-node state file`, true);
  if (!STATE_VERSIONS.includes(candidate.version as number)) {
    throw new StateFileError(`${source} has format version ${String(candidate.version)}; this node reads versions ${STATE_VERSIONS.join(' and ')}`, true);
  }
  const first = candidate.version === PRUNED_STATE_VERSION ? Number((candidate.blocks as SavedBlock[] | undefined)?.[0]?.header?.number ?? NaN) : 0;
  const saved = checkSavedStateShape(raw, source);
  if (BigInt(saved.chainId) !== options.chainId) {
    throw new StateFileError(`${source} is for chain id ${BigInt(saved.chainId)}, but the node was started with chain id ${options.chainId}`);
  }
  if (saved.tokenAddress !== options.token.address) {
    throw new StateFileError(`${source} has the token at ${saved.tokenAddress}, but the node was started with --token-address ${options.token.address}`);
  }
  if (!Array.isArray(saved.blocks) || saved.blocks.length === 0) throw new StateFileError(`${source} has no blocks`);
  const blocks: BlockRecord[] = [];
  let state: StateLayer | undefined;
  for (const [n, savedBlock] of saved.blocks.entries()) {
    const where = `${source}, block ${first + n}`;
    const header = {} as Record<string, unknown>;
    for (const [key, value] of Object.entries(savedBlock.header)) header[key] = (BIGINT_HEADER_FIELDS as readonly string[]).includes(key) ? BigInt(value) : value;
    const blockHeader = header as unknown as BlockHeader;
    if (hashHeader(blockHeader) !== savedBlock.hash) throw new StateFileError(`${where}: the header does not hash to ${savedBlock.hash}`);
    // The blocks form one chain from genesis: a block left out (one that changed no state leaves
    // every state root valid) or put out of order is refused, not loaded with numbers out of step.
    if (blockHeader.number !== BigInt(first + n)) throw new StateFileError(`${where}: the header's number is ${blockHeader.number}, not ${first + n}`);
    // A pruned file's first block has no parent in the file: its hash and state are what it is checked by.
    const parentHash = n === 0 ? (first === 0 ? ZERO_PARENT_HASH : blockHeader.parentHash) : blocks[n - 1].hash;
    if (blockHeader.parentHash !== parentHash) throw new StateFileError(`${where}: the header's parentHash is not the hash of block ${first + n - 1}`);
    if (state === undefined) {
      const accounts = new Map<Hex, AccountRecord>();
      for (const [address, [nonce, balance, code]] of Object.entries(savedBlock.state.accounts)) accounts.set(address, { nonce: BigInt(nonce), balance: BigInt(balance), code });
      const storage = new Map<Hex, Map<bigint, bigint>>();
      for (const [address, slots] of Object.entries(savedBlock.state.storage)) storage.set(address, new Map(Object.entries(slots).map(([slot, value]) => [BigInt(slot), BigInt(value)])));
      state = await chain.trie.genesis(accounts, storage);
    } else {
      const draft = new StateDraft(state);
      applyChanges(draft, savedBlock.state);
      state = await chain.trie.commit(state, draft);
    }
    if (state.stateRoot !== blockHeader.stateRoot) throw new StateFileError(`${where}: the state does not match the header's state root`);
    const transactions: IncludedTransaction[] = [];
    const logs: LogRecord[] = [];
    for (const [index, raw] of savedBlock.transactions.entries()) {
      const r = savedBlock.receipts[index];
      const tx = r.deposit ? decodeDeposit(raw, BigInt(r.deposit.depositNonce), where) : decodeTransaction(raw, where);
      const receiptLogs: LogRecord[] = r.logs.map((log, i) => ({
        address: log.address,
        topics: log.topics,
        data: log.data,
        logIndex: logs.length + i,
        transactionIndex: index,
        transactionHash: tx.hash,
      }));
      logs.push(...receiptLogs);
      const receipt: ReceiptRecord = {
        status: r.status,
        gasUsed: BigInt(r.gasUsed),
        cumulativeGasUsed: BigInt(r.cumulativeGasUsed),
        effectiveGasPrice: BigInt(r.effectiveGasPrice),
        logs: receiptLogs,
        logsBloom: r.logsBloom,
        contractAddress: r.contractAddress,
      };
      if (r.revertReason !== undefined) receipt.revertReason = r.revertReason;
      if (r.revertData !== undefined) receipt.revertData = r.revertData;
      if (r.deposit) receipt.deposit = { depositNonce: BigInt(r.deposit.depositNonce), depositReceiptVersion: Number(BigInt(r.deposit.depositReceiptVersion)) };
      if (r.l1Fee) {
        const f = r.l1Fee;
        receipt.l1Fee = {
          l1Fee: BigInt(f.l1Fee), l1GasPrice: BigInt(f.l1GasPrice), l1GasUsed: BigInt(f.l1GasUsed),
          l1BaseFeeScalar: BigInt(f.l1BaseFeeScalar), l1BlobBaseFee: BigInt(f.l1BlobBaseFee), l1BlobBaseFeeScalar: BigInt(f.l1BlobBaseFeeScalar),
          operatorFeeScalar: BigInt(f.operatorFeeScalar), operatorFeeConstant: BigInt(f.operatorFeeConstant),
        };
      }
      transactions.push({ tx, receipt, index });
    }
    await verifyBlockContents(blockHeader, transactions, logs, where);
    const systemChanges = savedBlock.systemChanges?.map(loadedSystemChange);
    blocks.push({ header: blockHeader, hash: savedBlock.hash, size: savedBlock.size, transactions, logs, state, sealed: true, flashblockIndex: savedBlock.flashblockIndex, systemChanges });
  }
  const queued = saved.queue.map((raw) => decodeTransaction(raw, `${source}, queue`));
  const current = saved.current;
  const changes: SystemChange[] = current ? [(draft) => applyChanges(draft, current)] : [];
  await chain.restore(blocks, queued, { offset: BigInt(saved.clock.offset), next: saved.clock.next === null ? undefined : BigInt(saved.clock.next) }, changes);
  return { blocks: blocks.length, queued: queued.length };
}

// ---- files -------------------------------------------------------------------------------------

const TEMP_MARK = '.tmp-';

/** Test hook: runs after the temp file is complete and before the rename. */
export interface AtomicWriteHooks {
  beforeRename?: (tempPath: string) => void | Promise<void>;
}

/** Writes `text` to `path` atomically: temp file beside it, fsync, rename, fsync of the directory. */
export async function writeFileAtomic(path: string, text: string, hooks: AtomicWriteHooks = {}): Promise<void> {
  const temp = join(dirname(path), `${basename(path)}${TEMP_MARK}${process.pid}-${secureRandomHex(4)}`);
  try {
    const file = await fsPromises().open(temp, 'wx', 0o600);
    try {
      await file.writeFile(text, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await hooks.beforeRename?.(temp);
    await fsPromises().rename(temp, path);
  } catch (error) {
    await fsPromises().rm(temp, { force: true });
    throw error;
  }
  try {
    const directory = await fsPromises().open(dirname(path), 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  } catch {
    // Some file systems cannot fsync a directory; the rename is still atomic.
  }
}

/** Removes temp files a killed process left beside `path` (never the target itself). */
export function removeStaleTempFiles(path: string): string[] {
  const directory = dirname(path);
  const prefix = basename(path) + TEMP_MARK;
  if (!existsSync(directory)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(directory)) {
    if (!name.startsWith(prefix)) continue;
    rmSync(join(directory, name), { force: true });
    removed.push(name);
  }
  return removed;
}

/** Saves the chain to `path` atomically; answers what was written. */
export async function saveStateFile(chain: Chain, options: MockNodeOptions, path: string, hooks?: AtomicWriteHooks): Promise<{ path: string; blocks: number; queued: number; bytes: number }> {
  const saved = await chain.exclusive(async () => exportState(chain, options));
  const text = JSON.stringify(saved);
  await writeFileAtomic(path, text, hooks);
  return { path, blocks: saved.blocks.length, queued: saved.queue.length, bytes: Buffer.byteLength(text) };
}

/** Why the state file could not be written at `path` (a missing directory, a directory in its place), or undefined. */
export function stateFileLocationProblem(path: string): string | undefined {
  const directory = dirname(path);
  if (!existsSync(directory)) return `the directory ${directory} does not exist`;
  if (!statSync(directory).isDirectory()) return `${directory} is not a directory`;
  if (existsSync(path) && statSync(path).isDirectory()) return 'it is a directory, not a file';
  return undefined;
}

/** Loads `path` into the chain when it exists; false when there is no file yet. */
export async function loadStateFile(chain: Chain, options: MockNodeOptions, path: string): Promise<{ blocks: number; queued: number } | false> {
  removeStaleTempFiles(path);
  if (!existsSync(path)) return false;
  let saved: unknown;
  try {
    saved = JSON.parse(await fsPromises().readFile(path, 'utf8'));
  } catch (error) {
    throw new StateFileError(`cannot read state file ${path}: ${(error as Error).message}`, true);
  }
  return importState(chain, options, saved, `state file ${path}`);
}
