// The permit checkout example (examples/permit-checkout/) driven with viem, on the mock node and on
// Anvil holding Circle's USDC at the same address with the same storage: the committed bytecode is
// what the pinned solc makes of the source; deploy, the buyer's EIP-2612 permit up to a cap, the
// merchant's charge of the final total, then a second charge and an over-cap charge that revert
// with the contract's own reasons. Gas, logs and balances must be the same on both nodes.
import assert from 'node:assert/strict';
import { parseAbi, createPublicClient, createWalletClient, decodeEventLog, http, parseSignature, type Address, type Hex, type PublicClient, type WalletClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { compileCheckout, committedCheckout } from '../../../examples/permit-checkout/build';
import { STABLE_TOKEN_ABI } from '../../../mock-node/tokenKit/index';
import { anvilOrSkip } from '../../helpers/anvil';
import { rpc } from '../../helpers/rpc';
import { startUsdcPair, type UsdcPair } from '../token/usdcPair';

const FAR_DEADLINE = 1n << 40n;
const CAP = 50_000_000n; // 50 USDC
const TOTAL = 42_500_000n; // the final total, known later: 42.50 USDC

describe('examples/permit-checkout: permit up to a cap, charge the final total once (viem; mock node and Anvil)', function () {
  this.timeout(180_000);
  let pair: UsdcPair;
  let artifact: ReturnType<typeof committedCheckout>;

  before(async function () {
    // Compiled before the in-process node starts (solc blocks the event loop for seconds).
    artifact = committedCheckout();
    assert.deepEqual(compileCheckout(), artifact, 'PermitCheckout.json is what the pinned solc makes of PermitCheckout.sol');
    anvilOrSkip(this);
    pair = await startUsdcPair();
  });

  after(async () => {
    await pair?.stop();
  });

  async function flow(url: string, mine: boolean) {
    const transport = http(url);
    const publicClient = createPublicClient({ transport }) as PublicClient;
    const chainId = await publicClient.getChainId();
    const chain = { id: chainId, name: 'local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } } as const;
    const merchant = privateKeyToAccount(pair.node.accounts[6].privateKey as Hex);
    const buyer = privateKeyToAccount(pair.node.accounts[7].privateKey as Hex);
    const merchantClient = createWalletClient({ account: merchant, chain, transport }) as WalletClient;
    const token = pair.node.tokenAddress as Address;
    const abi = artifact.abi as any[];
    const tokenAbi = parseAbi(STABLE_TOKEN_ABI as unknown as string[]) as any[];

    const landed = async (hash: Hex) => {
      if (mine) await rpc(url, 'evm_mine');
      return publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    };
    const balance = (who: Address) => publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [who] }) as Promise<bigint>;
    const signPermit = async (spender: Address, value: bigint) => {
      const nonce = (await publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'nonces', args: [buyer.address] })) as bigint;
      const signature = await buyer.signTypedData({
        domain: { name: 'USD Coin', version: '2', chainId, verifyingContract: token },
        types: { Permit: [{ name: 'owner', type: 'address' }, { name: 'spender', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'nonce', type: 'uint256' }, { name: 'deadline', type: 'uint256' }] },
        primaryType: 'Permit',
        message: { owner: buyer.address, spender, value, nonce, deadline: FAR_DEADLINE },
      });
      const { v, r, s } = parseSignature(signature);
      return [Number(v), r, s] as const;
    };
    const reasonOf = async (call: () => Promise<unknown>): Promise<string> => {
      try {
        await call();
      } catch (error: any) {
        // viem's ContractFunctionRevertedError carries the decoded Error(string).
        const reverted = typeof error.walk === 'function' ? error.walk((e: any) => typeof e?.reason === 'string') : undefined;
        return String(reverted?.reason ?? error.shortMessage ?? error.message);
      }
      return 'no revert';
    };

    const deployHash = await merchantClient.deployContract({ abi, bytecode: artifact.bytecode as Hex, args: [token, merchant.address], account: merchant, chain });
    const deployed = await landed(deployHash);
    const checkout = deployed.contractAddress!;
    const code = await publicClient.getCode({ address: checkout });

    const order = `0x${'0a'.repeat(32)}` as Hex;
    const opened = await landed(await merchantClient.writeContract({ address: checkout, abi, functionName: 'open', args: [order, buyer.address, CAP, FAR_DEADLINE, ...(await signPermit(checkout, CAP))], account: merchant, chain, gas: 300_000n }));
    const before = { buyer: await balance(buyer.address), merchant: await balance(merchant.address) };
    const charged = await landed(await merchantClient.writeContract({ address: checkout, abi, functionName: 'charge', args: [order, TOTAL], account: merchant, chain, gas: 200_000n }));
    const after = { buyer: await balance(buyer.address), merchant: await balance(merchant.address) };

    // A second charge of the same order: the contract's own reason, in eth_call and in a mined transaction.
    const secondReason = await reasonOf(() => publicClient.simulateContract({ address: checkout, abi, functionName: 'charge', args: [order, 1n], account: merchant }));
    const second = await landed(await merchantClient.writeContract({ address: checkout, abi, functionName: 'charge', args: [order, 1n], account: merchant, chain, gas: 200_000n }));

    // A second order charged above its cap.
    const order2 = `0x${'0b'.repeat(32)}` as Hex;
    await landed(await merchantClient.writeContract({ address: checkout, abi, functionName: 'open', args: [order2, buyer.address, CAP, FAR_DEADLINE, ...(await signPermit(checkout, CAP))], account: merchant, chain, gas: 300_000n }));
    const overReason = await reasonOf(() => publicClient.simulateContract({ address: checkout, abi, functionName: 'charge', args: [order2, CAP + 1n], account: merchant }));
    const over = await landed(await merchantClient.writeContract({ address: checkout, abi, functionName: 'charge', args: [order2, CAP + 1n], account: merchant, chain, gas: 200_000n }));
    const strangerReason = await reasonOf(() => publicClient.simulateContract({ address: checkout, abi, functionName: 'charge', args: [order2, 1n], account: buyer }));

    const events = charged.logs.filter((l) => l.address.toLowerCase() === checkout.toLowerCase()).map((l) => decodeEventLog({ abi, data: l.data, topics: l.topics as [Hex, ...Hex[]] }) as { eventName: string; args: unknown });
    return {
      checkout,
      // The committed runtime code, with the two immutables (token, merchant) filled in.
      runtimeIsCommitted: code?.length === artifact.deployedBytecode.length && code.includes(token.slice(2).toLowerCase()) && code.includes(merchant.address.slice(2).toLowerCase()),
      gas: [deployed, opened, charged, second, over].map((r) => [r.status, r.gasUsed]),
      logs: charged.logs.map((l) => [l.address.toLowerCase(), l.topics, l.data]),
      chargedEvent: events.map((e) => [e.eventName, JSON.stringify(e.args, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))]),
      moved: [before.buyer - after.buyer, after.merchant - before.merchant],
      reasons: [secondReason, overReason, strangerReason],
    };
  }

  it('deploy, permit, charge; a second charge and an over-cap charge revert with the contract\'s reasons; alike on Anvil', async () => {
    const onNode = await flow(pair.node.url, true);
    const onAnvil = await flow(pair.anvil.url, false);
    assert.equal(onNode.runtimeIsCommitted, true);
    assert.deepEqual(onNode.moved, [TOTAL, TOTAL]);
    assert.deepEqual(onNode.gas.map(([status]) => status), ['success', 'success', 'success', 'reverted', 'reverted']);
    assert.match(onNode.reasons[0], /PermitCheckout: already charged/);
    assert.match(onNode.reasons[1], /PermitCheckout: amount above the cap/);
    assert.match(onNode.reasons[2], /PermitCheckout: caller is not the merchant/);
    assert.deepEqual(onNode.chargedEvent.map(([name]) => name), ['Charged']);
    assert.deepEqual(onNode, onAnvil);
  });
});
