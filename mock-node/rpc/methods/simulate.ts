// eth_simulateV1: runs blocks of calls on top of a block's state, each block with optional state
// and block overrides, through the same execution as transactions, and answers each simulated
// block with its calls' results (status, return data, gas, logs, error). With `validation` the
// calls are checked and charged as transactions (nonce, balance for gas and value, fee cap);
// without it they run at gas price zero. `traceTransfers` adds an ERC-7528 Transfer log
// (address 0xeeee…eeee) for each ETH transfer, as geth and Anvil do.
import { Transaction, keccak256 } from 'ethers';
import { bloomOfLogs } from '../../encoding/bloom';
import { EMPTY_REQUESTS_HASH, EMPTY_UNCLES_HASH, ZERO_NONCE, blockSize, bodyTransactionBytes, hashHeader, type BlockHeader } from '../../encoding/header';
import { ZERO_HASH, pad32, quantity, word, type Hex } from '../../encoding/hex';
import { orderedTrieRoot } from '../../encoding/tries';
import type { IncludedTransaction, LogRecord, TransactionRecord } from '../../chain/types';
import { decodeRevertReason } from '../../execution/execute';
import { runMessageOnAnyPath } from '../../execution/evm/anyPath';
import { TraceRecorder, type TracedFrame } from '../../execution/trace/recorder';
import { encodeReceipt } from '../../chain/blockInProgress';
import type { BlockEnvironment } from '../../execution/nativeContract';
import type { NativeContracts } from '../../execution/execute';
import { EMPTY_TRIE_ROOT } from '../../state/stateTrie';
import { StateDraft } from '../../state/worldState';
import { EVENT_TOPICS } from '../../tokenKit/index';
import { stateBlock } from '../blockResolution';
import { RpcError, invalidParams } from '../errors';
import { parseAddress, parseBlockSelector, parseData, parseOptionalQuantity, parseSlot, parseHash } from '../params';
import { blockJson, logJson, transactionJson } from '../shapes';
import { parseCallObject, type CallObject } from './transactions';
import type { MethodTable } from './types';

/** geth's bounds: 256 simulated blocks a request; ours: 1,000 calls in all. */
export const MAX_SIMULATED_BLOCKS = 256;
export const MAX_SIMULATED_CALLS = 1000;
/** ERC-7528's address for the native currency: where traceTransfers logs ETH transfers. */
const NATIVE_ASSET: Hex = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

interface AccountOverride {
  address: Hex;
  balance?: bigint;
  nonce?: bigint;
  code?: Hex;
  stateDiff?: [bigint, bigint][];
}

interface BlockOverrides {
  number?: bigint;
  time?: bigint;
  gasLimit?: bigint;
  feeRecipient?: Hex;
  baseFeePerGas?: bigint;
}

interface SimulatedBlockInput {
  blockOverrides: BlockOverrides;
  stateOverrides: AccountOverride[];
  calls: CallObject[];
}

function object(value: unknown, what: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalidParams(`invalid argument 0: ${what} must be an object`);
  return value as Record<string, unknown>;
}

function parseStateOverrides(value: unknown, where: string, contracts: NativeContracts): AccountOverride[] {
  if (value === undefined || value === null) return [];
  const map = object(value, `${where}.stateOverrides`);
  return Object.entries(map).map(([key, raw]) => {
    const address = parseAddress(key, 0, `${where}.stateOverrides key`);
    const o = object(raw, `${where}.stateOverrides[${address}]`);
    let code: Hex | undefined;
    if (o.code !== undefined && o.code !== null) {
      code = parseData(o.code, 0, `${where}.stateOverrides[${address}].code`);
      // The built-in token's address runs its native path first: other code there would not run.
      if (contracts.get(address)) throw invalidParams(`invalid argument 0: ${where}.stateOverrides[${address}].code: the built-in token's code cannot be overridden`);
    }
    if (o.movePrecompileToAddress !== undefined && o.movePrecompileToAddress !== null) throw invalidParams(`invalid argument 0: movePrecompileToAddress is not supported`);
    if (o.state !== undefined && o.state !== null) throw invalidParams(`invalid argument 0: ${where}.stateOverrides[${address}].state (replacing all storage) is not supported; use stateDiff`);
    const stateDiff = o.stateDiff === undefined || o.stateDiff === null ? undefined : Object.entries(object(o.stateDiff, 'stateDiff')).map(([slot, v]): [bigint, bigint] => [parseSlot(slot, 0), BigInt(parseHash(v, 0, `stateDiff[${slot}]`))]);
    return { address, balance: parseOptionalQuantity(o.balance, 0, 'balance'), nonce: parseOptionalQuantity(o.nonce, 0, 'nonce'), code, stateDiff };
  });
}

