// Base's flashblocks wire format: one FlashblocksPayloadV1 (flashbots/rollup-boost) per
// flashblock, as Base's sequencer publishes them and Base's node and Blockscout read them:
// payload_id and index; `base` (the block's fixed attributes) on index 0 only; `diff` with the
// block's roots, bloom, gas and hash as of this flashblock and the transactions it added as
// EIP-2718 bytes; `metadata` with the block number, the added transactions' receipts by hash
// (each under its type's name, as op-alloy's receipt envelope serializes) and the balances of the
// accounts they touched. A block's flashblocks, in order, hold its transactions in order; the last
// one's block_hash is the sealed block's hash. Pure: the stream (flashblocksStream.ts) sends them.
import { bytesHex, hexBytes } from '../../encoding/bytes';
import { quantity, type Hex } from '../../encoding/hex';
import { keccak256Bytes } from '../../encoding/keccak';
import type { BlockRecord, IncludedTransaction } from '../../chain/types';

export type FlashblockJson = Record<string, unknown>;

/** The payload id of a block's build: 8 bytes from its parent's hash and its number (a rebuild gets a new one by `attempt`). */
export function payloadIdOf(block: BlockRecord, attempt: number): Hex {
  const input = new Uint8Array(32 + 8 + 4);
  input.set(hexBytes(block.header.parentHash), 0);
  new DataView(input.buffer).setBigUint64(32, block.header.number);
  new DataView(input.buffer).setUint32(40, attempt);
  return bytesHex(keccak256Bytes(input).subarray(0, 8));
}

const RECEIPT_ENVELOPES: Record<number, string> = { 0: 'Legacy', 1: 'Eip2930', 2: 'Eip1559', 4: 'Eip7702', 0x7e: 'Deposit' };

function receiptEnvelope(item: IncludedTransaction): Record<string, unknown> {
  const { receipt, tx } = item;
  const body: Record<string, unknown> = {
    status: quantity(receipt.status),
    cumulativeGasUsed: quantity(receipt.cumulativeGasUsed),
    logs: receipt.logs.map((log) => ({ address: log.address, topics: log.topics, data: log.data })),
  };
  if (receipt.deposit) {
    body.depositNonce = quantity(receipt.deposit.depositNonce);
    body.depositReceiptVersion = quantity(receipt.deposit.depositReceiptVersion);
  }
  return { [RECEIPT_ENVELOPES[tx.type] ?? `Type${tx.type}`]: body };
}

/**
 * The payload of flashblock `index` of `block` (a pending snapshot, or the sealed block when its
 * seal changed the hash) that added `added`; `balance` reads an account's balance after it.
 */
export function flashblockPayload(block: BlockRecord, index: number, payloadId: Hex, added: readonly IncludedTransaction[], balance: (address: Hex) => bigint): FlashblockJson {
  const h = block.header;
  const receipts: Record<string, unknown> = {};
  const touched = new Set<Hex>();
  for (const item of added) {
    receipts[item.tx.hash] = receiptEnvelope(item);
    touched.add(item.tx.from);
    if (item.tx.to) touched.add(item.tx.to);
    if (item.receipt.contractAddress) touched.add(item.receipt.contractAddress);
  }
  if (added.length > 0) touched.add(h.miner);
  const balances: Record<string, string> = {};
  for (const address of touched) balances[address] = quantity(balance(address));
  const payload: FlashblockJson = { payload_id: payloadId, index };
  if (index === 0) {
    payload.base = {
      parent_beacon_block_root: h.parentBeaconBlockRoot,
      parent_hash: h.parentHash,
      fee_recipient: h.miner,
      prev_randao: h.mixHash,
      block_number: quantity(h.number),
      gas_limit: quantity(h.gasLimit),
      timestamp: quantity(h.timestamp),
      extra_data: h.extraData,
      base_fee_per_gas: quantity(h.baseFeePerGas),
    };
  }
  payload.diff = {
    state_root: h.stateRoot,
    receipts_root: h.receiptsRoot,
    logs_bloom: h.logsBloom,
    gas_used: quantity(h.gasUsed),
    block_hash: block.hash,
    transactions: added.map((item) => item.tx.encoded),
    withdrawals: [],
    withdrawals_root: h.withdrawalsRoot,
  };
  payload.metadata = { block_number: Number(h.number), receipts, new_account_balances: balances };
  return payload;
}
