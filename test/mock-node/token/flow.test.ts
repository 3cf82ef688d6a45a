// The seed's deferred-payment flow and every row of its state table, against the running node
// over HTTP, with viem and ethers as clients. Manual mode: transactions execute when the test
// cuts a flashblock (mock_flashblock) or mines (evm_mine); every test runs inside an
// evm_snapshot / evm_revert pair so each starts from genesis balances.
import { strict as assert } from 'node:assert';
import { Contract, JsonRpcProvider, Wallet, Signature as EthersSignature } from 'ethers';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  http,
  parseAbi,
  recoverTypedDataAddress,
  toHex,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { RunningMockNode } from '../../../mock-node/index';
import { encodeRevertReason } from '../../../mock-node/execution/execute';
import {
  EIP712_DOMAIN_TYPE,
  EVENT_TOPICS,
  STABLE_TOKEN_ABI,
  TYPED_DATA_TYPES,
  TYPEHASHES,
  authorizationStateSlot,
  balanceSlot,
  tokenDomainSeparator,
} from '../../../mock-node/tokenKit/index';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';

const abi = parseAbi(STABLE_TOKEN_ABI);
const START_BALANCE = 10_000_000_000n;
const FAIL_GAS = 200_000n;
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

type AuthorizationMessage = {
  from: Hex;
  to: Hex;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
};

