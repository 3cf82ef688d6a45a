// Real traffic for the conformance tests: a manual-mode node, transactions of types 0, 1 and 2
// (plain transfers with random values, EIP-2930 access lists, token transfers, memo transfers,
// approvals and a few that revert) signed locally and sent raw (now and then signed by the node,
// eth_sendTransaction), spread over flashblocks and
// blocks, with the last block left pending (pre-confirmed transactions) and a few transactions
// still queued; WebSocket subscriptions of every kind listen throughout. Then every read the
// node serves is asked about all of it, and each answer is kept as { method, params, result }.
import { Interface, Transaction, Wallet, hexlify } from 'ethers';
import type { RunningMockNode } from '../../mock-node/index';
import { seededRandom } from '../../mock-node/rpc/faults';
import { STABLE_TOKEN_ABI, balanceSlot, slotHex } from '../../mock-node/tokenKit/index';
import { TestSocket } from '../mock-node/websocket/wsClient';
import { post } from './rpc';

export interface Answer {
  method: string;
  params: unknown[];
  result: unknown;
}

export interface Notification {
  kind: string;
  result: unknown;
}

export interface TrafficPlan {
  /** Transactions to send in all (about a tenth of them token operations). */
  transactions: number;
  seed: number;
}

export interface Traffic {
  /** Transactions sent, in order; the last `queued` of them were never cut into a flashblock. */
  hashes: string[];
  /** Hashes of transactions still queued (not pre-confirmed) when the answers were collected. */
  queued: string[];
  /** The type of each transaction sent, by hash. */
  types: Map<string, number>;
  /** Transactions that revert (status 0x0). */
  reverted: string[];
  answers: Answer[];
  notifications: Notification[];
}

const TOKEN_ABI = new Interface(STABLE_TOKEN_ABI as unknown as string[]);

/** Every subscription kind, with the parameter that makes it send whole objects. */
export const SUBSCRIPTIONS: [kind: string, params: unknown[]][] = [
  ['newHeads', []],
  ['logs', [{}]],
  ['newPendingTransactions', [true]],
  ['pendingLogs', [{}]],
  ['newFlashblocks', []],
  ['newFlashblockTransactions', [true]],
];

const GWEI = 1_000_000_000n;