function parseBlockOverrides(value: unknown, where: string): BlockOverrides {
  if (value === undefined || value === null) return {};
  const o = object(value, `${where}.blockOverrides`);
  for (const key of ['withdrawals', 'blobBaseFee', 'beaconRoot']) {
    if (o[key] !== undefined && o[key] !== null) throw invalidParams(`invalid argument 0: ${where}.blockOverrides.${key} is not supported`);
  }
  return {
    number: parseOptionalQuantity(o.number, 0, 'number'),
    time: parseOptionalQuantity(o.time, 0, 'time'),
    gasLimit: parseOptionalQuantity(o.gasLimit, 0, 'gasLimit'),
    feeRecipient: o.feeRecipient === undefined || o.feeRecipient === null ? undefined : parseAddress(o.feeRecipient, 0, 'feeRecipient'),
    baseFeePerGas: parseOptionalQuantity(o.baseFeePerGas, 0, 'baseFeePerGas'),
  };
}

function parseOptions(value: unknown, contracts: NativeContracts): { blocks: SimulatedBlockInput[]; validation: boolean; traceTransfers: boolean; full: boolean } {
  const o = object(value, 'simulation options');
  if (!Array.isArray(o.blockStateCalls)) throw invalidParams('invalid argument 0: blockStateCalls must be a list');
  if (o.blockStateCalls.length > MAX_SIMULATED_BLOCKS) throw new RpcError(-38026, `too many blocks: at most ${MAX_SIMULATED_BLOCKS}`);
  let total = 0;
  const blocks = o.blockStateCalls.map((raw, i) => {
    const where = `blockStateCalls[${i}]`;
    const b = object(raw, where);
    const calls = b.calls === undefined || b.calls === null ? [] : b.calls;
    if (!Array.isArray(calls)) throw invalidParams(`invalid argument 0: ${where}.calls must be a list`);
    total += calls.length;
    if (total > MAX_SIMULATED_CALLS) throw invalidParams(`invalid argument 0: at most ${MAX_SIMULATED_CALLS} calls a request`);
    return { blockOverrides: parseBlockOverrides(b.blockOverrides, where), stateOverrides: parseStateOverrides(b.stateOverrides, where, contracts), calls: calls.map((c) => parseCallObject(c, 0, false)) };
  });
  const flag = (name: string): boolean => {
    const v = o[name];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') throw invalidParams(`invalid argument 0: ${name} must be a boolean`);
    return v;
  };
  return { blocks, validation: flag('validation'), traceTransfers: flag('traceTransfers'), full: flag('returnFullTransactions') };
}

/** The simulated call as a transaction record (unsigned: zero signature), for its hash and the block's tries. */
function simulatedTransaction(call: CallObject, from: Hex, nonce: bigint, gasLimit: bigint, chainId: bigint, baseFee: bigint): TransactionRecord {
  const legacy = call.gasPrice !== undefined;
  const maxFee = call.maxFeePerGas ?? (legacy ? null : baseFee);
  const tip = call.maxPriorityFeePerGas ?? (legacy ? null : 0n);
  const tx = Transaction.from({
    type: legacy ? 0 : 2,
    chainId,
    nonce: Number(nonce),
    to: call.to,
    value: call.value,
    data: call.input,
    gasLimit,
    ...(legacy ? { gasPrice: call.gasPrice } : { maxFeePerGas: maxFee, maxPriorityFeePerGas: tip }),
    accessList: legacy ? undefined : call.accessList,
  });
  const encoded = tx.unsignedSerialized.toLowerCase();
  return {
    hash: keccak256(encoded), type: legacy ? 0 : 2, chainId, nonce, from, to: call.to, value: call.value, input: call.input, gasLimit,
    gasPrice: legacy ? call.gasPrice! : null, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip, accessList: call.accessList ?? (legacy ? null : []),
    v: 0n, r: ZERO_HASH, s: ZERO_HASH, yParity: 0, encoded,
  };
}

interface RawLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
}

/**
 * A traced message's logs in the order they happened, each ETH transfer (a frame that moved value,
 * but not a DELEGATECALL, which moves none) as an ERC-7528 Transfer log where its frame starts, as
 * geth's and Anvil's traceTransfers. A failed frame keeps nothing, its transfer included.
 */