describe('token over HTTP: the deferred-payment flow @integration', function () {
  this.timeout(30_000);
  let node: RunningMockNode;
  let pub: PublicClient;
  let token: Hex;
  let ownerKey: PrivateKeyAccount;
  let payer: PrivateKeyAccount;
  let merchant: PrivateKeyAccount;
  let stranger: PrivateKeyAccount;
  let snapshot: string;
  let chain: ReturnType<typeof defineChain>;

  before(async () => {
    node = await startTestNode();
    chain = defineChain({
      id: Number(node.chainId),
      name: 'mock',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [node.url] } },
    });
    pub = createPublicClient({ chain, transport: http(node.url) }) as PublicClient;
    token = node.tokenAddress as Hex;
    [ownerKey, payer, merchant, stranger] = node.accounts.slice(0, 4).map((a) => privateKeyToAccount(a.privateKey as Hex));
  });
  after(async () => node?.stop());
  beforeEach(async () => {
    snapshot = await rpc(node.url, 'evm_snapshot');
  });
  afterEach(async () => {
    assert.equal(await rpc(node.url, 'evm_revert', [snapshot]), true);
  });

  // ---- helpers ----

  // No request cache: tests read right after cutting a flashblock.
  const ethersProvider = () => new JsonRpcProvider(node.url, Number(node.chainId), { staticNetwork: true, cacheTimeout: -1 });

  const wallet = (account: PrivateKeyAccount) => createWalletClient({ chain, transport: http(node.url), account });
  /** writeContract with the parameters checked at run time (viem's generic types do not follow our overloads here). */
  const write = (account: PrivateKeyAccount, params: { address: Hex; abi: typeof abi; functionName: string; args?: readonly unknown[]; gas?: bigint }): Promise<Hex> =>
    wallet(account).writeContract({ chain, ...params } as any);

  async function pendingTimestamp(): Promise<bigint> {
    const block = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
    return BigInt(block.timestamp);
  }

  /** Fixes the timestamp the next transactions execute at (the pending block's). */
  async function fixNextTimestamp(): Promise<bigint> {
    const latest = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
    const t = BigInt(latest.timestamp) + 100n;
    await rpc(node.url, 'evm_setNextBlockTimestamp', [toHex(t)]);
    return t;
  }

  function freshNonce(): Hex {
    return toHex(crypto.getRandomValues(new Uint8Array(32)));
  }

  async function draft(overrides: Partial<AuthorizationMessage> = {}): Promise<AuthorizationMessage> {
    const now = await pendingTimestamp();
    return {
      from: payer.address,
      to: merchant.address,
      value: 25_000_000n,
      validAfter: now - 60n,
      validBefore: now + 900n,
      nonce: freshNonce(),
      ...overrides,
    };
  }

  const domain = () => ({ name: 'USD Coin', version: '2', chainId: Number(node.chainId), verifyingContract: token });

  /** The payer signs through the node (eth_signTypedData_v4), as the seed's wallet does. */
  async function signOnNode(
    message: AuthorizationMessage,
    primaryType: 'ReceiveWithAuthorization' | 'TransferWithAuthorization' = 'ReceiveWithAuthorization',
  ): Promise<Hex> {
    const client = createWalletClient({ chain, transport: http(node.url), account: message.from });
    return client.signTypedData({
      account: message.from,
      domain: domain(),
      types: TYPED_DATA_TYPES[primaryType] as any,
      primaryType,
      message: message as any,
    });
  }

  async function signCancel(authorizer: Hex, nonce: Hex): Promise<Hex> {
    const client = createWalletClient({ chain, transport: http(node.url), account: authorizer });
    return client.signTypedData({
      account: authorizer,
      domain: domain(),
      types: TYPED_DATA_TYPES.CancelAuthorization as any,
      primaryType: 'CancelAuthorization',
      message: { authorizer, nonce },
    });
  }

  const args = (m: AuthorizationMessage) => [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce] as const;

  async function receipt(hash: Hex): Promise<TransactionReceipt> {
    await rpc(node.url, 'mock_flashblock');
    return pub.getTransactionReceipt({ hash });
  }

  async function capture(message: AuthorizationMessage, signature: Hex, by = merchant): Promise<TransactionReceipt> {
    const hash = await write(by, {
      address: token,
      abi,
      functionName: 'receiveWithAuthorization',
      args: [...args(message), signature],
      gas: FAIL_GAS,
    });
    return receipt(hash);
  }

  async function read<T>(functionName: string, fnArgs: unknown[] = [], blockTag: 'pending' | 'latest' = 'pending'): Promise<T> {
    return (await pub.readContract({ address: token, abi, functionName: functionName as any, args: fnArgs as any, blockTag })) as T;
  }

  async function storageAt(slot: bigint, tag = 'pending'): Promise<bigint> {
    return BigInt(await rpc(node.url, 'eth_getStorageAt', [token, toHex(slot), tag]));
  }

  /** balanceOf and authorizationState agree with the raw storage slots, and have the expected values. */
  async function expectTokenState(balances: [Hex, bigint][], authorizations: [Hex, Hex, boolean][] = []): Promise<void> {
    for (const [account, expected] of balances) {
      assert.equal(await read<bigint>('balanceOf', [account]), expected, `balanceOf ${account}`);
      const raw = await storageAt(balanceSlot(account.toLowerCase()));
      assert.equal(raw & ((1n << 255n) - 1n), expected, `balance slot of ${account}`);
    }
    for (const [authorizer, nonce, used] of authorizations) {
      assert.equal(await read<boolean>('authorizationState', [authorizer, nonce]), used, 'authorizationState');
      assert.equal(await storageAt(authorizationStateSlot(authorizer.toLowerCase(), nonce)), used ? 1n : 0n, 'authorization slot');
    }
  }

  /**
   * A capture that must fail: mined with status 0x0, the reason from eth_call at the same state
   * (code 3, Error(string) data; viem and ethers decode it), balances and authorizationState
   * unchanged, the sender charged only its nonce and gas.
   */
  async function expectCaptureFails(message: AuthorizationMessage, signature: Hex, reason: string, by = merchant): Promise<void> {
    const callData = encodeFunctionData({ abi, functionName: 'receiveWithAuthorization', args: [...args(message), signature] });
    const error = await rpcError(node.url, 'eth_call', [{ from: by.address, to: token, data: callData }, 'pending']);
    assert.equal(error.code, 3);
    assert.equal(error.message, `execution reverted: ${reason}`);
    // Error(string) with the reason; its padding is FiatTokenV2_2's (see test/mock-node/evm/tokenPaths.test.ts).
    assert.equal((error.data as string).slice(0, 138 + 2 * Buffer.byteLength(reason)), encodeRevertReason(reason).slice(0, 138 + 2 * Buffer.byteLength(reason)));
    assert.equal((error.data as string).length, encodeRevertReason(reason).length);

    const balancesBefore = await Promise.all([message.from, message.to, by.address].map((a) => read<bigint>('balanceOf', [a])));
    const ethBefore = await pub.getBalance({ address: by.address, blockTag: 'pending' });
    const nonceBefore = await pub.getTransactionCount({ address: by.address, blockTag: 'pending' });
    const mined = await capture(message, signature, by);
    assert.equal(mined.status, 'reverted');
    assert.equal((mined as any).logs.length, 0);
    assert.equal(await pub.getTransactionCount({ address: by.address, blockTag: 'pending' }), nonceBefore + 1);
    const ethAfter = await pub.getBalance({ address: by.address, blockTag: 'pending' });
    assert.equal(ethBefore - ethAfter, mined.gasUsed * mined.effectiveGasPrice, 'only gas is charged');
    await expectTokenState(
      [message.from, message.to, by.address].map((a, i) => [a, balancesBefore[i]] as [Hex, bigint]),
      [[message.from, message.nonce, await read<boolean>('authorizationState', [message.from, message.nonce])]],
    );
    // The same call at the state the transaction ran in still gives the same reason (viem's view of it).
    await assert.rejects(
      pub.simulateContract({ address: token, abi, functionName: 'receiveWithAuthorization', args: [...args(message), signature], account: by.address, blockTag: 'pending' } as any),
      (e: any) => {
        const text = `${e.shortMessage ?? ''} ${e.message ?? ''}`;
        assert.ok(text.includes(reason), text);
        return true;
      },
    );
  }

  // ---- the flow ----

  it('reads name, version, decimals and the EIP-712 constants (viem and ethers)', async () => {
    assert.equal(await read('name'), 'USD Coin');
    assert.equal(await read('version'), '2');
    assert.equal(await read('symbol'), 'USDC');
    assert.equal(await read('decimals'), 6);
    assert.equal(
      await read('DOMAIN_SEPARATOR'),
      tokenDomainSeparator({ name: 'USD Coin', version: '2', chainId: node.chainId, verifyingContract: token }),
    );
    assert.equal(await read('RECEIVE_WITH_AUTHORIZATION_TYPEHASH'), TYPEHASHES.ReceiveWithAuthorization);
    assert.equal(await read('TRANSFER_WITH_AUTHORIZATION_TYPEHASH'), TYPEHASHES.TransferWithAuthorization);
    const provider = ethersProvider();
    const contract = new Contract(token, STABLE_TOKEN_ABI as unknown as string[], provider);
    assert.equal(await contract.name(), 'USD Coin');
    assert.equal(await contract.version(), '2');
    assert.equal(await contract.balanceOf(payer.address), START_BALANCE);
    assert.notEqual(await provider.getCode(token), '0x');
    provider.destroy();
  });

  it('signing changes nothing onchain', async () => {
    const before = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
    const message = await draft();
    const signature = await signOnNode(message);
    assert.equal(
      await recoverTypedDataAddress({ domain: domain(), types: TYPED_DATA_TYPES.ReceiveWithAuthorization as any, primaryType: 'ReceiveWithAuthorization', message: message as any, signature }),
      payer.address,
    );
    const after = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
    assert.equal(after.number, before.number);
    assert.equal(after.transactions.length, before.transactions.length);
    assert.equal(await pub.getTransactionCount({ address: payer.address, blockTag: 'pending' }), 0);
    await expectTokenState([[payer.address, START_BALANCE], [merchant.address, START_BALANCE]], [[payer.address, message.nonce, false]]);
  });

  it('capture by the payee inside the window: AuthorizationUsed then Transfer, pre-confirmed then sealed, found by eth_getLogs', async () => {
    const message = await draft();
    const signature = await signOnNode(message);
    const mined = await capture(message, signature);
    assert.equal(mined.status, 'success');
    assert.deepEqual(
      mined.logs.map((l) => l.topics[0]),
      [EVENT_TOPICS.AuthorizationUsed, EVENT_TOPICS.Transfer],
    );
    assert.ok(mined.gasUsed >= 80_000n && mined.gasUsed <= 90_000n, `capture used ${mined.gasUsed} gas (USDC: about 85,800)`);
    // Pre-confirmed: pending shows it, latest does not yet.
    await expectTokenState(
      [[payer.address, START_BALANCE - message.value], [merchant.address, START_BALANCE + message.value]],
      [[payer.address, message.nonce, true]],
    );
    assert.equal(await read('authorizationState', [payer.address, message.nonce], 'latest'), false);
    assert.equal(await storageAt(authorizationStateSlot(payer.address.toLowerCase(), message.nonce), 'latest'), 0n);

    await rpc(node.url, 'evm_mine');
    assert.equal(await read('authorizationState', [payer.address, message.nonce], 'latest'), true);
    const used = await pub.getContractEvents({ address: token, abi, eventName: 'AuthorizationUsed', fromBlock: 0n, toBlock: 'latest' });
    assert.equal(used.length, 1);
    assert.equal((used[0].args as any).authorizer, payer.address);
    assert.equal((used[0].args as any).nonce, message.nonce);
    const transfers = await pub.getContractEvents({ address: token, abi, eventName: 'Transfer', args: { from: payer.address }, fromBlock: 0n });
    assert.equal(transfers.length, 1);
    assert.equal((transfers[0].args as any).value, message.value);
    assert.equal(transfers[0].logIndex, used[0].logIndex + 1);
  });

  it('wrong caller', async () => {
    const message = await draft();
    await expectCaptureFails(message, await signOnNode(message), 'FiatTokenV2: caller must be the payee', stranger);
  });

  it('too early, then valid once time passes validAfter', async () => {
    const now = await pendingTimestamp();
    const message = await draft({ validAfter: now + 600n, validBefore: now + 3600n });
    const signature = await signOnNode(message);
    await expectCaptureFails(message, signature, 'FiatTokenV2: authorization is not yet valid');
    await rpc(node.url, 'evm_increaseTime', [700]);
    await rpc(node.url, 'evm_mine');
    assert.equal((await capture(message, signature)).status, 'success');
  });

  it('the window is strict at both ends (block.timestamp == validAfter or == validBefore fails)', async () => {
    const t = await fixNextTimestamp();
    const early = await draft({ validAfter: t, validBefore: t + 600n });
    await expectCaptureFails(early, await signOnNode(early), 'FiatTokenV2: authorization is not yet valid');
    const late = await draft({ validAfter: t - 600n, validBefore: t });
    await expectCaptureFails(late, await signOnNode(late), 'FiatTokenV2: authorization is expired');
    const inside = await draft({ validAfter: t - 1n, validBefore: t + 1n });
    assert.equal((await capture(inside, await signOnNode(inside))).status, 'success');
    const block = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
    assert.equal(BigInt(block.timestamp), t);
  });

  it('expired (time moved with evm_increaseTime)', async () => {
    const now = await pendingTimestamp();
    const message = await draft({ validBefore: now + 60n });
    const signature = await signOnNode(message);
    await rpc(node.url, 'evm_increaseTime', [3600]);
    await rpc(node.url, 'evm_mine');
    await expectCaptureFails(message, signature, 'FiatTokenV2: authorization is expired');
  });

  it('used: a second capture of the same nonce', async () => {
    const message = await draft();
    const signature = await signOnNode(message);
    assert.equal((await capture(message, signature)).status, 'success');
    await expectCaptureFails(message, signature, 'FiatTokenV2: authorization is used or canceled');
  });

  it('canceled (payer signs, merchant relays) then captured', async () => {
    const message = await draft();
    const signature = await signOnNode(message);
    const cancelSignature = await signCancel(payer.address, message.nonce);
    const hash = await write(merchant, { address: token, abi, functionName: 'cancelAuthorization', args: [payer.address, message.nonce, cancelSignature] });
    const canceled = await receipt(hash);
    assert.equal(canceled.status, 'success');
    assert.deepEqual(canceled.logs.map((l) => l.topics), [
      [EVENT_TOPICS.AuthorizationCanceled, `0x${payer.address.slice(2).toLowerCase().padStart(64, '0')}`, message.nonce],
    ]);
    await expectTokenState([[payer.address, START_BALANCE]], [[payer.address, message.nonce, true]]);
    await expectCaptureFails(message, signature, 'FiatTokenV2: authorization is used or canceled');
  });

  it('payer moved the funds', async () => {
    const message = await draft();
    const signature = await signOnNode(message);
    const provider = ethersProvider();
    const payerToken = new Contract(token, STABLE_TOKEN_ABI as unknown as string[], new Wallet(node.accounts[1].privateKey, provider));
    const tx = await payerToken.transfer(stranger.address, START_BALANCE - 1_000n);
    await rpc(node.url, 'mock_flashblock');
    assert.equal((await provider.getTransactionReceipt(tx.hash))?.status, 1);
    provider.destroy();
    await expectCaptureFails(message, signature, 'ERC20: transfer amount exceeds balance');
  });

  it('paused (mock_setPaused, and the pauser\'s own pause transaction)', async () => {
    const message = await draft();
    const signature = await signOnNode(message);
    assert.equal(await rpc(node.url, 'mock_setPaused', [true]), true);
    assert.equal(await read('paused'), true);
    assert.equal((await storageAt(1n)) >> 160n, 1n, 'paused is byte 20 of slot 1');
    await expectCaptureFails(message, signature, 'Pausable: paused');
    await rpc(node.url, 'mock_setPaused', [false]);
    const paused = await receipt(await write(ownerKey, { address: token, abi, functionName: 'pause' }));
    assert.deepEqual(paused.logs.map((l) => l.topics[0]), [EVENT_TOPICS.Pause]);
    await expectCaptureFails(message, signature, 'Pausable: paused');
  });

  it('payer or payee blocklisted (bit 255 of the balance slot)', async () => {
    const message = await draft();
    const signature = await signOnNode(message);
    await rpc(node.url, 'mock_setBlocked', [payer.address, true]);
    assert.equal(await storageAt(balanceSlot(payer.address.toLowerCase())), (1n << 255n) + START_BALANCE);
    assert.equal(await read('isBlacklisted', [payer.address]), true);
    await expectCaptureFails(message, signature, 'Blacklistable: account is blacklisted');
    await rpc(node.url, 'mock_setBlocked', [payer.address, false]);
    const blocked = await receipt(await write(ownerKey, { address: token, abi, functionName: 'blacklist', args: [merchant.address] }));
    assert.deepEqual(blocked.logs.map((l) => l.topics[0]), [EVENT_TOPICS.Blacklisted]);
    await expectCaptureFails(message, signature, 'Blacklistable: account is blacklisted');
  });

  it('a TransferWithAuthorization signature sent to receiveWithAuthorization (the seed\'s envelope) is invalid', async () => {
    const message = await draft();
    const transferSignature = await signOnNode(message, 'TransferWithAuthorization');
    await expectCaptureFails(message, transferSignature, 'FiatTokenV2: invalid signature');
    // The same signature is good on the route it was made for, relayed by anyone (ethers, bytes form).
    const provider = ethersProvider();
    const relayer = new Contract(token, STABLE_TOKEN_ABI as unknown as string[], new Wallet(node.accounts[3].privateKey, provider));
    const tx = await relayer['transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)'](...args(message), transferSignature);
    await rpc(node.url, 'mock_flashblock');
    const mined = await provider.getTransactionReceipt(tx.hash);
    assert.equal(mined?.status, 1);
    assert.deepEqual(mined?.logs.map((l) => l.topics[0]), [EVENT_TOPICS.AuthorizationUsed, EVENT_TOPICS.Transfer]);
    provider.destroy();
    await expectTokenState([[payer.address, START_BALANCE - message.value], [merchant.address, START_BALANCE + message.value]], [[payer.address, message.nonce, true]]);
  });

  it('high-s and v = 0/1 signatures are refused, in the bytes and the v,r,s forms', async () => {
    const message = await draft();
    const sig = EthersSignature.from(await signOnNode(message));
    const flippedV = sig.v === 27 ? 28 : 27;
    const highS = toHex(SECP256K1_N - BigInt(sig.s), { size: 32 });
    const highSig = `${sig.r}${highS.slice(2)}${flippedV.toString(16)}` as Hex;
    await expectCaptureFails(message, highSig, "ECRecover: invalid signature 's' value");
    const zeroOneV = `${sig.r}${sig.s.slice(2)}${(sig.v - 27).toString(16).padStart(2, '0')}` as Hex;
    await expectCaptureFails(message, zeroOneV, "ECRecover: invalid signature 'v' value");
    // v,r,s overload
    for (const [v, s, reason] of [
      [sig.v - 27, sig.s, "ECRecover: invalid signature 'v' value"],
      [flippedV, highS, "ECRecover: invalid signature 's' value"],
    ] as const) {
      const data = encodeFunctionData({ abi, functionName: 'receiveWithAuthorization', args: [...args(message), v, sig.r as Hex, s as Hex] });
      const error = await rpcError(node.url, 'eth_call', [{ from: merchant.address, to: token, data }, 'pending']);
      assert.equal(error.message, `execution reverted: ${reason}`);
      const hash = await wallet(merchant).sendTransaction({ chain, to: token, data, gas: FAIL_GAS } as any);
      assert.equal((await receipt(hash)).status, 'reverted');
    }
    // The untouched signature in the v,r,s form succeeds.
    const ok = await write(merchant, { address: token, abi, functionName: 'receiveWithAuthorization', args: [...args(message), sig.v, sig.r as Hex, sig.s as Hex] });
    assert.equal((await receipt(ok)).status, 'success');
  });

  it('bytes overloads of transferWithAuthorization and cancelAuthorization; v,r,s cancel', async () => {
    const message = await draft({ to: stranger.address });
    const signature = await signOnNode(message, 'TransferWithAuthorization');
    const hash = await write(merchant, { address: token, abi, functionName: 'transferWithAuthorization', args: [...args(message), signature] });
    assert.equal((await receipt(hash)).status, 'success');
    await expectTokenState([[stranger.address, START_BALANCE + message.value]], [[payer.address, message.nonce, true]]);

    const nonce = freshNonce();
    const cancel = EthersSignature.from(await signCancel(payer.address, nonce));
    const vrsHash = await write(stranger, { address: token, abi, functionName: 'cancelAuthorization', args: [payer.address, nonce, cancel.v, cancel.r as Hex, cancel.s as Hex] });
    assert.equal((await receipt(vrsHash)).status, 'success');
    await expectTokenState([], [[payer.address, nonce, true]]);
  });

  it('permit (EIP-2612, ethers signer) then transferFrom', async () => {
    const provider = ethersProvider();
    const payerWallet = new Wallet(node.accounts[1].privateKey, provider);
    const now = await pendingTimestamp();
    const value = 3_000_000n;
    const signature = await payerWallet.signTypedData(
      { ...domain(), chainId: node.chainId },
      TYPED_DATA_TYPES.Permit as any,
      { owner: payer.address, spender: merchant.address, value, nonce: 0n, deadline: now + 600n },
    );
    const merchantToken = new Contract(token, STABLE_TOKEN_ABI as unknown as string[], new Wallet(node.accounts[2].privateKey, provider));
    const permitTx = await merchantToken['permit(address,address,uint256,uint256,bytes)'](payer.address, merchant.address, value, now + 600n, signature);
    await rpc(node.url, 'mock_flashblock');
    assert.equal((await provider.getTransactionReceipt(permitTx.hash))?.status, 1);
    assert.equal(await merchantToken.nonces(payer.address, { blockTag: 'pending' }), 1n);
    assert.equal(await merchantToken.allowance(payer.address, merchant.address, { blockTag: 'pending' }), value);
    // ethers decodes the reason of a failing static call.
    await assert.rejects(merchantToken.transferFrom.staticCall(payer.address, merchant.address, value + 1n, { blockTag: 'pending' }), (e: any) => {
      assert.equal(e.reason, 'ERC20: transfer amount exceeds allowance');
      return true;
    });
    const pullTx = await merchantToken.transferFrom(payer.address, merchant.address, value);
    await rpc(node.url, 'mock_flashblock');
    assert.equal((await provider.getTransactionReceipt(pullTx.hash))?.status, 1);
    provider.destroy();
    await expectTokenState([[payer.address, START_BALANCE - value], [merchant.address, START_BALANCE + value]]);
  });

  it('memo transfer logs Transfer then Memo; eth_getLogs finds it by the memo topic', async () => {
    const memo = toHex('order-1234'.padEnd(32, '\0'));
    const hash = await write(payer, { address: token, abi, functionName: 'transferWithMemo', args: [merchant.address, 42n, memo] });
    const mined = await receipt(hash);
    assert.equal(mined.status, 'success');
    assert.deepEqual(mined.logs.map((l) => l.topics[0]), [EVENT_TOPICS.Transfer, EVENT_TOPICS.Memo]);
    const logs = await pub.getLogs({
      address: token,
      event: abi.find((item) => item.type === 'event' && item.name === 'Memo') as any,
      args: { memo } as any,
      fromBlock: 'pending',
      toBlock: 'pending',
    });
    assert.equal(logs.length, 1);
    assert.deepEqual(
      { from: (logs[0] as any).args.from, to: (logs[0] as any).args.to, value: (logs[0] as any).args.value, memo: (logs[0] as any).args.memo },
      { from: payer.address, to: merchant.address, value: 42n, memo },
    );
  });

  it('eth_estimateGas gives the least limit that succeeds, above what the transaction then uses', async () => {
    const message = await draft();
    const signature = await signOnNode(message);
    const estimate = await pub.estimateContractGas({ address: token, abi, functionName: 'receiveWithAuthorization', args: [...args(message), signature], account: merchant.address, blockTag: 'pending' } as any);
    const hash = await write(merchant, { address: token, abi, functionName: 'receiveWithAuthorization', args: [...args(message), signature] });
    const mined = await receipt(hash);
    assert.equal(mined.status, 'success');
    // The proxy keeps 1/64 of its gas back from the implementation (EIP-150), so the limit must be higher.
    assert.ok(mined.gasUsed < estimate && estimate - mined.gasUsed < 2_000n, `used ${mined.gasUsed}, estimate ${estimate}`);
    // A capture that would fail: eth_estimateGas answers the token's reason (code 3), which is
    // what a client sending without an explicit gas limit sees first.
    const estimateError = await rpcError(node.url, 'eth_estimateGas', [
      { from: merchant.address, to: token, data: encodeFunctionData({ abi, functionName: 'receiveWithAuthorization', args: [...args(message), signature] }) },
      'pending',
    ]);
    assert.equal(estimateError.code, 3);
    assert.equal(estimateError.message, 'execution reverted: FiatTokenV2: authorization is used or canceled');
    assert.equal(estimateError.data, encodeRevertReason('FiatTokenV2: authorization is used or canceled'));
    const transferEstimate = await pub.estimateContractGas({ address: token, abi, functionName: 'transfer', args: [stranger.address, 1n], account: payer.address } as any);
    assert.ok(transferEstimate >= 40_000n && transferEstimate <= 50_000n, `transfer estimate ${transferEstimate} (USDC: 45,276 to an existing holder)`);
  });

  it('an unknown selector reverts without data', async () => {
    const error = await rpcError(node.url, 'eth_call', [{ to: token, data: '0x12345678' }, 'latest']);
    assert.equal(error.code, 3);
    assert.equal(error.message, 'execution reverted');
  });

  it('eth_signTypedData_v4 payload with EIP712Domain as a JSON string; unknown signers are refused', async () => {
    const message = await draft();
    const payload = {
      types: { EIP712Domain: EIP712_DOMAIN_TYPE, ...TYPED_DATA_TYPES.ReceiveWithAuthorization },
      primaryType: 'ReceiveWithAuthorization',
      domain: domain(),
      message: { ...message, value: message.value.toString(), validAfter: Number(message.validAfter), validBefore: toHex(message.validBefore) },
    };
    const fromString = await rpc(node.url, 'eth_signTypedData_v4', [payer.address, JSON.stringify(payload)]);
    assert.equal(fromString, await signOnNode(message));
    const unknown = await rpcError(node.url, 'eth_signTypedData_v4', ['0x' + '11'.repeat(20), payload]);
    assert.equal(unknown.code, -32000);
    assert.match(unknown.message, /unknown account/);
  });
});
