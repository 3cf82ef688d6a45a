// Impersonation and the state setters, side by side with Anvil 1.7.1: the same steps through
// viem's test client (`createTestClient` in `anvil` and in `hardhat` mode) against the mock node
// and against Anvil running Circle's USDC (FiatTokenV2_2 behind its proxy) at the token's address
// with the same storage. Every step checks that the two nodes answer alike: an impersonated
// sender's transactions are real transactions with Anvil's fixed signature and hash rule,
// eth_sendRawTransaction is not affected, and the "deal" recipe (write a holder's balance slot,
// read balanceOf) works on both. Reads of every setter at latest, pending and a block number, in
// every mining mode and through viem, ethers and raw JSON-RPC: settersAtLatest.test.ts.
import assert from 'node:assert/strict';
import { Transaction, Wallet, concat, encodeRlp, keccak256, ZeroHash } from 'ethers';
import {
  createTestClient,
  defineChain,
  http,
  parseAbi,
  publicActions,
  walletActions,
  type Address,
  type Hex,
} from 'viem';
import { balanceSlot, STABLE_TOKEN_ABI } from '../../mock-node/tokenKit/index';
import { anvilOrSkip } from '../helpers/anvil';
import { rpc, rpcError, startTestNode } from '../helpers/rpc';
import { startUsdcPair, type UsdcPair } from '../mock-node/token/usdcPair';

const CHAIN = defineChain({ id: 31337, name: 'devnode', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } });
const ERC20 = [
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'a', type: 'address' }], outputs: [{ type: 'uint256' }] },
] as const;

function testClient(url: string, mode: 'anvil' | 'hardhat') {
  return createTestClient({ mode, chain: CHAIN, transport: http(url) }).extend(publicActions).extend(walletActions);
}
type Client = ReturnType<typeof testClient>;

interface Side {
  name: 'mock' | 'anvil';
  url: string;
  client: Client;
}

const TOKEN_ABI = parseAbi(STABLE_TOKEN_ABI as unknown as string[]);
const randomAddress = (): Address => Wallet.createRandom().address as Address;
const word = (value: bigint): Hex => `0x${value.toString(16).padStart(64, '0')}`;

/** The node's block for what was sent: the mock (manual mode) seals on evm_mine; Anvil mines on arrival. */
async function settle(side: Side, hash: Hex) {
  if (side.name === 'mock') await rpc(side.url, 'evm_mine');
  return side.client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
}

/** What the hash of an impersonated transaction must be: keccak256(RLP network form with r = s = 0, then the sender). */
function impersonatedHash(tx: Record<string, any>): string {
  const fields: Record<string, unknown> = {
    type: Number(tx.type), chainId: BigInt(tx.chainId), nonce: Number(tx.nonce), to: tx.to, value: BigInt(tx.value), data: tx.input, gasLimit: BigInt(tx.gas),
  };
  if (Number(tx.type) === 2) Object.assign(fields, { maxFeePerGas: BigInt(tx.maxFeePerGas), maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas), accessList: tx.accessList });
  else Object.assign(fields, { gasPrice: BigInt(tx.gasPrice) }, Number(tx.type) === 1 ? { accessList: tx.accessList } : {});
  const unsigned = Transaction.from(fields as never);
  unsigned.signature = { r: ZeroHash, s: ZeroHash, yParity: 0 } as never;
  return keccak256(concat([Number(tx.type) === 0 ? unsigned.serialized : encodeRlp(unsigned.serialized), tx.from]));
}

