// The calls whose gas the mock node's token must match on USDC: every external function on each
// state path that changes EVM cost (cold/warm, access lists, zero↔non-zero, new vs existing
// holder, self-transfers, refunds, reverts). Shared by the calibration that measures the constant
// part of each path on Anvil and by the differential test that checks every case on fresh random
// state. A scenario is built from a random source, so each run draws new amounts and accounts.
import { Interface, Signature, TypedDataEncoder, Wallet, getAddress, hexlify, randomBytes, type TypedDataDomain } from 'ethers';
export { seededRandom } from '../../../mock-node/rpc/faults';
import {
  PROXY_SLOTS,
  STABLE_TOKEN_ABI,
  TYPED_DATA_TYPES,
  authorizationStateSlot,
  balanceSlot,
} from '../../../mock-node/tokenKit/index';

export const TOKEN_INTERFACE = new Interface(STABLE_TOKEN_ABI as unknown as string[]);

/** A transaction both nodes receive (eth_sendTransaction from a dev account). */
export interface TxSpec {
  from: string;
  to: string;
  data: string;
  value?: bigint;
  accessList?: { address: string; storageKeys: string[] }[];
  /** An explicit gas limit (otherwise a generous one). */
  gas?: bigint;
}

export interface Scenario {
  name: string;
  /** Transactions that prepare the state, mined before the measured one. */
  setup: TxSpec[];
  /** The measured transaction. */
  call: TxSpec;
  /** Expected status of the measured transaction. */
  ok: boolean;
}

export interface ScenarioContext {
  token: string;
  implementation: string;
  signatureChecker: string;
  /** FiatTokenProxy's admin: no dev account; both nodes impersonate it. */
  proxyAdmin: string;
  chainId: bigint;
  /** The dev accounts: 0 is owner, pauser, blacklister and minter; all hold 10,000 tokens at genesis. */
  wallets: Wallet[];
  random: () => number;
}

const MAX_UINT256 = (1n << 256n) - 1n;
const FAR_FUTURE = 1n << 40n;

function word(slot: bigint): string {
  return `0x${slot.toString(16).padStart(64, '0')}`;
}

function randomAddress(): string {
  return getAddress(hexlify(randomBytes(20)));
}

function randomNonce(): string {
  return hexlify(randomBytes(32));
}

