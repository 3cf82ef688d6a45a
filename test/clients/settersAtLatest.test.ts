// The state setters change the current state at once, as on Anvil: reads at `latest`, at `pending`
// and at the latest block's number (and hash) see a setter as soon as it answers, in every mining
// mode (interval mining with flashblocks, automine, no mining), through viem, ethers and raw
// JSON-RPC, side by side with Anvil 1.7.1 running Circle's USDC at the token's address with the
// same storage. Each setter is called under its anvil_* and its hardhat_* name. The latest
// header's stateRoot does not move (it covers the block as sealed), and eth_getProof at latest
// proves the new value, on both nodes. Then how the changes meet the rest: evm_snapshot/evm_revert
// (both nodes), the next seal, state files, reorgs and --history-blocks (the mock node).
import assert from 'node:assert/strict';
import { Contract, JsonRpcProvider, Wallet, keccak256 } from 'ethers';
import { createTestClient, defineChain, http, publicActions, type Address, type Hex } from 'viem';
import { balanceSlot } from '../../mock-node/tokenKit/index';
import { anvilOrSkip } from '../helpers/anvil';
import { rpc, rpcError, sleep, startTestNode } from '../helpers/rpc';
import { startUsdcPair, type UsdcPair } from '../mock-node/token/usdcPair';

const CHAIN = defineChain({ id: 31337, name: 'devnode', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } });
const ERC20 = [{ type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'a', type: 'address' }], outputs: [{ type: 'uint256' }] }] as const;
const word = (value: bigint): Hex => `0x${value.toString(16).padStart(64, '0')}`;
const hex = (value: bigint | number): Hex => `0x${value.toString(16)}`;
const randomAddress = (): Address => Wallet.createRandom().address as Address;

interface Side {
  name: 'mock' | 'anvil';
  url: string;
  viem: ReturnType<typeof viemClient>;
  ethers: JsonRpcProvider;
}

function viemClient(url: string) {
  return createTestClient({ mode: 'anvil', chain: CHAIN, transport: http(url) }).extend(publicActions);
}

/** ethers without its request cache (identical reads within 250 ms would answer from it) and without batching. */
function ethersProvider(url: string): JsonRpcProvider {
  return new JsonRpcProvider(url, 31337, { staticNetwork: true, cacheTimeout: -1, batchMaxCount: 1 });
}

type MiningMode = 'interval' | 'automine' | 'none';

/** The same mining mode on both nodes (the mock keeps its 200 ms flashblocks in interval mining). */
async function setMode(url: string, mode: MiningMode): Promise<void> {
  if (mode === 'automine') {
    await rpc(url, 'evm_setAutomine', [true]);
    return;
  }
  await rpc(url, 'evm_setAutomine', [false]);
  await rpc(url, 'evm_setIntervalMining', [mode === 'interval' ? 2 : 0]);
}

/** Where a read looks: `latest`, `pending` and the latest block's number (what the three clients are asked). */
interface Where {
  tag: 'latest' | 'pending';
  number?: undefined;
}
type Point = Where | { tag?: undefined; number: bigint };

const label = (point: Point) => point.tag ?? "at the latest number";

/** A value read at each point through each client, as strings: { 'viem latest': ..., 'ethers #5': ..., 'raw pending': ... }. */
async function readEverywhere(side: Side, points: Point[], read: (side: Side, client: 'viem' | 'ethers' | 'raw', point: Point) => Promise<unknown>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const point of points) {
    for (const client of ['viem', 'ethers', 'raw'] as const) out[`${client} ${label(point)}`] = String(await read(side, client, point));
  }
  return out;
}

const rawBlock = (point: Point): string => point.tag ?? hex(point.number);

