// Decoding and static validation of signed transactions (legacy, EIP-2930, EIP-1559).
import { concat, encodeRlp, getBytes, keccak256, Signature, Transaction, ZeroHash } from 'ethers';
import type { Hex } from '../encoding/hex';
import { canonicalUintAt } from '../encoding/bytes';
import type { AccessList, TransactionRecord } from '../encoding/records';
import { ChainError } from '../encoding/errors';
import { writeHex } from '../encoding/bufferCodec';
import { flatHex } from '../encoding/flatHex';
import { keccak256Bytes } from '../encoding/keccak';
import { decodeRlpBytes, isList, listHeader, ListScan, RlpError, scanList, type RlpValue } from '../encoding/rlp';
import { markReadsBack } from '../encoding/sealedTransaction';
import { MAX_INITCODE_SIZE, calldataFloorGas, transactionIntrinsicGas } from './intrinsicGas';
import { recoverSigner, recoverSignerRs } from './signatures';

const SUPPORTED_TYPES = new Set([0, 1, 2]);

/**
 * Decodes raw signed bytes (0x-prefixed hex, checked by the caller); throws a ChainError that says
 * what is wrong. A well-formed transaction is read by the lean decoder below; anything it does not
 * take goes through ethers, which names the problem (or reads the rare form the lean one leaves).
 */
export function decodeRawTransaction(raw: string): TransactionRecord {
  return decodeLowercaseRawTransaction(raw.toLowerCase());
}

/**
 * decodeRawTransaction of hex already in lowercase (what parseSignedTransaction answers): the
 * JSON-RPC path, which would otherwise copy every transaction's text a second time.
 */
export function decodeLowercaseRawTransaction(raw: string): TransactionRecord {
  return decodeLean(raw) ?? decodeWithEthers(raw);
}

/** Reads a transaction with ethers' Transaction parser: the reference, and the error messages. */
export function decodeWithEthers(raw: string): TransactionRecord {
  let tx: Transaction;
  try {
    tx = Transaction.from(raw.toLowerCase());
  } catch (error) {
    throw undecodable(error);
  }
  if (!SUPPORTED_TYPES.has(tx.type ?? 0)) throw new ChainError({ kind: 'unsupported-transaction-type', type: tx.type });
  if (tx.type === 2 && tx.maxPriorityFeePerGas! > tx.maxFeePerGas!) {
    // Checked before anything re-serializes the transaction (ethers refuses such a one).
    throw new ChainError({ kind: 'tip-above-fee-cap', maxPriorityFeePerGas: tx.maxPriorityFeePerGas!, maxFeePerGas: tx.maxFeePerGas! });
  }
  try {
    const signature = tx.signature;
    if (!signature) throw new Error('missing signature');
    // The costliest step of intake: recovered once, with libsecp256k1 (see signatures.ts).
    const from = recoverSigner(getBytes(tx.unsignedHash), getBytes(signature.r), getBytes(signature.s), signature.yParity);
    return fromEthers(tx, raw.toLowerCase(), from);
  } catch (error) {
    throw undecodable(error);
  }
}

/** A field the lean decoder does not take: the transaction goes to ethers instead. */
class NotLean extends Error {}

const MAX_SAFE_NONCE = BigInt(Number.MAX_SAFE_INTEGER);

function bytes(value: RlpValue | undefined): Uint8Array {
  if (value === undefined || isList(value)) throw new NotLean();
  return value;
}

function toHex(value: Uint8Array): string {
  return flatHex(value);
}

function address(value: RlpValue | undefined): string | null {
  const b = bytes(value);
  if (b.length === 0) return null;
  if (b.length !== 20) throw new NotLean();
  return toHex(b);
}

function accessListOf(value: RlpValue): AccessList {
  if (!isList(value)) throw new NotLean();
  return value.items.map((entry) => {
    if (!isList(entry) || entry.items.length !== 2) throw new NotLean();
    const [target, keys] = entry.items;
    const address_ = address(target);
    if (address_ === null || !isList(keys)) throw new NotLean();
    return {
      address: address_,
      storageKeys: keys.items.map((key) => {
        const b = bytes(key);
        if (b.length !== 32) throw new NotLean();
        return toHex(b);
      }),
    };
  });
}

