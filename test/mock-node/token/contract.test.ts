// Unit tests of the token as a native contract, directly against an in-memory storage.
import { strict as assert } from 'node:assert';
import { Signature, concat, getAddress, id, keccak256, toBeHex, toUtf8Bytes } from 'ethers';
import {
  EVENT_TOPICS,
  SELECTORS,
  TOKEN_SLOTS,
  TYPEHASHES,
  TYPED_DATA_TYPES,
  allowanceSlot,
  authorizationStateSlot,
  balanceSlot,
  permitNonceSlot,
  tokenDomainSeparator,
} from '../../../mock-node/tokenKit/index';
import { stableTokenInterface, readString } from '../../../mock-node/execution/token/index';
import { intrinsicGas } from '../../../mock-node/execution/intrinsicGas';
import {
  TokenHarness,
  alice,
  authorizationArgs,
  bob,
  carol,
  owner,
  randomNonce,
  vrs,
  walletOf,
  type AuthorizationForTest,
} from './helpers';

const DEFAULT_BALANCE = 10_000_000_000n;
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const topicOf = (address: string) => '0x' + address.slice(2).toLowerCase().padStart(64, '0');

describe('token: constants and vectors', () => {
  it('typehashes are keccak256 of the EIP-712 type strings', () => {
    const fields = 'address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce';
    assert.equal(TYPEHASHES.TransferWithAuthorization, id(`TransferWithAuthorization(${fields})`));
    assert.equal(TYPEHASHES.ReceiveWithAuthorization, id(`ReceiveWithAuthorization(${fields})`));
    assert.equal(TYPEHASHES.CancelAuthorization, id('CancelAuthorization(address authorizer,bytes32 nonce)'));
    assert.equal(TYPEHASHES.Permit, id('Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)'));
    assert.equal(TYPEHASHES.TransferWithAuthorization, '0x7c7c6cdb67a18743f49ec6fa9b35f50d52ed05cbed4cc592e13b44501c1a2267');
    assert.equal(TYPEHASHES.ReceiveWithAuthorization, '0xd099cc98ef71107a616c4f0f941f04c322d8e254fe26b3c6668db87aae413de8');
  });

  it('event topics match FiatToken v2.2', () => {
    assert.equal(EVENT_TOPICS.Transfer, '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');
    // The well-known ERC-20 Approval topic (FACTS.md abbreviates it as 0x8c5be1e5…c925, a typo for …b925).
    assert.equal(EVENT_TOPICS.Approval, '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925');
    assert.ok(EVENT_TOPICS.AuthorizationUsed.startsWith('0x98de5035') && EVENT_TOPICS.AuthorizationUsed.endsWith('10a5'));
    assert.ok(EVENT_TOPICS.AuthorizationCanceled.startsWith('0x1cdd46ff') && EVENT_TOPICS.AuthorizationCanceled.endsWith('3d81'));
    assert.equal(EVENT_TOPICS.Memo, id('Memo(address,address,uint256,bytes32)'));
  });

  it('selectors of the ABI are USDC\'s', () => {
    const sel = (sig: string) => stableTokenInterface().getFunction(sig)!.selector;
    assert.equal(sel('transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)'), SELECTORS.transferWithAuthorization);
    assert.equal(sel('transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)'), SELECTORS.transferWithAuthorizationBytes);
    assert.equal(sel('receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)'), SELECTORS.receiveWithAuthorization);
    assert.equal(sel('receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)'), SELECTORS.receiveWithAuthorizationBytes);
    assert.equal(sel('cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)'), SELECTORS.cancelAuthorization);
    assert.equal(sel('cancelAuthorization(address,bytes32,bytes)'), SELECTORS.cancelAuthorizationBytes);
    assert.equal(sel('permit(address,address,uint256,uint256,uint8,bytes32,bytes32)'), SELECTORS.permit);
    assert.equal(sel('permit(address,address,uint256,uint256,bytes)'), SELECTORS.permitBytes);
    for (const name of ['authorizationState', 'nonces', 'DOMAIN_SEPARATOR', 'version', 'isBlacklisted', 'paused', 'mint', 'transferWithMemo'] as const) {
      assert.equal(sel(name), SELECTORS[name], name);
    }
  });

  it('DOMAIN_SEPARATOR of USDC on Base (known vector)', () => {
    const separator = tokenDomainSeparator({
      name: 'USD Coin',
      version: '2',
      chainId: 8453n,
      verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    });
    assert.equal(separator, '0x02fa7265e7c5d81118673727957699e4d68f74cd74b7db77da710fe8a2c7834f');
    const harness = new TokenHarness({ address: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' });
    harness.chainId = 8453n;
    assert.equal(harness.view('DOMAIN_SEPARATOR'), separator);
  });
});

describe('token: genesis storage (FiatToken v2.2 layout)', () => {
  const h = new TokenHarness();
  const get = (slot: bigint) => h.storage.get(slot);

  it('roles, packed flags and version', () => {
    assert.equal(get(TOKEN_SLOTS.owner), BigInt(owner));
    assert.equal(get(TOKEN_SLOTS.pauserAndPaused), BigInt(owner), 'pauser with paused = false');
    assert.equal(get(TOKEN_SLOTS.blacklister), BigInt(owner));
    assert.equal(get(TOKEN_SLOTS.masterMinterAndInitialized), BigInt(owner) | (1n << 160n), 'masterMinter with initialized = true');
    assert.equal(get(TOKEN_SLOTS.initializedVersion), 3n);
    assert.equal(get(TOKEN_SLOTS.decimals), 6n);
  });

  it('strings in Solidity\'s short encoding', () => {
    const expected = (s: string) => BigInt(concat([toUtf8Bytes(s), new Uint8Array(31 - s.length), new Uint8Array([s.length * 2])]));
    assert.equal(get(TOKEN_SLOTS.name), expected('USD Coin'));
    assert.equal(toBeHex(get(TOKEN_SLOTS.name), 32), '0x55534420436f696e000000000000000000000000000000000000000000000010');
    assert.equal(get(TOKEN_SLOTS.symbol), expected('USDC'));
    assert.equal(get(TOKEN_SLOTS.currency), expected('USD'));
  });

  it('a name of 32 bytes or more uses the long encoding', () => {
    const name = 'A very long token name that needs two slots';
    const long = new TokenHarness({ name });
    assert.equal(long.storage.get(TOKEN_SLOTS.name), BigInt(name.length * 2 + 1));
    const base = BigInt(keccak256(toBeHex(TOKEN_SLOTS.name, 32)));
    assert.equal(toBeHex(long.storage.get(base), 32), '0x' + Buffer.from(name.slice(0, 32)).toString('hex'));
    assert.equal(readString(long.storage, TOKEN_SLOTS.name), name);
    assert.equal(long.view('name'), name);
  });

  it('balances at keccak(pad(addr) ++ pad(9)) and totalSupply at slot 11', () => {
    const manual = BigInt(keccak256(concat([toBeHex(BigInt(alice), 32), toBeHex(9n, 32)])));
    assert.equal(balanceSlot(alice), manual);
    assert.equal(get(manual), DEFAULT_BALANCE);
    assert.equal(get(TOKEN_SLOTS.totalSupply), DEFAULT_BALANCE * 5n);
    assert.equal(h.view('totalSupply'), DEFAULT_BALANCE * 5n);
  });

  it('the token itself is blocklisted, as initializeV2_2 leaves it', () => {
    assert.equal(h.view('isBlacklisted', [h.token.address]), true);
    assert.equal(get(balanceSlot(h.token.address)), 1n << 255n);
  });

  it('the owner is a minter', () => {
    assert.equal(h.view('isMinter', [owner]), true);
    assert.equal(h.view('isMinter', [alice]), false);
  });
});

describe('token: reads', () => {
  const h = new TokenHarness();
  it('metadata', () => {
    assert.equal(h.view('name'), 'USD Coin');
    assert.equal(h.view('symbol'), 'USDC');
    assert.equal(h.view('decimals'), 6n);
    assert.equal(h.view('version'), '2');
    assert.equal(h.view('currency'), 'USD');
    assert.equal(h.view('paused'), false);
    assert.equal(h.view('owner'), getAddress(owner));
    assert.equal(h.view('TRANSFER_WITH_AUTHORIZATION_TYPEHASH'), TYPEHASHES.TransferWithAuthorization);
    assert.equal(h.view('RECEIVE_WITH_AUTHORIZATION_TYPEHASH'), TYPEHASHES.ReceiveWithAuthorization);
    assert.equal(h.view('CANCEL_AUTHORIZATION_TYPEHASH'), TYPEHASHES.CancelAuthorization);
    assert.equal(h.view('PERMIT_TYPEHASH'), TYPEHASHES.Permit);
  });

  it('an unknown selector, short calldata and ETH value revert with empty data', () => {
    for (const data of ['0xdeadbeef', '0x', '0x70a08231']) {
      const result = h.raw(alice, data);
      assert.equal(result.outcome.ok, false, data);
      assert.equal(result.outcome.ok ? '' : result.outcome.revertData, '0x');
    }
    const withValue = h.raw(alice, stableTokenInterface().encodeFunctionData('balanceOf', [alice]), 1n);
    assert.equal(withValue.outcome.ok, false);
  });
});

describe('token: ERC-20', () => {
  it('transfer moves the balance, logs Transfer, costs what USDC does', () => {
    const h = new TokenHarness();
    const result = h.send(alice, 'transfer', [bob, 1_500_000n]);
    assert.equal(result.outcome.ok, true);
    assert.equal(h.view('balanceOf', [alice]), DEFAULT_BALANCE - 1_500_000n);
    assert.equal(h.view('balanceOf', [bob]), DEFAULT_BALANCE + 1_500_000n);
    assert.equal(result.logs.length, 1);
    assert.deepEqual(result.logs[0].topics, [EVENT_TOPICS.Transfer, topicOf(alice), topicOf(bob)]);
    assert.equal(result.logs[0].data, toBeHex(1_500_000n, 32));
    // USDC: 45,059 with the same calldata (test/mock-node/token/gasAgainstUsdc.test.ts compares every path).
    assert.equal(result.totalGas, 45_047n);
    // To a fresh holder: a zero-to-non-zero store (20,000) instead of a reset (2,900), the same calldata length.
    const fresh = h.send(alice, 'transfer', ['0x' + '12'.repeat(20), 1_500_000n]);
    const calldata = (to: string) => intrinsicGas(stableTokenInterface().encodeFunctionData('transfer', [to, 1_500_000n]), null);
    assert.equal(fresh.totalGas - result.totalGas - (calldata('0x' + '12'.repeat(20)) - calldata(bob)), 17_100n);
  });

  it('transfer checks: paused, blocklisted sender or recipient, zero address, balance', () => {
    const h = new TokenHarness();
    assert.equal(h.send(alice, 'transfer', [bob, DEFAULT_BALANCE + 1n]).reason, 'ERC20: transfer amount exceeds balance');
    assert.equal(h.send(alice, 'transfer', ['0x' + '00'.repeat(20), 1n]).reason, 'ERC20: transfer to the zero address');
    h.send(owner, 'blacklist', [bob]);
    assert.equal(h.send(alice, 'transfer', [bob, 1n]).reason, 'Blacklistable: account is blacklisted');
    assert.equal(h.send(bob, 'transfer', [alice, 1n]).reason, 'Blacklistable: account is blacklisted');
    h.send(owner, 'pause');
    assert.equal(h.send(alice, 'transfer', [carol, 1n]).reason, 'Pausable: paused');
    assert.equal(h.view('balanceOf', [alice]), DEFAULT_BALANCE);
  });

  it('approve, allowance slot and transferFrom', () => {
    const h = new TokenHarness();
    const approval = h.send(alice, 'approve', [bob, 5_000_000n]);
    assert.equal(approval.outcome.ok, true);
    assert.deepEqual(approval.logs[0].topics, [EVENT_TOPICS.Approval, topicOf(alice), topicOf(bob)]);
    const slot = allowanceSlot(alice, bob);
    const inner = BigInt(keccak256(concat([toBeHex(BigInt(alice), 32), toBeHex(10n, 32)])));
    assert.equal(slot, BigInt(keccak256(concat([toBeHex(BigInt(bob), 32), toBeHex(inner, 32)]))));
    assert.equal(h.storage.get(slot), 5_000_000n);
    assert.equal(h.send(bob, 'transferFrom', [alice, carol, 5_000_001n]).reason, 'ERC20: transfer amount exceeds allowance');
    const moved = h.send(bob, 'transferFrom', [alice, carol, 2_000_000n]);
    assert.equal(moved.outcome.ok, true);
    assert.equal(moved.logs.length, 1, 'USDC logs no Approval on transferFrom');
    assert.equal(h.view('allowance', [alice, bob]), 3_000_000n);
    assert.equal(h.view('balanceOf', [carol]), DEFAULT_BALANCE + 2_000_000n);
  });

  it('transferWithMemo logs Transfer then Memo with the memo as topic 3', () => {
    const h = new TokenHarness();
    const memo = keccak256(toUtf8Bytes('order-42'));
    const result = h.send(alice, 'transferWithMemo', [bob, 7n, memo]);
    assert.equal(result.outcome.ok, true);
    assert.deepEqual(result.logs.map((l) => l.topics[0]), [EVENT_TOPICS.Transfer, EVENT_TOPICS.Memo]);
    assert.deepEqual(result.logs[1].topics, [EVENT_TOPICS.Memo, topicOf(alice), topicOf(bob), memo]);
    assert.equal(result.logs[1].data, toBeHex(7n, 32));
    h.send(owner, 'pause');
    assert.equal(h.send(alice, 'transferWithMemo', [bob, 7n, memo]).reason, 'Pausable: paused');
  });
});

describe('token: roles', () => {
  it('mint logs Mint then Transfer and grows the supply; others are refused', () => {
    const h = new TokenHarness();
    const result = h.send(owner, 'mint', [carol, 1_000n]);
    assert.equal(result.outcome.ok, true);
    assert.deepEqual(result.logs.map((l) => l.topics[0]), [EVENT_TOPICS.Mint, EVENT_TOPICS.Transfer]);
    assert.deepEqual(result.logs[1].topics, [EVENT_TOPICS.Transfer, topicOf('0x' + '00'.repeat(20)), topicOf(carol)]);
    assert.equal(h.view('totalSupply'), DEFAULT_BALANCE * 5n + 1_000n);
    assert.equal(h.send(alice, 'mint', [alice, 1n]).reason, 'FiatToken: caller is not a minter');
    assert.equal(h.send(owner, 'mint', [alice, 0n]).reason, 'FiatToken: mint amount not greater than 0');
  });

  it('pause / unpause / blacklist / unBlacklist are for their roles only', () => {
    const h = new TokenHarness();
    assert.equal(h.send(alice, 'pause').reason, 'Pausable: caller is not the pauser');
    assert.equal(h.send(alice, 'blacklist', [bob]).reason, 'Blacklistable: caller is not the blacklister');
    const pause = h.send(owner, 'pause');
    assert.deepEqual(pause.logs.map((l) => l.topics), [[EVENT_TOPICS.Pause]]);
    assert.equal(h.storage.get(TOKEN_SLOTS.pauserAndPaused), BigInt(owner) | (1n << 160n));
    h.send(owner, 'unpause');
    assert.equal(h.view('paused'), false);
    h.send(owner, 'blacklist', [bob]);
    assert.equal(h.storage.get(balanceSlot(bob)), (1n << 255n) + DEFAULT_BALANCE, 'flag in bit 255 over the balance');
    assert.equal(h.view('balanceOf', [bob]), DEFAULT_BALANCE);
    h.send(owner, 'unBlacklist', [bob]);
    assert.equal(h.storage.get(balanceSlot(bob)), DEFAULT_BALANCE);
  });
});

describe('token: EIP-3009', () => {
  let h: TokenHarness;
  let auth: AuthorizationForTest;
  beforeEach(() => {
    h = new TokenHarness();
    auth = { from: alice, to: bob, value: 2_500_000n, validAfter: h.timestamp - 60n, validBefore: h.timestamp + 900n, nonce: randomNonce() };
  });
  const receiveSig = async (a = auth) => h.sign(walletOf(a.from), 'ReceiveWithAuthorization', { ...a });
  const receiveBytes = (a: AuthorizationForTest, signature: string, caller = a.to) =>
    h.send(caller, 'receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)', [...authorizationArgs(a), signature]);
  const unchanged = (a = auth) => {
    assert.equal(h.view('balanceOf', [a.from]), DEFAULT_BALANCE);
    assert.equal(h.view('balanceOf', [a.to]), DEFAULT_BALANCE);
    assert.equal(h.view('authorizationState', [a.from, a.nonce]), false);
    assert.equal(h.storage.get(authorizationStateSlot(a.from, a.nonce)), 0n);
  };

  it('receiveWithAuthorization by the payee inside the window: AuthorizationUsed then Transfer', async () => {
    const [v, r, s] = vrs(await receiveSig());
    const result = h.send(bob, 'receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)', [...authorizationArgs(auth), v, r, s]);
    assert.equal(result.outcome.ok, true, result.reason);
    assert.deepEqual(result.logs.map((l) => l.topics), [
      [EVENT_TOPICS.AuthorizationUsed, topicOf(alice), auth.nonce],
      [EVENT_TOPICS.Transfer, topicOf(alice), topicOf(bob)],
    ]);
    assert.equal(result.logs[0].data, '0x');
    assert.equal(h.view('authorizationState', [alice, auth.nonce]), true);
    const inner = BigInt(keccak256(concat([toBeHex(BigInt(alice), 32), toBeHex(16n, 32)])));
    assert.equal(authorizationStateSlot(alice, auth.nonce), BigInt(keccak256(concat([auth.nonce, toBeHex(inner, 32)]))));
    assert.equal(h.storage.get(authorizationStateSlot(alice, auth.nonce)), 1n);
    assert.equal(h.view('balanceOf', [bob]), DEFAULT_BALANCE + auth.value);
    assert.ok(result.totalGas >= 80_000n && result.totalGas <= 90_000n, `capture gas ${result.totalGas} (USDC: about 85,800)`);
  });

  it('wrong caller', async () => {
    assert.equal(receiveBytes(auth, await receiveSig(), carol).reason, 'FiatTokenV2: caller must be the payee');
    unchanged();
  });

  it('too early: validAfter is strict (block.timestamp == validAfter fails)', async () => {
    auth.validAfter = h.timestamp;
    assert.equal(receiveBytes(auth, await receiveSig()).reason, 'FiatTokenV2: authorization is not yet valid');
    unchanged();
    h.timestamp += 1n;
    assert.equal(receiveBytes(auth, await receiveSig()).outcome.ok, true);
  });

  it('expired: validBefore is strict (block.timestamp == validBefore fails)', async () => {
    auth.validBefore = h.timestamp;
    assert.equal(receiveBytes(auth, await receiveSig()).reason, 'FiatTokenV2: authorization is expired');
    unchanged();
  });

  it('used: a second capture reverts', async () => {
    const signature = await receiveSig();
    assert.equal(receiveBytes(auth, signature).outcome.ok, true);
    assert.equal(receiveBytes(auth, signature).reason, 'FiatTokenV2: authorization is used or canceled');
    assert.equal(h.view('balanceOf', [bob]), DEFAULT_BALANCE + auth.value);
  });

  it('canceled then captured', async () => {
    const cancelSig = await h.sign(walletOf(alice), 'CancelAuthorization', { authorizer: alice, nonce: auth.nonce });
    const [v, r, s] = vrs(cancelSig);
    const cancel = h.send(bob, 'cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)', [alice, auth.nonce, v, r, s]);
    assert.equal(cancel.outcome.ok, true, cancel.reason);
    assert.deepEqual(cancel.logs.map((l) => l.topics), [[EVENT_TOPICS.AuthorizationCanceled, topicOf(alice), auth.nonce]]);
    assert.equal(h.view('authorizationState', [alice, auth.nonce]), true);
    assert.equal(receiveBytes(auth, await receiveSig()).reason, 'FiatTokenV2: authorization is used or canceled');
    assert.equal(h.view('balanceOf', [alice]), DEFAULT_BALANCE);
    // A second cancellation of the same nonce is refused too.
    assert.equal(h.send(bob, 'cancelAuthorization(address,bytes32,bytes)', [alice, auth.nonce, cancelSig]).reason, 'FiatTokenV2: authorization is used or canceled');
  });

  it('cancellation signed by someone else', async () => {
    const cancelSig = await h.sign(walletOf(bob), 'CancelAuthorization', { authorizer: alice, nonce: auth.nonce });
    assert.equal(h.send(bob, 'cancelAuthorization(address,bytes32,bytes)', [alice, auth.nonce, cancelSig]).reason, 'FiatTokenV2: invalid signature');
  });

  it('payer moved the funds', async () => {
    const signature = await receiveSig();
    h.send(alice, 'transfer', [carol, DEFAULT_BALANCE - 1n]);
    assert.equal(receiveBytes(auth, signature).reason, 'ERC20: transfer amount exceeds balance');
    assert.equal(h.view('authorizationState', [alice, auth.nonce]), false);
    assert.equal(h.view('balanceOf', [alice]), 1n);
  });

  it('paused (before any other check), and cancel is refused while paused', async () => {
    h.send(owner, 'pause');
    const wrongCaller = receiveBytes(auth, await receiveSig(), carol);
    assert.equal(wrongCaller.reason, 'Pausable: paused');
    const cancelSig = await h.sign(walletOf(alice), 'CancelAuthorization', { authorizer: alice, nonce: auth.nonce });
    assert.equal(h.send(bob, 'cancelAuthorization(address,bytes32,bytes)', [alice, auth.nonce, cancelSig]).reason, 'Pausable: paused');
    h.send(owner, 'unpause');
    unchanged();
  });

  it('payer or payee blocklisted', async () => {
    const signature = await receiveSig();
    h.send(owner, 'blacklist', [alice]);
    assert.equal(receiveBytes(auth, signature).reason, 'Blacklistable: account is blacklisted');
    h.send(owner, 'unBlacklist', [alice]);
    h.send(owner, 'blacklist', [bob]);
    assert.equal(receiveBytes(auth, signature).reason, 'Blacklistable: account is blacklisted');
    h.send(owner, 'unBlacklist', [bob]);
    unchanged();
  });

  it('a TransferWithAuthorization signature sent to receiveWithAuthorization is invalid (the seed\'s mismatch)', async () => {
    const transferSig = await h.sign(walletOf(alice), 'TransferWithAuthorization', { ...auth });
    assert.equal(receiveBytes(auth, transferSig).reason, 'FiatTokenV2: invalid signature');
    unchanged();
    // ...and the same signature is good for transferWithAuthorization, by anyone.
    const relayed = h.send(carol, 'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)', [...authorizationArgs(auth), transferSig]);
    assert.equal(relayed.outcome.ok, true, relayed.reason);
    assert.deepEqual(relayed.logs.map((l) => l.topics[0]), [EVENT_TOPICS.AuthorizationUsed, EVENT_TOPICS.Transfer]);
  });

  it('a ReceiveWithAuthorization signature sent to transferWithAuthorization is invalid', async () => {
    const [v, r, s] = vrs(await receiveSig());
    const result = h.send(bob, 'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)', [...authorizationArgs(auth), v, r, s]);
    assert.equal(result.reason, 'FiatTokenV2: invalid signature');
  });

  it('tampered terms or a signature for another domain are invalid', async () => {
    const signature = await receiveSig();
    assert.equal(receiveBytes({ ...auth, value: auth.value + 1n }, signature).reason, 'FiatTokenV2: invalid signature');
    const otherChain = await walletOf(alice).signTypedData({ ...h.domain(), chainId: 8453n }, { ReceiveWithAuthorization: [...TYPED_DATA_TYPES.ReceiveWithAuthorization.ReceiveWithAuthorization] }, { ...auth });
    assert.equal(receiveBytes(auth, otherChain).reason, 'FiatTokenV2: invalid signature');
    unchanged();
  });

  it('signature rules: high s, v of 0/1, wrong length, garbage', async () => {
    const signature = Signature.from(await receiveSig());
    const highS = toBeHex(SECP256K1_N - BigInt(signature.s), 32);
    const flippedV = signature.v === 27 ? 28 : 27;
    const highSig = concat([signature.r, highS, new Uint8Array([flippedV])]);
    assert.equal(receiveBytes(auth, highSig).reason, "ECRecover: invalid signature 's' value");
    const v01 = concat([signature.r, signature.s, new Uint8Array([signature.v - 27])]);
    assert.equal(receiveBytes(auth, v01).reason, "ECRecover: invalid signature 'v' value");
    assert.equal(receiveBytes(auth, concat([signature.r, signature.s])).reason, 'ECRecover: invalid signature length');
    assert.equal(receiveBytes(auth, concat([toBeHex(0n, 32), signature.s, new Uint8Array([27])])).reason, 'ECRecover: invalid signature');
    // v,r,s form with v = 0 and with high s.
    const form = 'receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)';
    assert.equal(h.send(bob, form, [...authorizationArgs(auth), signature.v - 27, signature.r, signature.s]).reason, "ECRecover: invalid signature 'v' value");
    assert.equal(h.send(bob, form, [...authorizationArgs(auth), flippedV, signature.r, highS]).reason, "ECRecover: invalid signature 's' value");
    unchanged();
  });

  it('transferWithAuthorization to the zero address', async () => {
    const a = { ...auth, to: '0x' + '00'.repeat(20) };
    const signature = await h.sign(walletOf(alice), 'TransferWithAuthorization', { ...a });
    const result = h.send(carol, 'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)', [...authorizationArgs(a), signature]);
    assert.equal(result.reason, 'ERC20: transfer to the zero address');
  });
});

describe('token: EIP-2612 permit', () => {
  it('both forms set the allowance, log Approval and bump the nonce', async () => {
    const h = new TokenHarness();
    const deadline = h.timestamp + 100n;
    const sig0 = await h.sign(walletOf(alice), 'Permit', { owner: alice, spender: bob, value: 9n, nonce: 0n, deadline });
    const [v, r, s] = vrs(sig0);
    const first = h.send(carol, 'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)', [alice, bob, 9n, deadline, v, r, s]);
    assert.equal(first.outcome.ok, true, first.reason);
    assert.deepEqual(first.logs[0].topics, [EVENT_TOPICS.Approval, topicOf(alice), topicOf(bob)]);
    assert.equal(h.view('nonces', [alice]), 1n);
    assert.equal(h.storage.get(permitNonceSlot(alice)), 1n);
    assert.equal(h.send(carol, 'permit(address,address,uint256,uint256,bytes)', [alice, bob, 9n, deadline, sig0]).reason, 'EIP2612: invalid signature', 'replay');
    const sig1 = await h.sign(walletOf(alice), 'Permit', { owner: alice, spender: bob, value: 11n, nonce: 1n, deadline });
    assert.equal(h.send(carol, 'permit(address,address,uint256,uint256,bytes)', [alice, bob, 11n, deadline, sig1]).outcome.ok, true);
    assert.equal(h.view('allowance', [alice, bob]), 11n);
  });

  it('deadline is inclusive; after it the permit is expired', async () => {
    const h = new TokenHarness();
    const deadline = h.timestamp;
    const sig = await h.sign(walletOf(alice), 'Permit', { owner: alice, spender: bob, value: 9n, nonce: 0n, deadline });
    h.timestamp += 1n;
    assert.equal(h.send(carol, 'permit(address,address,uint256,uint256,bytes)', [alice, bob, 9n, deadline, sig]).reason, 'FiatTokenV2: permit is expired');
    h.timestamp -= 1n;
    assert.equal(h.send(carol, 'permit(address,address,uint256,uint256,bytes)', [alice, bob, 9n, deadline, sig]).outcome.ok, true);
  });

  it('permit does not check the blocklist (v2.2)', async () => {
    const h = new TokenHarness();
    h.send(owner, 'blacklist', [alice]);
    const deadline = h.timestamp + 10n;
    const sig = await h.sign(walletOf(alice), 'Permit', { owner: alice, spender: bob, value: 1n, nonce: 0n, deadline });
    assert.equal(h.send(carol, 'permit(address,address,uint256,uint256,bytes)', [alice, bob, 1n, deadline, sig]).outcome.ok, true);
    assert.equal(h.send(alice, 'approve', [bob, 3n]).outcome.ok, true);
  });
});
