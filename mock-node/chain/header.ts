// Block headers: every field of the seed's block table, RLP-encoded in consensus (Prague)
// order and hashed with keccak256, exactly as a client recomputing the hash would.
import { decodeRlp, encodeRlp, keccak256 } from 'ethers';
import { rlpQuantity, type Hex } from './hex';

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
  return encodeRlp(headerFields(header));
}

export function hashHeader(header: BlockHeader): Hex {
  return keccak256(encodeHeader(header));
}

/**
 * RLP size of the whole block: [header, transactions, uncles, withdrawals]. Typed transactions sit
 * in the body as byte strings, legacy ones as the RLP lists they are.
 */
export function blockSize(header: BlockHeader, encodedTransactions: readonly Hex[]): number {
  const transactions = encodedTransactions.map((tx) => (isTypedEncoding(tx) ? tx : decodeRlp(tx)));
  const encoded = encodeRlp([headerFields(header), transactions, [], []]);
  return (encoded.length - 2) / 2;
}

function isTypedEncoding(tx: Hex): boolean {
  return parseInt(tx.slice(2, 4), 16) < 0x80;
}