// The lean decoder reads a transaction's fields in place: one scan of the list's item positions
// (reused: decoding is synchronous), each field read from the bytes where it lies, no view or
// object per field.
const FIELDS = new ListScan(12);

function field(i: number): void {
  if (i >= FIELDS.count || FIELDS.lists[i] === 1) throw new NotLean();
}

/** Field i: a canonical unsigned integer of at most 32 bytes. */
function uintField(body: Uint8Array, i: number): bigint {
  field(i);
  const n = canonicalUintAt(body, FIELDS.payloadStarts[i], FIELDS.ends[i]);
  if (n === undefined) throw new NotLean();
  return n;
}

/** Field i: a 20-byte address, or null for the empty string (a creation). */
function addressField(body: Uint8Array, i: number): string | null {
  field(i);
  const start = FIELDS.payloadStarts[i];
  const end = FIELDS.ends[i];
  if (end === start) return null;
  if (end - start !== 20) throw new NotLean();
  return flatHex(body, start, end);
}

/** Field i: bytes as 0x-hex. */
function dataField(body: Uint8Array, i: number): string {
  field(i);
  return flatHex(body, FIELDS.payloadStarts[i], FIELDS.ends[i]);
}

/** Field i: an access list (its entries decoded only when it has any). */
function accessListField(body: Uint8Array, i: number): AccessList {
  if (i >= FIELDS.count || FIELDS.lists[i] !== 1) throw new NotLean();
  if (FIELDS.payloadStarts[i] === FIELDS.ends[i]) return [];
  return accessListOf(decodeRlpBytes(body.subarray(FIELDS.starts[i], FIELDS.ends[i])));
}

/**
 * Fields i (r) and i + 1 (s) as one 64-byte compact signature, each a 32-byte word. Leading
 * zeros, more than 32 bytes, and s with its top bit set are left to ethers (which refuses them).
 */
function signatureFields(body: Uint8Array, i: number): Uint8Array {
  field(i);
  field(i + 1);
  const rStart = FIELDS.payloadStarts[i];
  const rLength = FIELDS.ends[i] - rStart;
  const sStart = FIELDS.payloadStarts[i + 1];
  const sLength = FIELDS.ends[i + 1] - sStart;
  if (rLength > 32 || sLength > 32 || (rLength > 0 && body[rStart] === 0) || (sLength > 0 && body[sStart] === 0)) throw new NotLean();
  if (sLength === 32 && body[sStart] >= 0x80) throw new NotLean();
  const rs = new Uint8Array(64);
  for (let k = 0; k < rLength; k++) rs[32 - rLength + k] = body[rStart + k];
  for (let k = 0; k < sLength; k++) rs[64 - sLength + k] = body[sStart + k];
  return rs;
}

/** rlp(fields[0..count)) cut from the list's own bytes, after `prefix` and before `suffix`: the signing payload of a transaction. */
function unsignedPayload(body: Uint8Array, count: number, prefix: number, suffix?: Uint8Array): Uint8Array {
  const from = FIELDS.starts[0];
  const to = FIELDS.ends[count - 1];
  const extra = suffix ? suffix.length : 0;
  const head = listHeader(to - from + extra);
  const at = prefix >= 0 ? 1 : 0;
  const out = new Uint8Array(at + head.length + (to - from) + extra);
  if (prefix >= 0) out[0] = prefix;
  out.set(head, at);
  out.set(body.subarray(from, to), at + head.length);
  if (suffix) out.set(suffix, at + head.length + (to - from));
  return out;
}

function rlpUint(value: bigint): Uint8Array {
  if (value === 0n) return Uint8Array.of(0x80);
  let hex = value.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  const b = Buffer.from(hex, 'hex');
  if (b.length === 1 && b[0] < 0x80) return Uint8Array.from(b);
  return Uint8Array.from([0x80 + b.length, ...b]);
}