describe('state setters are seen at latest at once, as on Anvil (viem, ethers and raw JSON-RPC; every mining mode)', function () {
  this.timeout(120_000);
  let pair: UsdcPair;
  let sides: Side[];
  let token: Address;
  let snapshots: string[] = [];

  before(async function () {
    anvilOrSkip(this);
    pair = await startUsdcPair();
    token = pair.node.tokenAddress as Address;
    sides = [
      { name: 'mock', url: pair.node.url, viem: viemClient(pair.node.url), ethers: ethersProvider(pair.node.url) },
      { name: 'anvil', url: pair.anvil.url, viem: viemClient(pair.anvil.url), ethers: ethersProvider(pair.anvil.url) },
    ];
  });
  after(async () => {
    for (const side of sides ?? []) side.ethers.destroy();
    await pair?.stop();
  });

  const both = <T>(steps: (side: Side) => Promise<T>): Promise<T[]> => Promise.all(sides.map(steps));

  /**
   * Runs `steps` on both nodes from the latest block's number; in interval mining a block may seal
   * meanwhile (then the reads at that number are of an older block): such a round runs again.
   */
  async function atSteadyHead<T>(steps: (side: Side, head: bigint) => Promise<T>): Promise<T[]> {
    for (let attempt = 0; ; attempt++) {
      const seen = await both(async (side) => {
        const head = await side.viem.getBlockNumber({ cacheTime: 0 });
        const result = await steps(side, head);
        const after = await side.viem.getBlockNumber({ cacheTime: 0 });
        return { result, steady: after === head };
      });
      if (seen.every((s) => s.steady) || attempt === 4) {
        assert.ok(seen.every((s) => s.steady), 'a block sealed during every attempt');
        return seen.map((s) => s.result);
      }
    }
  }

  for (const mode of ['interval', 'automine', 'none'] as const) {
    describe(`${mode === 'interval' ? 'interval mining (2 s blocks; the mock cuts flashblocks)' : mode === 'automine' ? 'automine' : 'no mining'}`, () => {
      before(async () => {
        for (const side of sides) await setMode(side.url, mode);
      });
      beforeEach(async () => {
        snapshots = await Promise.all(sides.map((side) => rpc(side.url, 'evm_snapshot')));
      });
      afterEach(async () => {
        for (const [i, side] of sides.entries()) await rpc(side.url, 'evm_revert', [snapshots[i]]);
      });
      after(async () => {
        for (const side of sides) await setMode(side.url, 'none');
      });

      /** Runs a setter under both names on both nodes and reads it everywhere; the header's stateRoot must stay. */
      async function checkSetter(
        set: (side: Side, prefix: 'anvil' | 'hardhat', value: bigint) => Promise<unknown>,
        read: (side: Side, client: 'viem' | 'ethers' | 'raw', point: Point) => Promise<unknown>,
        values: [bigint, bigint],
        proof?: { of: (side: Side) => Promise<unknown>; expected: unknown },
      ): Promise<void> {
        const rounds = await atSteadyHead(async (side, head) => {
          const points: Point[] = [{ tag: 'latest' }, { tag: 'pending' }, { number: head }];
          const rootBefore = (await rpc(side.url, 'eth_getBlockByNumber', ['latest', false])).stateRoot;
          const answers = [];
          const reads = [];
          for (const [i, prefix] of (['anvil', 'hardhat'] as const).entries()) {
            answers.push(await set(side, prefix, values[i]));
            reads.push(await readEverywhere(side, points, read));
          }
          const latest = await rpc(side.url, 'eth_getBlockByNumber', ['latest', false]);
          const byHash = await read(side, 'raw', { tag: undefined, number: head, ...{ hash: latest.hash } } as never);
          return { answers, reads, rootKept: latest.stateRoot === rootBefore, proof: await proof?.of(side), byHash: String(byHash) };
        });
        assert.deepEqual(rounds[0], rounds[1], 'the mock node answers as Anvil');
        for (const [i, value] of values.entries()) {
          for (const [where, seen] of Object.entries(rounds[0].reads[i])) assert.equal(seen, String(value), `${where} after the ${i === 0 ? 'anvil' : 'hardhat'} setter`);
        }
        assert.equal(rounds[0].rootKept, true, "the latest header's stateRoot is the block's as sealed");
        assert.equal(rounds[0].byHash, String(values[1]), 'read by the latest block hash (EIP-1898)');
        if (proof) assert.equal(rounds[0].proof, proof.expected, 'eth_getProof at latest');
      }

      it('setStorageAt: eth_getStorageAt at latest, pending and the latest number (and hash); eth_getProof at latest proves the new value', async () => {
        const account = randomAddress();
        const slot = word(5n);
        await checkSetter(
          (side, prefix, value) => rpc(side.url, `${prefix}_setStorageAt`, [account, slot, word(value)]),
          async (side, client, point) => {
            const hash = (point as { hash?: string }).hash;
            if (client === 'raw') return BigInt(await rpc(side.url, 'eth_getStorageAt', [account, slot, hash ? { blockHash: hash } : rawBlock(point)]));
            if (client === 'viem') return BigInt((await side.viem.getStorageAt({ address: account, slot, ...(point.tag ? { blockTag: point.tag } : { blockNumber: point.number }) }))!);
            return BigInt(await side.ethers.getStorage(account, slot, point.tag ?? point.number));
          },
          [42n, 43n],
          { of: async (side) => (await rpc(side.url, 'eth_getProof', [account, [slot], 'latest'])).storageProof[0].value, expected: '0x2b' },
        );
      });

      it('setBalance: eth_getBalance everywhere; eth_getProof at latest shows it', async () => {
        const account = randomAddress();
        await checkSetter(
          (side, prefix, value) => rpc(side.url, `${prefix}_setBalance`, [account, hex(value)]),
          async (side, client, point) => {
            const hash = (point as { hash?: string }).hash;
            if (client === 'raw') return BigInt(await rpc(side.url, 'eth_getBalance', [account, hash ? { blockHash: hash } : rawBlock(point)]));
            if (client === 'viem') return side.viem.getBalance({ address: account, ...(point.tag ? { blockTag: point.tag } : { blockNumber: point.number }) });
            return side.ethers.getBalance(account, point.tag ?? point.number);
          },
          [10n ** 18n, 7n],
          { of: async (side) => (await rpc(side.url, 'eth_getProof', [account, [], 'latest'])).balance, expected: '0x7' },
        );
      });

      it('setNonce: eth_getTransactionCount everywhere; eth_getProof at latest shows it', async () => {
        const account = randomAddress();
        await checkSetter(
          (side, prefix, value) => rpc(side.url, `${prefix}_setNonce`, [account, hex(value)]),
          async (side, client, point) => {
            const hash = (point as { hash?: string }).hash;
            if (client === 'raw') return BigInt(await rpc(side.url, 'eth_getTransactionCount', [account, hash ? { blockHash: hash } : rawBlock(point)]));
            if (client === 'viem') return side.viem.getTransactionCount({ address: account, ...(point.tag ? { blockTag: point.tag } : { blockNumber: point.number }) });
            return side.ethers.getTransactionCount(account, point.tag ?? point.number);
          },
          [17n, 42n],
          { of: async (side) => (await rpc(side.url, 'eth_getProof', [account, [], 'latest'])).nonce, expected: '0x2a' },
        );
      });

      it('setCode: eth_getCode everywhere; eth_getProof at latest has the new code hash', async () => {
        const account = randomAddress();
        const codes = ['0x6001600101', '0x60026002015f5260205ff3'] as const;
        await checkSetter(
          (side, prefix, value) => rpc(side.url, `${prefix}_setCode`, [account, codes[Number(value)]]),
          async (side, client, point) => {
            const hash = (point as { hash?: string }).hash;
            let code: string | undefined;
            if (client === 'raw') code = await rpc(side.url, 'eth_getCode', [account, hash ? { blockHash: hash } : rawBlock(point)]);
            else if (client === 'viem') code = await side.viem.getCode({ address: account, ...(point.tag ? { blockTag: point.tag } : { blockNumber: point.number }) });
            else code = await side.ethers.getCode(account, point.tag ?? point.number);
            return BigInt(codes.indexOf(code as (typeof codes)[number]));
          },
          [0n, 1n],
          { of: async (side) => (await rpc(side.url, 'eth_getProof', [account, [], 'latest'])).codeHash === keccak256(codes[1]), expected: true },
        );
      });

      it('the deal recipe: keccak(holder, 9) written with setStorageAt, balanceOf through eth_call reads it at latest (viem readContract, ethers contract.balanceOf, raw eth_call)', async () => {
        const holder = randomAddress();
        const slot = word(balanceSlot(holder));
        assert.equal(slot, keccak256(`0x${holder.slice(2).toLowerCase().padStart(64, '0')}${'9'.padStart(64, '0')}`));
        const data = `0x70a08231${holder.slice(2).toLowerCase().padStart(64, '0')}`;
        await checkSetter(
          (side, prefix, value) => rpc(side.url, `${prefix}_setStorageAt`, [token, slot, word(value)]),
          async (side, client, point) => {
            const hash = (point as { hash?: string }).hash;
            if (client === 'raw') return BigInt(await rpc(side.url, 'eth_call', [{ to: token, data }, hash ? { blockHash: hash } : rawBlock(point)]));
            if (client === 'viem') {
              // readContract's default block is latest: the first call of a forked-USDC suite.
              if (point.tag === 'latest') return side.viem.readContract({ address: token, abi: ERC20, functionName: 'balanceOf', args: [holder] });
              return side.viem.readContract({ address: token, abi: ERC20, functionName: 'balanceOf', args: [holder], ...(point.tag ? { blockTag: point.tag } : { blockNumber: point.number }) });
            }
            const contract = new Contract(token, ['function balanceOf(address) view returns (uint256)'], side.ethers);
            if (point.tag === 'latest') return contract.balanceOf(holder);
            return contract.balanceOf(holder, { blockTag: point.tag ?? point.number });
          },
          [123_456_789n, 5_000_000n],
        );
      });
    });
  }

  it('evm_snapshot keeps the changes made before it, evm_revert drops those made after (both nodes, at latest and pending)', async () => {
    for (const side of sides) await setMode(side.url, 'none');
    const account = randomAddress();
    const seen = await both(async (side) => {
      const read = async () => [
        await rpc(side.url, 'eth_getStorageAt', [account, '0x1', 'latest']),
        await rpc(side.url, 'eth_getStorageAt', [account, '0x1', 'pending']),
        await rpc(side.url, 'eth_getBalance', [account, 'latest']),
      ];
      const outer = await rpc(side.url, 'evm_snapshot');
      await rpc(side.url, 'anvil_setStorageAt', [account, '0x1', word(1n)]);
      const id = await rpc(side.url, 'evm_snapshot');
      await rpc(side.url, 'anvil_setStorageAt', [account, '0x1', word(2n)]);
      await rpc(side.url, 'anvil_setBalance', [account, '0x5']);
      const changed = await read();
      await rpc(side.url, 'evm_revert', [id]);
      const reverted = await read();
      // And across a sealed block: the change made before the snapshot is in the block, the later one goes with it.
      const again = await rpc(side.url, 'evm_snapshot');
      await rpc(side.url, 'anvil_setStorageAt', [account, '0x1', word(3n)]);
      await rpc(side.url, 'evm_mine');
      await rpc(side.url, 'evm_revert', [again]);
      const afterBlock = await read();
      await rpc(side.url, 'evm_revert', [outer]);
      return { changed, reverted, afterBlock, outer: await read() };
    });
    assert.deepEqual(seen[0], seen[1]);
    assert.deepEqual(seen[0], {
      changed: [word(2n), word(2n), '0x5'],
      reverted: [word(1n), word(1n), '0x0'],
      afterBlock: [word(1n), word(1n), '0x0'],
      outer: [word(0n), word(0n), '0x0'],
    });
  });

  it('the next block carries the changes: its stateRoot covers them; the block before keeps its sealed state on the mock (Anvil: the changed state)', async () => {
    for (const side of sides) await setMode(side.url, 'none');
    const account = randomAddress();
    const seen = await both(async (side) => {
      const head = BigInt(await rpc(side.url, 'eth_blockNumber'));
      await rpc(side.url, 'anvil_setStorageAt', [account, '0x1', word(9n)]);
      await rpc(side.url, 'evm_mine');
      const next = await rpc(side.url, 'eth_getBlockByNumber', ['latest', false]);
      const proof = await rpc(side.url, 'eth_getProof', [account, [word(1n)], 'latest']);
      return {
        atNext: await rpc(side.url, 'eth_getStorageAt', [account, '0x1', next.number]),
        atBefore: await rpc(side.url, 'eth_getStorageAt', [account, '0x1', hex(head)]),
        proved: proof.storageProof[0].value,
        accountProofRoot: keccak256(proof.accountProof[0]),
        stateRoot: next.stateRoot,
      };
    });
    const [mock, anvil] = seen;
    assert.equal(mock.atNext, word(9n));
    assert.equal(anvil.atNext, word(9n));
    assert.equal(mock.proved, '0x9');
    assert.equal(mock.accountProofRoot, mock.stateRoot, "the sealed block's stateRoot covers the change");
    // The deliberate difference: the mock's block before keeps the state its header's stateRoot names.
    assert.equal(mock.atBefore, word(0n));
    assert.equal(anvil.atBefore, word(9n));
  });
});

