// The block being built: flashblocks append executed transactions to it, and each flashblock
// publishes an immutable snapshot (a BlockRecord with sealed = false) that every `pending` read
// answers from. Sealing turns the last snapshot into the sealed block.
import { concat, encodeRlp, keccak256, toBeHex } from 'ethers';
import { LogsBloom } from './bloom';
import { blockSize, bodyTransactionBytes, EMPTY_REQUESTS_HASH, EMPTY_UNCLES_HASH, hashHeader, ZERO_NONCE, type BlockHeader } from './header';
import { bytesToHex, hexToBytes, rlpQuantity, type Hex } from './hex';
import { OrderedTrieBuilder } from './tries';
import type { BlockRecord, IncludedTransaction, LogRecord, ReceiptRecord } from './types';
import { EMPTY_TRIE_ROOT } from '../state/stateTrie';
import type { StateLayer } from '../state/worldState';
import type { BlockEnvironment } from '../execution/nativeContract';

export interface BlockParams {
  number: bigint;
  parent: BlockRecord;
  gasLimit: bigint;
  baseFeePerGas: bigint;
  coinbase: Hex;
  extraData: Hex;
}

export class BlockInProgress {
  state: StateLayer;
  timestamp: bigint;
  /** Fixed once the first transaction executes in this block: later flashblocks keep it. */
  timestampFixed = false;
  flashblockIndex = -1;
  gasUsed = 0n;
  readonly included: IncludedTransaction[] = [];
  readonly byHash = new Map<Hex, IncludedTransaction>();
  readonly logs: LogRecord[] = [];
  private readonly bloom = new LogsBloom();
  private readonly txTrie = new OrderedTrieBuilder();
  private readonly receiptTrie = new OrderedTrieBuilder();
  private transactionsRoot: Hex = EMPTY_TRIE_ROOT;
  private receiptsRoot: Hex = EMPTY_TRIE_ROOT;
  /** RLP bytes of the included transactions in the block body, kept as they are appended. */
  private transactionBytes = 0;

  constructor(
    readonly params: BlockParams,
    timestamp: bigint,
  ) {
    this.state = params.parent.state;
    this.timestamp = timestamp;
  }

  get number(): bigint {
    return this.params.number;
  }

  /** What a transaction executing in this block sees. */
  environment(chainId: bigint, blockHash?: (number: bigint) => Hex | undefined): BlockEnvironment {
    const { parent, gasLimit } = this.params;
    const number = this.number;
    return {
      number,
      timestamp: this.timestamp,
      chainId,
      coinbase: this.params.coinbase,
      baseFeePerGas: this.params.baseFeePerGas,
      gasLimit,
      // Only the EVM reads it (PREVRANDAO): hashed when asked.
      get prevRandao(): Hex {
        return mixHashOf(parent.hash, number);
      },
      blockHash,
    };
  }

  /** Appends transactions executed in one flashblock, with the state after them. */
  async append(executed: IncludedTransaction[], state: StateLayer): Promise<void> {
    for (const item of executed) {
      this.included.push(item);
      this.byHash.set(item.tx.hash, item);
      this.gasUsed = item.receipt.cumulativeGasUsed;
      this.transactionBytes += bodyTransactionBytes(item.tx.encoded);
      for (const log of item.receipt.logs) this.logs.push(log);
      // The receipt's bloom already holds its logs' bits: merged, not hashed again.
      if (item.receipt.logs.length > 0) this.bloom.merge(hexToBytes(item.receipt.logsBloom));
    }
    this.state = state;
    if (executed.length > 0) {
      // Both roots once per flashblock, from all the block's items (earlier subtrees reused).
      this.txTrie.append(executed.map((item) => hexToBytes(item.tx.encoded)));
      this.receiptTrie.append(executed.map((item) => hexToBytes(encodeReceipt(item.tx.type, item.receipt))));
      this.transactionsRoot = bytesToHex(this.txTrie.root());
      this.receiptsRoot = bytesToHex(this.receiptTrie.root());
    }
  }

  header(): BlockHeader {
    const parent = this.params.parent;
    return {
      parentHash: parent.hash,
      sha3Uncles: EMPTY_UNCLES_HASH,
      miner: this.params.coinbase,
      stateRoot: this.state.stateRoot,
      transactionsRoot: this.transactionsRoot,
      receiptsRoot: this.receiptsRoot,
      logsBloom: this.bloom.toHex(),
      difficulty: 0n,
      number: this.number,
      gasLimit: this.params.gasLimit,
      gasUsed: this.gasUsed,
      timestamp: this.timestamp,
      extraData: this.params.extraData,
      mixHash: mixHashOf(parent.hash, this.number),
      nonce: ZERO_NONCE,
      baseFeePerGas: this.params.baseFeePerGas,
      withdrawalsRoot: EMPTY_TRIE_ROOT,
      blobGasUsed: 0n,
      excessBlobGas: 0n,
      parentBeaconBlockRoot: keccak256(concat(['0x01', parent.hash])),
      requestsHash: EMPTY_REQUESTS_HASH,
    };
  }

  /** An immutable view of the block as of now. */
  snapshot(sealed: boolean): BlockRecord {
    const header = this.header();
    return {
      header,
      hash: hashHeader(header),
      size: blockSize(header, this.transactionBytes),
      transactions: this.included.slice(),
      logs: this.logs.slice(),
      state: this.state,
      sealed,
      flashblockIndex: this.flashblockIndex,
    };
  }
}

/** Consensus encoding of a receipt: [status, cumulativeGasUsed, logsBloom, logs], typed prefix for type > 0. */
export function encodeReceipt(type: number, receipt: ReceiptRecord): Hex {
  const body = encodeRlp([
    rlpQuantity(receipt.status),
    rlpQuantity(receipt.cumulativeGasUsed),
    receipt.logsBloom,
    receipt.logs.map((log) => [log.address, log.topics, log.data]),
  ]);
  return type === 0 ? body : concat([toBeHex(type, 1), body]);
}

/** The header's mixHash (PREVRANDAO): derived from the parent's hash and the number. */
function mixHashOf(parentHash: Hex, number: bigint): Hex {
  return keccak256(concat([parentHash, toBeHex(number, 32)]));
}
