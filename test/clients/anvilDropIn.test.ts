// The mock node in place of Anvil: what a test suite written against Anvil 1.7.1 does with viem,
// ethers 6 and raw JSON-RPC (web3.py's filter calls), run against both nodes in the same test.
// Each case is one row of DROP_IN_CASES: `run` does the client work on one node and answers what
// must agree; the runner starts a fresh pair (the mock node and Anvil with USDC at the same
// address and balances), runs the case on each and compares. `own` holds what only one node can
// show (the mock's flashblocks) and is checked by `check`. To add a method's case, add a row.
import assert from 'node:assert/strict';
import { Contract, JsonRpcProvider, Transaction, Wallet, keccak256 } from 'ethers';
import { createPublicClient, createTestClient, createWalletClient, defineChain, http, parseAbi, parseAbiItem, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { anvilOrSkip } from '../helpers/anvil';
import { waitUntil } from '../helpers/wait';
import { startPair, type Target, type TargetSetup } from './dropIn/targets';

export interface CaseAnswer {
  /** Must be deep-equal on both nodes. */
  same: unknown;
  /** What only this node shows; given to `check`. */
  own?: unknown;
}

export interface DropInCase {
  name: string;
  setup?: TargetSetup;
  run(target: Target): Promise<CaseAnswer>;
  check?(target: Target, own: unknown): void;
}

const TOKEN_ABI = parseAbi([
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);
const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export function clients(target: Target, mode: 'anvil' | 'hardhat' = 'anvil') {
  const chain = defineChain({ id: target.chainId, name: target.name, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [target.url] } } });
  const transport = http(target.url);
  return {
    chain,
    // cacheTime 0: viem otherwise answers getBlockNumber from a cache for the polling interval,
    // and Anvil can mine a test's blocks inside those 50 ms, so a head read after mining would
    // return the head from before it.
    public: createPublicClient({ chain, transport, pollingInterval: 50, cacheTime: 0 }),
    test: createTestClient({ chain, mode, transport, pollingInterval: 50 }),
    wallet: (index: number) => createWalletClient({ chain, transport, account: privateKeyToAccount(target.accounts[index].privateKey) }),
  };
}

/** Waits until `hash` is in a sealed block (the mock pre-confirms first); answers the block number. */
export async function sealed(target: Target, hash: string): Promise<bigint> {
  return waitUntil(`${hash} sealed on ${target.name}`, async () => {
    const head = BigInt(await target.call('eth_blockNumber'));
    const receipt = await target.call('eth_getTransactionReceipt', [hash]);
    return receipt && BigInt(receipt.blockNumber) <= head ? BigInt(receipt.blockNumber) : undefined;
  }, 15_000, 25);
}

/** A USDC transfer signed locally (viem), as most suites send them. */
export async function sendTransfer(target: Target, from: number, to: number, value: bigint): Promise<Hex> {
  const { wallet, chain } = clients(target);
  return wallet(from).writeContract({ chain, address: target.token, abi: TOKEN_ABI, functionName: 'transfer', args: [target.accounts[to].address, value] });
}

/** A log as both nodes must agree on it (block hashes and numbers differ between two chains). */
function logCore(log: any): unknown {
  return { address: String(log.address).toLowerCase(), topics: log.topics.map((t: string) => t.toLowerCase()), data: log.data, removed: log.removed ?? false };
}

async function rpcErrorOf(target: Target, method: string, params: unknown[]): Promise<{ code: number; message: string }> {
  try {
    await target.call(method, params);
  } catch (error: any) {
    return { code: error.code, message: error.message };
  }
  throw new Error(`${method} answered without an error on ${target.name}`);
}

const MANUAL: TargetSetup = { mock: { auto: false } };

