// Transaction intake and lookups, and calls: eth_sendRawTransaction, eth_sendTransaction,
// eth_fillTransaction,
// eth_sendRawTransactionSync (EIP-7966), eth_getTransactionByHash, eth_getTransactionReceipt,
// eth_call, eth_estimateGas.
import { Transaction } from 'ethers';
import { ZERO_ADDRESS, ZERO_HASH, type Hex } from '../../encoding/hex';
import { bytesHex, hexBytes } from '../../encoding/bytes';
import { keccak256Bytes } from '../../encoding/keccak';
import { encodeTransaction, type EncodedFields } from '../../encoding/transactionEncoding';
import type { AccessList, BlockRecord, TransactionRecord } from '../../chain/types';
import { ChainError } from '../../encoding/errors';
import { simulateCall, type SimulateOptions } from '../../execution/call';
import { decodeLowercaseRawTransaction, fromEthers, impersonatedTransaction } from '../../execution/transaction';
import { stateBlock } from '../blockResolution';
import { RpcError, invalidInput, invalidParams } from '../errors';
import {
  parseAddress,
  parseBlockSelector,
  parseData,
  parseHash,
  parseOptionalQuantity,
  parseAccessList,
  parseQuantity,
  parseSignedTransaction,
  type BlockSelector,
} from '../params';
import { blockRef, receiptJson, transactionJson } from '../shapes';
import { SUGGESTED_PRIORITY_FEE } from './chainInfo';
import { ANSWER_FIRST, type MethodContext, type MethodTable } from './types';

/** EIP-7966 as Base serves it: default and maximum wait. */
export const SYNC_TIMEOUT_MS = 6000;

export interface CallObject {
  from: Hex;
  to: Hex | null;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  value: bigint;
  input: Hex;
  nonce?: bigint;
  type?: bigint;
  accessList?: AccessList;
}

const MAX_UINT64 = 2n ** 64n - 1n;
const MAX_UINT256 = 2n ** 256n - 1n;

/**
 * A transaction request's fields, each checked where it is read: types, the fee fields that go
 * together (geth's rules), the transaction type they imply, the access list entry by entry, and
 * 64-bit gas and nonce. Every failure is -32602 naming the argument and the field.
 */
export function parseCallObject(raw: unknown, index: number, fromRequired: boolean): CallObject {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalidParams(`invalid argument ${index}: transaction must be an object`);
  const o = raw as Record<string, unknown>;
  if (o.data !== undefined && o.input !== undefined && o.data !== o.input) {
    throw invalidParams(`invalid argument ${index}: both "data" and "input" are set and not equal`);
  }
  if (fromRequired && (o.from === undefined || o.from === null)) throw invalidParams(`invalid argument ${index}: from is required`);
  const call = readCallFields(o, index);
  checkFeeFields(call, index);
  return call;
}

function readCallFields(o: Record<string, unknown>, index: number): CallObject {
  const inputRaw = o.input ?? o.data;
  return {
    from: o.from === undefined || o.from === null ? ZERO_ADDRESS : parseAddress(o.from, index, 'from'),
    to: o.to === undefined || o.to === null ? null : parseAddress(o.to, index, 'to'),
    gas: parseOptionalQuantity(o.gas, index, 'gas'),
    gasPrice: parseOptionalQuantity(o.gasPrice, index, 'gasPrice'),
    maxFeePerGas: parseOptionalQuantity(o.maxFeePerGas, index, 'maxFeePerGas'),
    maxPriorityFeePerGas: parseOptionalQuantity(o.maxPriorityFeePerGas, index, 'maxPriorityFeePerGas'),
    value: parseOptionalQuantity(o.value, index, 'value') ?? 0n,
    input: inputRaw === undefined || inputRaw === null ? '0x' : parseData(inputRaw, index, 'input'),
    nonce: parseOptionalQuantity(o.nonce, index, 'nonce'),
    type: parseOptionalQuantity(o.type, index, 'type'),
    accessList: o.accessList === undefined || o.accessList === null ? undefined : parseAccessList(o.accessList, index),
  };
}