describe('state setters at latest on the mock node alone: state files, reorgs, --history-blocks, a rebuilt pending block', function () {
  this.timeout(60_000);

  it('a saved state keeps the changes made since the newest block sealed; the loaded node reads them at latest under the same header', async () => {
    const first = await startTestNode();
    const second = await startTestNode();
    try {
      const account = '0x' + '5e'.repeat(20);
      await rpc(first.url, 'evm_mine');
      await rpc(first.url, 'anvil_setStorageAt', [account, '0x2', word(77n)]);
      await rpc(first.url, 'anvil_setNonce', [account, '0x9']);
      const dump = await rpc(first.url, 'mock_dumpState');
      assert.deepEqual(dump.current, { accounts: { [account]: ['0x9', '0x0', '0x'] }, storage: { [account]: { '0x2': '0x4d' } } });
      await rpc(second.url, 'mock_loadState', [dump]);
      for (const url of [first.url, second.url]) {
        assert.equal(await rpc(url, 'eth_getStorageAt', [account, '0x2', 'latest']), word(77n));
        assert.equal(await rpc(url, 'eth_getTransactionCount', [account, 'latest']), '0x9');
        assert.equal(await rpc(url, 'eth_getTransactionCount', [account, 'pending']), '0x9');
      }
      const heads = await Promise.all([first.url, second.url].map((url) => rpc(url, 'eth_getBlockByNumber', ['latest', false])));
      assert.equal(heads[1].hash, heads[0].hash);
      // Sealed on both, the next block is the same block.
      await rpc(first.url, 'evm_mine', [{ timestamp: Number(heads[0].timestamp) + 5 }]);
      await rpc(second.url, 'evm_mine', [{ timestamp: Number(heads[0].timestamp) + 5 }]);
      const next = await Promise.all([first.url, second.url].map((url) => rpc(url, 'eth_getBlockByNumber', ['latest', false])));
      assert.equal(next[1].stateRoot, next[0].stateRoot);
      // A file without changes has no `current`.
      assert.equal((await rpc(first.url, 'mock_dumpState')).current, undefined);
    } finally {
      await first.stop();
      await second.stop();
    }
  });

  it('a reorg of the head keeps the changes made since it sealed at the new head (latest and pending)', async () => {
    const node = await startTestNode({ safeDepth: 4, finalizedDepth: 8 });
    try {
      const [a, b] = node.accounts;
      for (let i = 0; i < 6; i++) {
        await rpc(node.url, 'eth_sendTransaction', [{ from: a.address, to: b.address, value: '0x1' }]);
        await rpc(node.url, 'evm_mine');
      }
      const account = '0x' + '6f'.repeat(20);
      await rpc(node.url, 'anvil_setBalance', [account, '0x1234']);
      const before = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
      await rpc(node.url, 'mock_reorg', [2]);
      const after = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
      assert.notEqual(after.hash, before.hash);
      assert.equal(await rpc(node.url, 'eth_getBalance', [account, 'latest']), '0x1234');
      assert.equal(await rpc(node.url, 'eth_getBalance', [account, after.number]), '0x1234');
      assert.equal(await rpc(node.url, 'eth_getBalance', [account, 'pending']), '0x1234');
      // A rebuilt pending block (a new gas limit) keeps them too.
      await rpc(node.url, 'evm_setBlockGasLimit', ['0x2000000']);
      assert.equal(await rpc(node.url, 'eth_getBalance', [account, 'latest']), '0x1234');
      await rpc(node.url, 'evm_mine');
      assert.equal(await rpc(node.url, 'eth_getBalance', [account, 'latest']), '0x1234');
    } finally {
      await node.stop();
    }
  });

  it('with --history-blocks the changes stay at latest as old blocks are pruned, and an evm_revert still brings back those made before its snapshot', async () => {
    const node = await startTestNode({ historyBlocks: 40, safeDepth: 4, finalizedDepth: 8 });
    try {
      const account = '0x' + '7a'.repeat(20);
      await rpc(node.url, 'anvil_setStorageAt', [account, '0x3', word(5n)]);
      const id = await rpc(node.url, 'evm_snapshot');
      await rpc(node.url, 'anvil_setStorageAt', [account, '0x3', word(6n)]);
      assert.equal(await rpc(node.url, 'eth_getStorageAt', [account, '0x3', 'latest']), word(6n));
      assert.equal(await rpc(node.url, 'evm_revert', [id]), true);
      assert.equal(await rpc(node.url, 'eth_getStorageAt', [account, '0x3', 'latest']), word(5n));
      await rpc(node.url, 'evm_mine', [45]);
      assert.equal(await rpc(node.url, 'eth_getStorageAt', [account, '0x3', 'latest']), word(5n));
      await rpc(node.url, 'anvil_setStorageAt', [account, '0x3', word(8n)]);
      assert.equal(await rpc(node.url, 'eth_getStorageAt', [account, '0x3', 'latest']), word(8n));
      assert.equal((await rpcError(node.url, 'eth_getStorageAt', [account, '0x3', '0x1'])).code, 4444, 'block 1 is pruned');
    } finally {
      await node.stop();
    }
  });

  it('in the default mode (interval mining with flashblocks) a setter is at latest at once, then in the next sealed block', async () => {
    const node = await startTestNode({ auto: true, blockTimeMs: 600, flashblockMs: 100 });
    try {
      const account = '0x' + '8b'.repeat(20);
      const head = BigInt(await rpc(node.url, 'eth_blockNumber'));
      await rpc(node.url, 'anvil_setStorageAt', [account, '0x4', word(3n)]);
      assert.equal(await rpc(node.url, 'eth_getStorageAt', [account, '0x4', 'latest']), word(3n));
      assert.equal(await rpc(node.url, 'eth_getStorageAt', [account, '0x4', 'pending']), word(3n));
      // Sealed into the pending block of the moment (head + 1, or head + 2 when a block sealed meanwhile).
      while (BigInt(await rpc(node.url, 'eth_blockNumber')) < head + 2n) await sleep(50);
      assert.equal(await rpc(node.url, 'eth_getStorageAt', [account, '0x4', hex(head + 2n)]), word(3n));
      assert.equal(await rpc(node.url, 'eth_getStorageAt', [account, '0x4', 'latest']), word(3n));
    } finally {
      await node.stop();
    }
  });
});