export const DROP_IN_CASES: DropInCase[] = [
  {
    name: 'viem createEventFilter, getFilterChanges, getFilterLogs, uninstallFilter',
    async run(target) {
      const { public: client } = clients(target);
      const filter = await client.createEventFilter({ address: target.token, event: TRANSFER_EVENT });
      const hash = await sendTransfer(target, 1, 2, 1_000n);
      await sealed(target, hash);
      const changes = await waitUntil('the Transfer log', async () => {
        const logs = await client.getFilterChanges({ filter });
        return logs.length ? logs : undefined;
      });
      const again = await client.getFilterChanges({ filter });
      const all = await client.getFilterLogs({ filter });
      const uninstalled = await client.uninstallFilter({ filter });
      const afterUninstall = await client.uninstallFilter({ filter });
      const summary = (logs: any[]) => logs.map((log) => ({ event: log.eventName, args: log.args, tx: log.transactionHash === hash }));
      return { same: { changes: summary(changes), again: again.length, all: summary(all), uninstalled, afterUninstall } };
    },
  },
  {
    name: 'viem event filter to pending: each log once (the mock: as soon as a flashblock pre-confirms it)',
    async run(target) {
      const { public: client } = clients(target);
      const filter = await client.createEventFilter({ address: target.token, event: TRANSFER_EVENT, fromBlock: 'latest', toBlock: 'pending' } as any);
      const hash = await sendTransfer(target, 1, 3, 2_000n);
      const seen: any[] = [];
      let beforeSeal = false;
      await waitUntil('the Transfer log', async () => {
        const head = BigInt(await target.call('eth_blockNumber'));
        const logs = await client.getFilterChanges({ filter });
        for (const log of logs) if (log.blockNumber !== null && (log.blockNumber as bigint) > head) beforeSeal = true;
        seen.push(...logs);
        return seen.length > 0;
      });
      const block = await sealed(target, hash);
      // Past the seal: the sealed block must not report the log a second time.
      await waitUntil('a block after it', async () => BigInt(await target.call('eth_blockNumber')) > block || (await target.call('evm_mine'), false));
      seen.push(...(await client.getFilterChanges({ filter })));
      return { same: seen.map((log) => ({ event: log.eventName, args: log.args, tx: log.transactionHash === hash })), own: { beforeSeal } };
    },
    check(target, own: any) {
      // Anvil mines on arrival; the mock reports the log from the pending block, before it seals.
      if (target.name === 'mock') assert.equal(own.beforeSeal, true, 'the mock reported the log only after its block sealed');
    },
  },
  {
    name: 'viem createBlockFilter reports each sealed block once',
    setup: MANUAL,
    async run(target) {
      const { public: client } = clients(target);
      const filter = await client.createBlockFilter();
      await target.call('evm_mine');
      await target.call('evm_mine');
      const head = await client.getBlockNumber();
      const hashes = await client.getFilterChanges({ filter });
      const expected = [(await client.getBlock({ blockNumber: head - 1n })).hash, (await client.getBlock({ blockNumber: head })).hash];
      const again = await client.getFilterChanges({ filter });
      return { same: { matches: JSON.stringify(hashes) === JSON.stringify(expected), count: hashes.length, again: again.length } };
    },
  },
  {
    name: 'viem createPendingTransactionFilter reports a hash as it enters the pool',
    setup: MANUAL,
    async run(target) {
      const { public: client } = clients(target);
      const filter = await client.createPendingTransactionFilter();
      const hash = await sendTransfer(target, 4, 5, 7n);
      const hashes = await client.getFilterChanges({ filter });
      return { same: { hashes: hashes.map((h) => h === hash) } };
    },
  },
  {
    name: 'eth_sendRawTransaction takes raw bytes in upper-case hex: the same hash, the transfer sealed',
    async run(target) {
      const wallet = new Wallet(target.accounts[6].privateKey);
      const nonce = Number(await target.call('eth_getTransactionCount', [wallet.address, 'pending']));
      const raw = await wallet.signTransaction({ to: target.accounts[7].address, value: 5n, nonce, gasLimit: 21_000, chainId: target.chainId, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n });
      const hash = await target.call('eth_sendRawTransaction', ['0x' + raw.slice(2).toUpperCase()]);
      await sealed(target, hash);
      const tx = await target.call('eth_getTransactionByHash', [hash]);
      return { same: { hash, from: tx.from.toLowerCase(), to: tx.to.toLowerCase(), value: tx.value } };
    },
  },
  {
    name: 'unknown filter ids: the same errors and answers',
    async run(target) {
      const id = '0x1234567890abcdef1234567890abcdef';
      return {
        same: {
          changes: await rpcErrorOf(target, 'eth_getFilterChanges', [id]),
          logs: await rpcErrorOf(target, 'eth_getFilterLogs', [id]),
          uninstall: await target.call('eth_uninstallFilter', [id]),
        },
      };
    },
  },
  {
    name: "ethers 6 provider.on('pending') fires with the hash, and its polling never rejects unhandled",
    async run(target) {
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      const provider = new JsonRpcProvider(target.url, undefined, { staticNetwork: true, pollingInterval: 50 });
      try {
        const heard: string[] = [];
        await provider.on('pending', (hash: string) => void heard.push(hash));
        // ethers installs its filter on its first poll; send once it is there.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const hash = await sendTransfer(target, 6, 7, 11n);
        await waitUntil('the pending hash', () => heard.includes(hash));
        await new Promise((resolve) => setTimeout(resolve, 300));
        return { same: { heard: true, rejections: rejections.length } };
      } finally {
        provider.destroy();
        process.off('unhandledRejection', onRejection);
      }
    },
  },
  ...(['filter', 'polling'] as const).map((way): DropInCase => ({
    name: `ethers 6 contract.on('Transfer') (${way === 'filter' ? 'eth_newFilter + eth_getFilterChanges' : 'polling: true, eth_getLogs'})`,
    async run(target) {
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      const provider = new JsonRpcProvider(target.url, undefined, { staticNetwork: true, pollingInterval: 50, polling: way === 'polling' });
      try {
        const token = new Contract(target.token, ['event Transfer(address indexed from, address indexed to, uint256 value)'], provider);
        const heard: { from: string; to: string; value: bigint }[] = [];
        await token.on('Transfer', (from: string, to: string, value: bigint) => void heard.push({ from, to, value }));
        await new Promise((resolve) => setTimeout(resolve, 300));
        const hash = await sendTransfer(target, 8, 9, 123n);
        await sealed(target, hash);
        await waitUntil('the Transfer event', () => heard.length > 0);
        await new Promise((resolve) => setTimeout(resolve, 300));
        return { same: { heard, rejections: rejections.length } };
      } finally {
        provider.destroy();
        process.off('unhandledRejection', onRejection);
      }
    },
  })),
  {
    name: "web3.py-style raw filter calls: create_filter, get_new_entries, get_all_entries, uninstall_filter",
    async run(target) {
      const { address } = target.accounts[1];
      const fromTopic = '0x' + address.slice(2).toLowerCase().padStart(64, '0');
      const id = await target.call('eth_newFilter', [{ fromBlock: 'latest', address: target.token, topics: [TRANSFER_TOPIC, fromTopic] }]);
      const hash = await sendTransfer(target, 1, 4, 5_000n);
      await sealed(target, hash);
      const entries = await waitUntil('new entries', async () => {
        const logs = await target.call<any[]>('eth_getFilterChanges', [id]);
        return logs.length ? logs : undefined;
      });
      const all = await target.call<any[]>('eth_getFilterLogs', [id]);
      return {
        same: {
          id: /^0x[0-9a-f]+$/.test(id),
          entries: entries.map(logCore),
          all: all.map(logCore),
          uninstalled: await target.call('eth_uninstallFilter', [id]),
          again: await target.call('eth_uninstallFilter', [id]),
          polledAfter: await rpcErrorOf(target, 'eth_getFilterChanges', [id]),
        },
      };
    },
  },
  {
    name: 'the pool: txpool_status, txpool_content, txpool_inspect, anvil_dropTransaction, anvil_dropAllTransactions (viem test client, mining off)',
    async run(target) {
      const { test, public: client } = clients(target);
      await test.setAutomine(false);
      await test.setIntervalMining({ interval: 0 });
      const automine = await test.getAutomine();
      const sender = target.accounts[3].address;
      const first = await sendTransfer(target, 3, 1, 1n);
      const second = await sendTransfer(target, 3, 1, 2n);
      const nonce = await client.getTransactionCount({ address: sender });
      const gapped = await target.call('eth_sendTransaction', [{ from: sender, to: target.accounts[1].address, value: '0x5', nonce: `0x${(nonce + 5).toString(16)}` }]);
      // The mock pre-confirms the first two in its flashblocks; they are still in the pool until sealed.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const status = await test.getTxpoolStatus();
      const content = await test.getTxpoolContent();
      const inspect = await test.inspectTxpool();
      const shape = (part: Record<string, Record<string, any>>) => Object.fromEntries(Object.entries(part).map(([from, byNonce]) => [from, Object.entries(byNonce).map(([n, tx]) => ({
        n: Number(n) - nonce, hash: [first, second, gapped].indexOf(tx.hash), from: tx.from, to: tx.to, blockHash: tx.blockHash, blockNumber: tx.blockNumber, transactionIndex: tx.transactionIndex,
      }))]));
      const lines = (part: Record<string, Record<string, string>>) => Object.values(part).flatMap((byNonce) => Object.values(byNonce).map((line) => line.replace(/× \d+ wei/, '× <price> wei')));
      const droppedSecond = await test.dropTransaction({ hash: second });
      const again = await target.call('anvil_dropTransaction', [second]);
      const afterDrop = await test.getTxpoolStatus();
      await target.call('anvil_dropAllTransactions');
      const afterAll = await test.getTxpoolStatus();
      await test.mine({ blocks: 1 });
      const block = await client.getBlock({ blockTag: 'latest' });
      return {
        same: {
          automine, status, pending: shape(content.pending as any), queued: shape(content.queued as any),
          inspect: { pending: lines(inspect.pending as any), queued: lines(inspect.queued as any) },
          droppedSecond: droppedSecond === undefined ? 'void' : droppedSecond, again, afterDrop, afterAll, sealedAfterDropAll: block.transactions.length,
        },
      };
    },
  },
  {
    name: 'anvil_mine(count, interval) and hardhat_mine: blocks and timestamps',
    setup: MANUAL,
    async run(target) {
      const { test, public: client } = clients(target);
      const start = await client.getBlockNumber();
      const began = Date.now();
      await test.mine({ blocks: 3, interval: 10 });
      // Each gap is the interval plus whatever wall-clock seconds passed while the blocks were mined.
      const slack = BigInt(Math.ceil((Date.now() - began) / 1000)) + 1n;
      await target.call('hardhat_mine', ['0x2']);
      await target.call('anvil_mine', []);
      await target.call('anvil_mine', ['0x0']);
      const head = await client.getBlockNumber();
      const stamps: bigint[] = [];
      for (let n = start + 1n; n <= start + 3n; n++) stamps.push((await client.getBlock({ blockNumber: n })).timestamp);
      const gaps = stamps.slice(1).map((t, i) => t - stamps[i] >= 10n && t - stamps[i] <= 10n + slack);
      return { same: { mined: Number(head - start), gaps } };
    },
  },
  {
    name: 'automine: each transaction seals its own block; anvil_getAutomine / hardhat_getAutomine',
    async run(target) {
      const { test, public: client } = clients(target);
      await test.setAutomine(true);
      const on = [await test.getAutomine(), await target.call('anvil_getAutomine'), await target.call('hardhat_getAutomine')];
      const before = await client.getBlockNumber();
      const a = await sendTransfer(target, 2, 1, 3n);
      const ra = await client.waitForTransactionReceipt({ hash: a, pollingInterval: 20 });
      const b = await sendTransfer(target, 2, 1, 4n);
      const rb = await client.waitForTransactionReceipt({ hash: b, pollingInterval: 20 });
      const blockA = await client.getBlock({ blockNumber: ra.blockNumber });
      await test.setAutomine(false);
      const off = await test.getAutomine();
      return { same: { on, blocks: [Number(ra.blockNumber - before), Number(rb.blockNumber - before)], inA: blockA.transactions.length, off } };
    },
  },
  {
    name: 'evm_setIntervalMining: blocks seal on their own every N s; 0 stops them',
    setup: MANUAL,
    async run(target) {
      const { test, public: client } = clients(target);
      const start = await client.getBlockNumber();
      await test.setIntervalMining({ interval: 1 });
      await waitUntil('two blocks sealed by the interval', async () => (await client.getBlockNumber()) >= start + 2n, 15_000, 50);
      await test.setIntervalMining({ interval: 0 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const stopped = await client.getBlockNumber();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return { same: { stillStopped: (await client.getBlockNumber()) === stopped, automine: await test.getAutomine() } };
    },
  },
  ...(['anvil', 'hardhat'] as const).map((mode): DropInCase => ({
    name: `viem test client in ${mode} mode: next block's base fee, block gas limit, coinbase, then reset`,
    setup: MANUAL,
    async run(target) {
      const { test, public: client } = clients(target, mode);
      await test.setAutomine(false);
      const coinbase = target.accounts[7].address;
      await test.setNextBlockBaseFeePerGas({ baseFeePerGas: 123_456_789n });
      const gasLimitSet = await target.call('evm_setBlockGasLimit', ['0x1c9c381']);
      await test.setCoinbase({ address: coinbase });
      const hash = await sendTransfer(target, 5, 6, 9n);
      await test.mine({ blocks: 1 });
      const block = await client.getBlock({ blockTag: 'latest' });
      await test.mine({ blocks: 1 });
      const next = await client.getBlock({ blockTag: 'latest' });
      const receipt = await client.getTransactionReceipt({ hash });
      // viem's reset() sends {forking: {blockNumber: null}}, which Anvil refuses when it was not started forked.
      const viemReset = await test.reset().then(() => 'reset', (error: any) => `${error.code}: ${error.details}`);
      await target.call(mode === 'anvil' ? 'anvil_reset' : 'hardhat_reset');
      const afterReset = {
        head: await client.getBlockNumber(),
        pool: await test.getTxpoolStatus(),
        nonce: await client.getTransactionCount({ address: target.accounts[5].address }),
        // The sender's ETH is back at genesis (Anvil's reset also drops the USDC this suite installed; the mock's is in its genesis).
        ethBack: (await client.getBalance({ address: target.accounts[5].address })) === 10_000n * 10n ** 18n,
      };
      return {
        same: {
          baseFee: block.baseFeePerGas, nextBaseFeeFollowsRule: next.baseFeePerGas! < block.baseFeePerGas!, gasLimitSet, gasLimit: block.gasLimit, nextGasLimit: next.gasLimit,
          miner: block.miner.toLowerCase() === coinbase.toLowerCase(), nextMiner: next.miner.toLowerCase() === coinbase.toLowerCase(), inBlock: receipt.blockNumber === block.number,
          viemReset, afterReset,
        },
      };
    },
  })),
  {
    name: 'anvil_snapshot, anvil_revert, anvil_setNextBlockTimestamp: the evm_* methods under Anvil\'s names',
    setup: MANUAL,
    async run(target) {
      const { public: client } = clients(target);
      const start = await client.getBlockNumber();
      const id = await target.call('anvil_snapshot');
      const latest = await client.getBlock({ blockTag: 'latest' });
      const stamp = Number(latest.timestamp) + 1000;
      await target.call('anvil_setNextBlockTimestamp', [stamp]);
      await target.call('evm_mine');
      const stamped = (await client.getBlock({ blockTag: 'latest' })).timestamp === BigInt(stamp);
      await target.call('evm_mine');
      const reverted = await target.call('anvil_revert', [id]);
      const head = await client.getBlockNumber();
      const again = await target.call('anvil_revert', [id]);
      return { same: { id: /^0x[0-9a-f]+$/.test(id), stamped, reverted, back: head === start, again } };
    },
  },
  {
    name: 'evm_increaseTime / anvil_increaseTime with 0x20000000000001: the same JSON number, every digit',
    async run(target) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_increaseTime', params: ['0x20000000000001'] });
      const reply = await fetch(target.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const text = await reply.text();
      return { same: { result: /"result":(-?\d+)/.exec(text)?.[1] } };
    },
  },
  {
    name: 'anvil_nodeInfo, anvil_metadata and hardhat_metadata: the same shapes; instanceId changes on reset',
    async run(target) {
      const info = await target.call('anvil_nodeInfo');
      const metadata = await target.call('anvil_metadata');
      const hardhat = await target.call('hardhat_metadata');
      await target.call('anvil_reset');
      const afterReset = await target.call('anvil_metadata');
      const keys = (o: any): unknown => (o && typeof o === 'object' && !Array.isArray(o) ? Object.fromEntries(Object.keys(o).filter((k) => !['clientSemver', 'clientCommitSha'].includes(k)).sort().map((k) => [k, keys(o[k])])) : typeof o);
      return {
        same: {
          info: keys(info), metadata: keys(metadata), hardhat: keys(hardhat), chainId: metadata.chainId, envChainId: info.environment.chainId,
          sameInstance: hardhat.instanceId === metadata.instanceId, newInstance: afterReset.instanceId !== metadata.instanceId, latest: afterReset.latestBlockNumber,
        },
      };
    },
  },
  {
    name: 'a replacement below the price bump: the same error code and message',
    setup: MANUAL,
    async run(target) {
      await target.call('evm_setAutomine', [false]);
      const from = target.accounts[4].address;
      const tx = { from, to: target.accounts[5].address, value: '0x1', nonce: '0x0', gas: '0x5208', maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x3b9aca00' };
      await target.call('eth_sendTransaction', [tx]);
      return { same: await rpcErrorOf(target, 'eth_sendTransaction', [{ ...tx, value: '0x2' }]) };
    },
  },
  {
    name: 'eth_fillTransaction fills a request as Anvil does: the same object, raw = the filled transaction with an empty signature, hash = keccak256(raw)',
    setup: MANUAL,
    async run(target) {
      const [from, to] = [target.accounts[3].address.toLowerCase(), target.accounts[4].address.toLowerCase()];
      const requests: Record<string, Record<string, unknown>> = {
        transfer: { from, to, value: '0x1' },
        given: { from, to, value: '0x1', nonce: '0x5', gas: '0x6000', type: '0x2', maxFeePerGas: '0x100', maxPriorityFeePerGas: '0x10', data: '0x1234' },
        legacy: { from, to, gasPrice: '0x77359400' },
        noFrom: { to, value: '0x2' },
        keyless: { from: '0x0000000000000000000000000000000000000001', to },
        creation: { from, data: '0x6001600155' },
      };
      const answers: Record<string, unknown> = {};
      for (const [name, request] of Object.entries(requests)) {
        const { raw, tx } = await target.call('eth_fillTransaction', [request]);
        const decoded = Transaction.from(raw);
        const fees = tx.type === '0x2' ? { maxFeePerGas: BigInt(tx.maxFeePerGas), maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas) } : { gasPrice: BigInt(tx.gasPrice) };
        answers[name] = {
          keys: Object.keys(tx).sort(),
          // Each node suggests its own fees; what was asked for is kept, and the rest agrees.
          ...Object.fromEntries(['type', 'chainId', 'nonce', 'to', 'value', 'input', 'from', 'accessList', 'r', 's', 'v', 'yParity', 'blockHash', 'blockNumber', 'transactionIndex'].map((k) => [k, tx[k]])),
          gas: name === 'creation' ? 'estimated' : tx.gas,
          givenFees: name === 'given' ? fees : name === 'legacy' ? fees : 'suggested',
          hashIsKeccakOfRaw: tx.hash === keccak256(raw),
          rawMatches:
            decoded.nonce === Number(tx.nonce) && decoded.gasLimit === BigInt(tx.gas) && decoded.value === BigInt(tx.value) &&
            decoded.data === tx.input && (decoded.to?.toLowerCase() ?? null) === tx.to && decoded.type === Number(tx.type) &&
            (decoded.type === 2 ? decoded.maxFeePerGas === fees.maxFeePerGas && decoded.maxPriorityFeePerGas === fees.maxPriorityFeePerGas : decoded.gasPrice === fees.gasPrice),
          emptySignature: raw.endsWith(decoded.type === 0 ? '8080' : '808080'),
        };
      }
      // Nothing was sent: the sender's nonce is unchanged.
      answers.nonceAfter = await target.call('eth_getTransactionCount', [from, 'pending']);
      return { same: answers };
    },
  },
  {
    name: 'viem writeContract fills its transaction with one eth_fillTransaction, as against Anvil',
    async run(target) {
      const methods: string[] = [];
      const chain = defineChain({ id: target.chainId, name: target.name, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [target.url] } } });
      const transport = http(target.url, { onFetchRequest: async (request) => void methods.push(...[JSON.parse(await request.clone().text())].flat().map((r: any) => r.method)) });
      const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(target.accounts[5].privateKey) });
      for (let i = 0; i < 2; i++) {
        const hash = await wallet.writeContract({ chain, address: target.token, abi: TOKEN_ABI, functionName: 'transfer', args: [target.accounts[6].address, 1n] });
        await sealed(target, hash);
      }
      return { same: { methods } };
    },
  },
];

describe('the mock node in place of Anvil 1.7.1 (each case against both)', function () {
  this.timeout(60_000);
  before(function () {
    anvilOrSkip(this);
  });

  for (const dropIn of DROP_IN_CASES) {
    it(dropIn.name, async () => {
      const pair = await startPair(dropIn.setup);
      try {
        const mock = await dropIn.run(pair.mock);
        const anvil = await dropIn.run(pair.anvil);
        assert.deepEqual(mock.same, anvil.same, `the mock node and Anvil disagree:\nmock  ${stringify(mock.same)}\nanvil ${stringify(anvil.same)}`);
        dropIn.check?.(pair.mock, mock.own);
        dropIn.check?.(pair.anvil, anvil.own);
      } finally {
        await pair.stop();
      }
    });
  }
});

function stringify(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${v}n` : v));
}