function checkFeeFields(call: CallObject, index: number): void {
  const arg = `invalid argument ${index}`;
  const dynamic = call.maxFeePerGas !== undefined || call.maxPriorityFeePerGas !== undefined;
  if (call.gasPrice !== undefined && dynamic) throw invalidParams(`${arg}: both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified`);
  if (call.maxFeePerGas !== undefined && call.maxPriorityFeePerGas !== undefined && call.maxPriorityFeePerGas > call.maxFeePerGas) {
    throw invalidParams(`${arg}: maxPriorityFeePerGas (${call.maxPriorityFeePerGas}) is higher than maxFeePerGas (${call.maxFeePerGas})`);
  }
  if (call.type !== undefined) {
    if (call.type > 2n) throw invalidParams(`${arg}: transaction type ${call.type} is not supported (0, 1 or 2)`);
    if (call.type < 2n && dynamic) throw invalidParams(`${arg}: a type ${call.type} transaction takes gasPrice, not maxFeePerGas or maxPriorityFeePerGas`);
    if (call.type === 2n && call.gasPrice !== undefined) throw invalidParams(`${arg}: a type 2 transaction takes maxFeePerGas and maxPriorityFeePerGas, not gasPrice`);
    if (call.type === 0n && call.accessList !== undefined) throw invalidParams(`${arg}: a type 0 transaction has no accessList`);
  }
  if (call.gas !== undefined && call.gas > MAX_UINT64) throw invalidParams(`${arg}: gas must be at most 2^64 - 1`);
  if (call.nonce !== undefined && call.nonce > MAX_UINT64) throw invalidParams(`${arg}: nonce must be at most 2^64 - 1`);
}

/** Runs a call against a block's state, discarding its effects; a ChainError when it fails. */
function simulate(ctx: MethodContext, call: CallObject, block: BlockRecord, options: SimulateOptions = {}) {
  const { node } = ctx;
  const gasLimit = call.gas ?? node.options.gasLimit;
  const request = { from: call.from, to: call.to, value: call.value, input: call.input, gasLimit, accessList: call.accessList ?? null };
  return simulateCall(block.state, request, node.chain.environment(block), node.contracts, options);
}

function blockParam(params: readonly unknown[], index: number): BlockSelector {
  return params[index] === undefined || params[index] === null ? { kind: 'tag', tag: 'latest' } : parseBlockSelector(params[index], index);
}

async function estimate(ctx: MethodContext, call: CallObject, block: BlockRecord): Promise<bigint> {
  // The least limit that succeeds: above gasUsed when a refund, the 63/64 rule or the SSTORE
  // sentry needs more gas during execution than the transaction uses in the end.
  return (await simulate(ctx, call, block, { estimate: true })).gasNeeded;
}

/** A transaction request with every field filled (unsigned). */
interface FilledTransaction {
  type: 0 | 1 | 2;
  chainId: bigint;
  nonce: bigint;
  to: Hex | null;
  value: bigint;
  input: Hex;
  gasLimit: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  accessList?: AccessList;
}

/**
 * The transaction a request describes, every field the request leaves out filled as the node
 * fills it: the sender's next nonce, the gas the call needs (estimated at pending), the node's
 * suggested fees (a type 2 transaction unless a gas price, type 0 or type 1 is asked for), and the
 * chain id. What eth_sendTransaction signs and eth_fillTransaction answers.
 */
