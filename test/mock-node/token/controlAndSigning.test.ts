// The token's control methods (mock_mint, mock_setPaused, mock_setBlocked), the dev-account
// signing methods and the token options, against the running node over HTTP.
import { strict as assert } from 'node:assert';
import { Contract, JsonRpcProvider, Signature, TypedDataEncoder, Wallet, recoverAddress, verifyMessage, hexlify, toUtf8Bytes } from 'ethers';
import { createPublicClient, http, parseAbi, type Hex } from 'viem';
import type { RunningMockNode } from '../../../mock-node/index';
import { STABLE_TOKEN_ABI, TOKEN_SLOTS, TYPED_DATA_TYPES, balanceSlot, buildTypedData } from '../../../mock-node/tokenKit/index';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';

const abi = parseAbi(STABLE_TOKEN_ABI);
const word = (value: bigint) => '0x' + value.toString(16).padStart(64, '0');

describe('token control and signing methods @integration', function () {
  this.timeout(30_000);
  let node: RunningMockNode;
  let a1: string;
  let snapshot: string;
  const read = async <T>(functionName: string, args: unknown[] = [], blockTag: 'latest' | 'pending' = 'pending'): Promise<T> =>
    (await createPublicClient({ transport: http(node.url) }).readContract({ address: node.tokenAddress as Hex, abi, functionName: functionName as any, args: args as any, blockTag })) as T;
  const slot = async (s: bigint, tag = 'pending') => rpc(node.url, 'eth_getStorageAt', [node.tokenAddress, '0x' + s.toString(16), tag]);

  before(async () => {
    node = await startTestNode();
    a1 = node.accounts[1].address;
  });
  after(async () => node?.stop());
  beforeEach(async () => {
    snapshot = await rpc(node.url, 'evm_snapshot');
  });
  afterEach(async () => {
    await rpc(node.url, 'evm_revert', [snapshot]);
  });

  it('genesis: every dev account holds the default balance; totalSupply in slot 11; storage answers at every tag', async () => {
    for (const account of node.accounts) assert.equal(await read('balanceOf', [account.address], 'latest'), 10_000_000_000n);
    assert.equal(await slot(TOKEN_SLOTS.totalSupply, 'earliest'), word(10_000_000_000n * BigInt(node.accounts.length)));
    assert.equal(await slot(TOKEN_SLOTS.owner, 'latest'), word(BigInt(node.accounts[0].address)));
    assert.equal(await slot(TOKEN_SLOTS.decimals, 'latest'), word(6n));
    assert.equal(await slot(TOKEN_SLOTS.name, 'latest'), '0x55534420436f696e000000000000000000000000000000000000000000000010');
  });

  it('mock_mint raises the balance and the supply at latest and pending at once, in base units', async () => {
    const supply = await read<bigint>('totalSupply');
    assert.equal(await rpc(node.url, 'mock_mint', [a1, '0xf4240']), true);
    assert.equal(await rpc(node.url, 'mock_mint', [a1, 2_000_000]), true);
    assert.equal(await read('balanceOf', [a1]), 10_003_000_000n);
    assert.equal(await read('totalSupply'), supply + 3_000_000n);
    assert.equal(await slot(balanceSlot(a1.toLowerCase())), word(10_003_000_000n));
    assert.equal(await read('balanceOf', [a1], 'latest'), 10_003_000_000n, 'the current state: latest sees it without a block');
    const head = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
    assert.equal(await slot(balanceSlot(a1.toLowerCase()), head.number), word(10_003_000_000n));
    await rpc(node.url, 'evm_mine');
    assert.equal(await read('balanceOf', [a1], 'latest'), 10_003_000_000n);
    const bad = await rpcError(node.url, 'mock_mint', [a1, '-5']);
    assert.equal(bad.code, -32602);
    const pendingBefore = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
    const tooMuch = await rpcError(node.url, 'mock_mint', [a1, '0x' + 'f'.repeat(64)]);
    assert.equal(tooMuch.code, -32602);
    assert.match(tooMuch.message, /2\^255/);
    assert.equal(await read('balanceOf', [a1]), 10_003_000_000n);
    assert.equal((await rpc(node.url, 'eth_getBlockByNumber', ['pending', false])).stateRoot, pendingBefore.stateRoot);
  });

  it('mock_setBlocked keeps the balance and sets bit 255; mock_mint keeps the flag', async () => {
    await rpc(node.url, 'mock_setBlocked', [a1, true]);
    await rpc(node.url, 'mock_mint', [a1, 5]);
    assert.equal(await slot(balanceSlot(a1.toLowerCase())), word((1n << 255n) + 10_000_000_005n));
    assert.equal(await read('isBlacklisted', [a1]), true);
    assert.equal(await read('balanceOf', [a1]), 10_000_000_005n);
    await rpc(node.url, 'mock_setBlocked', [a1, false]);
    assert.equal(await slot(balanceSlot(a1.toLowerCase())), word(10_000_000_005n));
  });

  it('mock_setPaused toggles byte 20 of slot 1 next to the pauser', async () => {
    await rpc(node.url, 'mock_setPaused', [true]);
    assert.equal(await slot(TOKEN_SLOTS.pauserAndPaused), word(BigInt(node.accounts[0].address) | (1n << 160n)));
    await rpc(node.url, 'mock_setPaused', [false]);
    assert.equal(await read('paused'), false);
    assert.equal((await rpcError(node.url, 'mock_setPaused', ['yes'])).code, -32602);
  });

  it('personal_sign and eth_sign produce EIP-191 signatures of the dev account (r‖s‖v, v 27/28)', async () => {
    const text = 'capture order 1234';
    const hex = hexlify(toUtf8Bytes(text));
    const personal = await rpc(node.url, 'personal_sign', [hex, a1]);
    assert.equal(verifyMessage(text, personal), a1);
    assert.ok([27, 28].includes(Signature.from(personal).v));
    assert.equal(await rpc(node.url, 'eth_sign', [a1, hex]), personal);
    const error = await rpcError(node.url, 'personal_sign', [hex, '0x' + '22'.repeat(20)]);
    assert.equal(error.code, -32000);
    assert.match(error.message, /unknown account/);
  });

  it('eth_signTypedData_v4 matches a local EIP-712 signature and rejects malformed payloads', async () => {
    const domain = { name: 'USD Coin', version: '2', chainId: node.chainId, verifyingContract: node.tokenAddress };
    const message = { authorizer: a1, nonce: '0x' + 'ab'.repeat(32) };
    const signature = await rpc(node.url, 'eth_signTypedData_v4', [
      a1,
      { types: TYPED_DATA_TYPES.CancelAuthorization, primaryType: 'CancelAuthorization', domain: { ...domain, chainId: Number(node.chainId) }, message },
    ]);
    const digest = TypedDataEncoder.hash(domain, TYPED_DATA_TYPES.CancelAuthorization as any, message);
    assert.ok([27, 28].includes(Signature.from(signature).v));
    assert.equal(recoverAddress(digest, signature), a1);
    assert.equal((await rpcError(node.url, 'eth_signTypedData_v4', [a1, '{not json'])).code, -32602);
    assert.equal((await rpcError(node.url, 'eth_signTypedData_v4', [a1, { types: {}, primaryType: 'X', domain: {}, message: {} }])).code, -32602);
  });
  it('ethers JsonRpcSigner: signTypedData, signMessage and a token transfer through eth_sendTransaction', async () => {
    const provider = new JsonRpcProvider(node.url, Number(node.chainId), { staticNetwork: true, cacheTimeout: -1 });
    try {
      const signer = await provider.getSigner(a1);
      const local = new Wallet(node.accounts[1].privateKey);
      const domain = { name: 'USD Coin', version: '2', chainId: node.chainId, verifyingContract: node.tokenAddress };
      const message = { owner: a1, spender: node.accounts[2].address, value: 5n, nonce: 0n, deadline: 2n ** 256n - 1n };
      assert.equal(await signer.signTypedData(domain, TYPED_DATA_TYPES.Permit as any, message), await local.signTypedData(domain, TYPED_DATA_TYPES.Permit as any, message));
      assert.equal(await signer.signMessage('hello'), await local.signMessage('hello'));
      const token = new Contract(node.tokenAddress, STABLE_TOKEN_ABI as unknown as string[], signer);
      const tx = await token.transfer(node.accounts[3].address, 7n);
      await rpc(node.url, 'mock_flashblock');
      assert.equal((await provider.getTransactionReceipt(tx.hash))?.status, 1);
      assert.equal(await token.balanceOf(node.accounts[3].address, { blockTag: 'pending' }), 10_000_000_007n);
    } finally {
      provider.destroy();
    }
  });

  it('buildTypedData gives a JSON payload the node signs exactly as a local EIP-712 signer', async () => {
    const domain = { name: 'USD Coin', version: '2', chainId: node.chainId, verifyingContract: node.tokenAddress };
    const message = { from: a1, to: node.accounts[2].address, value: 1_000_000n, validAfter: 0, validBefore: '1900000000', nonce: '0x' + '01'.repeat(32) };
    const payload = buildTypedData('ReceiveWithAuthorization', domain, message);
    assert.deepEqual(Object.keys(payload.types), ['EIP712Domain', 'ReceiveWithAuthorization']);
    assert.equal(payload.message.value, '1000000');
    const remote = await rpc(node.url, 'eth_signTypedData_v4', [a1, JSON.stringify(payload)]);
    const local = await new Wallet(node.accounts[1].privateKey).signTypedData(domain, TYPED_DATA_TYPES.ReceiveWithAuthorization as any, message);
    assert.equal(remote, local);
    assert.throws(() => buildTypedData('CancelAuthorization', domain, { authorizer: a1 }), /needs nonce/);
    assert.throws(() => buildTypedData('CancelAuthorization', domain, { authorizer: a1, nonce: '0x00', extra: 1 }), /no field extra/);
  });
});

