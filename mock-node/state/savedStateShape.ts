// The shape of a state file, checked field by field before anything is built from it, so a file
// with a wrong type, a missing or null section answers one clear sentence naming the field
// ("state file chain.json, block 3: receipts[0].gasUsed must be a hex number") instead of a
// TypeError or "Cannot convert 0xzz to a BigInt" from deep inside the loader.
import type { SavedState } from './savedState';

export class StateFileError extends Error {
  constructor(
    message: string,
    /** A field of the wrong type or format (rather than content that does not verify). */
    readonly malformed = false,
  ) {
    super(message);
    this.name = 'StateFileError';
  }
}

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/i;
const DATA = /^0x([0-9a-f]{2})*$/i;
const ADDRESS = /^0x[0-9a-f]{40}$/i;
const HASH = /^0x[0-9a-f]{64}$/i;
const BLOOM = /^0x[0-9a-f]{512}$/i;
const INTEGER = /^-?\d+$/;

const BIGINT_HEADER_FIELDS = new Set(['difficulty', 'number', 'gasLimit', 'gasUsed', 'timestamp', 'baseFeePerGas', 'blobGasUsed', 'excessBlobGas']);
const HASH_HEADER_FIELDS = new Set(['parentHash', 'sha3Uncles', 'stateRoot', 'transactionsRoot', 'receiptsRoot', 'mixHash', 'withdrawalsRoot', 'parentBeaconBlockRoot', 'requestsHash']);

class Checker {
  constructor(private readonly where: string) {}

  fail(what: string): never {
    throw new StateFileError(`${this.where}: ${what}`, true);
  }

  object(value: unknown, name: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(`${name} must be an object${value === null ? ', not null' : ''}`);
    return value as Record<string, unknown>;
  }

  list(value: unknown, name: string): unknown[] {
    if (!Array.isArray(value)) this.fail(`${name} must be a list${value === null ? ', not null' : ''}`);
    return value;
  }

  matches(value: unknown, pattern: RegExp, name: string, kind: string): string {
    if (typeof value !== 'string' || !pattern.test(value)) this.fail(`${name} must be ${kind}`);
    return value;
  }

  quantity(value: unknown, name: string): string {
    return this.matches(value, QUANTITY, name, 'a hex number');
  }

  count(value: unknown, name: string): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) this.fail(`${name} must be a whole number`);
    return value;
  }

  /** [signed encoding, sender] */
  signedTransaction(value: unknown, name: string): void {
    const pair = this.list(value, name);
    if (pair.length !== 2) this.fail(`${name} must be [signed transaction, sender]`);
    this.matches(pair[0], DATA, `${name}[0]`, 'the signed transaction as hex bytes');
    this.matches(pair[1], ADDRESS, `${name}[1]`, 'the sender address');
  }
}

function checkReceipt(c: Checker, raw: unknown, name: string): void {
  const r = c.object(raw, name);
  if (r.status !== 0 && r.status !== 1) c.fail(`${name}.status must be 0 or 1`);
  for (const field of ['gasUsed', 'cumulativeGasUsed', 'effectiveGasPrice']) c.quantity(r[field], `${name}.${field}`);
  c.matches(r.logsBloom, BLOOM, `${name}.logsBloom`, 'a 256-byte hex bloom');
  if (r.contractAddress !== null) c.matches(r.contractAddress, ADDRESS, `${name}.contractAddress`, 'an address or null');
  if (r.revertReason !== undefined && typeof r.revertReason !== 'string') c.fail(`${name}.revertReason must be a string`);
  if (r.revertData !== undefined) c.matches(r.revertData, DATA, `${name}.revertData`, 'hex bytes');
  if (r.deposit !== undefined) {
    const deposit = c.object(r.deposit, `${name}.deposit`);
    for (const field of ['depositNonce', 'depositReceiptVersion']) c.quantity(deposit[field], `${name}.deposit.${field}`);
  }
  if (r.l1Fee !== undefined) {
    const l1Fee = c.object(r.l1Fee, `${name}.l1Fee`);
    for (const field of ['l1Fee', 'l1GasPrice', 'l1GasUsed', 'l1BaseFeeScalar', 'l1BlobBaseFee', 'l1BlobBaseFeeScalar', 'operatorFeeScalar', 'operatorFeeConstant']) c.quantity(l1Fee[field], `${name}.l1Fee.${field}`);
  }
  c.list(r.logs, `${name}.logs`).forEach((rawLog, i) => {
    const log = c.object(rawLog, `${name}.logs[${i}]`);
    c.matches(log.address, ADDRESS, `${name}.logs[${i}].address`, 'an address');
    c.list(log.topics, `${name}.logs[${i}].topics`).forEach((topic, t) => c.matches(topic, HASH, `${name}.logs[${i}].topics[${t}]`, 'a 32-byte hex topic'));
    c.matches(log.data, DATA, `${name}.logs[${i}].data`, 'hex bytes');
  });
}