async function fillTransaction(call: CallObject, ctx: MethodContext): Promise<FilledTransaction> {
  const { node } = ctx;
  const pending = node.chain.pending;
  const nonce = call.nonce ?? node.chain.nextNonce(call.from);
  // The same limit eth_sendRawTransaction meets when it decodes such a transaction.
  if (nonce > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidInput(`invalid transaction: nonce ${nonce} is above 2^53 - 1, the largest this node takes`);
  const gasLimit = call.gas ?? (await estimate(ctx, call, pending));
  const legacy = call.gasPrice !== undefined || call.type === 0n || call.type === 1n;
  const baseFee = pending.header.baseFeePerGas;
  // The node's defaults never contradict what was given: a tip no higher than a given fee cap.
  const tip = call.maxPriorityFeePerGas ?? (call.maxFeePerGas !== undefined && call.maxFeePerGas < SUGGESTED_PRIORITY_FEE ? call.maxFeePerGas : SUGGESTED_PRIORITY_FEE);
  const fees = legacy
    ? { gasPrice: call.gasPrice ?? baseFee + SUGGESTED_PRIORITY_FEE }
    : { maxPriorityFeePerGas: tip, maxFeePerGas: call.maxFeePerGas ?? baseFee * 2n + tip };
  // No uint256 balance can pay more than 2^256 - 1: such fees are a wrong argument, not a lack of funds.
  if (gasLimit * (fees.gasPrice ?? fees.maxFeePerGas!) + call.value > MAX_UINT256) {
    throw invalidParams(`invalid argument 0: gas × ${legacy ? 'gasPrice' : 'maxFeePerGas'} + value exceeds 2^256 - 1`);
  }
  return {
    type: legacy ? (call.accessList || call.type === 1n ? 1 : 0) : 2,
    chainId: node.options.chainId,
    nonce,
    to: call.to,
    value: call.value,
    input: call.input,
    gasLimit,
    ...fees,
    accessList: call.accessList,
  };
}

async function sendTransaction(params: readonly unknown[], ctx: MethodContext): Promise<Hex> {
  const call = parseCallObject(params[0], 0, true);
  const { node } = ctx;
  // As on Anvil, an impersonated sender is sent for with the fixed signature even when it is a dev account.
  const impersonated = node.impersonation.covers(call.from);
  const wallet = impersonated ? undefined : node.accounts.wallet(call.from);
  if (!wallet && !impersonated) {
    throw invalidInput(`unknown account ${call.from}: eth_sendTransaction signs for dev accounts and impersonated accounts only; sign locally and use eth_sendRawTransaction, or anvil_impersonateAccount first`);
  }
  const { input, nonce, ...filled } = await fillTransaction(call, ctx);
  const tx = Transaction.from({ ...filled, nonce: Number(nonce), data: input });
  if (!wallet) return node.chain.accept(impersonatedTransaction(tx, call.from), ANSWER_FIRST);
  const signed = await wallet.signTransaction(tx);
  const record = fromEthers(Transaction.from(signed), signed.toLowerCase(), wallet.address);
  return node.chain.accept(record, ANSWER_FIRST);
}

/**
 * eth_fillTransaction, as Anvil answers it: `tx`, the filled transaction as a transaction object
 * (r, s, v and yParity 0, no block), and `raw`, its encoding with that empty signature; `hash` is
 * keccak256 of `raw`. Without `from` the first dev account sends (Anvil's default). Nothing is
 * signed or sent, so any sender may be named.
 */
async function fillTransactionAnswer(params: readonly unknown[], ctx: MethodContext): Promise<Record<string, unknown>> {
  const given = params[0] as Record<string, unknown> | null | undefined;
  const fromGiven = !!given && typeof given === 'object' && given.from !== undefined && given.from !== null;
  const call = parseCallObject(params[0], 0, false);
  if (!fromGiven) call.from = (ctx.node.accounts.list[0]?.address ?? ZERO_ADDRESS).toLowerCase();
  const filled = await fillTransaction(call, ctx);
  const type = filled.type;
  const fields: EncodedFields = {
    type,
    chainId: filled.chainId,
    nonce: filled.nonce,
    to: filled.to,
    value: filled.value,
    input: filled.input,
    gasLimit: filled.gasLimit,
    gasPrice: type === 2 ? null : filled.gasPrice!,
    maxFeePerGas: type === 2 ? filled.maxFeePerGas! : null,
    maxPriorityFeePerGas: type === 2 ? filled.maxPriorityFeePerGas! : null,
    accessList: type === 0 ? null : (filled.accessList ?? []),
    // A legacy transaction's v is EIP-155's for yParity 0; typed transactions carry yParity.
    v: type === 0 ? filled.chainId * 2n + 35n : 0n,
    r: ZERO_HASH,
    s: ZERO_HASH,
    yParity: 0,
  };
  const raw = encodeTransaction(fields);
  const record: TransactionRecord = { ...fields, hash: bytesHex(keccak256Bytes(hexBytes(raw))), from: call.from, encoded: raw };
  // Anvil's object has no blockTimestamp (a transaction that was never in any block or pool).
  const { blockTimestamp: _none, ...json } = transactionJson(record, null, null) as Record<string, unknown>;
  return { raw, tx: json };
}

/**
 * Queues a decoded transaction (chain.accept) and, once it is in the queue, lets the contract it
 * calls do ahead what its execution can (the token recovers an authorization's signer), so the
 * flashblock that runs it does less. accept() queues synchronously: the hint runs before any
 * flashblock or automine seal can take the transaction.
 */
function acceptRaw(node: MethodContext['node'], tx: TransactionRecord): Hex | Promise<Hex> {
  const accepted = node.chain.accept(tx, ANSWER_FIRST);
  const contract = node.contracts.get(tx.to);
  if (contract?.prepare && node.chain.queuedTransaction(tx.hash)) {
    try {
      contract.prepare(tx.input, node.chain.pending.state, node.options.chainId);
    } catch {
      // A hint only: the execution decides.
    }
  }
  return accepted;
}

export const transactionMethods: MethodTable = {
  eth_sendRawTransaction: (params, { node }) => acceptRaw(node, decodeLowercaseRawTransaction(parseSignedTransaction(params[0], 0))),
  eth_sendTransaction: sendTransaction,
  eth_fillTransaction: fillTransactionAnswer,
  eth_sendRawTransactionSync: async (params, { node }) => {
    const raw = parseSignedTransaction(params[0], 0);
    let timeout = SYNC_TIMEOUT_MS;
    if (params[1] !== undefined && params[1] !== null) {
      if (typeof params[1] !== 'number' || !Number.isInteger(params[1]) || params[1] <= 0) {
        throw invalidParams('invalid argument 1: timeout must be a positive integer of milliseconds');
      }
      if (params[1] > SYNC_TIMEOUT_MS) {
        throw invalidParams(`time out too long, timeout: ${params[1]} ms, max: ${SYNC_TIMEOUT_MS} ms`);
      }
      timeout = params[1];
    }
    const hash = await acceptRaw(node, decodeLowercaseRawTransaction(raw));
    try {
      await node.chain.waitForPreconfirmation(hash, timeout);
    } catch (error) {
      if (error instanceof ChainError && error.kind !== 'not-preconfirmed') throw error; // replaced or dropped
      throw new RpcError(4, `the transaction was added to the mempool but wasn't processed in ${timeout}ms`, hash);
    }
    const found = node.chain.findTransaction(hash)!;
    return receiptJson(found.block, found.included, node.options.pendingIdentity);
  },
  eth_getTransactionByHash: (params, { node }) => {
    const hash = parseHash(params[0], 0, 'transaction hash');
    const found = node.chain.findTransaction(hash);
    if (found) {
      const ref = blockRef(found.block, node.options.pendingIdentity);
      return transactionJson(found.included.tx, ref, found.included.index, found.block.header.baseFeePerGas);
    }
    const queued = node.chain.queuedTransaction(hash);
    return queued ? transactionJson(queued, null, null) : null;
  },
  eth_getTransactionReceipt: (params, { node }) => {
    const found = node.chain.findTransaction(parseHash(params[0], 0, 'transaction hash'));
    if (!found) return null;
    // With the `null` identity the node answers like a generic node: no receipt until sealed
    // (clients such as ethers reject a receipt whose blockHash is null).
    if (!found.block.sealed && node.options.pendingIdentity === 'null') return null;
    return receiptJson(found.block, found.included, node.options.pendingIdentity);
  },
  eth_call: async (params, ctx) => {
    if (params[2] !== undefined && params[2] !== null) throw invalidParams('invalid argument 2: state overrides are not supported');
    const call = parseCallObject(params[0], 0, false);
    const block = stateBlock(ctx.node.chain, blockParam(params, 1));
    const { outcome } = await simulate(ctx, call, block);
    return outcome.ok ? outcome.returnData : '0x';
  },
  eth_estimateGas: async (params, ctx) => {
    if (params[2] !== undefined && params[2] !== null) throw invalidParams('invalid argument 2: state overrides are not supported');
    const call = parseCallObject(params[0], 0, false);
    const block = stateBlock(ctx.node.chain, params[1] === undefined ? { kind: 'tag', tag: 'pending' } : blockParam(params, 1));
    return '0x' + (await estimate(ctx, call, block)).toString(16);
  },
};