/**
 * The raw transaction's bytes: a view of one array reused from one decode to the next (decoding
 * is synchronous, and nothing it returns keeps a view of them: fields become strings, the signing
 * payload and the digests are copies). A fresh array per transaction cost an ArrayBuffer and its
 * memory, and Buffer's pool its JavaScript in every function that inlines the decoder.
 */
let rawScratch = new Uint8Array(0);

function rawBytes(length: number): Uint8Array {
  if (rawScratch.length < length) rawScratch = new Uint8Array(Math.max(length, 2 * rawScratch.length, 1024));
  return rawScratch.subarray(0, length);
}

/**
 * The lean decoder: the fields straight from the RLP, the hash from the raw bytes, the signing
 * payload cut from them. Undefined for anything it does not read (then ethers does); a
 * ChainError for what is wrong whichever decoder reads it (a tip above the fee cap, a signature
 * that matches no key).
 */
export function decodeLean(raw: string): TransactionRecord | undefined {
  if (raw.length < 4 || raw.length % 2 !== 0) return undefined;
  const data = rawBytes((raw.length - 2) >> 1);
  if (writeHex(data, raw.slice(2)) !== data.length) return undefined;
  // Every field read into a local first, the record made once below (one shape for every type).
  let type: number;
  let chainId: bigint | null;
  let nonce: bigint;
  let gasPrice: bigint | null = null;
  let maxFeePerGas: bigint | null = null;
  let maxPriorityFeePerGas: bigint | null = null;
  let gasLimit: bigint;
  let to: string | null;
  let value: bigint;
  let input: string;
  let access: AccessList | null = null;
  let v: bigint;
  let yParity: number;
  let digest: Uint8Array;
  let rs: Uint8Array;
  try {
    type = data[0] >= 0xc0 ? 0 : data[0];
    if (type !== 0 && type !== 1 && type !== 2) return undefined;
    const body = type === 0 ? data : data.subarray(1);
    if (!scanList(body, FIELDS)) return undefined;
    if (type === 0) {
      if (FIELDS.count !== 9) return undefined;
      v = uintField(body, 6);
      if (v === 27n || v === 28n) {
        chainId = null;
        yParity = Number(v - 27n);
        digest = keccak256Bytes(unsignedPayload(body, 6, -1));
      } else if (v >= 35n) {
        chainId = (v - 35n) / 2n;
        yParity = Number((v - 35n) % 2n);
        const suffix = new Uint8Array([...rlpUint(chainId), 0x80, 0x80]);
        digest = keccak256Bytes(unsignedPayload(body, 6, -1, suffix));
      } else {
        return undefined;
      }
      nonce = uintField(body, 0);
      gasPrice = uintField(body, 1);
      gasLimit = uintField(body, 2);
      to = addressField(body, 3);
      value = uintField(body, 4);
      input = dataField(body, 5);
      rs = signatureFields(body, 7);
    } else {
      const count = type === 1 ? 11 : 12;
      if (FIELDS.count !== count) return undefined;
      v = uintField(body, count - 3);
      if (v !== 0n && v !== 1n) return undefined;
      yParity = Number(v);
      chainId = uintField(body, 0);
      nonce = uintField(body, 1);
      if (type === 1) {
        gasPrice = uintField(body, 2);
      } else {
        maxPriorityFeePerGas = uintField(body, 2);
        maxFeePerGas = uintField(body, 3);
      }
      const at = type === 1 ? 3 : 4;
      gasLimit = uintField(body, at);
      to = addressField(body, at + 1);
      value = uintField(body, at + 2);
      input = dataField(body, at + 3);
      access = accessListField(body, at + 4);
      rs = signatureFields(body, count - 2);
      digest = keccak256Bytes(unsignedPayload(body, count - 3, type));
    }
    if (nonce > MAX_SAFE_NONCE) return undefined;
  } catch (error) {
    if (error instanceof NotLean || error instanceof RlpError) return undefined;
    throw error;
  }
  if (type === 2 && maxPriorityFeePerGas! > maxFeePerGas!) {
    throw new ChainError({ kind: 'tip-above-fee-cap', maxPriorityFeePerGas: maxPriorityFeePerGas!, maxFeePerGas: maxFeePerGas! });
  }
  let from: string;
  try {
    from = recoverSignerRs(digest, rs, yParity);
  } catch (error) {
    throw undecodable(error);
  }
  // Read as transactionFromBytes (chain/sealedTransaction.ts) reads a sealed one: sealing need not check it again.
  return markReadsBack({
    hash: toHex(keccak256Bytes(data)), type, chainId, nonce, from, to, value, input, gasLimit, gasPrice, maxFeePerGas, maxPriorityFeePerGas,
    accessList: access, v, r: flatHex(rs, 0, 32), s: flatHex(rs, 32, 64), yParity, encoded: raw,
  });
}