for (const mode of ['anvil', 'hardhat'] as const) {
  describe(`impersonation and state setters, mock node and Anvil side by side (viem test client, ${mode} mode)`, function () {
    this.timeout(60_000);
    let pair: UsdcPair;
    let sides: Side[];
    let token: Address;
    let snapshots: string[] = [];

    before(async function () {
      anvilOrSkip(this);
      pair = await startUsdcPair();
      token = pair.node.tokenAddress as Address;
      sides = [
        { name: 'mock', url: pair.node.url, client: testClient(pair.node.url, mode) },
        { name: 'anvil', url: pair.anvil.url, client: testClient(pair.anvil.url, mode) },
      ];
    });
    after(() => pair?.stop());
    beforeEach(async () => {
      snapshots = await Promise.all(sides.map((side) => rpc(side.url, 'evm_snapshot')));
    });
    afterEach(async () => {
      for (const [i, side] of sides.entries()) {
        await rpc(side.url, 'evm_revert', [snapshots[i]]);
        await rpc(side.url, `${mode}_autoImpersonateAccount`, [false]);
      }
    });

    /** Runs the same steps on both nodes and answers what each saw. */
    const both = <T>(steps: (side: Side) => Promise<T>): Promise<T[]> => Promise.all(sides.map(steps));

    it('an impersonated sender sends real transactions: from = the account, r = s = 0, yParity 0, Anvil\'s hash rule; stopping ends it', async () => {
      const sender = randomAddress();
      const to = randomAddress();
      const seen = await both(async (side) => {
        const { client } = side;
        await client.impersonateAccount({ address: sender });
        await client.setBalance({ address: sender, value: 10n ** 18n });
        const typed = await client.sendTransaction({ account: sender, to, value: 5n, chain: CHAIN });
        const typedReceipt = await settle(side, typed);
        const legacy = await client.sendTransaction({ account: sender, to, value: 7n, gasPrice: 3_000_000_000n, chain: CHAIN });
        const legacyReceipt = await settle(side, legacy);
        const txs = [await rpc(side.url, 'eth_getTransactionByHash', [typed]), await rpc(side.url, 'eth_getTransactionByHash', [legacy])];
        for (const tx of txs) assert.equal(tx.hash, impersonatedHash(tx), `${side.name}: hash of ${tx.hash}`);
        await client.stopImpersonatingAccount({ address: sender });
        const refused = await rpcError(side.url, 'eth_sendTransaction', [{ from: sender, to, value: '0x1' }]);
        return {
          statuses: [typedReceipt.status, legacyReceipt.status],
          froms: txs.map((tx) => tx.from),
          signatures: txs.map((tx) => ({ type: tx.type, r: tx.r, s: tx.s, v: tx.v, yParity: tx.yParity })),
          nonces: txs.map((tx) => tx.nonce),
          received: await client.getBalance({ address: to }),
          refused: refused.code !== undefined,
        };
      });
      assert.deepEqual(seen[0], seen[1]);
      assert.deepEqual(seen[0].froms, [sender.toLowerCase(), sender.toLowerCase()]);
      assert.deepEqual(seen[0].signatures, [
        { type: '0x2', r: '0x0', s: '0x0', v: '0x0', yParity: '0x0' },
        { type: '0x0', r: '0x0', s: '0x0', v: `0x${(31337 * 2 + 35).toString(16)}`, yParity: undefined },
      ]);
      assert.equal(seen[0].received, 12n);
    });

    it('with automine on, an impersonated sender\'s transaction is mined at once, in a block of its own (as Anvil)', async () => {
      const sender = randomAddress();
      const to = randomAddress();
      await rpc(pair.node.url, 'evm_setAutomine', [true]);
      try {
        const seen = await both(async (side) => {
          const { client } = side;
          await client.impersonateAccount({ address: sender });
          await client.setBalance({ address: sender, value: 10n ** 18n });
          const before = await client.getBlockNumber({ cacheTime: 0 });
          const hash = await client.sendTransaction({ account: sender, to, value: 5n, chain: CHAIN });
          // The mock node seals before it serves the next request; Anvil may write the receipt a moment later.
          if (side.name === 'mock') assert.ok(await rpc(side.url, 'eth_getTransactionReceipt', [hash]), 'mock: the receipt is there when first asked');
          const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 5_000 });
          return { status: receipt.status, inBlock: receipt.blockNumber - before, head: (await client.getBlockNumber({ cacheTime: 0 })) - before, received: await client.getBalance({ address: to }) };
        });
        assert.deepEqual(seen[0], seen[1]);
        assert.deepEqual(seen[0], { status: 'success', inBlock: 1n, head: 1n, received: 5n });
      } finally {
        await rpc(pair.node.url, 'evm_setAutomine', [false]);
      }
    });

    it('impersonating a dev account sends with the fixed signature too (as Anvil), and its raw transactions are unaffected', async () => {
      const dev = pair.node.accounts[3];
      const wallet = new Wallet(dev.privateKey);
      const seen = await both(async (side) => {
        await side.client.impersonateAccount({ address: dev.address as Address });
        const sent = await side.client.sendTransaction({ account: dev.address as Address, to: dev.address as Address, value: 1n, chain: CHAIN });
        await settle(side, sent);
        const viaImpersonation = await rpc(side.url, 'eth_getTransactionByHash', [sent]);
        const nonce = await side.client.getTransactionCount({ address: dev.address as Address, blockTag: 'pending' });
        const fees = await side.client.estimateFeesPerGas();
        const raw = await wallet.signTransaction({ to: dev.address, value: 2n, gasLimit: 21_000, chainId: 31337, nonce, maxFeePerGas: fees.maxFeePerGas * 2n, maxPriorityFeePerGas: fees.maxPriorityFeePerGas });
        const rawHash = (await rpc(side.url, 'eth_sendRawTransaction', [raw])) as Hex;
        await settle(side, rawHash);
        const viaRaw = await rpc(side.url, 'eth_getTransactionByHash', [rawHash]);
        // A raw transaction carrying the fixed signature is refused: it names no signer.
        const forged = Transaction.from({ type: 2, chainId: 31337, nonce: nonce + 1, to: dev.address, value: 1n, gasLimit: 21_000, maxFeePerGas: fees.maxFeePerGas * 2n, maxPriorityFeePerGas: 1n });
        forged.signature = { r: ZeroHash, s: ZeroHash, yParity: 0 } as never;
        const refused = await rpcError(side.url, 'eth_sendRawTransaction', [forged.serialized]);
        await side.client.stopImpersonatingAccount({ address: dev.address as Address });
        return {
          impersonated: { from: viaImpersonation.from, r: viaImpersonation.r, s: viaImpersonation.s },
          raw: { from: viaRaw.from, hash: viaRaw.hash === keccak256(raw), signed: viaRaw.r !== '0x0' },
          refused: typeof refused.code,
        };
      });
      assert.deepEqual(seen[0], seen[1]);
      assert.deepEqual(seen[0].impersonated, { from: dev.address.toLowerCase(), r: '0x0', s: '0x0' });
      assert.deepEqual(seen[0].raw, { from: dev.address.toLowerCase(), hash: true, signed: true });
    });

    it(`${mode}_autoImpersonateAccount: every sender while on, none once off`, async () => {
      const seen = await both(async (side) => {
        const sender = '0x' + '5a'.repeat(20);
        await side.client.setBalance({ address: sender as Address, value: 10n ** 18n });
        assert.equal(await rpc(side.url, `${mode}_autoImpersonateAccount`, [true]), null);
        const hash = (await rpc(side.url, 'eth_sendTransaction', [{ from: sender, to: sender, value: '0x1' }])) as Hex;
        const receipt = await settle(side, hash);
        assert.equal(await rpc(side.url, `${mode}_autoImpersonateAccount`, [false]), null);
        const after = await rpcError(side.url, 'eth_sendTransaction', [{ from: sender, to: sender, value: '0x1' }]);
        const badFlag = await rpcError(side.url, `${mode}_autoImpersonateAccount`, ['yes']);
        const badAddress = await rpcError(side.url, `${mode}_impersonateAccount`, ['0x12']);
        return { status: receipt.status, from: receipt.from, refused: typeof after.code, badFlag: badFlag.code, badAddress: badAddress.code };
      });
      assert.deepEqual(seen[0], seen[1]);
      assert.deepEqual(seen[0], { status: 'success', from: '0x' + '5a'.repeat(20), refused: 'number', badFlag: -32602, badAddress: -32602 });
    });

    it('the deal recipe: write keccak(holder, 9) with setStorageAt, balanceOf reads it (at latest and pending at once, and once sealed) and the holder can spend it', async () => {
      const holder = randomAddress();
      const amount = 123_456_789n;
      const slot = word(balanceSlot(holder));
      const seen = await both(async (side) => {
        const before = await side.client.readContract({ address: token, abi: ERC20, functionName: 'balanceOf', args: [holder] });
        await side.client.setStorageAt({ address: token, index: slot, value: word(amount) });
        const pending = await side.client.readContract({ address: token, abi: ERC20, functionName: 'balanceOf', args: [holder], blockTag: 'pending' });
        const atOnce = await side.client.readContract({ address: token, abi: ERC20, functionName: 'balanceOf', args: [holder] });
        await rpc(side.url, 'evm_mine');
        const latest = await side.client.readContract({ address: token, abi: ERC20, functionName: 'balanceOf', args: [holder] });
        const stored = await side.client.getStorageAt({ address: token, slot });
        // The holder can spend it: a transfer out of the dealt balance.
        await side.client.impersonateAccount({ address: holder });
        await side.client.setBalance({ address: holder, value: 10n ** 18n });
        const hash = await side.client.writeContract({ account: holder, address: token, abi: TOKEN_ABI, functionName: 'transfer', args: [pair.node.accounts[1].address as Address, 1_000n], chain: CHAIN });
        const receipt = await settle(side, hash);
        const after = await side.client.readContract({ address: token, abi: ERC20, functionName: 'balanceOf', args: [holder] });
        return { before, pending, atOnce, latest, stored, status: receipt.status, after, gasUsed: receipt.gasUsed };
      });
      assert.deepEqual(seen[0], seen[1]);
      assert.deepEqual({ ...seen[0], gasUsed: undefined }, { before: 0n, pending: amount, atOnce: amount, latest: amount, stored: word(amount), status: 'success', after: amount - 1_000n, gasUsed: undefined });
    });

    it('setNonce, setCode and setBalance: the next transaction takes the new nonce, eth_getCode serves the code; bad input changes nothing', async () => {
      const account = randomAddress();
      const seen = await both(async (side) => {
        const { client } = side;
        await client.setBalance({ address: account, value: 5n * 10n ** 17n });
        await client.setNonce({ address: account, nonce: 42 });
        await client.setCode({ address: account, bytecode: '0x6001600101' });
        const pendingNonce = await client.getTransactionCount({ address: account, blockTag: 'pending' });
        await rpc(side.url, 'evm_mine');
        const code = await client.getCode({ address: account });
        const balance = await client.getBalance({ address: account });
        const nonce = await client.getTransactionCount({ address: account });
        await client.setCode({ address: account, bytecode: '0x' });
        await rpc(side.url, 'evm_mine');
        const cleared = (await client.getCode({ address: account })) ?? '0x';
        const errors = [
          await rpcError(side.url, `${mode}_setCode`, [account, '0x601']),
          await rpcError(side.url, `${mode}_setStorageAt`, [account, '0x1', '0x05']),
          await rpcError(side.url, `${mode}_setStorageAt`, [account, '0x1']),
          await rpcError(side.url, `${mode}_setNonce`, ['0x1234', '0x1']),
        ].map((e) => e.code);
        await rpc(side.url, 'evm_mine');
        return { pendingNonce, code, balance, nonce, cleared, errors, after: await client.getTransactionCount({ address: account }) };
      });
      assert.deepEqual(seen[0], seen[1]);
      assert.deepEqual(seen[0], { pendingNonce: 42, code: '0x6001600101', balance: 5n * 10n ** 17n, nonce: 42, cleared: '0x', errors: [-32602, -32602, -32602, -32602], after: 42 });
    });

    it('answers as Anvil does: setStorageAt true, the others null; a storage write moves the state root and writing the old value back restores it', async () => {
      const account = randomAddress();
      const answers = await both(async (side) => [
        await rpc(side.url, `${mode}_setStorageAt`, [account, '0x0000000000000000000000000000000000000000000000000000000000000003', word(9n)]),
        await rpc(side.url, `${mode}_setNonce`, [account, '0x5']),
        await rpc(side.url, `${mode}_setCode`, [account, '0x00']),
        await rpc(side.url, `${mode}_impersonateAccount`, [account]),
        await rpc(side.url, `${mode}_stopImpersonatingAccount`, [account]),
        await rpc(side.url, `${mode}_stopImpersonatingAccount`, [account]),
      ]);
      assert.deepEqual(answers[0], answers[1]);
      assert.deepEqual(answers[0], [true, null, null, null, null, null]);
      // The mock's pending state root follows every write: a real trie root, not a counter.
      const url = pair.node.url;
      const root = async () => (await rpc(url, 'eth_getBlockByNumber', ['pending', false])).stateRoot as string;
      const slot = word(balanceSlot(account));
      const start = await root();
      await rpc(url, `${mode}_setStorageAt`, [token, slot, word(77n)]);
      const moved = await root();
      await rpc(url, `${mode}_setStorageAt`, [token, slot, word(0n)]);
      assert.notEqual(moved, start);
      assert.equal(await root(), start);
    });
  });
}