/** Sends the traffic, then asks every read about it. The node must be in manual mode. */
export async function runTraffic(node: RunningMockNode, plan: TrafficPlan): Promise<Traffic> {
  const random = seededRandom(plan.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const wallets = node.accounts.map((a) => new Wallet(a.privateKey));
  const nonces = new Map<string, number>(wallets.map((w) => [w.address, 0]));
  const socket = await TestSocket.open(node.dedicatedUrl.replace(/^http/, 'ws'));
  const kinds = new Map<string, string>();
  for (const [kind, params] of SUBSCRIPTIONS) kinds.set(await socket.subscribe(kind, ...params), kind);

  const hashes: string[] = [];
  const types = new Map<string, number>();
  const reverted: string[] = [];
  const sent: Answer[] = [];
  const send = async (): Promise<string> => {
    const wallet = pick(wallets);
    const other = pick(wallets.filter((w) => w !== wallet)).address;
    const nonce = nonces.get(wallet.address)!;
    const roll = random();
    const type = roll < 0.3 ? 0 : roll < 0.5 ? 1 : 2;
    const fees = type === 2
      ? { maxFeePerGas: 20n * GWEI + BigInt(Math.floor(random() * 1e9)), maxPriorityFeePerGas: BigInt(1 + Math.floor(random() * 3e6)) }
      : { gasPrice: 10n * GWEI + BigInt(Math.floor(random() * 1e9)) };
    const token = random() < 0.12;
    let data = '0x';
    let to = other;
    let fails = false;
    if (token) {
      to = node.tokenAddress;
      const op = random();
      if (op < 0.6) data = TOKEN_ABI.encodeFunctionData('transfer', [other, BigInt(1 + Math.floor(random() * 1e6))]);
      else if (op < 0.8) data = TOKEN_ABI.encodeFunctionData('transferWithMemo', [other, BigInt(1 + Math.floor(random() * 1e6)), hexlify(randomWord(random))]);
      else if (op < 0.9) data = TOKEN_ABI.encodeFunctionData('approve', [other, BigInt(Math.floor(random() * 1e9))]);
      else {
        data = TOKEN_ABI.encodeFunctionData('transfer', [other, 10n ** 30n]); // more than anyone holds: reverts
        fails = true;
      }
    } else if (random() < 0.3) {
      data = hexlify(randomBytes(random, 1 + Math.floor(random() * 40))); // calldata to an account: a plain transfer with input
    }
    const accessList = type === 0 ? undefined : type === 1 || random() < 0.3 ? [{ address: token ? node.tokenAddress : other, storageKeys: [hexlify(randomWord(random))] }] : [];
    const tx = Transaction.from({
      type,
      chainId: node.chainId,
      nonce,
      to,
      value: token ? 0n : BigInt(Math.floor(random() * 2 ** 52)) * BigInt(1 + Math.floor(random() * 1000)),
      data,
      gasLimit: token ? 200_000n : 60_000n,
      accessList,
      ...fees,
    });
    let hash: string;
    if (!token && type === 2 && random() < 0.1) {
      // Now and then the node signs (a dev account), filling gas and fees itself.
      const params = [{ from: wallet.address, to, value: '0x' + tx.value.toString(16), data }];
      hash = await call(node.url, 'eth_sendTransaction', params);
      sent.push({ method: 'eth_sendTransaction', params, result: hash });
    } else {
      const params = [await wallet.signTransaction(tx)];
      hash = await call(node.url, 'eth_sendRawTransaction', params);
      sent.push({ method: 'eth_sendRawTransaction', params, result: hash });
    }
    nonces.set(wallet.address, nonce + 1);
    hashes.push(hash);
    types.set(hash, type);
    if (fails) reverted.push(hash);
    return hash;
  };

  // Blocks of 1 to 4 flashblocks with 0 to 12 transactions each; the last block stays pending.
  const queuedCount = Math.min(3, Math.max(1, Math.floor(plan.transactions / 50)));
  const toSeal = plan.transactions - queuedCount - 8;
  while (hashes.length < toSeal) {
    const flashblocks = 1 + Math.floor(random() * 4);
    for (let f = 0; f < flashblocks && hashes.length < toSeal; f++) {
      const count = Math.min(Math.floor(random() * 13), toSeal - hashes.length);
      for (let i = 0; i < count; i++) await send();
      await call(node.url, 'mock_flashblock');
    }
    await call(node.url, 'evm_mine');
  }
  for (let i = 0; i < 8; i++) await send(); // pre-confirmed in the pending block
  await call(node.url, 'mock_flashblock');
  const queued: string[] = [];
  for (let i = 0; i < queuedCount; i++) queued.push(await send()); // accepted, not yet in a flashblock
  await socket.until(() => socket.all.length > 0 && socket.of([...kinds.keys()].find((id) => kinds.get(id) === 'newPendingTransactions')!).length === hashes.length, 10_000, 'every notification');

  const answers = [...sent, ...(await collectAnswers(node, hashes, wallets.map((w) => w.address)))];
  const notifications = socket.all.map((n) => ({ kind: kinds.get(n.subscription)!, result: n.result }));
  socket.close();
  return { hashes, queued, types, reverted, answers, notifications };
}

/** The reads, asked in batches on the dedicated endpoint (receipts are allowed there). */
async function collectAnswers(node: RunningMockNode, hashes: string[], accounts: string[]): Promise<Answer[]> {
  const requests: [string, unknown[]][] = [];
  const head = BigInt(await call(node.url, 'eth_blockNumber'));
  const hex = (n: bigint | number) => '0x' + n.toString(16);
  const tags = ['latest', 'pending', 'safe', 'finalized', 'earliest'];
  const blockIds = [...tags, ...Array.from({ length: Number(head) + 1 }, (_, n) => hex(n)), hex(head + 5n)];
  for (const id of blockIds) {
    for (const full of [false, true]) requests.push(['eth_getBlockByNumber', [id, full]]);
    requests.push(['eth_getBlockReceipts', [id]], ['eth_getBlockTransactionCountByNumber', [id]], ['eth_getUncleCountByBlockNumber', [id]]);
  }
  const blocks: any[] = (await batch(node, blockIds.map((id) => ['eth_getBlockByNumber', [id, false]]))).filter((b) => b !== null);
  for (const block of blocks) {
    if (block.hash === null || /^0x0+$/.test(block.hash)) continue; // the pending block in `null` / `zero` identity has no hash to look up
    for (const full of [false, true]) requests.push(['eth_getBlockByHash', [block.hash, full]]);
    requests.push(['eth_getBlockReceipts', [block.hash]], ['eth_getBlockTransactionCountByHash', [block.hash]], ['eth_getLogs', [{ blockHash: block.hash }]]);
    for (let i = 0; i <= block.transactions.length; i++) requests.push(['eth_getTransactionByBlockHashAndIndex', [block.hash, hex(i)]]);
  }
  for (const id of ['latest', 'pending']) {
    const block = blocks.find((b) => b.number === (id === 'latest' ? hex(head) : hex(head + 1n))) ?? blocks[0];
    for (let i = 0; i <= block.transactions.length; i++) requests.push(['eth_getTransactionByBlockNumberAndIndex', [id, hex(i)]]);
  }
  for (let n = 0n; n <= head; n++) requests.push(['eth_getTransactionByBlockNumberAndIndex', [hex(n), '0x0']]);
  for (const hash of hashes) requests.push(['eth_getTransactionByHash', [hash]], ['eth_getTransactionReceipt', [hash]]);
  for (let from = 0n; from <= head; from += 7n) requests.push(['eth_getLogs', [{ fromBlock: hex(from), toBlock: hex(from + 6n > head ? head : from + 6n) }]]);
  requests.push(['eth_getLogs', [{ fromBlock: 'earliest', toBlock: 'pending' }]], ['eth_getLogs', [{ fromBlock: 'pending', toBlock: 'pending' }]]);
  requests.push(['eth_getLogs', [{ fromBlock: 'safe', toBlock: 'latest', address: node.tokenAddress }]], ['eth_getLogs', [{ fromBlock: 'finalized' }]]);
  for (const id of tags) {
    requests.push(['eth_feeHistory', ['0x5', id, [10, 50, 90]]], ['eth_feeHistory', [hex(head + 1n), id]]);
    for (const account of accounts) {
      requests.push(['eth_getBalance', [account, id]], ['eth_getTransactionCount', [account, id]], ['eth_getCode', [account, id]]);
      requests.push(['eth_call', [{ to: node.tokenAddress, data: TOKEN_ABI.encodeFunctionData('balanceOf', [account]) }, id]]);
      requests.push(['eth_getStorageAt', [node.tokenAddress, slotHex(balanceSlot(account)), id]]);
    }
    requests.push(['eth_getCode', [node.tokenAddress, id]]);
    requests.push(['eth_estimateGas', [{ from: accounts[0], to: accounts[1], value: '0x1' }, id]]);
    requests.push(['eth_estimateGas', [{ from: accounts[0], to: node.tokenAddress, data: TOKEN_ABI.encodeFunctionData('transfer', [accounts[1], 1n]) }, id]]);
  }
  requests.push(['eth_chainId', []], ['eth_blockNumber', []], ['eth_gasPrice', []], ['eth_maxPriorityFeePerGas', []], ['eth_accounts', []], ['net_version', []]);
  const results = await batch(node, requests);
  return requests.map(([method, params], i) => ({ method, params, result: results[i] }));
}

/** Calls one method on the public endpoint; throws on an error. */
async function call(url: string, method: string, params: unknown[] = []): Promise<any> {
  const reply = await post(url, { jsonrpc: '2.0', id: 1, method, params });
  if (reply.body?.error) throw new Error(`${method}: ${reply.body.error.message}`);
  return reply.body.result;
}

/** Runs requests in batches of 500 on the dedicated endpoint; any error fails the run. */
async function batch(node: RunningMockNode, requests: [string, unknown[]][]): Promise<unknown[]> {
  const results: unknown[] = [];
  for (let start = 0; start < requests.length; start += 500) {
    const chunk = requests.slice(start, start + 500).map(([method, params], i) => ({ jsonrpc: '2.0', id: start + i, method, params }));
    const reply = await post(node.dedicatedUrl, chunk);
    const byId = new Map<number, any>((reply.body as any[]).map((r) => [r.id, r]));
    for (const request of chunk) {
      const response = byId.get(request.id);
      if (!response || response.error) throw new Error(`${request.method} ${JSON.stringify(request.params)}: ${JSON.stringify(response?.error)}`);
      results.push(response.result);
    }
  }
  return results;
}

function randomBytes(random: () => number, length: number): Uint8Array {
  return Uint8Array.from({ length }, () => Math.floor(random() * 256));
}

function randomWord(random: () => number): Uint8Array {
  return randomBytes(random, 32);
}