function undecodable(error: unknown): ChainError {
  return new ChainError({ kind: 'undecodable-transaction', reason: (error as Error).message.split(' (')[0] });
}

/**
 * Anvil's signature on an impersonated sender's transaction (anvil_impersonateAccount): r = 0,
 * s = 0, yParity 0. No key makes it, so such a transaction is recognisable and cannot be sent raw
 * (eth_sendRawTransaction fails to recover a signer from it, as on Anvil). Made on use, not at
 * import: the CLI loads ethers on its first use only (esbuild.mjs).
 */
const impersonatedSignature = (): Signature => Signature.from({ r: ZeroHash, s: ZeroHash, yParity: 0 });

function isImpersonatedSignature(signature: Signature): boolean {
  return signature.r === ZeroHash && signature.s === ZeroHash;
}

/**
 * A transaction's hash: keccak256 of its encoding. For an impersonated sender's transaction, Anvil
 * hashes its RLP network form (a typed transaction's encoding wrapped as an RLP string, a legacy
 * one as it is) followed by the sender's address, so two senders' otherwise equal transactions
 * (same fixed signature) differ; the node does the same.
 */
function transactionHash(encoded: string, signature: Signature, from: Hex): Hex {
  if (!isImpersonatedSignature(signature)) return keccak256(encoded);
  const typed = Number.parseInt(encoded.slice(2, 4), 16) < 0x80;
  return keccak256(concat([typed ? encodeRlp(encoded) : encoded, from]));
}

/** An unsigned transaction sent for an impersonated sender, with Anvil's fixed signature. */
export function impersonatedTransaction(unsigned: Transaction, from: Hex): TransactionRecord {
  const tx = unsigned.clone();
  tx.signature = impersonatedSignature();
  return fromEthers(tx, tx.serialized.toLowerCase(), from);
}

/**
 * Decodes the encoding of an impersonated sender's transaction (a saved state keeps it with its
 * sender); undefined when `encoded` carries a real signature. ethers reads a legacy one with
 * r = s = 0 as unsigned, its EIP-155 v in place of the chain id.
 */
export function decodeImpersonated(encoded: string, from: Hex): TransactionRecord | undefined {
  const tx = Transaction.from(encoded);
  if (tx.signature && !isImpersonatedSignature(tx.signature)) return undefined;
  if (tx.signature) {
    tx.signature = null; // re-attached below (ethers would try to recover a sender from it)
  } else {
    if (tx.type !== 0 || tx.chainId < 35n || (tx.chainId - 35n) % 2n !== 0n) return undefined;
    tx.chainId = (tx.chainId - 35n) / 2n;
  }
  const record = impersonatedTransaction(tx, from.toLowerCase());
  return record.encoded === encoded.toLowerCase() ? record : undefined;
}