function logsWithTransfers(frame: TracedFrame): RawLog[] {
  if (frame.error !== undefined) return [];
  const out: RawLog[] = [];
  if (frame.value !== undefined && frame.value > 0n && frame.type !== 'DELEGATECALL' && frame.type !== 'CALLCODE') {
    out.push({ address: NATIVE_ASSET, topics: [EVENT_TOPICS.Transfer, pad32(frame.from), pad32(frame.to === '0x' ? ZERO_HASH.slice(0, 42) : frame.to)], data: word(frame.value) });
  }
  for (let position = 0; position <= frame.calls.length; position++) {
    for (const log of frame.logs) if (log.position === position) out.push({ address: log.address, topics: log.topics.map((t) => t.toLowerCase()), data: log.data.toLowerCase() });
    if (position < frame.calls.length) out.push(...logsWithTransfers(frame.calls[position]));
  }
  return out;
}

export const simulateMethods: MethodTable = {
  eth_simulateV1: async (params, ctx) => {
    const { node } = ctx;
    const selector = params[1] === undefined || params[1] === null ? undefined : parseBlockSelector(params[1], 1);
    const options = parseOptions(params[0], node.contracts);
    const base = stateBlock(node.chain, selector ?? { kind: 'tag', tag: 'latest' });
    let state = new StateDraft(base.state);
    let parentHash = base.hash;
    let number = base.header.number;
    let timestamp = base.header.timestamp;
    const answers: unknown[] = [];
    for (const input of options.blocks) {
      const o = input.blockOverrides;
      const nextNumber = o.number ?? number + 1n;
      if (nextNumber <= number) throw new RpcError(-38020, `block numbers must be in order: ${nextNumber} <= ${number}`);
      const nextTime = o.time ?? timestamp + 1n;
      if (nextTime <= timestamp) throw new RpcError(-38021, `block timestamps must be in order: ${nextTime} <= ${timestamp}`);
      number = nextNumber;
      timestamp = nextTime;
      const env: BlockEnvironment = {
        number, timestamp, chainId: node.options.chainId,
        coinbase: o.feeRecipient ?? base.header.miner,
        baseFeePerGas: o.baseFeePerGas ?? (options.validation ? base.header.baseFeePerGas : 0n),
      };
      const gasLimit = o.gasLimit ?? base.header.gasLimit;
      state = new StateDraft(state);
      for (const override of input.stateOverrides) {
        if (override.balance !== undefined) state.updateAccount(override.address, { balance: override.balance });
        if (override.nonce !== undefined) state.updateAccount(override.address, { nonce: override.nonce });
        if (override.code !== undefined) state.updateAccount(override.address, { code: override.code === '0x' ? '0x' : override.code.toLowerCase() });
        for (const [slot, value] of override.stateDiff ?? []) state.setStorage(override.address, slot, value);
      }
      const included: IncludedTransaction[] = [];
      const results: { returnData: Hex; logs: LogRecord[]; gasUsed: bigint; status: 0 | 1; error?: { code: number; message: string; data?: Hex } }[] = [];
      let gasUsed = 0n;
      let logIndex = 0;
      for (const call of input.calls) {
        const from = call.from;
        const account = state.account(from);
        const nonce = call.nonce ?? account.nonce;
        const callGas = call.gas ?? gasLimit - gasUsed;
        if (callGas > gasLimit - gasUsed) throw new RpcError(-38015, `block gas limit reached: ${gasUsed} + ${callGas} > ${gasLimit}`);
        const tx = simulatedTransaction(call, from, nonce, callGas, node.options.chainId, env.baseFeePerGas);
        const price = call.gasPrice ?? (call.maxFeePerGas !== undefined ? (call.maxFeePerGas < env.baseFeePerGas + (call.maxPriorityFeePerGas ?? 0n) ? call.maxFeePerGas : env.baseFeePerGas + (call.maxPriorityFeePerGas ?? 0n)) : env.baseFeePerGas);
        if (options.validation) {
          if (nonce < account.nonce) throw new RpcError(-38010, `nonce too low: next nonce ${account.nonce}, tx nonce ${nonce}`);
          if (nonce > account.nonce) throw new RpcError(-38011, `nonce too high: next nonce ${account.nonce}, tx nonce ${nonce}`);
          const cap = call.gasPrice ?? call.maxFeePerGas ?? env.baseFeePerGas;
          if (cap < env.baseFeePerGas) throw new RpcError(-38012, `max fee per gas less than block base fee: maxFeePerGas: ${cap}, baseFee: ${env.baseFeePerGas}`);
          if (account.balance < callGas * cap + call.value) throw new RpcError(-32003, 'Insufficient funds for gas * price + value');
        }
        state.updateAccount(from, { nonce: nonce + 1n });
        const charge = options.validation ? price : 0n;
        if (charge > 0n) state.subtractBalance(from, callGas * charge);
        const recorder = options.traceTransfers ? new TraceRecorder() : undefined;
        const request = { from, to: call.to, value: call.value, input: call.input, gasLimit: callGas, accessList: call.accessList ?? null };
        const result = await runMessageOnAnyPath(state, request, env, node.contracts, { origin: from, nonceBumped: true, gasPrice: charge, tracer: recorder });
        if (charge > 0n) {
          state.addBalance(from, (callGas - result.gasUsed) * charge);
          const tip = (charge - env.baseFeePerGas) * result.gasUsed;
          if (tip > 0n) state.addBalance(env.coinbase, tip);
        }
        const ok = result.outcome.ok;
        // With traceTransfers, every ETH transfer (the call's own and those inside it) is a log where it happened.
        const raw = recorder?.top
          ? logsWithTransfers(recorder.top)
          : result.logs.map((log, i) => ({ address: result.logAddresses[i], topics: log.topics.map((t) => t.toLowerCase()), data: log.data.toLowerCase() }));
        const logs: LogRecord[] = raw.map((log) => ({ ...log, logIndex: logIndex++, transactionIndex: included.length, transactionHash: tx.hash }));
        gasUsed += result.gasUsed;
        let error: { code: number; message: string; data?: Hex } | undefined;
        if (!result.outcome.ok) {
          const reason = result.outcome.reason ?? decodeRevertReason(result.outcome.revertData);
          error = reason === 'out of gas' ? { code: -32015, message: 'out of gas' } : { code: 3, message: reason ? `execution reverted: ${reason}` : 'execution reverted', data: result.outcome.revertData };
        }
        results.push({ returnData: ok ? (result.outcome as { returnData: Hex }).returnData : '0x', logs, gasUsed: result.gasUsed, status: ok ? 1 : 0, error });
        const contractAddress = call.to === null ? (result.createdAddress ?? null) : null;
        included.push({ tx, index: included.length, receipt: { status: ok ? 1 : 0, gasUsed: result.gasUsed, cumulativeGasUsed: gasUsed, effectiveGasPrice: price, logs, logsBloom: bloomOfLogs(logs), contractAddress } });
      }
      const allLogs = results.flatMap((r) => r.logs);
      const [transactionsRoot, receiptsRoot] = await Promise.all([
        orderedTrieRoot(included.map((i) => i.tx.encoded)),
        orderedTrieRoot(included.map((i) => encodeReceipt(i.tx.type, i.receipt))),
      ]);
      const header: BlockHeader = {
        parentHash, sha3Uncles: EMPTY_UNCLES_HASH, miner: env.coinbase,
        // The simulated state is not committed to the trie (it is thrown away): zero, as Anvil answers.
        stateRoot: ZERO_HASH,
        transactionsRoot, receiptsRoot, logsBloom: bloomOfLogs(allLogs), difficulty: 0n, number, gasLimit, gasUsed, timestamp,
        extraData: '0x', mixHash: ZERO_HASH, nonce: ZERO_NONCE, baseFeePerGas: env.baseFeePerGas, withdrawalsRoot: EMPTY_TRIE_ROOT,
        blobGasUsed: 0n, excessBlobGas: 0n, parentBeaconBlockRoot: ZERO_HASH, requestsHash: EMPTY_REQUESTS_HASH,
      };
      const hash = hashHeader(header);
      const record = {
        header, hash, size: blockSize(header, included.reduce((sum, i) => sum + bodyTransactionBytes(i.tx.encoded), 0)),
        transactions: included, logs: allLogs, state: base.state, sealed: true, flashblockIndex: 0,
      };
      const ref = { number: quantity(number), hash, transactionBlockHash: hash, timestamp: quantity(timestamp) };
      answers.push({
        ...(blockJson(record, false, 'partial') as Record<string, unknown>),
        transactions: included.map((i) => (options.full ? transactionJson(i.tx, ref, i.index, env.baseFeePerGas) : i.tx.hash)),
        calls: results.map((r) => ({
          returnData: r.returnData,
          logs: r.logs.map((log) => logJson(log, ref)),
          gasUsed: quantity(r.gasUsed),
          status: quantity(r.status),
          ...(r.error ? { error: r.error } : {}),
        })),
      });
      parentHash = hash;
    }
    return answers;
  },
};
