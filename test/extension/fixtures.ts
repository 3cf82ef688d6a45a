// Fixed JSON-RPC results (shaped like the mock node's and geth's answers) for the unit tests.
import type { EndpointView } from '../../extension/explorer/nodeSpec';
import type { BlockJson, ReceiptJson } from '../../extension/explorer/chainData';

export const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
export const BOB = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
export const TOKEN = '0x3600000000000000000000000000000000000000';
const pad = (address: string): string => `0x${address.slice(2).padStart(64, '0')}`;
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export const tx1 = {
  hash: '0x1111111111111111111111111111111111111111111111111111111111111111',
  from: ALICE, to: BOB, value: '0xde0b6b3a7640000', nonce: '0x3', gas: '0x5208', type: '0x2',
  blockNumber: '0x7b', transactionIndex: '0x0', input: '0x',
  maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x3b9aca00', chainId: '0x7a69', yParity: '0x1', v: '0x1',
  blockTimestamp: '0x6741b2a0',
};
export const tx2 = { ...tx1, hash: '0x2222222222222222222222222222222222222222222222222222222222222222', nonce: '0x4', transactionIndex: '0x1' };

export function block(overrides: Partial<BlockJson> = {}): BlockJson {
  return {
    number: '0x7b',
    hash: '0xabababababababababababababababababababababababababababababababab',
    parentHash: '0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd',
    timestamp: '0x6741b2a0',
    gasUsed: '0xa410',
    gasLimit: '0x1c9c380',
    baseFeePerGas: '0x3b9aca00',
    miner: '0x0000000000000000000000000000000000000000',
    transactions: [tx1],
    ...overrides,
  };
}

export const transferLog = {
  address: TOKEN,
  topics: [TRANSFER_TOPIC, pad(ALICE), pad(BOB)],
  data: `0x${(1_500_000n).toString(16).padStart(64, '0')}`,
  blockNumber: '0x7b', transactionHash: tx1.hash, logIndex: '0x0', transactionIndex: '0x0', removed: false,
};

export const receipt1: ReceiptJson = {
  transactionHash: tx1.hash, status: '0x1', gasUsed: '0x5208', cumulativeGasUsed: '0x5208', logs: [transferLog],
};

export function endpointView(overrides: Partial<EndpointView> = {}): EndpointView {
  return {
    id: 'ep:mock',
    name: 'Mock node (public)',
    displayUrl: 'http://127.0.0.1:8545/',
    curlUrl: 'http://127.0.0.1:8545/',
    overview: { ok: true, value: { chainId: '0x7a69', clientVersion: 'chain-mock-node/0.1.0', head: '0x7b' } },
    block: { ok: true, value: block() },
    open: new Set(),
    ...overrides,
  };
}
