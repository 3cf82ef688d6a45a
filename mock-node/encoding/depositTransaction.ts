// OP Stack deposit transactions: EIP-2718 type 0x7e (ethereum-optimism/specs, protocol/deposits.md).
// A deposit has no signature: its bytes are 0x7e ‖ rlp([sourceHash, from, to, mint, value, gas,
// isSystemTx, data]), its hash is keccak256 of those bytes, and its sourceHash ties it to the L1
// event it came from (a user deposit, the block's L1-attributes call, or an upgrade). Its receipt
// (Canyon and later) adds depositNonce and depositReceiptVersion to the usual four fields.
// One codec for every layer: the block builder (making a block's L1-attributes deposit), the fork's
// upstream (reading an OP Stack chain's history) and tests that decode what the node serves.
import { canonicalUint, hexBytes, uintBytes } from './bytes';
import { ChainError } from './errors';
import type { Hex } from './hex';
import { bytesToHex } from './hex';
import { keccak256Bytes } from './keccak';
import { decodeRlpBytes, isList, type RlpValue } from './rlp';
import { encodeBytes, encodeList } from './trieRoot';

export const DEPOSIT_TRANSACTION_TYPE = 0x7e;

/** The depositor account of L1-attributes deposits (the spec's "system address"). */
export const L1_ATTRIBUTES_DEPOSITOR = '0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001';

/** The sourceHash domains of the spec: user deposits, L1-attributes deposits, upgrade deposits. */
export const SOURCE_DOMAIN = { userDeposit: 0n, l1Info: 1n, upgrade: 2n } as const;

export interface DepositTransactionFields {
  sourceHash: Hex;
  from: Hex;
  /** null for a contract creation. */
  to: Hex | null;
  /** Wei minted on L2 for `from` before the call. */
  mint: bigint;
  value: bigint;
  gas: bigint;
  /** Pre-Regolith system transactions; false in every block since (Base leaves it out of its JSON then). */
  isSystemTx: boolean;
  input: Hex;
}

/** The deposit's consensus bytes: 0x7e ‖ rlp(fields). What the transactions trie stores. */
export function encodeDepositTransaction(fields: DepositTransactionFields): Uint8Array {
  const body = encodeList([
    encodeBytes(hexBytes(fields.sourceHash)),
    encodeBytes(hexBytes(fields.from)),
    encodeBytes(fields.to === null ? new Uint8Array(0) : hexBytes(fields.to)),
    encodeBytes(uintBytes(fields.mint)),
    encodeBytes(uintBytes(fields.value)),
    encodeBytes(uintBytes(fields.gas)),
    encodeBytes(fields.isSystemTx ? Uint8Array.of(1) : new Uint8Array(0)),
    encodeBytes(hexBytes(fields.input)),
  ]);
  const out = new Uint8Array(body.length + 1);
  out[0] = DEPOSIT_TRANSACTION_TYPE;
  out.set(body, 1);
  return out;
}

/** keccak256(0x7e ‖ rlp(fields)): the deposit's transaction hash. */
export function depositTransactionHash(fields: DepositTransactionFields): Hex {
  return bytesToHex(keccak256Bytes(encodeDepositTransaction(fields)));
}

/** A ChainError naming what is malformed in a deposit's bytes. */
function undecodable(reason: string): ChainError {
  return new ChainError({ kind: 'undecodable-transaction', reason: `deposit transaction: ${reason}` });
}

function fieldBytes(value: RlpValue | undefined, name: string): Uint8Array {
  if (value === undefined || isList(value)) throw undecodable(`${name} is not a byte string`);
  return value;
}

function fieldUint(value: RlpValue | undefined, name: string): bigint {
  const n = canonicalUint(fieldBytes(value, name));
  if (n === undefined) throw undecodable(`${name} is not a canonical integer`);
  return n;
}

function fieldAddress(value: RlpValue | undefined, name: string, optional: boolean): Hex | null {
  const b = fieldBytes(value, name);
  if (b.length === 0 && optional) return null;
  if (b.length !== 20) throw undecodable(`${name} is not a 20-byte address`);
  return bytesToHex(b);
}

/** The fields of a deposit's bytes (0x7e ‖ rlp(...)); a ChainError ('undecodable-transaction') names what is malformed. */
export function decodeDepositTransaction(encoded: Uint8Array): DepositTransactionFields {
  if (encoded[0] !== DEPOSIT_TRANSACTION_TYPE) throw undecodable(`type byte is 0x${(encoded[0] ?? 0).toString(16)}, not 0x7e`);
  let list: RlpValue;
  try {
    list = decodeRlpBytes(encoded.subarray(1));
  } catch (error) {
    throw undecodable(error instanceof Error ? error.message : 'not RLP');
  }
  if (!isList(list) || list.items.length !== 8) throw undecodable('expected a list of 8 fields');
  const f = list.items;
  const sourceHash = fieldBytes(f[0], 'sourceHash');
  if (sourceHash.length !== 32) throw undecodable('sourceHash is not 32 bytes');
  const system = fieldBytes(f[6], 'isSystemTx');
  if (system.length > 1 || (system.length === 1 && system[0] !== 1)) throw undecodable('isSystemTx is not a boolean');
  return {
    sourceHash: bytesToHex(sourceHash),
    from: fieldAddress(f[1], 'from', false)!,
    to: fieldAddress(f[2], 'to', true),
    mint: fieldUint(f[3], 'mint'),
    value: fieldUint(f[4], 'value'),
    gas: fieldUint(f[5], 'gas'),
    isSystemTx: system.length === 1,
    input: bytesToHex(fieldBytes(f[7], 'input')),
  };
}

function word(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = value;
  for (let i = 31; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** keccak256(bytes32(domain) ‖ keccak256(l1BlockHash ‖ bytes32(n))): the spec's source hash. */
export function depositSourceHash(domain: bigint, l1BlockHash: Hex, n: bigint): Hex {
  const inner = new Uint8Array(64);
  inner.set(hexBytes(l1BlockHash), 0);
  inner.set(word(n), 32);
  const outer = new Uint8Array(64);
  outer.set(word(domain), 0);
  outer.set(keccak256Bytes(inner), 32);
  return bytesToHex(keccak256Bytes(outer));
}

/** The source hash of an L1-attributes deposit: its L1 origin's hash and the L2 block's sequence number within that epoch. */
export function l1InfoDepositSourceHash(l1BlockHash: Hex, sequenceNumber: bigint): Hex {
  return depositSourceHash(SOURCE_DOMAIN.l1Info, l1BlockHash, sequenceNumber);
}

/** The source hash of a user deposit: the L1 block's hash and the TransactionDeposited log's index in it. */
export function userDepositSourceHash(l1BlockHash: Hex, l1LogIndex: bigint): Hex {
  return depositSourceHash(SOURCE_DOMAIN.userDeposit, l1BlockHash, l1LogIndex);
}

/** What a deposit's receipt adds (Canyon and later): the depositor's nonce before the deposit, and version 1. */
export interface DepositReceiptFields {
  depositNonce: bigint;
  depositReceiptVersion: number;
}

/**
 * The RLP items a deposit receipt appends after status, cumulativeGasUsed, logsBloom and logs
 * (before Canyon only the nonce; version 1 appends both). The builder of receipt bytes adds them.
 */
export function depositReceiptTail(fields: DepositReceiptFields): Uint8Array[] {
  return [encodeBytes(uintBytes(fields.depositNonce)), encodeBytes(uintBytes(fields.depositReceiptVersion))];
}