/** Scenario builders; each draws its own amounts and accounts from `ctx.random`. */
export function buildScenarios(ctx: ScenarioContext): Scenario[] {
  const w = ctx.wallets;
  const owner = w[0];
  const pick = (from: number, to: number): Wallet => w[from + Math.floor(ctx.random() * (to - from + 1))];
  /** Two different holders among dev accounts 1…9. */
  const pair = (): [Wallet, Wallet] => {
    const a = pick(1, 9);
    let b = pick(1, 9);
    while (b === a) b = pick(1, 9);
    return [a, b];
  };
  const amount = (max = 1_000_000_000n): bigint => 1n + BigInt(Math.floor(ctx.random() * Number(max)));
  const data = (fn: string, args: unknown[]): string => TOKEN_INTERFACE.encodeFunctionData(fn, args);
  const tx = (from: Wallet, fn: string, args: unknown[], extra: Partial<TxSpec> = {}): TxSpec => ({ from: from.address, to: ctx.token, data: data(fn, args), ...extra });
  const domain: TypedDataDomain = { name: 'USD Coin', version: '2', chainId: ctx.chainId, verifyingContract: ctx.token };
  const sign = (signer: Wallet, type: keyof typeof TYPED_DATA_TYPES, message: Record<string, unknown>): string => {
    const types = TYPED_DATA_TYPES[type] as unknown as Record<string, { name: string; type: string }[]>;
    const digest = TypedDataEncoder.hash(domain, types, message);
    return signer.signingKey.sign(digest).serialized;
  };
  const vrs = (signature: string): [number, string, string] => {
    const sig = Signature.from(signature);
    return [sig.v, sig.r, sig.s];
  };
  const authorization = (type: 'TransferWithAuthorization' | 'ReceiveWithAuthorization', payer: Wallet, payee: string, value: bigint, window: [bigint, bigint] = [0n, FAR_FUTURE]) => {
    const message = { from: payer.address, to: payee, value, validAfter: window[0], validBefore: window[1], nonce: randomNonce() };
    const signature = sign(payer, type, message);
    return { message, signature, args: [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce] as unknown[] };
  };
  const scenarios: Scenario[] = [];
  const add = (name: string, setup: TxSpec[], call: TxSpec, ok = true): void => {
    scenarios.push({ name, setup, call, ok });
  };

  // ---- transfer ----
  {
    const [a, b] = pair();
    add('transfer to an existing holder', [], tx(a, 'transfer', [b.address, amount()]));
  }
  {
    const a = pick(1, 9);
    add('transfer to a new holder', [], tx(a, 'transfer', [randomAddress(), amount()]));
  }
  {
    const [a, b] = pair();
    const fresh = Wallet.createRandom();
    const value = amount();
    // The whole balance of an account that holds exactly `value`: its slot goes to zero (refund).
    add('transfer of the whole balance (slot cleared)', [tx(a, 'transfer', [b.address, 10_000_000_000n - value])], tx(a, 'transfer', [fresh.address, value]));
  }
  {
    const a = pick(1, 9);
    add('transfer to oneself', [], tx(a, 'transfer', [a.address, amount()]));
  }
  {
    const [a, b] = pair();
    add('transfer of 0', [], tx(a, 'transfer', [b.address, 0n]));
  }
  {
    const [a, b] = pair();
    const list = [{ address: ctx.token, storageKeys: [word(balanceSlot(a.address)), word(balanceSlot(b.address))] }];
    add('transfer with an access list naming the balance slots', [], tx(a, 'transfer', [b.address, amount()], { accessList: list }));
  }
  {
    const [a, b] = pair();
    const list = [
      { address: ctx.token, storageKeys: [word(PROXY_SLOTS.admin), word(PROXY_SLOTS.implementation), word(balanceSlot(a.address))] },
      { address: ctx.implementation, storageKeys: [] },
    ];
    add('transfer with an access list naming the proxy slots and the implementation', [], tx(a, 'transfer', [b.address, amount()], { accessList: list }));
  }
  {
    const [a, b] = pair();
    const list = [{ address: b.address, storageKeys: [] }, { address: ctx.token, storageKeys: [word(1n)] }];
    add('transfer with an access list naming accounts and slots it does not touch', [], tx(a, 'transfer', [b.address, amount()], { accessList: list }));
  }
  {
    const [a, b] = pair();
    add('transfer above the balance (reverts)', [], tx(a, 'transfer', [b.address, 10_000_000_001n + amount()]), false);
  }
  {
    const [a, b] = pair();
    add('transfer while paused (reverts)', [tx(owner, 'pause', [])], tx(a, 'transfer', [b.address, amount()]), false);
  }
  {
    const [a, b] = pair();
    add('transfer from a blocklisted holder (reverts)', [tx(owner, 'blacklist', [a.address])], tx(a, 'transfer', [b.address, amount()]), false);
  }
  {
    const [a, b] = pair();
    add('transfer to a blocklisted holder (reverts)', [tx(owner, 'blacklist', [b.address])], tx(a, 'transfer', [b.address, amount()]), false);
  }
  {
    const a = pick(1, 9);
    add('transfer to the zero address (reverts)', [], tx(a, 'transfer', ['0x' + '00'.repeat(20), amount()]), false);
  }

  // ---- allowances ----
  {
    const [a, b] = pair();
    add('approve, zero to non-zero', [], tx(a, 'approve', [b.address, amount()]));
  }
  {
    const [a, b] = pair();
    add('approve, non-zero to non-zero', [tx(a, 'approve', [b.address, amount()])], tx(a, 'approve', [b.address, amount()]));
  }
  {
    const [a, b] = pair();
    add('approve, non-zero to zero (refund)', [tx(a, 'approve', [b.address, amount()])], tx(a, 'approve', [b.address, 0n]));
  }
  {
    const [a, b] = pair();
    const value = amount();
    add('approve the same allowance again', [tx(a, 'approve', [b.address, value])], tx(a, 'approve', [b.address, value]));
  }
  {
    const [a, b] = pair();
    add('increaseAllowance', [tx(a, 'approve', [b.address, amount()])], tx(a, 'increaseAllowance', [b.address, amount()]));
  }
  {
    const [a, b] = pair();
    const value = amount();
    add('decreaseAllowance', [tx(a, 'approve', [b.address, value * 2n])], tx(a, 'decreaseAllowance', [b.address, value]));
  }
  {
    const [a, b] = pair();
    const value = amount();
    add('decreaseAllowance below zero (reverts)', [tx(a, 'approve', [b.address, value])], tx(a, 'decreaseAllowance', [b.address, value + 1n]), false);
  }
  {
    const [a, b] = pair();
    const value = amount();
    add('transferFrom within the allowance', [tx(a, 'approve', [b.address, value * 2n])], tx(b, 'transferFrom', [a.address, randomAddress(), value]));
  }
  {
    const [a, b] = pair();
    const value = amount();
    add('transferFrom of the whole allowance (refund)', [tx(a, 'approve', [b.address, value])], tx(b, 'transferFrom', [a.address, b.address, value]));
  }
  {
    const [a, b] = pair();
    const value = amount();
    add('transferFrom above the allowance (reverts)', [tx(a, 'approve', [b.address, value])], tx(b, 'transferFrom', [a.address, b.address, value + 1n]), false);
  }

  // ---- permit ----
  const permit = (signer: Wallet, spender: string, value: bigint, deadline: bigint, nonce = 0n) =>
    sign(signer, 'Permit', { owner: signer.address, spender, value, nonce, deadline });
  {
    const [a, b] = pair();
    const value = amount();
    const signature = permit(a, b.address, value, FAR_FUTURE);
    add('permit (v, r, s), relayed', [], tx(owner, 'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)', [a.address, b.address, value, FAR_FUTURE, ...vrs(signature)]));
  }
  {
    const [a, b] = pair();
    const value = amount();
    const signature = permit(a, b.address, value, FAR_FUTURE);
    add('permit (bytes signature), by the owner', [], tx(a, 'permit(address,address,uint256,uint256,bytes)', [a.address, b.address, value, FAR_FUTURE, signature]));
  }
  {
    const [a, b] = pair();
    const value = amount();
    const signature = permit(a, b.address, value, MAX_UINT256);
    add('permit without deadline (2^256 - 1)', [], tx(owner, 'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)', [a.address, b.address, value, MAX_UINT256, ...vrs(signature)]));
  }
  {
    const [a, b] = pair();
    const signature = permit(a, b.address, 5n, 1n);
    add('permit past its deadline (reverts)', [], tx(owner, 'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)', [a.address, b.address, 5n, 1n, ...vrs(signature)]), false);
  }
  {
    const [a, b] = pair();
    const signature = permit(b, b.address, 5n, FAR_FUTURE);
    add('permit signed by someone else (reverts)', [], tx(owner, 'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)', [a.address, b.address, 5n, FAR_FUTURE, ...vrs(signature)]), false);
  }

  // ---- EIP-3009 ----
  const twaVrs = 'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)';
  const twaBytes = 'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)';
  const rwaVrs = 'receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)';
  const rwaBytes = 'receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)';
  {
    const [a, b] = pair();
    const auth = authorization('TransferWithAuthorization', a, b.address, amount());
    add('transferWithAuthorization (v, r, s), relayed', [], tx(owner, twaVrs, [...auth.args, ...vrs(auth.signature)]));
  }
  {
    const [a, b] = pair();
    const auth = authorization('TransferWithAuthorization', a, randomAddress(), amount());
    add('transferWithAuthorization (bytes) to a new holder, relayed', [], tx(b, twaBytes, [...auth.args, auth.signature]));
  }
  {
    const [a, b] = pair();
    const auth = authorization('TransferWithAuthorization', a, b.address, amount());
    add('transferWithAuthorization sent by the payer itself (signer warm)', [], tx(a, twaVrs, [...auth.args, ...vrs(auth.signature)]));
  }
  {
    const [a, b] = pair();
    const value = amount();
    const auth = authorization('TransferWithAuthorization', a, b.address, value);
    add('transferWithAuthorization of the whole balance (refund)', [tx(a, 'transfer', [owner.address, 10_000_000_000n - value])], tx(owner, twaVrs, [...auth.args, ...vrs(auth.signature)]));
  }
  {
    const [a, b] = pair();
    const auth = authorization('ReceiveWithAuthorization', a, b.address, amount());
    add('receiveWithAuthorization (v, r, s) by the payee', [], tx(b, rwaVrs, [...auth.args, ...vrs(auth.signature)]));
  }
  {
    const [a, b] = pair();
    const auth = authorization('ReceiveWithAuthorization', a, b.address, amount());
    add('receiveWithAuthorization (bytes) by the payee', [], tx(b, rwaBytes, [...auth.args, auth.signature]));
  }
  {
    const [a, b] = pair();
    const auth = authorization('ReceiveWithAuthorization', a, b.address, amount());
    const list = [{ address: ctx.token, storageKeys: [word(balanceSlot(a.address)), word(balanceSlot(b.address)), word(authorizationStateSlot(a.address, auth.message.nonce))] }, { address: a.address, storageKeys: [] }];
    add('receiveWithAuthorization with an access list (balances, nonce, signer)', [], tx(b, rwaVrs, [...auth.args, ...vrs(auth.signature)], { accessList: list }));
  }
  {
    const [a, b] = pair();
    const auth = authorization('ReceiveWithAuthorization', a, b.address, amount());
    add('receiveWithAuthorization by someone other than the payee (reverts)', [], tx(owner, rwaVrs, [...auth.args, ...vrs(auth.signature)]), false);
  }
  {
    const [a, b] = pair();
    const auth = authorization('TransferWithAuthorization', a, b.address, amount());
    add('transferWithAuthorization already used (reverts)', [tx(owner, twaVrs, [...auth.args, ...vrs(auth.signature)])], tx(owner, twaVrs, [...auth.args, ...vrs(auth.signature)]), false);
  }
  {
    const [a, b] = pair();
    const auth = authorization('TransferWithAuthorization', a, b.address, amount(), [0n, 1n]);
    add('transferWithAuthorization expired (reverts)', [], tx(owner, twaVrs, [...auth.args, ...vrs(auth.signature)]), false);
  }
  {
    const [a, b] = pair();
    const auth = authorization('TransferWithAuthorization', a, b.address, amount(), [FAR_FUTURE - 1n, FAR_FUTURE]);
    add('transferWithAuthorization not yet valid (reverts)', [], tx(owner, twaVrs, [...auth.args, ...vrs(auth.signature)]), false);
  }
  {
    const [a, b] = pair();
    const auth = authorization('TransferWithAuthorization', b, b.address, amount());
    const args = [a.address, ...auth.args.slice(1)];
    add('transferWithAuthorization signed by someone else (reverts)', [], tx(owner, twaVrs, [...args, ...vrs(auth.signature)]), false);
  }
  {
    const [a, b] = pair();
    const auth = authorization('TransferWithAuthorization', a, b.address, amount());
    const sig = Signature.from(auth.signature);
    const highS = `0x${(0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n - BigInt(sig.s)).toString(16).padStart(64, '0')}`;
    add("transferWithAuthorization with a high s (reverts)", [], tx(owner, twaVrs, [...auth.args, sig.v === 27 ? 28 : 27, sig.r, highS]), false);
  }
  {
    const [a, b] = pair();
    const auth = authorization('TransferWithAuthorization', a, b.address, amount());
    const wrongV = `${auth.signature.slice(0, -2)}01`;
    add("transferWithAuthorization (bytes) with v = 1 (reverts)", [], tx(owner, twaBytes, [...auth.args, wrongV]), false);
  }
  {
    const [a, b] = pair();
    const auth = authorization('TransferWithAuthorization', a, b.address, amount());
    add('transferWithAuthorization while paused (reverts)', [tx(owner, 'pause', [])], tx(b, twaVrs, [...auth.args, ...vrs(auth.signature)]), false);
  }
  const cancel = (signer: Wallet, nonce: string) => sign(signer, 'CancelAuthorization', { authorizer: signer.address, nonce });
  {
    const a = pick(1, 9);
    const nonce = randomNonce();
    add('cancelAuthorization (v, r, s), relayed', [], tx(owner, 'cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)', [a.address, nonce, ...vrs(cancel(a, nonce))]));
  }
  {
    const a = pick(1, 9);
    const nonce = randomNonce();
    add('cancelAuthorization (bytes) by the authorizer', [], tx(a, 'cancelAuthorization(address,bytes32,bytes)', [a.address, nonce, cancel(a, nonce)]));
  }
  {
    const a = pick(1, 9);
    const nonce = randomNonce();
    const call = tx(owner, 'cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)', [a.address, nonce, ...vrs(cancel(a, nonce))]);
    add('cancelAuthorization of a used nonce (reverts)', [call], call, false);
  }

  // ---- roles ----
  add('pause', [], tx(owner, 'pause', []));
  add('unpause', [tx(owner, 'pause', [])], tx(owner, 'unpause', []));
  add('pause by someone else (reverts)', [], tx(pick(1, 9), 'pause', []), false);
  {
    const a = pick(1, 9);
    add('blacklist', [], tx(owner, 'blacklist', [a.address]));
    add('unBlacklist', [tx(owner, 'blacklist', [a.address])], tx(owner, 'unBlacklist', [a.address]));
    add('blacklist by someone else (reverts)', [], tx(a, 'blacklist', [owner.address]), false);
  }
  add('mint to an existing holder', [], tx(owner, 'mint', [pick(1, 9).address, amount()]));
  add('mint to a new holder', [], tx(owner, 'mint', [randomAddress(), amount()]));
  add('mint by someone who is not a minter (reverts)', [], tx(pick(1, 9), 'mint', [owner.address, amount()]), false);
  add('burn', [], tx(owner, 'burn', [amount()]));
  add('burn above the balance (reverts)', [], tx(owner, 'burn', [10_000_000_001n + amount()]), false);

  // ---- more reverts, one per check ----
  {
    const [a, b] = pair();
    const zero = '0x' + '00'.repeat(20);
    add('approve to the zero address (reverts)', [], tx(a, 'approve', [zero, amount()]), false);
    add('approve while paused (reverts)', [tx(owner, 'pause', [])], tx(a, 'approve', [b.address, amount()]), false);
    add('increaseAllowance past 2^256 - 1 (reverts)', [tx(a, 'approve', [b.address, MAX_UINT256])], tx(a, 'increaseAllowance', [b.address, 1n]), false);
    add('transferFrom by a blocklisted spender (reverts)', [tx(a, 'approve', [b.address, 5n]), tx(owner, 'blacklist', [b.address])], tx(b, 'transferFrom', [a.address, owner.address, 5n]), false);
    add('transferFrom above the balance (reverts)', [tx(a, 'approve', [b.address, MAX_UINT256])], tx(b, 'transferFrom', [a.address, b.address, 10_000_000_001n]), false);
    add('mint to the zero address (reverts)', [], tx(owner, 'mint', [zero, amount()]), false);
    add('mint of 0 (reverts)', [], tx(owner, 'mint', [a.address, 0n]), false);
    add('mint to a blocklisted holder (reverts)', [tx(owner, 'blacklist', [a.address])], tx(owner, 'mint', [a.address, amount()]), false);
    add('burn of 0 (reverts)', [], tx(owner, 'burn', [0n]), false);
    add('unpause by someone else (reverts)', [tx(owner, 'pause', [])], tx(a, 'unpause', []), false);
    add('unBlacklist by someone else (reverts)', [tx(owner, 'blacklist', [b.address])], tx(a, 'unBlacklist', [b.address]), false);
    const nonce = randomNonce();
    const badCancel = cancel(b, nonce);
    add('cancelAuthorization signed by someone else (reverts)', [], tx(owner, 'cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)', [a.address, nonce, ...vrs(badCancel)]), false);
    add('cancelAuthorization while paused (reverts)', [tx(owner, 'pause', [])], tx(owner, 'cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)', [a.address, nonce, ...vrs(cancel(a, nonce))]), false);
    const auth = authorization('ReceiveWithAuthorization', a, b.address, amount(), [FAR_FUTURE - 1n, FAR_FUTURE]);
    add('receiveWithAuthorization not yet valid (reverts)', [], tx(b, rwaVrs, [...auth.args, ...vrs(auth.signature)]), false);
    const big = authorization('TransferWithAuthorization', a, b.address, 10_000_000_001n);
    add('transferWithAuthorization above the balance (reverts)', [], tx(owner, twaVrs, [...big.args, ...vrs(big.signature)]), false);
    const blocked = authorization('TransferWithAuthorization', a, b.address, amount());
    add('transferWithAuthorization to a blocklisted payee (reverts)', [tx(owner, 'blacklist', [b.address])], tx(owner, twaVrs, [...blocked.args, ...vrs(blocked.signature)]), false);
    const short = authorization('TransferWithAuthorization', a, b.address, amount());
    add('transferWithAuthorization (bytes) with a 64-byte signature (reverts)', [], tx(owner, twaBytes, [...short.args, short.signature.slice(0, 130)]), false);
    const pSig = Signature.from(permit(a, b.address, 5n, FAR_FUTURE));
    const pHighS = `0x${(0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n - BigInt(pSig.s)).toString(16).padStart(64, '0')}`;
    add('permit with a high s (reverts)', [], tx(owner, 'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)', [a.address, b.address, 5n, FAR_FUTURE, pSig.v === 27 ? 28 : 27, pSig.r, pHighS]), false);
    add('transfer with calldata too short for its arguments (reverts)', [], { from: a.address, to: ctx.token, data: data('transfer', [b.address, 1n]).slice(0, 74) }, false);
  }

  // ---- administration: minters, roles, rescue, initializers ----
  const zeroAddress = '0x' + '00'.repeat(20);
  const as = (from: string, fn: string, args: unknown[], extra: Partial<TxSpec> = {}): TxSpec => ({ from, to: ctx.token, data: data(fn, args), ...extra });
  {
    const [a, b] = pair();
    const minter = randomAddress();
    add('configureMinter, a new minter', [], tx(owner, 'configureMinter', [minter, amount()]));
    add('configureMinter, an existing minter\'s allowance', [tx(owner, 'configureMinter', [a.address, amount()])], tx(owner, 'configureMinter', [a.address, amount()]));
    add('configureMinter while paused (reverts)', [tx(owner, 'pause', [])], tx(owner, 'configureMinter', [a.address, amount()]), false);
    add('configureMinter by someone other than the master minter (reverts)', [], tx(a, 'configureMinter', [b.address, amount()]), false);
    add('removeMinter of a minter (refund)', [tx(owner, 'configureMinter', [a.address, amount()])], tx(owner, 'removeMinter', [a.address]));
    add('removeMinter of an account that is no minter', [], tx(owner, 'removeMinter', [randomAddress()]));
    add('removeMinter by someone other than the master minter (reverts)', [], tx(a, 'removeMinter', [owner.address]), false);
    add('a configured minter mints', [tx(owner, 'configureMinter', [a.address, 10_000n])], tx(a, 'mint', [b.address, 5_000n]));
    add('a configured minter mints above its allowance (reverts)', [tx(owner, 'configureMinter', [a.address, 10n])], tx(a, 'mint', [b.address, 11n]), false);
    for (const [fn, zeroReason] of [['updateMasterMinter', 'masterMinter'], ['transferOwnership', 'owner'], ['updatePauser', 'pauser'], ['updateBlacklister', 'blacklister'], ['updateRescuer', 'rescuer']] as const) {
      add(`${fn}`, [], tx(owner, fn, [randomAddress()]));
      add(`${fn} to the zero address (reverts: new ${zeroReason} is the zero address)`, [], tx(owner, fn, [zeroAddress]), false);
      add(`${fn} by someone other than the owner (reverts)`, [], tx(a, fn, [b.address]), false);
    }
    add('the new master minter configures a minter', [tx(owner, 'updateMasterMinter', [a.address])], tx(a, 'configureMinter', [b.address, amount()]));
    add('the old owner after transferOwnership (reverts)', [tx(owner, 'transferOwnership', [a.address])], tx(owner, 'updatePauser', [b.address]), false);
    add('rescueERC20 by someone other than the rescuer (reverts)', [], tx(a, 'rescueERC20', [ctx.token, b.address, 1n]), false);
    add('rescueERC20 of an account without code (reverts)', [], tx(owner, 'rescueERC20', [randomAddress(), b.address, 1n]), false);
    add('rescueERC20 of the token while its own address is blocklisted (reverts)', [], tx(owner, 'rescueERC20', [ctx.token, b.address, 1n]), false);
    const rescued = amount();
    add('rescueERC20 of tokens sent to the token\'s own address', [tx(owner, 'unBlacklist', [ctx.token]), tx(a, 'transfer', [ctx.token, rescued])], tx(owner, 'rescueERC20', [ctx.token, b.address, rescued]));
    add('rescueERC20 of more than the token\'s own address holds (reverts)', [tx(owner, 'unBlacklist', [ctx.token])], tx(owner, 'rescueERC20', [ctx.token, b.address, 1n]), false);
    add('rescuer', [], tx(a, 'rescuer', []));
    add('initialize (reverts: already initialized)', [], tx(a, 'initialize', ['USD Coin', 'USDC', 'USD', 6, a.address, a.address, a.address, a.address]), false);
    add('initializeV2 (reverts)', [], tx(a, 'initializeV2', ['USD Coin']), false);
    add('initializeV2_1 (reverts)', [], tx(a, 'initializeV2_1', [a.address]), false);
    add('initializeV2_2 (reverts)', [], tx(a, 'initializeV2_2', [[a.address], 'USDC']), false);
  }

  // ---- the proxy (FiatTokenProxy) ----
  {
    const [a, b] = pair();
    const admin = ctx.proxyAdmin;
    add('admin() by anyone', [], tx(a, 'admin', []));
    add('implementation() by anyone', [], tx(a, 'implementation', []));
    add('admin() by the admin', [], as(admin, 'admin', []));
    add('changeAdmin by the admin', [], as(admin, 'changeAdmin', [randomAddress()]));
    add('changeAdmin to the zero address (reverts)', [], as(admin, 'changeAdmin', [zeroAddress]), false);
    add('changeAdmin by someone else (falls through to the implementation, reverts)', [], tx(a, 'changeAdmin', [b.address]), false);
    add('upgradeTo the current implementation by the admin', [], as(admin, 'upgradeTo', [ctx.implementation]));
    add('upgradeTo an account without code (reverts)', [], as(admin, 'upgradeTo', [randomAddress()]), false);
    add('upgradeTo by someone else (reverts)', [], tx(a, 'upgradeTo', [ctx.implementation]), false);
    add('upgradeToAndCall with a call of name()', [], as(admin, 'upgradeToAndCall', [ctx.implementation, data('name', [])]));
    add('upgradeToAndCall with a call that reverts (reverts)', [], as(admin, 'upgradeToAndCall', [ctx.implementation, data('initializeV2', ['x'])]), false);
    add('upgradeToAndCall by someone else (reverts)', [], tx(a, 'upgradeToAndCall', [ctx.implementation, '0x']), false);
    add('the admin calls the token (reverts: the proxy admin cannot call the fallback)', [], as(admin, 'transfer', [a.address, 1n]), false);
    add('the admin calls balanceOf (reverts likewise)', [], as(admin, 'balanceOf', [a.address]), false);
  }

  // ---- the two paths issue 21 found off ----
  {
    const [a, b] = pair();
    const auth = authorization('ReceiveWithAuthorization', a, b.address, amount());
    add('receiveWithAuthorization replayed (nonce used, reverts)', [tx(b, rwaVrs, [...auth.args, ...vrs(auth.signature)])], tx(b, rwaVrs, [...auth.args, ...vrs(auth.signature)]), false);
    const big = authorization('TransferWithAuthorization', a, b.address, 10_000_000_001n);
    add('transferWithAuthorization (bytes) above the balance after the signature check (reverts)', [], tx(owner, twaBytes, [...big.args, big.signature]), false);
    const bigReceive = authorization('ReceiveWithAuthorization', a, b.address, 10_000_000_001n);
    add('receiveWithAuthorization above the balance after the signature check (reverts)', [], tx(b, rwaVrs, [...bigReceive.args, ...vrs(bigReceive.signature)]), false);
  }

  // ---- views, as transactions (and through eth_estimateGas) ----
  {
    const [a, b] = pair();
    add('balanceOf', [], tx(a, 'balanceOf', [b.address]));
    add('allowance', [], tx(a, 'allowance', [a.address, b.address]));
    add('authorizationState', [], tx(a, 'authorizationState', [b.address, randomNonce()]));
    add('nonces', [], tx(a, 'nonces', [b.address]));
    add('isBlacklisted', [], tx(a, 'isBlacklisted', [b.address]));
  }
  for (const fn of [
    'name', 'symbol', 'decimals', 'currency', 'totalSupply', 'paused', 'DOMAIN_SEPARATOR', 'version', 'owner', 'pauser', 'blacklister', 'masterMinter',
    'TRANSFER_WITH_AUTHORIZATION_TYPEHASH', 'RECEIVE_WITH_AUTHORIZATION_TYPEHASH', 'CANCEL_AUTHORIZATION_TYPEHASH', 'PERMIT_TYPEHASH',
  ]) add(fn, [], tx(pick(1, 9), fn, []));
  {
    const a = pick(1, 9);
    add('isMinter', [], tx(a, 'isMinter', [owner.address]));
    add('minterAllowance', [], tx(a, 'minterAllowance', [owner.address]));
  }

  // ---- not the token's functions ----
  {
    const a = pick(1, 9);
    add('unknown selector (reverts)', [], { from: a.address, to: ctx.token, data: `0x12345678${'00'.repeat(32)}` }, false);
    add('ETH sent with a transfer (reverts)', [], tx(a, 'transfer', [owner.address, 1n], { value: 1n }), false);
    add('ETH to an account with 100 non-zero bytes of calldata (EIP-7623 floor)', [], { from: a.address, to: randomAddress(), data: `0x${'ab'.repeat(100)}`, value: 1n });
    add('ETH to an account', [], { from: a.address, to: randomAddress(), data: '0x', value: amount() });
    const to = randomAddress();
    const list = [{ address: to, storageKeys: [word(1n), word(2n)] }];
    add('ETH to an account with an access list (one address, two keys)', [], { from: a.address, to, data: '0x', value: 1n, accessList: list });
  }
  return scenarios;
}
