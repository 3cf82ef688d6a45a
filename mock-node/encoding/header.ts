// Block headers: every field of the seed's block table, RLP-encoded in consensus (Prague)
// order and hashed with keccak256, exactly as a client recomputing the hash would.
import { bytesHex, hexBytes } from './bytes';
import { rlpQuantity, type Hex } from './hex';
import { keccak256Bytes } from './keccak';
import { encodeBytes, encodeList } from './trieRoot';

export interface BlockHeader {
  parentHash: Hex;
  sha3Uncles: Hex;
  miner: Hex;
  stateRoot: Hex;
  transactionsRoot: Hex;
  receiptsRoot: Hex;
  logsBloom: Hex;
  difficulty: bigint;
  number: bigint;
  gasLimit: bigint;
  gasUsed: bigint;
  timestamp: bigint;
  extraData: Hex;
  mixHash: Hex;
  nonce: Hex;
  baseFeePerGas: bigint;
  withdrawalsRoot: Hex;
  blobGasUsed: bigint;
  excessBlobGas: bigint;
  parentBeaconBlockRoot: Hex;
  requestsHash: Hex;
}

/** keccak256(rlp([])) — the uncles hash of every post-merge block. */
export const EMPTY_UNCLES_HASH: Hex = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';
/** sha256 of no requests (EIP-7685). */
export const EMPTY_REQUESTS_HASH: Hex = '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
export const ZERO_NONCE: Hex = '0x0000000000000000';

/** The header's consensus RLP fields, in order. */
export function headerFields(header: BlockHeader): Hex[] {
  return [
    header.parentHash,
    header.sha3Uncles,
    header.miner,
    header.stateRoot,
    header.transactionsRoot,
    header.receiptsRoot,
    header.logsBloom,
    rlpQuantity(header.difficulty),
    rlpQuantity(header.number),
    rlpQuantity(header.gasLimit),
    rlpQuantity(header.gasUsed),
    rlpQuantity(header.timestamp),
    header.extraData,
    header.mixHash,
    header.nonce,
    rlpQuantity(header.baseFeePerGas),
    header.withdrawalsRoot,
    rlpQuantity(header.blobGasUsed),
    rlpQuantity(header.excessBlobGas),
    header.parentBeaconBlockRoot,
    header.requestsHash,
  ];
}

export function encodeHeader(header: BlockHeader): Hex {
  return bytesHex(encodeHeaderBytes(header));
}

function encodeHeaderBytes(header: BlockHeader): Uint8Array {
  return encodeList(headerFields(header).map((field) => encodeBytes(hexBytes(field))));
}

export function hashHeader(header: BlockHeader): Hex {
  return bytesHex(keccak256Bytes(encodeHeaderBytes(header)));
}

/** hashHeader() and blockSize() from one encoding of the header. */
export function headerHashAndSize(header: BlockHeader, transactionBytes: number): { hash: Hex; size: number } {
  const encoded = encodeHeaderBytes(header);
  return { hash: bytesHex(keccak256Bytes(encoded)), size: blockSizeOf(encoded.length, transactionBytes) };
}

/** Bytes of an RLP length prefix for a payload of `length` bytes (strings and lists alike). */
function rlpPrefixBytes(length: number): number {
  if (length < 56) return 1;
  let bytes = 0;
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes++;
  return 1 + bytes;
}

/**
 * Bytes a transaction adds to the block body's transaction list: a typed transaction sits there
 * as an RLP byte string holding its encoding, a legacy one as the RLP list it is.
 */
export function bodyTransactionBytes(encoded: Hex): number {
  const bytes = (encoded.length - 2) / 2;
  return isTypedEncoding(encoded) ? bytes + rlpPrefixBytes(bytes) : bytes;
}

/**
 * RLP size of the whole block: [header, transactions, uncles, withdrawals], from the header and
 * the sum of bodyTransactionBytes() of its transactions (so a growing block never re-encodes them).
 */
export function blockSize(header: BlockHeader, transactionBytes: number): number {
  return blockSizeOf(encodeHeaderBytes(header).length, transactionBytes);
}

function blockSizeOf(headerBytes: number, transactionBytes: number): number {
  const transactionList = transactionBytes + rlpPrefixBytes(transactionBytes);
  const payload = headerBytes + transactionList + 1 + 1; // uncles and withdrawals: empty lists (0xc0)
  return payload + rlpPrefixBytes(payload);
}

function isTypedEncoding(tx: Hex): boolean {
  return parseInt(tx.slice(2, 4), 16) < 0x80;
}
