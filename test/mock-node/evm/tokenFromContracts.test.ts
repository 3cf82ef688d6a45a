// Contracts that use the token, on the mock node (whose token is native and also real bytecode)
// and on Anvil with Circle's FiatTokenV2_2 behind FiatTokenProxy at the same address with the same
// storage: a contract pulling tokens with transferFrom, viem's deployless multicall reading three
// balances, and FiatTokenV2_2 deployed from Circle's artifacts with a transfer charged alike.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Interface, TypedDataEncoder, Wallet } from 'ethers';
import { TYPED_DATA_TYPES } from '../../../mock-node/tokenKit/index';
import { createPublicClient, erc20Abi, http, type Address } from 'viem';
import { anvilOrSkip } from '../../helpers/anvil';
import { rpc } from '../../helpers/rpc';
import { compileSolidity } from '../../helpers/solc';
import { startUsdcPair, type UsdcPair } from '../token/usdcPair';

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
interface IERC20 { function transferFrom(address, address, uint256) external returns (bool); function balanceOf(address) external view returns (uint256); }
contract Wallet1271 {
  address public owner;
  constructor(address owner_) { owner = owner_; }
  function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
    (bytes32 r, bytes32 s) = abi.decode(signature[:64], (bytes32, bytes32));
    return ecrecover(hash, uint8(signature[64]), r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
  }
}
contract Puller {
  event Pulled(address from, uint256 amount, uint256 balance);
  function pull(address token, address from, uint256 amount) external returns (bool ok) {
    ok = IERC20(token).transferFrom(from, address(this), amount);
    emit Pulled(from, amount, IERC20(token).balanceOf(address(this)));
  }
}
`;

const ARTIFACTS = join(__dirname, '..', '..', '..', 'node_modules', '@offchainlabs', 'stablecoin-evm', 'artifacts', 'hardhat', 'contracts');
const artifact = (path: string) => JSON.parse(readFileSync(join(ARTIFACTS, path), 'utf8'));
const TOKEN = new Interface(artifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json').abi);

function hex(n: bigint | number): string {
  return `0x${BigInt(n).toString(16)}`;
}

describe('contracts calling the token, against Anvil with Circle\'s USDC', function () {
  this.timeout(180_000);
  let pair: UsdcPair;

  before(async function () {
    anvilOrSkip(this);
    // Compiled before the in-process node starts: solc blocks the event loop for seconds.
    compileSolidity({ 'Puller.sol': SOURCE });
    pair = await startUsdcPair();
  });

  after(async () => {
    await pair?.stop();
  });

  interface Side {
    name: string;
    url: string;
    mine: boolean;
  }
  const sides = (): Side[] => [
    { name: 'mock', url: pair.node.url, mine: true },
    { name: 'anvil', url: pair.anvil.url, mine: false },
  ];

  async function send(side: Side, tx: Record<string, unknown>): Promise<any> {
    const hash = await rpc(side.url, 'eth_sendTransaction', [tx]);
    if (side.mine) await rpc(side.url, 'evm_mine');
    for (let i = 0; i < 200; i++) {
      const receipt = await rpc(side.url, 'eth_getTransactionReceipt', [hash]);
      if (receipt) return receipt;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no receipt on ${side.name}`);
  }

  async function onBoth<T>(body: (side: Side) => Promise<T>): Promise<{ mock: T; anvil: T }> {
    const out: T[] = [];
    for (const side of sides()) {
      const snapshot = await rpc(side.url, 'evm_snapshot');
      try {
        out.push(await body(side));
      } finally {
        await rpc(side.url, 'evm_revert', [snapshot]);
      }
    }
    return { mock: out[0], anvil: out[1] };
  }

  const executed = (r: any) => ({ status: r.status, gasUsed: r.gasUsed, logs: r.logs.map((l: any) => ({ address: l.address, topics: l.topics, data: l.data })) });

  it('a contract pulls tokens with transferFrom: the real bytecode runs over the native token\'s storage, as on Anvil', async () => {
    const puller = compileSolidity({ 'Puller.sol': SOURCE }).Puller;
    const pullerAbi = new Interface(puller.abi);
    const payer = pair.node.accounts[3].address;
    const merchant = pair.node.accounts[4].address;
    const token = pair.node.tokenAddress;
    const { mock, anvil } = await onBoth(async (side) => {
      const at = (await send(side, { from: merchant, data: puller.bytecode, gas: hex(1_000_000) })).contractAddress;
      const approve = executed(await send(side, { from: payer, to: token, data: TOKEN.encodeFunctionData('approve', [at, 5_000_000n]), gas: hex(200_000) }));
      const estimate = await rpc(side.url, 'eth_estimateGas', [{ from: merchant, to: at, data: pullerAbi.encodeFunctionData('pull', [token, payer, 2_000_000n]) }]);
      const pull = executed(await send(side, { from: merchant, to: at, data: pullerAbi.encodeFunctionData('pull', [token, payer, 2_000_000n]), gas: hex(300_000) }));
      // Above the remaining allowance: FiatTokenV2_2's own revert, inside the contract's call.
      const over = executed(await send(side, { from: merchant, to: at, data: pullerAbi.encodeFunctionData('pull', [token, payer, 4_000_000n]), gas: hex(300_000) }));
      const overCall = await rpc(side.url, 'eth_call', [{ from: merchant, to: at, data: pullerAbi.encodeFunctionData('pull', [token, payer, 4_000_000n]) }, 'latest']).catch((e) => e.message);
      const balance = await rpc(side.url, 'eth_call', [{ to: token, data: TOKEN.encodeFunctionData('balanceOf', [at]) }, 'latest']);
      return { at, approve, estimate, pull, over, overCall, balance };
    });
    assert.equal(mock.pull.status, '0x1');
    assert.equal(BigInt(mock.balance), 2_000_000n);
    assert.equal(mock.over.status, '0x0');
    assert.match(String(mock.overCall), /ERC20: transfer amount exceeds allowance/);
    assert.deepEqual(mock, anvil);
  });

  it('the token paused or the payer blocklisted by mock_setPaused / mock_setBlocked stops the bytecode path too', async () => {
    const puller = compileSolidity({ 'Puller.sol': SOURCE }).Puller;
    const pullerAbi = new Interface(puller.abi);
    const [payer, merchant] = [pair.node.accounts[3].address, pair.node.accounts[4].address];
    const side = sides()[0];
    const snapshot = await rpc(side.url, 'evm_snapshot');
    try {
      const at = (await send(side, { from: merchant, data: puller.bytecode, gas: hex(1_000_000) })).contractAddress;
      await send(side, { from: payer, to: pair.node.tokenAddress, data: TOKEN.encodeFunctionData('approve', [at, 5_000_000n]), gas: hex(200_000) });
      const pull = { from: merchant, to: at, data: pullerAbi.encodeFunctionData('pull', [pair.node.tokenAddress, payer, 1n]) };
      await rpc(side.url, 'mock_setPaused', [true]);
      await assert.rejects(rpc(side.url, 'eth_call', [pull, 'pending']), /Pausable: paused/);
      await rpc(side.url, 'mock_setPaused', [false]);
      await rpc(side.url, 'mock_setBlocked', [payer, true]);
      await assert.rejects(rpc(side.url, 'eth_call', [pull, 'pending']), /Blacklistable: account is blacklisted/);
      await rpc(side.url, 'mock_setBlocked', [payer, false]);
      await rpc(side.url, 'mock_mint', [at, '7']);
      const [, , balance] = pullerAbi.decodeEventLog('Pulled', (await send(side, { ...pull, gas: hex(300_000) })).logs[1].data);
      assert.equal(balance, 8n);
    } finally {
      await rpc(side.url, 'evm_revert', [snapshot]);
    }
  });

  it('an ERC-1271 smart wallet\'s transferWithAuthorization sent straight to the token: its isValidSignature decides, as on Anvil', async () => {
    const wallet = compileSolidity({ 'Puller.sol': SOURCE }).Wallet1271;
    const walletOwner = new Wallet(pair.node.accounts[5].privateKey);
    const [deployer, relayer, payee] = [pair.node.accounts[4].address, pair.node.accounts[6].address, pair.node.accounts[7].address];
    const token = pair.node.tokenAddress;
    const twa = 'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)';
    const { mock, anvil } = await onBoth(async (side) => {
      const at = (await send(side, { from: deployer, data: wallet.bytecode + new Interface(wallet.abi).encodeDeploy([walletOwner.address]).slice(2), gas: hex(1_000_000) })).contractAddress;
      await send(side, { from: deployer, to: token, data: TOKEN.encodeFunctionData('transfer', [at, 3_000_000n]), gas: hex(200_000) });
      const domain = { name: 'USD Coin', version: '2', chainId: BigInt(await rpc(side.url, 'eth_chainId')), verifyingContract: token };
      const message = { from: at, to: payee, value: 1_000_000n, validAfter: 0n, validBefore: 1n << 40n, nonce: `0x${'77'.repeat(32)}` };
      const signed = (by: { signingKey: Wallet['signingKey'] }) => by.signingKey.sign(TypedDataEncoder.hash(domain, TYPED_DATA_TYPES.TransferWithAuthorization as any, message)).serialized;
      const data = (signature: string) => TOKEN.encodeFunctionData(twa, [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, signature]);
      const wrongSigner = await rpc(side.url, 'eth_call', [{ from: relayer, to: token, data: data(signed(Wallet.createRandom())) }, 'latest']).catch((e) => e.message);
      const estimate = await rpc(side.url, 'eth_estimateGas', [{ from: relayer, to: token, data: data(signed(walletOwner)) }]);
      const receipt = await send(side, { from: relayer, to: token, data: data(signed(walletOwner)), gas: hex(300_000) });
      const tx = executed(receipt);
      const balance = await rpc(side.url, 'eth_call', [{ to: token, data: TOKEN.encodeFunctionData('balanceOf', [at]) }, 'latest']);
      // The token's native path declines (the signer is a contract): the trace is the bytecode's, as on Anvil.
      const trace = await rpc(side.url, 'debug_traceTransaction', [receipt.transactionHash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
      return { wrongSigner, estimate, tx, balance, trace };
    });
    assert.match(String(mock.wrongSigner), /FiatTokenV2: invalid signature/);
    assert.equal(mock.tx.status, '0x1');
    assert.equal(mock.trace.calls[0].type, 'DELEGATECALL');
    assert.equal(BigInt(mock.balance), 2_000_000n);
    assert.deepEqual(mock, anvil);
  });

  it('viem multicall with deployless: true reads three token balances, as on Anvil', async () => {
    const who = [1, 2, 3].map((i) => pair.node.accounts[i].address as Address);
    const { mock, anvil } = await onBoth(async (side) => {
      const client = createPublicClient({ transport: http(side.url) });
      const results = await client.multicall({
        contracts: who.map((account) => ({ address: pair.node.tokenAddress as Address, abi: erc20Abi, functionName: 'balanceOf', args: [account] }) as const),
        deployless: true,
      });
      return results.map((r) => ({ status: r.status, result: r.status === 'success' ? String(r.result) : '' }));
    });
    assert.deepEqual(mock.map((r) => r.status), ['success', 'success', 'success']);
    assert.equal(mock[0].result, String(10_000_000_000n));
    assert.deepEqual(mock, anvil);
  });

  it('FiatTokenV2_2 deployed from Circle\'s artifacts behind its proxy: a transfer costs what it costs on Anvil', async () => {
    const library = artifact('util/SignatureChecker.sol/SignatureChecker.json');
    const implementation = artifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json');
    const proxy = artifact('v1/FiatTokenProxy.sol/FiatTokenProxy.json');
    const [admin, owner, holder, other] = [0, 1, 2, 3].map((i) => pair.node.accounts[i].address);
    const { mock, anvil } = await onBoth(async (side) => {
      const libraryAt: string = (await send(side, { from: admin, data: library.bytecode, gas: hex(1_000_000) })).contractAddress;
      let code: string = implementation.bytecode.slice(2);
      for (const ref of Object.values(implementation.linkReferences as Record<string, Record<string, { start: number; length: number }[]>>).flatMap((r) => Object.values(r).flat())) {
        code = code.slice(0, ref.start * 2) + libraryAt.slice(2) + code.slice((ref.start + ref.length) * 2);
      }
      const implementationDeploy = await send(side, { from: admin, data: `0x${code}`, gas: hex(10_000_000) });
      const proxyDeploy = await send(side, { from: admin, data: proxy.bytecode + new Interface(proxy.abi).encodeDeploy([implementationDeploy.contractAddress]).slice(2), gas: hex(2_000_000) });
      const usdc = proxyDeploy.contractAddress;
      const call = (data: string) => send(side, { from: owner, to: usdc, data, gas: hex(1_000_000) });
      const steps = [
        await call(TOKEN.encodeFunctionData('initialize', ['USD Coin', 'USDC', 'USD', 6, owner, owner, owner, owner])),
        await call(TOKEN.encodeFunctionData('initializeV2', ['USD Coin'])),
        await call(TOKEN.encodeFunctionData('initializeV2_1', [owner])),
        await call(TOKEN.encodeFunctionData('initializeV2_2', [[], 'USDC'])),
        await call(TOKEN.encodeFunctionData('configureMinter', [owner, 10n ** 12n])),
        await call(TOKEN.encodeFunctionData('mint', [holder, 5_000_000n])),
      ].map(executed);
      const transfer = executed(await send(side, { from: holder, to: usdc, data: TOKEN.encodeFunctionData('transfer', [other, 1_234_567n]), gas: hex(200_000) }));
      const estimate = await rpc(side.url, 'eth_estimateGas', [{ from: holder, to: usdc, data: TOKEN.encodeFunctionData('transfer', [other, 1n]) }]);
      return {
        deploys: [implementationDeploy, proxyDeploy].map((r) => ({ status: r.status, gasUsed: r.gasUsed, contractAddress: r.contractAddress })),
        steps,
        transfer,
        estimate,
      };
    });
    assert.equal(mock.transfer.status, '0x1');
    assert.ok(mock.steps.every((s) => s.status === '0x1'));
    assert.deepEqual(mock, anvil);
  });
});
