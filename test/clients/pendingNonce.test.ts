// The seed: eth_getTransactionCount(addr, "pending") is "the nonce to use for the account's next
// transaction". Three back-to-back sends from one account, each taking its nonce from `pending`
// and none waiting for a receipt, are all accepted and land in order: ethers, viem and Foundry's
// cast, against the node in auto mode (200 ms flashblocks) and in manual mode (nothing is
// pre-confirmed between the sends, so only the queue-aware count can get them right). With
// `pendingNonce: 'preconfirmed'` (Base's count) the second send collides with the first: the
// trade-off docs/methods.md documents.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { JsonRpcProvider, Wallet } from 'ethers';
import { createWalletClient, defineChain, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { MockNodeOptionsInput, RunningMockNode } from '../../mock-node/index';
import { foundryToolOrSkip } from '../helpers/foundryTools';
import { rpc, sleep, startTestNode } from '../helpers/rpc';

const run = promisify(execFile);
const SENDS = 3;

type Sender = (node: RunningMockNode, account: { address: string; privateKey: string }, to: string) => Promise<string[]>;

async function sendWithEthers(node: RunningMockNode, account: { privateKey: string }, to: string): Promise<string[]> {
  // ethers answers an identical call made within `cacheTimeout` (250 ms by default) from its cache,
  // so two sends that close together would get the same nonce from any node: off here.
  const provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true, batchMaxCount: 1, cacheTimeout: -1 });
  try {
    const wallet = new Wallet(account.privateKey, provider);
    const hashes: string[] = [];
    // ethers fills each nonce with eth_getTransactionCount(from, "pending").
    for (let i = 0; i < SENDS; i++) hashes.push((await wallet.sendTransaction({ to, value: BigInt(i + 1) })).hash);
    return hashes;
  } finally {
    provider.destroy();
  }
}

async function sendWithViem(node: RunningMockNode, account: { privateKey: string }, to: string): Promise<string[]> {
  const chain = defineChain({ id: Number(node.chainId), name: 'mock', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
  const client = createWalletClient({ chain, transport: http(node.url), account: privateKeyToAccount(account.privateKey as `0x${string}`) });
  const hashes: string[] = [];
  // viem fills each nonce with eth_getTransactionCount(from, "pending").
  for (let i = 0; i < SENDS; i++) hashes.push(await client.sendTransaction({ to: to as `0x${string}`, value: BigInt(i + 1) }));
  return hashes;
}

/**
 * cast 1.7.1's `send` fills the nonce from `latest` (seen on the wire), so a script that does not
 * wait for each block passes the pending nonce itself, as `cast nonce --block pending` reads it.
 */
function sendWithCast(cast: string): Sender {
  return async (node, account, to) => {
    const hashes: string[] = [];
    for (let i = 0; i < SENDS; i++) {
      const { stdout: nonce } = await run(cast, ['nonce', '--block', 'pending', '--rpc-url', node.url, account.address]);
      const { stdout } = await run(cast, ['send', '--async', '--rpc-url', node.url, '--private-key', account.privateKey, '--nonce', nonce.trim(), to, '--value', String(i + 1)]);
      hashes.push(stdout.trim());
    }
    return hashes;
  };
}

/** Waits until every transaction is sealed, then checks: all succeeded, nonces consecutive, block order = send order. */
async function assertLandedInOrder(node: RunningMockNode, hashes: string[], firstNonce: bigint): Promise<void> {
  const deadline = Date.now() + 15_000;
  let receipts: any[] = [];
  for (;;) {
    const head = BigInt(await rpc(node.url, 'eth_blockNumber'));
    receipts = await Promise.all(hashes.map((hash) => rpc(node.url, 'eth_getTransactionReceipt', [hash])));
    if (receipts.every((r) => r && BigInt(r.blockNumber) <= head)) break;
    if (Date.now() > deadline) throw new Error(`not sealed within 15 s: ${JSON.stringify(receipts.map((r) => r?.blockNumber ?? null))}`);
    if (node.options.auto) await sleep(50);
    else await rpc(node.url, 'evm_mine');
  }
  const transactions = await Promise.all(hashes.map((hash) => rpc(node.url, 'eth_getTransactionByHash', [hash])));
  assert.deepEqual(receipts.map((r) => r.status), hashes.map(() => '0x1'));
  assert.deepEqual(transactions.map((tx) => BigInt(tx.nonce)), hashes.map((_, i) => firstNonce + BigInt(i)), 'consecutive nonces from the pending count');
  const positions = receipts.map((r) => BigInt(r.blockNumber) * 1_000_000n + BigInt(r.transactionIndex));
  assert.deepEqual(positions, [...positions].sort((a, b) => (a < b ? -1 : 1)), 'landed in the order they were sent');
}

function clients(): [string, (context: Mocha.Context) => Sender][] {
  return [
    ['ethers', () => sendWithEthers],
    ['viem', () => sendWithViem],
    ['cast (Foundry)', (context) => sendWithCast(foundryToolOrSkip('cast', context))],
  ];
}

const MODES: [string, MockNodeOptionsInput][] = [
  ['auto mode, 200 ms flashblocks', { auto: true, blockTimeMs: 2000, flashblockMs: 200 }],
  ['manual mode: nothing pre-confirmed between the sends', { auto: false }],
];

for (const [mode, options] of MODES) {
  describe(`three back-to-back sends with the pending nonce (${mode})`, function () {
    this.timeout(60_000);
    let node: RunningMockNode;
    before(async () => {
      node = await startTestNode(options);
    });
    after(() => node?.stop());

    clients().forEach(([name, sender], i) => {
      it(`${name}: all accepted, consecutive nonces, in order`, async function () {
        const send = sender(this);
        const account = node.accounts[6 + i];
        const to = node.accounts[0].address;
        const firstNonce = BigInt(await rpc(node.url, 'eth_getTransactionCount', [account.address, 'latest']));
        const hashes = await send(node, account, to);
        assert.equal(new Set(hashes).size, SENDS);
        assert.equal(BigInt(await rpc(node.url, 'eth_getTransactionCount', [account.address, 'pending'])), firstNonce + BigInt(SENDS));
        await assertLandedInOrder(node, hashes, firstNonce);
      });
    });
  });
}

describe('pendingNonce "preconfirmed" (Base\'s count): the documented trade-off', () => {
  let node: RunningMockNode;
  before(async () => {
    node = await startTestNode({ auto: false, pendingNonce: 'preconfirmed' });
  });
  after(() => node?.stop());

  it('a queued transaction is not counted, so a second send before the next flashblock reuses its nonce and is refused', async () => {
    const [account, other] = node.accounts;
    await sendWithEthers(node, account, other.address).then(
      () => assert.fail('the second send should have been refused'),
      (error: any) => assert.match(String(error?.error?.message ?? error?.message), /replacement transaction underpriced|already known/),
    );
    assert.equal(await rpc(node.url, 'eth_getTransactionCount', [account.address, 'pending']), '0x0', 'only the first is queued, and it is not counted');
    await rpc(node.url, 'mock_flashblock');
    assert.equal(await rpc(node.url, 'eth_getTransactionCount', [account.address, 'pending']), '0x1', 'counted once pre-confirmed');
  });
});
