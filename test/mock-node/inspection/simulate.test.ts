// eth_simulateV1 through viem's simulateCalls, on the mock node and on Anvil running Circle's
// FiatTokenV2_2 behind its proxy with the same state: the same statuses, return data, gas and logs
// (with traceTransfers, ERC-7528 Transfer logs for ETH), state overrides (balance and a storage
// slot: the "deal" recipe), block overrides, and the same refusal under validation.
import assert from 'node:assert/strict';
import { Wallet } from 'ethers';
import { createPublicClient, http, parseAbi, type Address, type Hex, type PublicClient } from 'viem';
import { balanceSlot } from '../../../mock-node/tokenKit/index';
import { anvilOrSkip } from '../../helpers/anvil';
import { rpc, rpcError } from '../../helpers/rpc';
import { startUsdcPair, type UsdcPair } from '../token/usdcPair';

const ERC20 = parseAbi([
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address who) view returns (uint256)',
  'function approve(address spender, uint256 value) returns (bool)',
]);

const word = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`;

/** What both nodes must agree on in a simulateCalls result (block hashes and numbers differ by design). */
function comparable(results: readonly any[]) {
  return results.map((r) => ({
    status: r.status,
    data: r.data,
    result: r.result,
    gasUsed: r.gasUsed,
    error: r.error ? String(r.error.shortMessage ?? r.error.message).split('\n')[0] : undefined,
    logs: (r.logs ?? []).map((l: any) => ({ address: l.address.toLowerCase(), topics: l.topics, data: l.data })),
  }));
}

describe('eth_simulateV1: viem simulateCalls agrees with Anvil running the real USDC', function () {
  this.timeout(120_000);
  let pair: UsdcPair;
  let mock: PublicClient;
  let anvil: PublicClient;
  let token: Address;
  let w: Wallet[];

  before(async function () {
    anvilOrSkip(this);
    pair = await startUsdcPair();
    mock = createPublicClient({ transport: http(pair.node.url) });
    anvil = createPublicClient({ transport: http(pair.anvil.url) });
    token = pair.token.address as Address;
    w = pair.node.accounts.map((a) => new Wallet(a.privateKey));
  });

  after(async () => {
    await pair?.stop();
  });

  it('token calls, an ETH transfer and a revert, with traceTransfers: the same results, gas and logs', async () => {
    const request = {
      account: w[1].address as Address,
      traceTransfers: true,
      calls: [
        { to: token, abi: ERC20, functionName: 'transfer', args: [w[2].address as Address, 1234n] },
        { to: w[3].address as Address, value: 10n ** 15n },
        { to: token, abi: ERC20, functionName: 'approve', args: [w[2].address as Address, 5n] },
        { to: token, abi: ERC20, functionName: 'transfer', args: [w[2].address as Address, 10n ** 20n] },
        { to: token, abi: ERC20, functionName: 'balanceOf', args: [w[2].address as Address] },
      ],
    } as const;
    const a = await mock.simulateCalls(request as any);
    const b = await anvil.simulateCalls(request as any);
    assert.deepEqual(comparable(a.results), comparable(b.results));
    assert.equal(a.results[3].status, 'failure');
    assert.match(String((a.results[3] as any).error?.message), /transfer amount exceeds balance/);
    assert.equal(a.results[1].logs?.[0].address.toLowerCase(), '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee');
    assert.equal((a.results[4] as any).result, 10_000_000_000n + 1234n, 'a later call sees an earlier one');
  });

  it('state overrides (balance and the balance slot: the "deal" recipe) and block overrides', async () => {
    const fresh = Wallet.createRandom().address as Address;
    const request = {
      account: fresh,
      stateOverrides: [
        { address: fresh, balance: 10n ** 18n },
        { address: token, stateDiff: [{ slot: word(balanceSlot(fresh.toLowerCase())), value: word(777n) }] },
      ],
      calls: [
        { to: token, abi: ERC20, functionName: 'transfer', args: [w[2].address as Address, 700n] },
        { to: token, abi: ERC20, functionName: 'balanceOf', args: [fresh] },
        { to: w[2].address as Address, value: 10n ** 17n },
      ],
    } as const;
    const a = await mock.simulateCalls(request as any);
    const b = await anvil.simulateCalls(request as any);
    assert.deepEqual(comparable(a.results), comparable(b.results));
    assert.equal((a.results[1] as any).result, 77n);
    // simulateCalls takes no block overrides; viem's simulateBlocks does.
    const blocks = {
      blocks: [{
        blockOverrides: { time: 4_000_000_000n, baseFeePerGas: 7n, gasLimit: 20_000_000n },
        calls: [{ from: w[1].address as Address, to: token, abi: ERC20, functionName: 'balanceOf', args: [w[1].address as Address] }],
      }],
    };
    const [x] = await mock.simulateBlocks(blocks as any);
    const [y] = await anvil.simulateBlocks(blocks as any);
    for (const block of [x, y]) {
      assert.equal(block.timestamp, 4_000_000_000n);
      assert.equal(block.baseFeePerGas, 7n);
      assert.equal(block.gasLimit, 20_000_000n);
    }
    assert.deepEqual(comparable(x.calls), comparable(y.calls));
  });

  it('validation: an account that cannot pay is refused with the same code; bad input is -32602', async () => {
    const poor = Wallet.createRandom().address;
    const body = [{ blockStateCalls: [{ calls: [{ from: poor, to: w[2].address, value: '0x1', maxFeePerGas: '0x3b9aca00' }] }], validation: true }, 'latest'];
    const m = await rpcError(pair.node.url, 'eth_simulateV1', body);
    const n = await rpcError(pair.anvil.url, 'eth_simulateV1', body);
    assert.equal(m.code, n.code);
    assert.equal(m.message, n.message);
    assert.equal((await rpcError(pair.node.url, 'eth_simulateV1', [{ blockStateCalls: 'x' }, 'latest'])).code, -32602);
    assert.equal((await rpcError(pair.node.url, 'eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: { [poor]: { state: {} } } }] }, 'latest'])).code, -32602);
    assert.equal((await rpcError(pair.node.url, 'eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: { [poor]: { code: 'xyz' } } }] }, 'latest'])).code, -32602);
    // Two simulated blocks: the second sees the first's state and follows it.
    const two = await rpc(pair.node.url, 'eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: w[1].address, to: w[2].address, value: '0x5' }] }, { calls: [] }] }, 'latest']);
    assert.equal(two.length, 2);
    assert.equal(two[1].parentHash, two[0].hash);
    assert.equal(BigInt(two[1].number), BigInt(two[0].number) + 1n);
  });
});