describe('impersonation and setters on the mock node alone', function () {
  this.timeout(30_000);

  it('are control methods: -32601 with --no-control, and eth_sendTransaction stays refused for unknown accounts', async () => {
    const node = await startTestNode({ control: false });
    try {
      for (const method of ['anvil_impersonateAccount', 'hardhat_impersonateAccount', 'anvil_setStorageAt', 'anvil_setCode', 'anvil_setNonce', 'hardhat_setBalance', 'anvil_autoImpersonateAccount']) {
        const error = await rpcError(node.url, method, [node.accounts[0].address, '0x1', word(1n)]);
        assert.equal(error.code, -32601, method);
      }
      const refused = await rpcError(node.url, 'eth_sendTransaction', [{ from: '0x' + '12'.repeat(20), to: '0x' + '34'.repeat(20) }]);
      assert.equal(refused.code, -32000);
    } finally {
      await node.stop();
    }
  });

  it('an impersonated transaction keeps its hash, sender and fixed signature through a saved state', async () => {
    const first = await startTestNode();
    const second = await startTestNode();
    try {
      const sender = '0x' + '77'.repeat(20);
      await rpc(first.url, 'anvil_setBalance', [sender, '0xde0b6b3a7640000']);
      await rpc(first.url, 'anvil_impersonateAccount', [sender]);
      const sealed = await rpc(first.url, 'eth_sendTransaction', [{ from: sender, to: sender, value: '0x1', gasPrice: '0x77359400' }]);
      await rpc(first.url, 'evm_mine');
      const queued = await rpc(first.url, 'eth_sendTransaction', [{ from: sender, to: sender, value: '0x2' }]);
      const dump = await rpc(first.url, 'mock_dumpState');
      assert.deepEqual(await rpc(second.url, 'mock_loadState', [dump]), { blocks: 2, queued: 1 });
      for (const hash of [sealed, queued]) {
        // The restored node cuts a flashblock at once, so the queued one is pre-confirmed there: compare what the transaction is.
        const fields = ({ hash, from, to, nonce, type, value, v, r, s, yParity, gas, input }: Record<string, unknown>) => ({ hash, from, to, nonce, type, value, v, r, s, yParity, gas, input });
        const a = await rpc(first.url, 'eth_getTransactionByHash', [hash]);
        const b = await rpc(second.url, 'eth_getTransactionByHash', [hash]);
        assert.deepEqual(fields(b), fields(a));
        assert.equal(b.from, sender);
        assert.equal(b.r, '0x0');
      }
      await rpc(second.url, 'evm_mine');
      assert.equal((await rpc(second.url, 'eth_getTransactionReceipt', [queued])).status, '0x1');
    } finally {
      await first.stop();
      await second.stop();
    }
  });

  it('a saved state with an empty block left out is refused (every state root would still match)', async () => {
    const node = await startTestNode();
    try {
      await rpc(node.url, 'evm_mine', [3]);
      const dump = await rpc(node.url, 'mock_dumpState');
      const head = await rpc(node.url, 'eth_blockNumber');
      dump.blocks.splice(2, 1);
      const error = await rpcError(node.url, 'mock_loadState', [dump]);
      assert.equal(error.code, -32000);
      assert.match(error.message, /block 2: the header's number is 3, not 2/);
      assert.equal(await rpc(node.url, 'eth_blockNumber'), head, 'nothing changed');
    } finally {
      await node.stop();
    }
  });
});