/** Our record of an ethers transaction; pass `from` when it is already known to skip a recovery. */
export function fromEthers(tx: Transaction, encoded: string, from = tx.from!): TransactionRecord {
  const signature = tx.signature!;
  const type = tx.type ?? 0;
  const sender = from.toLowerCase();
  // A legacy v: EIP-155's as sent (networkV), or computed from the chain id for a signature the
  // node attached itself; 27/28 without a chain id.
  const legacyV = signature.networkV ?? (tx.chainId > 0n ? tx.chainId * 2n + 35n + BigInt(signature.yParity) : BigInt(signature.v));
  return {
    hash: transactionHash(encoded, signature, sender),
    type,
    chainId: type === 0 && tx.chainId === 0n ? null : tx.chainId,
    nonce: BigInt(tx.nonce),
    from: sender,
    to: tx.to ? tx.to.toLowerCase() : null,
    value: tx.value,
    input: tx.data.toLowerCase(),
    gasLimit: tx.gasLimit,
    gasPrice: type === 2 ? null : (tx.gasPrice ?? 0n),
    maxFeePerGas: type === 2 ? tx.maxFeePerGas : null,
    maxPriorityFeePerGas: type === 2 ? tx.maxPriorityFeePerGas : null,
    accessList:
      type === 0
        ? null
        : (tx.accessList ?? []).map((e) => ({ address: e.address.toLowerCase(), storageKeys: e.storageKeys.map((k) => k.toLowerCase()) })),
    v: type === 0 ? legacyV : BigInt(signature.yParity),
    r: signature.r.toLowerCase(),
    s: signature.s.toLowerCase(),
    yParity: signature.yParity,
    encoded,
  };
}

/** The most a transaction may pay per gas. */
export function maxFeePerGas(tx: TransactionRecord): bigint {
  return tx.type === 2 ? tx.maxFeePerGas! : tx.gasPrice!;
}

/** The most a transaction may tip per gas (a legacy transaction's gas price is both cap and tip). */
export function priorityFeePerGas(tx: TransactionRecord): bigint {
  return tx.type === 2 ? tx.maxPriorityFeePerGas! : tx.gasPrice!;
}

/** The price per gas the transaction pays in a block with this base fee. */
export function effectiveGasPrice(tx: TransactionRecord, baseFee: bigint): bigint {
  if (tx.type !== 2) return tx.gasPrice!;
  const tip = tx.maxPriorityFeePerGas!;
  const capped = baseFee + tip;
  return capped < tx.maxFeePerGas! ? capped : tx.maxFeePerGas!;
}

/** Checks that do not depend on state: chain id, fee fields, intrinsic gas and the EIP-7623 calldata floor, block gas limit. */
export function validateStatic(tx: TransactionRecord, chainId: bigint, blockGasLimit: bigint): void {
  if (tx.chainId !== null && tx.chainId !== chainId) {
    throw new ChainError({ kind: 'invalid-chain-id', have: tx.chainId, want: chainId });
  }
  // EIP-3860: initcode at most twice the code size limit.
  if (tx.to === null && (tx.input.length - 2) / 2 > MAX_INITCODE_SIZE) {
    throw new ChainError({ kind: 'initcode-too-large', size: (tx.input.length - 2) / 2 });
  }
  if (tx.type === 2 && tx.maxPriorityFeePerGas! > tx.maxFeePerGas!) {
    throw new ChainError({ kind: 'tip-above-fee-cap', from: tx.from, maxPriorityFeePerGas: tx.maxPriorityFeePerGas!, maxFeePerGas: tx.maxFeePerGas! });
  }
  const minimum = transactionIntrinsicGas(tx.to, tx.input, tx.accessList);
  if (tx.gasLimit < minimum) throw new ChainError({ kind: 'intrinsic-gas-too-low', gas: tx.gasLimit, minimum });
  const floor = calldataFloorGas(tx.input);
  if (tx.gasLimit < floor) throw new ChainError({ kind: 'floor-data-gas-too-low', gas: tx.gasLimit, minimum: floor });
  if (tx.gasLimit > blockGasLimit) throw new ChainError({ kind: 'exceeds-block-gas-limit' });
}