function checkStateChanges(c: Checker, raw: unknown, name = 'state'): void {
  const state = c.object(raw, name);
  for (const [address, account] of Object.entries(c.object(state.accounts, `${name}.accounts`))) {
    c.matches(address, ADDRESS, `${name}.accounts key ${JSON.stringify(address.slice(0, 60))}`, 'an address');
    const fields = c.list(account, `${name}.accounts.${address}`);
    if (fields.length !== 3) c.fail(`${name}.accounts.${address} must be [nonce, balance, code]`);
    c.quantity(fields[0], `${name}.accounts.${address} nonce`);
    c.quantity(fields[1], `${name}.accounts.${address} balance`);
    c.matches(fields[2], DATA, `${name}.accounts.${address} code`, 'hex bytes');
  }
  for (const [address, slots] of Object.entries(c.object(state.storage, `${name}.storage`))) {
    c.matches(address, ADDRESS, `${name}.storage key ${JSON.stringify(address.slice(0, 60))}`, 'an address');
    for (const [slot, value] of Object.entries(c.object(slots, `${name}.storage.${address}`))) {
      c.quantity(slot, `${name}.storage.${address} slot`);
      c.quantity(value, `${name}.storage.${address}.${slot}`);
    }
  }
}

/** A block's state changes made outside its transactions: each before a transaction index, in order. */
function checkSystemChanges(c: Checker, raw: unknown, transactions: number): void {
  let previous = 0;
  c.list(raw, 'systemChanges').forEach((entry, i) => {
    const name = `systemChanges[${i}]`;
    const change = c.object(entry, name);
    const before = change.before;
    if (typeof before !== 'number' || !Number.isSafeInteger(before) || before < previous || before > transactions) {
      c.fail(`${name}.before must be a transaction index from ${previous} to ${transactions}, in order`);
    }
    previous = before as number;
    checkStateChanges(c, change.changes, `${name}.changes`);
  });
}

/** Checks every field's type and format; answers the same value typed, or throws a StateFileError naming the field. */
export function checkSavedStateShape(raw: unknown, source: string): SavedState {
  const top = new Checker(source);
  const saved = top.object(raw, 'the file');
  top.quantity(saved.chainId, 'chainId');
  top.matches(saved.tokenAddress, ADDRESS, 'tokenAddress', 'an address');
  const blocks = top.list(saved.blocks, 'blocks');
  if (blocks.length === 0) top.fail('blocks must hold at least the genesis block');
  blocks.forEach((rawBlock, n) => {
    const c = new Checker(`${source}, block ${n}`);
    const block = c.object(rawBlock, 'the block');
    c.matches(block.hash, HASH, 'hash', 'a 32-byte hex hash');
    c.count(block.size, 'size');
    c.count(block.flashblockIndex, 'flashblockIndex');
    const header = c.object(block.header, 'header');
    for (const [key, value] of Object.entries(header)) {
      if (BIGINT_HEADER_FIELDS.has(key)) c.quantity(value, `header.${key}`);
      else if (HASH_HEADER_FIELDS.has(key)) c.matches(value, HASH, `header.${key}`, 'a 32-byte hex hash');
      else c.matches(value, DATA, `header.${key}`, 'hex');
    }
    for (const key of [...BIGINT_HEADER_FIELDS, ...HASH_HEADER_FIELDS, 'miner', 'logsBloom', 'extraData', 'nonce']) {
      if (!(key in header)) c.fail(`header.${key} is missing`);
    }
    const transactions = c.list(block.transactions, 'transactions');
    transactions.forEach((tx, i) => c.signedTransaction(tx, `transactions[${i}]`));
    const receipts = c.list(block.receipts, 'receipts');
    if (receipts.length !== transactions.length) c.fail(`receipts must hold one receipt per transaction (${transactions.length}), not ${receipts.length}`);
    receipts.forEach((receipt, i) => checkReceipt(c, receipt, `receipts[${i}]`));
    checkStateChanges(c, block.state);
    if (block.systemChanges !== undefined) checkSystemChanges(c, block.systemChanges, transactions.length);
  });
  top.list(saved.queue, 'queue').forEach((tx, i) => top.signedTransaction(tx, `queue[${i}]`));
  if (saved.current !== undefined) checkStateChanges(new Checker(`${source}, current`), saved.current);
  const clock = top.object(saved.clock, 'clock');
  top.matches(clock.offset, INTEGER, 'clock.offset', 'a whole number of seconds (decimal string)');
  if (clock.next !== null) top.matches(clock.next, INTEGER, 'clock.next', 'a timestamp (decimal string) or null');
  return saved as unknown as SavedState;
}