describe('token options @integration', function () {
  this.timeout(30_000);
  it('address, name, version and starting balance are configurable', async () => {
    const address = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
    const node = await startTestNode({ chainId: 8453, accounts: 3, token: { address, name: 'USDC', version: '2', balance: 5n } });
    try {
      assert.equal(node.tokenAddress.toLowerCase(), address);
      const client = createPublicClient({ transport: http(node.url) });
      const call = (functionName: string, args: unknown[] = []) => client.readContract({ address: address as Hex, abi, functionName: functionName as any, args: args as any });
      assert.equal(await call('name'), 'USDC');
      assert.equal(await call('balanceOf', [node.accounts[2].address]), 5n);
      assert.equal(await call('totalSupply'), 15n);
      assert.notEqual(await rpc(node.url, 'eth_getCode', [address, 'latest']), '0x');
    } finally {
      await node.stop();
    }
  });

  it('DOMAIN_SEPARATOR on chain 8453 at USDC\'s Base address is Base USDC\'s', async () => {
    const node = await startTestNode({ chainId: 8453, token: { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' } });
    try {
      const separator = await createPublicClient({ transport: http(node.url) }).readContract({ address: node.tokenAddress as Hex, abi, functionName: 'DOMAIN_SEPARATOR' });
      assert.equal(separator, '0x02fa7265e7c5d81118673727957699e4d68f74cd74b7db77da710fe8a2c7834f');
    } finally {
      await node.stop();
    }
  });
});
