// A transaction's consensus encoding from its fields (the inverse of the node's decoder): a legacy
// transaction is rlp([nonce, gasPrice, gas, to, value, data, v, r, s]); an EIP-2930 one is
// 0x01 ‖ rlp([chainId, nonce, gasPrice, gas, to, value, data, accessList, yParity, r, s]); an
// EIP-1559 one is 0x02 ‖ rlp([chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gas, to, value,
// data, accessList, yParity, r, s]). Integers are minimal big-endian bytes, a creation's `to` is
// empty. eth_fillTransaction answers a filled request this way (with r = s = 0) without ethers.
import { bytesHex, hexBytes, uintBytes } from './bytes';
import type { Hex } from './hex';
import type { AccessList, TransactionRecord } from './records';
import { encodeBytes, encodeList } from './trieRoot';

/** What the encoding covers: a record without its hash, sender and encoding. */
export type EncodedFields = Omit<TransactionRecord, 'hash' | 'from' | 'encoded'>;

const uint = (value: bigint | number) => encodeBytes(uintBytes(value));
const data = (hex: Hex) => encodeBytes(hexBytes(hex));

function accessListItem(list: AccessList | null): Uint8Array {
  return encodeList((list ?? []).map((entry) => encodeList([data(entry.address), encodeList(entry.storageKeys.map(data))])));
}

/** The transaction's encoding as 0x-hex (what eth_sendRawTransaction takes). */
export function encodeTransaction(tx: EncodedFields): Hex {
  const to = tx.to === null ? encodeBytes(new Uint8Array(0)) : data(tx.to);
  const signature = (v: bigint | number) => [uint(v), uint(BigInt(tx.r)), uint(BigInt(tx.s))];
  if (tx.type === 0) {
    return bytesHex(encodeList([uint(tx.nonce), uint(tx.gasPrice!), uint(tx.gasLimit), to, uint(tx.value), data(tx.input), ...signature(tx.v)]));
  }
  const fields =
    tx.type === 1
      ? [uint(tx.chainId!), uint(tx.nonce), uint(tx.gasPrice!), uint(tx.gasLimit), to, uint(tx.value), data(tx.input), accessListItem(tx.accessList), ...signature(tx.yParity)]
      : [uint(tx.chainId!), uint(tx.nonce), uint(tx.maxPriorityFeePerGas!), uint(tx.maxFeePerGas!), uint(tx.gasLimit), to, uint(tx.value), data(tx.input), accessListItem(tx.accessList), ...signature(tx.yParity)];
  return '0x0' + tx.type + bytesHex(encodeList(fields)).slice(2);
}
