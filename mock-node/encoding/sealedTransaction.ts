// A sealed transaction's record read back from its signed bytes: the chain keeps only the bytes,
// the hash and the sender of a sealed transaction (sealedBody.ts) and renders the fields when a
// read asks. No signature is recovered: the sender was recovered at intake and is kept. A
// transaction whose bytes do not give back exactly the record intake made (a form only ethers
// reads) is kept whole instead (sameTransaction says which).
import type { Hex } from './hex';
import { canonicalUint } from './bytes';
import { decodeRlpBytes, isList, type RlpValue } from './rlp';
import type { AccessList, TransactionRecord } from './records';

class NotReadable extends Error {}

/**
 * Records known to come back exactly from their bytes: intake's lean decoder (transaction.ts)
 * reads the same canonical forms the same way as transactionFromBytes, so sealing need not decode
 * its records again to check them. Held by identity: a copy of a record (a spread with a field
 * changed) is not in the set and is checked in full.
 */
const readsBack = new WeakSet<TransactionRecord>();

/** Marks a record made from its bytes by a reader that agrees with transactionFromBytes. */
export function markReadsBack<T extends TransactionRecord>(record: T): T {
  readsBack.add(record);
  return record;
}

/** True when `record` comes back exactly from its bytes (checked once, by decoding them, unless known). */
export function readsBackFromBytes(record: TransactionRecord): boolean {
  if (readsBack.has(record)) return true;
  const decoded = transactionFromBytes(Buffer.from(record.encoded.slice(2), 'hex'), record.hash, record.from);
  return decoded !== undefined && sameTransaction(decoded, record);
}

function hexOf(bytes: Uint8Array): Hex {
  return '0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

function bytes(value: RlpValue | undefined): Uint8Array {
  if (value === undefined || isList(value)) throw new NotReadable();
  return value;
}

/** A canonical unsigned integer of at most 32 bytes. */
function uint(value: RlpValue | undefined): bigint {
  const n = canonicalUint(bytes(value));
  if (n === undefined) throw new NotReadable();
  return n;
}

function address(value: RlpValue | undefined): Hex | null {
  const b = bytes(value);
  if (b.length === 0) return null;
  if (b.length !== 20) throw new NotReadable();
  return hexOf(b);
}

function word32(value: RlpValue | undefined): Hex {
  const b = bytes(value);
  if (b.length > 32) throw new NotReadable();
  const padded = new Uint8Array(32);
  padded.set(b, 32 - b.length);
  return hexOf(padded);
}

function accessList(value: RlpValue | undefined): AccessList {
  if (value === undefined || !isList(value)) throw new NotReadable();
  return value.items.map((entry) => {
    if (!isList(entry) || entry.items.length !== 2 || !isList(entry.items[1])) throw new NotReadable();
    const target = address(entry.items[0]);
    if (target === null) throw new NotReadable();
    return { address: target, storageKeys: entry.items[1].items.map((key) => hexOf(bytes(key))) };
  });
}

/** The record of a sealed transaction from its signed bytes, hash and sender; undefined when the bytes are not read here. */
export function transactionFromBytes(encoded: Uint8Array, hash: Hex, from: Hex): TransactionRecord | undefined {
  try {
    const type = encoded[0] >= 0xc0 ? 0 : encoded[0];
    if (type !== 0 && type !== 1 && type !== 2) return undefined;
    const list = decodeRlpBytes(type === 0 ? encoded : encoded.subarray(1));
    if (!isList(list)) return undefined;
    const f = list.items;
    // One shape for every type, in intake's field order (transaction.ts), so readers see one hidden class.
    if (type === 0) {
      if (f.length !== 9) return undefined;
      const v = uint(f[6]);
      const eip155 = v >= 35n;
      return {
        hash, type, chainId: eip155 ? (v - 35n) / 2n : null, nonce: uint(f[0]), from, to: address(f[3]), value: uint(f[4]), input: hexOf(bytes(f[5])),
        gasLimit: uint(f[2]), gasPrice: uint(f[1]), maxFeePerGas: null, maxPriorityFeePerGas: null, accessList: null,
        v, r: word32(f[7]), s: word32(f[8]), yParity: Number(eip155 ? (v - 35n) % 2n : v - 27n), encoded: hexOf(encoded),
      };
    }
    const count = type === 1 ? 11 : 12;
    if (f.length !== count) return undefined;
    const at = type === 1 ? 3 : 4;
    const parity = uint(f[count - 3]);
    return {
      hash, type, chainId: uint(f[0]), nonce: uint(f[1]), from, to: address(f[at + 1]), value: uint(f[at + 2]), input: hexOf(bytes(f[at + 3])),
      gasLimit: uint(f[at]), gasPrice: type === 1 ? uint(f[2]) : null, maxFeePerGas: type === 2 ? uint(f[3]) : null,
      maxPriorityFeePerGas: type === 2 ? uint(f[2]) : null, accessList: accessList(f[at + 4]),
      v: parity, r: word32(f[count - 2]), s: word32(f[count - 1]), yParity: Number(parity), encoded: hexOf(encoded),
    };
  } catch {
    return undefined;
  }
}

function sameAccessList(a: AccessList | null, b: AccessList | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.address !== y.address || x.storageKeys.length !== y.storageKeys.length) return false;
    for (let k = 0; k < x.storageKeys.length; k++) if (x.storageKeys[k] !== y.storageKeys[k]) return false;
  }
  return true;
}

/** True when two records answer every field the same (what a sealed transaction must give back). */
export function sameTransaction(a: TransactionRecord, b: TransactionRecord): boolean {
  return (
    a.hash === b.hash &&
    a.type === b.type &&
    a.chainId === b.chainId &&
    a.nonce === b.nonce &&
    a.from === b.from &&
    a.to === b.to &&
    a.value === b.value &&
    a.input === b.input &&
    a.gasLimit === b.gasLimit &&
    a.gasPrice === b.gasPrice &&
    a.maxFeePerGas === b.maxFeePerGas &&
    a.maxPriorityFeePerGas === b.maxPriorityFeePerGas &&
    sameAccessList(a.accessList, b.accessList) &&
    a.v === b.v &&
    a.r === b.r &&
    a.s === b.s &&
    a.yParity === b.yParity &&
    a.encoded === b.encoded
  );
}
