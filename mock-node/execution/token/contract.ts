// The built-in EIP-3009 token as a native contract: FiatToken v2.2 (USDC) seen from outside.
// Same ABI and selectors, same modifier order and revert strings, same events in the same order,
// same storage layout. Each function below follows the token's own sequence of checks, so the
// first failing condition decides the revert reason exactly as on USDC.
import { concat, toBeHex, zeroPadValue } from 'ethers';
import { createdAddress } from '../createdAddress';
import { encodeRevertReason } from '../execute';
import { recoverSigner } from '../signatures';
import { bytesHex, hexBytes } from '../../encoding/bytes';
import { keccak256Bytes } from '../../encoding/keccak';
import { NativePathDeclined, type CallContext, type CallOutcome, type ContractStorage, type GenesisContext, type Hex, type NativeContract } from '../nativeContract';
import type { TokenOptions } from '../../options';
import {
  BLACKLIST_FLAG,
  EVENT_TOPICS,
  MAX_BALANCE,
  PROXY_FUNCTIONS,
  PROXY_SLOTS,
  SECP256K1_HALF_N,
  TOKEN_DECIMALS,
  TOKEN_SLOTS,
  TYPEHASHES,
  signatureProblem,
  splitSignature,
  tokenDomainSeparator,
  type TokenEventName,
} from '../../tokenKit/index';
import { GasMeter } from '../evmGas';
import type { TracedFrame } from '../trace/recorder';
import { nestedCallSurplus, pathGas, priceCall } from './gas';
import { FIAT_TOKEN_PROXY_RUNTIME, fiatTokenV2_2Runtime, signatureCheckerRuntime } from './realCode';
import { signatureCallGas } from './traceGas';
import { balanceSlot, minterAllowedSlot, minterSlot } from './slots';
import { encodeResults, functionCodec, UnreadableArgument, type FunctionCodec } from './calldata';
import { parseFunctionFragment, tokenFunctions } from './functionTable';
import { MAX_UINT256, TokenState, packAddressAndBool, addressToWord, readString, wordToAddress, writeString } from './storage';
import type { StateReader } from '../../state/worldState';

const ZERO_ADDRESS = '0x' + '00'.repeat(20);
/** The allowance the owner gets as minter at genesis (unlimited for practical purposes). */
const GENESIS_MINTER_ALLOWANCE = MAX_UINT256;

/**
 * Runtime code at the token's address: Circle's FiatTokenProxy. A transaction or eth_call to the
 * token runs the native implementation below; a contract calling the token runs this code (and
 * FiatTokenV2_2 behind it) in the EVM, over the same storage.
 */
export const STABLE_TOKEN_CODE: Hex = FIAT_TOKEN_PROXY_RUNTIME;

/** A call's arguments as the calldata reader gives them (calldata.ts). */
type Args = readonly unknown[];

/** A revert with an Error(string) reason, or with empty data when `reason` is undefined. */
class Revert extends Error {
  constructor(
    readonly reason?: string,
    /** The 65-byte signature's length word (0x41) lies where the reason's padding is copied from. */
    readonly afterSignature = false,
  ) {
    super(reason ?? 'revert');
  }
}

/**
 * Error(string) revert data as FiatTokenV2_2 (solc 0.6.12) returns it: the reason's padding is not
 * cleared, so after a signature check a reason of 33 to 63 bytes ends on the signature's length
 * word, 0x41, left in memory (the differential test against the bytecode shows it).
 */
function revertDataOf(revert: Revert): Hex {
  if (revert.reason === undefined) return '0x';
  const data = encodeRevertReason(revert.reason);
  const length = Buffer.byteLength(revert.reason, 'utf8');
  if (!revert.afterSignature || length <= 32 || length >= 64) return data;
  return `${data.slice(0, -2)}41`;
}

/**
 * One call being executed. It counts the checks it passes, so that a revert names the check that
 * failed: with the function, that is the path the call took, which prices its constant gas.
 */
class Invocation {
  readonly caller: Hex;
  readonly state: TokenState;
  private checks = 0;
  private readonly tags: string[] = [];
  /** A signature has been checked: its bytes (and their length word) are in memory from here on. */
  signatureInMemory = false;
  /** What nested CALLs need beyond what they use (see nestedCallSurplus). */
  callSurplus = 0n;

  constructor(
    readonly ctx: CallContext,
    readonly meter: GasMeter,
    readonly token: StableToken,
    readonly signature: string,
    /** What the proxy metered before it delegated. */
    readonly proxyDynamic: bigint,
    caller: Hex,
  ) {
    this.caller = caller;
    this.state = new TokenState(meter);
  }

  get now(): bigint {
    return this.ctx.block.timestamp;
  }

  /** `require(condition, reason)`. */
  require(condition: boolean, reason: string): void {
    this.checks += 1;
    if (!condition) throw new Revert(reason, this.signatureInMemory);
  }

  /** `require(condition)` without a reason: reverts with empty data. */
  requireSilently(condition: boolean): void {
    this.checks += 1;
    if (!condition) throw new Revert();
  }

  /** Marks a branch whose constant gas differs (e.g. permit's deadline of 2^256 - 1 skips the clock). */
  tag(name: string): void {
    this.tags.push(name);
  }

  /** The path taken: function, branches, and the check that failed, if one did. */
  path(revert?: Revert): string {
    if (!revert && this.tags.length === 0) return okPathOf(this.signature);
    const branch = this.tags.length ? `|${this.tags.join('|')}` : '';
    return `${this.signature}${branch}|${revert ? `revert ${this.checks} ${revert.reason ?? ''}`.trimEnd() : 'ok'}`;
  }

  emit(event: TokenEventName, indexed: Hex[], data: Hex = '0x'): void {
    const topics = [EVENT_TOPICS[event], ...indexed.map(topicWord)];
    this.ctx.emitLog({ topics, data });
  }
}

const okPaths = new Map<string, string>();
/**
 * `signature|ok`, the path of most calls, as one string per function: the gas table is looked up
 * by it at every call, and a string used again keeps its hash.
 */
function okPathOf(signature: string): string {
  let path = okPaths.get(signature);
  if (path === undefined) okPaths.set(signature, (path = `${signature}|ok`));
  return path;
}

/** An indexed address or bytes32 as its topic word (what zeroPadValue(t, 32) gives for the node's lowercase hex). */
function topicWord(value: Hex): Hex {
  if (value.length === 66) return value;
  if (value.length === 42) return '0x000000000000000000000000' + value.slice(2);
  return zeroPadValue(value, 32);
}

/** keccak256 of 0x-hex bytes, as 0x-hex. */
function hashHex(data: Hex): Hex {
  return bytesHex(keccak256Bytes(hexBytes(data)));
}

const uintData = (value: bigint): Hex => (value >= 0n && value <= MAX_UINT256 ? '0x' + value.toString(16).padStart(64, '0') : toBeHex(value, 32));

// ---- modifiers and internal functions, as FiatToken v2.2 has them ----

function whenNotPaused(inv: Invocation): void {
  inv.require(!inv.state.paused(), 'Pausable: paused');
}

function notBlacklisted(inv: Invocation, account: Hex): void {
  inv.require(!inv.state.isBlacklisted(account), 'Blacklistable: account is blacklisted');
}

function onlyPauser(inv: Invocation): void {
  inv.require(inv.caller === inv.state.pauser(), 'Pausable: caller is not the pauser');
}

function onlyBlacklister(inv: Invocation): void {
  inv.require(inv.caller === inv.state.blacklister(), 'Blacklistable: caller is not the blacklister');
}

function onlyMinters(inv: Invocation): void {
  inv.require(inv.state.isMinter(inv.caller), 'FiatToken: caller is not a minter');
}

function onlyOwner(inv: Invocation): void {
  inv.require(inv.caller === inv.state.owner(), 'Ownable: caller is not the owner');
}

function onlyMasterMinter(inv: Invocation): void {
  inv.require(inv.caller === inv.state.masterMinter(), 'FiatToken: caller is not the masterMinter');
}

function onlyRescuer(inv: Invocation): void {
  inv.require(inv.caller === inv.state.rescuer(), 'Rescuable: caller is not the rescuer');
}

/** `require(account != address(0), reason)` of the role setters. */
function nonZero(inv: Invocation, account: Hex, reason: string): void {
  inv.require(account !== ZERO_ADDRESS, reason);
}

function safeAdd(inv: Invocation, a: bigint, b: bigint): bigint {
  const sum = a + b;
  inv.require(sum <= MAX_UINT256, 'SafeMath: addition overflow');
  return sum;
}

function setBalance(inv: Invocation, account: Hex, balance: bigint): void {
  inv.require(balance <= MAX_BALANCE, 'FiatTokenV2_2: Balance exceeds (2^255 - 1)');
  inv.require(!inv.state.isBlacklisted(account), 'FiatTokenV2_2: Account is blacklisted');
  inv.meter.set(balanceSlot(account), balance);
}

function transferInternal(inv: Invocation, from: Hex, to: Hex, value: bigint): void {
  inv.require(from !== ZERO_ADDRESS, 'ERC20: transfer from the zero address');
  inv.require(to !== ZERO_ADDRESS, 'ERC20: transfer to the zero address');
  inv.require(value <= inv.state.balanceOf(from), 'ERC20: transfer amount exceeds balance');
  setBalance(inv, from, inv.state.balanceOf(from) - value);
  setBalance(inv, to, safeAdd(inv, inv.state.balanceOf(to), value));
  inv.emit('Transfer', [from, to], uintData(value));
}

function approveInternal(inv: Invocation, owner: Hex, spender: Hex, value: bigint): void {
  inv.require(owner !== ZERO_ADDRESS, 'ERC20: approve from the zero address');
  inv.require(spender !== ZERO_ADDRESS, 'ERC20: approve to the zero address');
  inv.state.setAllowance(owner, spender, value);
  inv.emit('Approval', [owner, spender], uintData(value));
}

/** EIP-712 domain separators by their inputs: the token reads its name from storage on every signature check (metered), then hashes the domain. */
const separators = new Map<string, Hex>();

function domainSeparator(inv: Invocation): Hex {
  return domainSeparatorOf(inv.state.name(), inv.token.options.version, inv.ctx.block.chainId, inv.token.address);
}

function domainSeparatorOf(name: string, version: string, chainId: bigint, verifyingContract: Hex): Hex {
  const key = `${version}\u0000${chainId}\u0000${verifyingContract}\u0000${name}`;
  let separator = separators.get(key);
  if (separator === undefined) {
    separator = tokenDomainSeparator({ name, version, chainId, verifyingContract });
    if (separators.size >= 64) separators.clear();
    separators.set(key, separator);
  }
  return separator;
}

/**
 * Recovered signers by digest and signature. Public-key recovery is the costliest step of a call
 * (about 2 ms in JavaScript) and one authorization is typically recovered several times: by
 * eth_estimateGas, by a dry-run eth_call and by the transaction itself. Pure, so safe to cache.
 */
const recovered = new Map<string, Hex>();
const RECOVERED_CACHE_SIZE = 4096;

/** What permit's `deadline >= now` costs when the deadline is not 2^256 - 1 (measured on USDC). */
const DEADLINE_COMPARISON_GAS = 13n;

/** What ECRecover's `v != 28` costs when `v != 27` did not already decide (measured on USDC). */
const V_SECOND_COMPARISON_GAS = 20n;

/** What ecrecover answers for a well-formed signature (r, s, v of `signature`): the signer, or the zero address; recovered once per digest and signature. */
function recoverOnce(digest: Hex, signature: Hex, r: Hex, s: Hex, v: number): Hex {
  const key = digest + signature.slice(2).toLowerCase();
  let signer = recovered.get(key);
  if (signer === undefined) {
    signer = ZERO_ADDRESS;
    try {
      signer = recoverSigner(hexBytes(digest), hexBytes(r), hexBytes(s), v - 27);
    } catch {
      // The precompile returns the zero address for points off the curve, r = 0, s = 0 and so on.
    }
    if (recovered.size >= RECOVERED_CACHE_SIZE) recovered.delete(recovered.keys().next().value as string);
    recovered.set(key, signer);
  }
  return signer;
}

/** ECRecover.recover(digest, signature) with its checks and reasons. */
function ecRecover(inv: Invocation, digest: Hex, signature: Hex): Hex {
  const problem = signatureProblem(signature);
  const parts = splitSignature(signature);
  // `v != 27 && v != 28`: the second comparison runs only when v is not 27.
  if (parts && BigInt(parts.s) <= SECP256K1_HALF_N && parts.v !== 27) inv.meter.charge(V_SECOND_COMPARISON_GAS);
  inv.require(problem === undefined, problem?.reason ?? '');
  const { r, s, v } = splitSignature(signature)!;
  const signer = recoverOnce(digest, signature, r, s, v);
  const tracer = inv.ctx.tracer;
  if (tracer) {
    const input = concat([digest, toBeHex(BigInt(v), 32), r, s]);
    const frame = tracer.enter({ type: 'STATICCALL', from: inv.token.address, to: ECRECOVER, input });
    tracer.exit(frame, { gasUsed: ECRECOVER_GAS, output: signer === ZERO_ADDRESS ? '0x' : zeroPadValue(signer, 32) });
  }
  inv.require(signer !== ZERO_ADDRESS, 'ECRecover: invalid signature');
  return signer;
}

/**
 * SignatureChecker.isValidSignatureNow, a library the implementation DELEGATECALLs: it asks for the
 * signer's code size (EXTCODESIZE) and recovers with ecrecover when there is none. A signer with
 * code is asked isValidSignature (ERC-1271): the native path declines and the token's bytecode runs
 * the message in the EVM. The token's own address implements no isValidSignature and therefore
 * never validates (priced here).
 */
function isValidSignatureNow(inv: Invocation, signer: Hex, structHash: Hex, signature: Hex): boolean {
  const digest = hashHex('0x1901' + domainSeparator(inv).slice(2) + structHash.slice(2));
  inv.meter.touchAccount(inv.token.signatureChecker);
  const tracer = inv.ctx.tracer;
  // The library runs in a DELEGATECALL frame of its own (traced only).
  const frame = tracer?.enter({ type: 'DELEGATECALL', from: inv.token.address, to: inv.token.signatureChecker, input: isValidSignatureNowInput(signer, digest, signature), value: 0n });
  const implBefore = inv.meter.dynamic;
  inv.meter.touchAccount(signer);
  try {
    let valid: boolean;
    if (signer === inv.token.address) {
      inv.tag('erc1271');
      valid = false;
    } else {
      // A signer with code is asked isValidSignature (ERC-1271): the token's bytecode runs the call instead.
      if (inv.ctx.hasCode(signer)) throw new NativePathDeclined('an ERC-1271 signer');
      valid = ecRecover(inv, digest, signature) === signer;
    }
    if (frame) endLibraryFrame(inv, frame, implBefore, { output: encodeResults(['bool'], [valid]) });
    // The library ran in its own memory (DELEGATECALL); back here, the signature is in this call's memory.
    inv.signatureInMemory = true;
    return valid;
  } catch (error) {
    if (frame && error instanceof Revert) endLibraryFrame(inv, frame, implBefore, { revert: error });
    throw error;
  }
}

let signatureChecker: { selector: Hex; codec: FunctionCodec } | undefined;
/** The calldata of SignatureChecker.isValidSignatureNow (traced signature checks only). */
function isValidSignatureNowInput(signer: Hex, digest: Hex, signature: Hex): Hex {
  if (!signatureChecker) {
    const fn = parseFunctionFragment('function isValidSignatureNow(address signer, bytes32 digest, bytes signature) view returns (bool)');
    signatureChecker = { selector: fn.selector, codec: functionCodec([], fn.inputs) };
  }
  return signatureChecker.selector + signatureChecker.codec.encode([signer, digest, signature]).slice(2);
}
const ECRECOVER: Hex = '0x0000000000000000000000000000000000000001';
const ECRECOVER_GAS = 3_000n;

/** The library frame's gas: measured constants of the function's path plus what the library metered (the signer's EXTCODESIZE). */
function endLibraryFrame(inv: Invocation, frame: TracedFrame, implBefore: bigint, end: { output?: Hex; revert?: Revert }): void {
  const constants = signatureCallGas(inv.signature);
  const metered = inv.meter.dynamic - implBefore;
  const recovered = frame.calls.length > 0;
  const gasUsed = constants.library + metered + (recovered ? ECRECOVER_GAS : 0n);
  const spentBefore = constants.implementationBefore + (implBefore - inv.proxyDynamic);
  if (end.revert) {
    const revertData = end.revert.reason === undefined ? '0x' : encodeRevertReason(end.revert.reason);
    inv.ctx.tracer!.exit(frame, { gasUsed, parentSpentBefore: spentBefore, output: revertData, error: 'execution reverted', revertReason: end.revert.reason });
  } else {
    inv.ctx.tracer!.exit(frame, { gasUsed, parentSpentBefore: spentBefore, output: end.output });
  }
  const call = frame.calls[0];
  if (call) call.parentSpentBefore = constants.libraryBefore + metered;
}

function requireValidSignature(inv: Invocation, signer: Hex, structHash: Hex, signature: Hex): void {
  inv.require(isValidSignatureNow(inv, signer, structHash, signature), 'FiatTokenV2: invalid signature');
}

function requireUnusedAuthorization(inv: Invocation, authorizer: Hex, nonce: Hex): void {
  inv.require(!inv.state.authorizationState(authorizer, nonce), 'FiatTokenV2: authorization is used or canceled');
}

function requireValidAuthorization(inv: Invocation, authorizer: Hex, nonce: Hex, validAfter: bigint, validBefore: bigint): void {
  inv.require(inv.now > validAfter, 'FiatTokenV2: authorization is not yet valid');
  inv.require(inv.now < validBefore, 'FiatTokenV2: authorization is expired');
  requireUnusedAuthorization(inv, authorizer, nonce);
}

function markAuthorizationAsUsed(inv: Invocation, authorizer: Hex, nonce: Hex): void {
  inv.state.markAuthorization(authorizer, nonce);
  inv.emit('AuthorizationUsed', [authorizer, nonce]);
}

/** r ‖ s ‖ v as one 65-byte signature (r and s are lowercase bytes32 from the calldata reader). */
function packSignature(v: bigint, r: Hex, s: Hex): Hex {
  return `${r}${s.slice(2)}${(v & 0xffn).toString(16).padStart(2, '0')}`;
}

interface Authorization {
  from: Hex;
  to: Hex;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
  signature: Hex;
}

function readAuthorization(args: Args): Authorization {
  const signature = args.length === 7 ? (args[6] as Hex) : packSignature(args[6] as bigint, args[7] as Hex, args[8] as Hex);
  return {
    from: (args[0] as string).toLowerCase(),
    to: (args[1] as string).toLowerCase(),
    value: args[2] as bigint,
    validAfter: args[3] as bigint,
    validBefore: args[4] as bigint,
    nonce: (args[5] as string).toLowerCase(),
    signature,
  };
}

/**
 * keccak256(abi.encode(typehash, from, to, value, validAfter, validBefore, nonce)). Every field
 * is static, so its ABI encoding is the fields as 32-byte words, side by side: built directly,
 * without the ABI coder (a capture's costliest step after the signature).
 */
function authorizationStructHash(typehash: Hex, a: Authorization): Hex {
  return hashWords([typehash, topicWord(a.from), topicWord(a.to), uintData(a.value), uintData(a.validAfter), uintData(a.validBefore), a.nonce]);
}

/** keccak256 of 32-byte words side by side: abi.encode of static fields, without the ABI coder. */
function hashWords(words: readonly Hex[]): Hex {
  return hashHex('0x' + words.map((w) => w.slice(2)).join(''));
}

function transferWithAuthorization(inv: Invocation, args: Args): unknown[] {
  const a = readAuthorization(args);
  whenNotPaused(inv);
  notBlacklisted(inv, a.from);
  notBlacklisted(inv, a.to);
  requireValidAuthorization(inv, a.from, a.nonce, a.validAfter, a.validBefore);
  requireValidSignature(inv, a.from, authorizationStructHash(TYPEHASHES.TransferWithAuthorization, a), a.signature);
  markAuthorizationAsUsed(inv, a.from, a.nonce);
  transferInternal(inv, a.from, a.to, a.value);
  return [];
}

function receiveWithAuthorization(inv: Invocation, args: Args): unknown[] {
  const a = readAuthorization(args);
  whenNotPaused(inv);
  notBlacklisted(inv, a.from);
  notBlacklisted(inv, a.to);
  inv.require(a.to === inv.caller, 'FiatTokenV2: caller must be the payee');
  requireValidAuthorization(inv, a.from, a.nonce, a.validAfter, a.validBefore);
  requireValidSignature(inv, a.from, authorizationStructHash(TYPEHASHES.ReceiveWithAuthorization, a), a.signature);
  markAuthorizationAsUsed(inv, a.from, a.nonce);
  transferInternal(inv, a.from, a.to, a.value);
  return [];
}

function cancelAuthorization(inv: Invocation, args: Args): unknown[] {
  const authorizer = (args[0] as string).toLowerCase();
  const nonce = (args[1] as string).toLowerCase();
  const signature = args.length === 3 ? (args[2] as Hex) : packSignature(args[2] as bigint, args[3] as Hex, args[4] as Hex);
  whenNotPaused(inv);
  requireUnusedAuthorization(inv, authorizer, nonce);
  const structHash = hashWords([TYPEHASHES.CancelAuthorization, topicWord(authorizer), nonce]);
  requireValidSignature(inv, authorizer, structHash, signature);
  inv.state.markAuthorization(authorizer, nonce);
  inv.emit('AuthorizationCanceled', [authorizer, nonce]);
  return [];
}

function permit(inv: Invocation, args: Args): unknown[] {
  const owner = (args[0] as string).toLowerCase();
  const spender = (args[1] as string).toLowerCase();
  const value = args[2] as bigint;
  const deadline = args[3] as bigint;
  const signature = args.length === 5 ? (args[4] as Hex) : packSignature(args[4] as bigint, args[5] as Hex, args[6] as Hex);
  whenNotPaused(inv);
  // `deadline == type(uint256).max || deadline >= now`: the clock is read only for a real deadline.
  if (deadline !== MAX_UINT256) inv.meter.charge(DEADLINE_COMPARISON_GAS);
  inv.require(deadline === MAX_UINT256 || deadline >= inv.now, 'FiatTokenV2: permit is expired');
  const nonce = inv.state.permitNonce(owner);
  inv.state.setPermitNonce(owner, nonce + 1n);
  const structHash = hashWords([TYPEHASHES.Permit, topicWord(owner), topicWord(spender), uintData(value), uintData(nonce), uintData(deadline)]);
  inv.require(isValidSignatureNow(inv, owner, structHash, signature), 'EIP2612: invalid signature');
  approveInternal(inv, owner, spender, value);
  return [];
}

const lower = (value: unknown): Hex => (value as string).toLowerCase();

const TRANSFER_SELECTOR = '0xa9059cbb';

/**
 * rescueERC20(tokenContract, to, amount): the rescuer moves ERC-20 tokens the token's own address
 * holds, with SafeERC20.safeTransfer: Address.functionCall (the target must have code), then
 * tokenContract.transfer(to, amount) as a CALL from the token's address, bubbling its revert.
 * The token can rescue itself (a CALL back into the proxy, metered on the same meter); any other
 * contract's transfer is bytecode, so the native path declines and the EVM runs the message.
 */
function rescueERC20(inv: Invocation, args: Args): unknown[] {
  const target = lower(args[0]);
  const to = lower(args[1]);
  const amount = args[2] as bigint;
  onlyRescuer(inv);
  inv.meter.touchAccount(target);
  inv.require(inv.token.codeOf(inv.ctx, target) !== '0x', 'Address: call to non-contract');
  if (target !== inv.token.address) {
    // Another contract's transfer runs as bytecode: the whole message goes to the EVM.
    throw new NativePathDeclined(`rescueERC20 of another contract (${target})`);
  }
  const data = TRANSFER_SELECTOR + topicWord(to).slice(2) + uintData(amount).slice(2);
  const before = inv.meter.dynamic;
  const inner = inv.token.enter(inv.ctx, inv.meter, inv.token.address, data, 0n);
  inv.tag(`call ${inner.path}`);
  if (!inner.ok) throw inner.revert.reason === undefined ? new Revert('SafeERC20: low-level call failed') : inner.revert;
  inv.callSurplus += nestedCallSurplus(inner.path, inv.meter.dynamic - before, inner.proxyDynamic - before, inv.meter.lastSstoreCost);
  return [];
}

type Handler = (inv: Invocation, args: Args) => unknown[];

interface FunctionEntry {
  /** The function's canonical signature (the path starts with it). */
  readonly signature: string;
  readonly handler: Handler;
  /** Reads its calldata and writes its return data. */
  readonly codec: FunctionCodec;
}

/** Handlers by function signature; every fragment of the ABI has one. */
const HANDLERS: Record<string, Handler> = {
  'name()': (inv) => [inv.state.name()],
  'symbol()': (inv) => [inv.state.symbol()],
  'decimals()': (inv) => [inv.state.decimals()],
  'currency()': (inv) => [inv.state.currency()],
  'version()': (inv) => [inv.token.options.version],
  'totalSupply()': (inv) => [inv.state.totalSupply()],
  'balanceOf(address)': (inv, a) => [inv.state.balanceOf(lower(a[0]))],
  'allowance(address,address)': (inv, a) => [inv.state.allowance(lower(a[0]), lower(a[1]))],
  'approve(address,uint256)': (inv, a) => {
    whenNotPaused(inv);
    approveInternal(inv, inv.caller, lower(a[0]), a[1] as bigint);
    return [true];
  },
  'increaseAllowance(address,uint256)': (inv, a) => {
    whenNotPaused(inv);
    const spender = lower(a[0]);
    approveInternal(inv, inv.caller, spender, safeAdd(inv, inv.state.allowance(inv.caller, spender), a[1] as bigint));
    return [true];
  },
  'decreaseAllowance(address,uint256)': (inv, a) => {
    whenNotPaused(inv);
    const spender = lower(a[0]);
    const current = inv.state.allowance(inv.caller, spender);
    inv.require((a[1] as bigint) <= current, 'ERC20: decreased allowance below zero');
    approveInternal(inv, inv.caller, spender, current - (a[1] as bigint));
    return [true];
  },
  'transfer(address,uint256)': (inv, a) => {
    const to = lower(a[0]);
    whenNotPaused(inv);
    notBlacklisted(inv, inv.caller);
    notBlacklisted(inv, to);
    transferInternal(inv, inv.caller, to, a[1] as bigint);
    return [true];
  },
  'transferFrom(address,address,uint256)': (inv, a) => {
    const from = lower(a[0]);
    const to = lower(a[1]);
    const value = a[2] as bigint;
    whenNotPaused(inv);
    notBlacklisted(inv, inv.caller);
    notBlacklisted(inv, from);
    notBlacklisted(inv, to);
    const allowed = inv.state.allowance(from, inv.caller);
    inv.require(value <= allowed, 'ERC20: transfer amount exceeds allowance');
    transferInternal(inv, from, to, value);
    inv.state.setAllowance(from, inv.caller, inv.state.allowance(from, inv.caller) - value);
    return [true];
  },
  'transferWithMemo(address,uint256,bytes32)': (inv, a) => {
    const to = lower(a[0]);
    const value = a[1] as bigint;
    const memo = lower(a[2]);
    whenNotPaused(inv);
    notBlacklisted(inv, inv.caller);
    notBlacklisted(inv, to);
    transferInternal(inv, inv.caller, to, value);
    inv.emit('Memo', [inv.caller, to, memo], uintData(value));
    return [];
  },
  'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)': transferWithAuthorization,
  'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)': transferWithAuthorization,
  'receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)': receiveWithAuthorization,
  'receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)': receiveWithAuthorization,
  'cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)': cancelAuthorization,
  'cancelAuthorization(address,bytes32,bytes)': cancelAuthorization,
  'authorizationState(address,bytes32)': (inv, a) => [inv.state.authorizationState(lower(a[0]), lower(a[1]))],
  'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)': permit,
  'permit(address,address,uint256,uint256,bytes)': permit,
  'nonces(address)': (inv, a) => [inv.state.permitNonce(lower(a[0]))],
  'DOMAIN_SEPARATOR()': (inv) => [domainSeparator(inv)],
  'TRANSFER_WITH_AUTHORIZATION_TYPEHASH()': () => [TYPEHASHES.TransferWithAuthorization],
  'RECEIVE_WITH_AUTHORIZATION_TYPEHASH()': () => [TYPEHASHES.ReceiveWithAuthorization],
  'CANCEL_AUTHORIZATION_TYPEHASH()': () => [TYPEHASHES.CancelAuthorization],
  'PERMIT_TYPEHASH()': () => [TYPEHASHES.Permit],
  'owner()': (inv) => [inv.state.owner()],
  'pauser()': (inv) => [inv.state.pauser()],
  'blacklister()': (inv) => [inv.state.blacklister()],
  'masterMinter()': (inv) => [inv.state.masterMinter()],
  'paused()': (inv) => [inv.state.paused()],
  'isBlacklisted(address)': (inv, a) => [inv.state.isBlacklisted(lower(a[0]))],
  'isMinter(address)': (inv, a) => [inv.state.isMinter(lower(a[0]))],
  'minterAllowance(address)': (inv, a) => [inv.state.minterAllowance(lower(a[0]))],
  'mint(address,uint256)': (inv, a) => {
    const to = lower(a[0]);
    const amount = a[1] as bigint;
    whenNotPaused(inv);
    onlyMinters(inv);
    notBlacklisted(inv, inv.caller);
    notBlacklisted(inv, to);
    inv.require(to !== ZERO_ADDRESS, 'FiatToken: mint to the zero address');
    inv.require(amount > 0n, 'FiatToken: mint amount not greater than 0');
    const allowance = inv.state.minterAllowance(inv.caller);
    inv.require(amount <= allowance, 'FiatToken: mint amount exceeds minterAllowance');
    inv.state.setTotalSupply(safeAdd(inv, inv.state.totalSupply(), amount));
    setBalance(inv, to, safeAdd(inv, inv.state.balanceOf(to), amount));
    inv.state.setMinterAllowance(inv.caller, allowance - amount);
    inv.emit('Mint', [inv.caller, to], uintData(amount));
    inv.emit('Transfer', [ZERO_ADDRESS, to], uintData(amount));
    return [true];
  },
  'burn(uint256)': (inv, a) => {
    const amount = a[0] as bigint;
    whenNotPaused(inv);
    onlyMinters(inv);
    notBlacklisted(inv, inv.caller);
    const balance = inv.state.balanceOf(inv.caller);
    inv.require(amount > 0n, 'FiatToken: burn amount not greater than 0');
    inv.require(balance >= amount, 'FiatToken: burn amount exceeds balance');
    inv.state.setTotalSupply(inv.state.totalSupply() - amount);
    setBalance(inv, inv.caller, balance - amount);
    inv.emit('Burn', [inv.caller], uintData(amount));
    inv.emit('Transfer', [inv.caller, ZERO_ADDRESS], uintData(amount));
    return [];
  },
  'pause()': (inv) => {
    onlyPauser(inv);
    inv.state.setPaused(true);
    inv.emit('Pause', []);
    return [];
  },
  'unpause()': (inv) => {
    onlyPauser(inv);
    inv.state.setPaused(false);
    inv.emit('Unpause', []);
    return [];
  },
  'blacklist(address)': (inv, a) => {
    const account = lower(a[0]);
    onlyBlacklister(inv);
    inv.state.setBlacklisted(account, true);
    inv.emit('Blacklisted', [account]);
    return [];
  },
  'unBlacklist(address)': (inv, a) => {
    const account = lower(a[0]);
    onlyBlacklister(inv);
    inv.state.setBlacklisted(account, false);
    inv.emit('UnBlacklisted', [account]);
    return [];
  },
  'configureMinter(address,uint256)': (inv, a) => {
    const minter = lower(a[0]);
    const allowance = a[1] as bigint;
    whenNotPaused(inv);
    onlyMasterMinter(inv);
    inv.state.setMinter(minter, true);
    inv.state.setMinterAllowance(minter, allowance);
    inv.emit('MinterConfigured', [minter], uintData(allowance));
    return [true];
  },
  'removeMinter(address)': (inv, a) => {
    const minter = lower(a[0]);
    onlyMasterMinter(inv);
    inv.state.setMinter(minter, false);
    inv.state.setMinterAllowance(minter, 0n);
    inv.emit('MinterRemoved', [minter]);
    return [true];
  },
  'updateMasterMinter(address)': (inv, a) => {
    const next = lower(a[0]);
    onlyOwner(inv);
    nonZero(inv, next, 'FiatToken: new masterMinter is the zero address');
    inv.state.setMasterMinter(next);
    inv.emit('MasterMinterChanged', [inv.state.masterMinter()]);
    return [];
  },
  'transferOwnership(address)': (inv, a) => {
    const next = lower(a[0]);
    onlyOwner(inv);
    nonZero(inv, next, 'Ownable: new owner is the zero address');
    inv.emit('OwnershipTransferred', [], concat([zeroPadValue(inv.state.owner(), 32), zeroPadValue(next, 32)]));
    inv.state.setOwner(next);
    return [];
  },
  'updatePauser(address)': (inv, a) => {
    const next = lower(a[0]);
    onlyOwner(inv);
    nonZero(inv, next, 'Pausable: new pauser is the zero address');
    inv.state.setPauser(next);
    inv.emit('PauserChanged', [inv.state.pauser()]);
    return [];
  },
  'updateBlacklister(address)': (inv, a) => {
    const next = lower(a[0]);
    onlyOwner(inv);
    nonZero(inv, next, 'Blacklistable: new blacklister is the zero address');
    inv.state.setBlacklister(next);
    inv.emit('BlacklisterChanged', [inv.state.blacklister()]);
    return [];
  },
  'rescuer()': (inv) => [inv.state.rescuer()],
  'updateRescuer(address)': (inv, a) => {
    const next = lower(a[0]);
    onlyOwner(inv);
    nonZero(inv, next, 'Rescuable: new rescuer is the zero address');
    inv.state.setRescuer(next);
    inv.emit('RescuerChanged', [next]);
    return [];
  },
  'rescueERC20(address,address,uint256)': rescueERC20,
  // The deployed token is initialized to version 3: each initializer's first check fails.
  'initialize(string,string,string,uint8,address,address,address,address)': (inv) => {
    inv.require(!inv.state.initialized(), 'FiatToken: contract is already initialized');
    throw new Error('unreachable: the token is always initialized');
  },
  'initializeV2(string)': (inv) => {
    inv.requireSilently(inv.state.initialized() && inv.state.initializedVersion() === 0n);
    throw new Error('unreachable: the token is at version 3');
  },
  'initializeV2_1(address)': (inv) => {
    inv.requireSilently(inv.state.initializedVersion() === 1n);
    throw new Error('unreachable: the token is at version 3');
  },
  'initializeV2_2(address[],string)': (inv) => {
    inv.requireSilently(inv.state.initializedVersion() === 2n);
    throw new Error('unreachable: the token is at version 3');
  },
};

function buildDispatch(): Map<string, FunctionEntry> {
  const dispatch = new Map<string, FunctionEntry>();
  for (const fn of tokenFunctions()) {
    if (isProxyFunction(fn.signature)) continue; // the proxy's own (see StableToken.enter)
    const handler = HANDLERS[fn.signature];
    if (!handler) throw new Error(`no handler for ${fn.signature}`);
    dispatch.set(fn.selector, { signature: fn.signature, handler, codec: functionCodec(fn.inputs, fn.outputs) });
  }
  return dispatch;
}

const isProxyFunction = (signature: string): boolean => (PROXY_FUNCTIONS as readonly string[]).includes(signature);

let functionsBySelector: Map<string, FunctionEntry> | undefined;
/** The functions by selector, built on the first call. */
const DISPATCH = { get: (selector: string) => (functionsBySelector ??= buildDispatch()).get(selector) };

/** What one entry into the proxy did: the path it took (which prices its constant gas) and its result. */
type Entered =
  | { ok: true; path: string; proxyDynamic: bigint; returnData: Hex; callSurplus?: bigint }
  | { ok: false; path: string; proxyDynamic: bigint; revert: Revert };

interface ProxyEntry {
  readonly signature: string;
  readonly payable: boolean;
  readonly codec: FunctionCodec;
}

let proxyEntries: Map<string, ProxyEntry> | undefined;
/** The proxy's own functions by selector, built on the first call (start-up parses no ABI). */
function proxyFunctions(): Map<string, ProxyEntry> {
  if (proxyEntries) return proxyEntries;
  proxyEntries = new Map();
  for (const fn of tokenFunctions()) {
    if (isProxyFunction(fn.signature)) proxyEntries.set(fn.selector, { signature: fn.signature, payable: fn.payable, codec: functionCodec(fn.inputs, fn.outputs) });
  }
  return proxyEntries;
}

export class StableToken implements NativeContract {
  readonly address: Hex;
  readonly code: Hex = STABLE_TOKEN_CODE;
  /**
   * The accounts USDC's proxy involves, which the gas model charges for as the EVM would: the
   * implementation it delegates to (FiatTokenV2_2's code), the SignatureChecker library the
   * implementation delegates signature checks to (its code), and the proxy admin (who may not call
   * the token; no code). Their addresses are derived from the token's (as if it had created them),
   * so an access list can name them.
   */
  readonly implementation: Hex;
  readonly signatureChecker: Hex;
  readonly proxyAdmin: Hex;
  /** The implementation and the library have code, as on a real chain (a proxy upgrades only to a contract). */
  readonly companions: readonly { address: Hex; code: Hex }[];

  constructor(
    readonly options: TokenOptions,
    /** Lowercase address of the owner (also pauser, blacklister, master minter and minter). */
    readonly owner: Hex,
  ) {
    this.address = options.address.toLowerCase();
    this.implementation = createdAddress(this.address, 1);
    this.signatureChecker = createdAddress(this.address, 2);
    this.proxyAdmin = createdAddress(this.address, 3);
    this.companions = [
      { address: this.implementation, code: fiatTokenV2_2Runtime(this.signatureChecker) },
      { address: this.signatureChecker, code: signatureCheckerRuntime(this.signatureChecker) },
    ];
  }

  call(ctx: CallContext): CallOutcome {
    const meter = new GasMeter(ctx.storage, ctx.warm, this.address, ctx.tracer);
    let entered: Entered;
    try {
      entered = this.enter(ctx, meter, ctx.caller.toLowerCase(), ctx.data, ctx.value, true);
    } catch (error) {
      // An argument the calldata holds but that has no value of its type: USDC's bytecode decides (the EVM runs the message).
      if (error instanceof UnreadableArgument) throw new NativePathDeclined(error.message);
      throw error;
    }
    if (!entered.ok) return this.outcome(entered.path, meter, entered.proxyDynamic, entered.revert);
    return { ok: true, returnData: entered.returnData, ...this.gas(entered.path, meter, entered.proxyDynamic, true, entered.callSurplus) };
  }

  /**
   * One call entering the proxy (FiatTokenProxy, an AdminUpgradeabilityProxy) from `caller`: the
   * proxy's own functions first, then its fallback, which refuses the admin and DELEGATECALLs
   * everyone else to the implementation read from the implementation slot. Also how the token
   * calls itself (rescueERC20 of its own address, upgradeToAndCall), on the same meter
   * (`top` false: such a nested call is not traced as a frame of its own).
   */
  enter(ctx: CallContext, meter: GasMeter, caller: Hex, data: Hex, value: bigint, top = false): Entered {
    const selector = data.slice(0, 10).toLowerCase();
    const proxyEntry = data.length >= 10 ? proxyFunctions().get(selector) : undefined;
    if (proxyEntry) {
      const handled = this.proxyFunction(ctx, meter, caller, data, value, proxyEntry);
      // The proxy's own functions run in the proxy, without a DELEGATECALL: all of their gas is the proxy's.
      if (handled) return { ...handled, proxyDynamic: meter.dynamic };
    }
    // The fallback: _willFallback refuses the admin, then _delegate(_implementation()).
    const admin = wordToAddress(meter.get(PROXY_SLOTS.admin));
    if (caller === admin) {
      const path = proxyEntry ? `${proxyEntry.signature}|admin fallback` : 'proxy|admin';
      return { ok: false, path, proxyDynamic: 0n, revert: new Revert('Cannot call fallback function from the proxy admin') };
    }
    const implementation = wordToAddress(meter.get(PROXY_SLOTS.implementation));
    meter.touchAccount(implementation);
    const proxyDynamic = meter.dynamic;
    if (implementation !== this.implementation) {
      // Upgraded to other code: the proxy's real bytecode delegates to it in the EVM.
      throw new NativePathDeclined(`the proxy delegates to ${implementation}, not FiatTokenV2_2`);
    }
    if (!top || !ctx.tracer) return this.delegated(ctx, meter, proxyDynamic, caller, data, value, proxyEntry);
    // Traced: the implementation's DELEGATECALL frame, as USDC shows it. Its gas is what the proxy
    // forwards after its own part; its gasUsed is the call's less the proxy's before and after.
    const frame = ctx.tracer.enter({ type: 'DELEGATECALL', from: this.address, to: this.implementation, input: data, value });
    const entered = this.delegated(ctx, meter, proxyDynamic, caller, data, value, proxyEntry);
    const constants = pathGas(entered.path);
    const proxyBefore = constants.proxyBefore + proxyDynamic;
    const used = priceCall(entered.path, proxyDynamic, meter, entered.ok, entered.ok ? entered.callSurplus : 0n).used;
    const gasUsed = used - proxyBefore - constants.proxyAfter;
    if (entered.ok) ctx.tracer.exit(frame, { gasUsed, parentSpentBefore: proxyBefore, output: entered.returnData });
    else {
      const output = entered.revert.reason === undefined ? '0x' : encodeRevertReason(entered.revert.reason);
      ctx.tracer.exit(frame, { gasUsed, parentSpentBefore: proxyBefore, output, error: 'execution reverted', revertReason: entered.revert.reason });
    }
    return entered;
  }

  /** The implementation's part: dispatch, the function, its return data or revert. */
  private delegated(ctx: CallContext, meter: GasMeter, proxyDynamic: bigint, caller: Hex, data: Hex, value: bigint, proxyEntry: ProxyEntry | undefined): Entered {
    const selector = data.slice(0, 10).toLowerCase();
    // A proxy function called by someone else than the admin reaches the implementation, which has no such function.
    const fallthrough = proxyEntry ? `${proxyEntry.signature}|fallback` : undefined;
    const entry = data.length >= 10 && !proxyEntry ? DISPATCH.get(selector) : undefined;
    // No fallback: an unknown selector reverts with empty data, as does ETH sent to a
    // non-payable function or calldata too short for the arguments.
    if (!entry) return { ok: false, path: fallthrough ?? 'unknown|revert', proxyDynamic, revert: new Revert() };
    const signature = entry.signature;
    if (value > 0n) return { ok: false, path: `${signature}|callvalue`, proxyDynamic, revert: new Revert() };
    const args = entry.codec.decode(data);
    if (!args) return { ok: false, path: `${signature}|calldata`, proxyDynamic, revert: new Revert() };
    const inv = new Invocation(ctx, meter, this, signature, proxyDynamic, caller);
    try {
      const returnData = entry.codec.encode(entry.handler(inv, args));
      return { ok: true, path: inv.path(), proxyDynamic, returnData, callSurplus: inv.callSurplus };
    } catch (error) {
      if (!(error instanceof Revert)) throw error;
      return { ok: false, path: inv.path(error), proxyDynamic, revert: error };
    }
  }

  /**
   * admin() and implementation() answer anyone (Circle's proxy has no ifAdmin on them);
   * changeAdmin, upgradeTo and upgradeToAndCall run for the admin only (ifAdmin): for anyone else
   * this answers undefined and the call goes on to the fallback.
   */
  private proxyFunction(ctx: CallContext, meter: GasMeter, caller: Hex, data: Hex, value: bigint, entry: ProxyEntry): Entered | undefined {
    const signature = entry.signature;
    if (value > 0n && !entry.payable) return { ok: false, path: `${signature}|callvalue`, proxyDynamic: 0n, revert: new Revert() };
    const args = entry.codec.decode(data);
    if (!args) return { ok: false, path: `${signature}|calldata`, proxyDynamic: 0n, revert: new Revert() };
    const encode = (values: unknown[]): Hex => entry.codec.encode(values);
    if (signature === 'admin()') return { ok: true, path: `${signature}|ok`, proxyDynamic: 0n, returnData: encode([wordToAddress(meter.get(PROXY_SLOTS.admin))]) };
    if (signature === 'implementation()') return { ok: true, path: `${signature}|ok`, proxyDynamic: 0n, returnData: encode([wordToAddress(meter.get(PROXY_SLOTS.implementation))]) };
    // ifAdmin
    const admin = wordToAddress(meter.get(PROXY_SLOTS.admin));
    if (caller !== admin) return undefined;
    const emit = (event: TokenEventName, indexed: Hex[], logData: Hex = '0x'): void => {
      ctx.emitLog({ topics: [EVENT_TOPICS[event], ...indexed.map((t) => zeroPadValue(t, 32))], data: logData });
    };
    const fail = (check: number, reason?: string): Entered => ({ ok: false, path: `${signature}|revert ${check} ${reason ?? ''}`.trimEnd(), proxyDynamic: 0n, revert: new Revert(reason) });
    if (signature === 'changeAdmin(address)') {
      const next = lower(args[0]);
      if (next === ZERO_ADDRESS) return fail(1, 'Cannot change the admin of a proxy to the zero address');
      emit('AdminChanged', [], concat([zeroPadValue(wordToAddress(meter.get(PROXY_SLOTS.admin)), 32), zeroPadValue(next, 32)]));
      meter.set(PROXY_SLOTS.admin, addressToWord(next));
      return { ok: true, path: `${signature}|ok`, proxyDynamic: 0n, returnData: '0x' };
    }
    // upgradeTo / upgradeToAndCall: _setImplementation requires a contract (EXTCODESIZE), then logs Upgraded.
    const next = lower(args[0]);
    meter.touchAccount(next);
    if (this.codeOf(ctx, next) === '0x') return fail(1, 'Cannot set a proxy implementation to a non-contract address');
    meter.set(PROXY_SLOTS.implementation, addressToWord(next));
    emit('Upgraded', [], zeroPadValue(next, 32));
    if (signature === 'upgradeTo(address)') return { ok: true, path: `${signature}|ok`, proxyDynamic: 0n, returnData: '0x' };
    // upgradeToAndCall: address(this).call{value: msg.value}(data); require(success).
    meter.touchAccount(this.address);
    const inner = this.enter(ctx, meter, this.address, lower(args[1]), value);
    const path = `${signature}|call ${inner.path}`;
    if (!inner.ok) return { ok: false, path: `${path}|revert 2`, proxyDynamic: 0n, revert: new Revert() };
    return { ok: true, path: `${path}|ok`, proxyDynamic: 0n, returnData: '0x' };
  }

  /**
   * A transaction calling the token was accepted: when it is an authorization
   * (transferWithAuthorization, receiveWithAuthorization), its signer is recovered now, over the
   * digest the call computes on `state`, so the flashblock that executes it finds the signer
   * known. A hint only, never an error: the call still computes its digest and checks everything,
   * and a digest that differs by then (the name changed) is recovered then.
   */
  prepare(data: Hex, state: StateReader, chainId: bigint): void {
    const entry = data.length >= 10 ? DISPATCH.get(data.slice(0, 10).toLowerCase()) : undefined;
    if (!entry || (entry.handler !== receiveWithAuthorization && entry.handler !== transferWithAuthorization)) return;
    const args = entry.codec.decode(data);
    if (!args) return;
    let a: Authorization;
    try {
      a = readAuthorization(args);
    } catch (error) {
      if (error instanceof UnreadableArgument) return; // the call itself declines to the EVM
      throw error;
    }
    if (signatureProblem(a.signature) !== undefined) return;
    const storage: ContractStorage = {
      get: (slot) => state.storage(this.address, slot),
      set: () => {
        throw new Error('read only');
      },
    };
    const typehash = entry.handler === receiveWithAuthorization ? TYPEHASHES.ReceiveWithAuthorization : TYPEHASHES.TransferWithAuthorization;
    const separator = domainSeparatorOf(readString(storage, TOKEN_SLOTS.name), this.options.version, chainId, this.address);
    const digest = hashHex('0x1901' + separator.slice(2) + authorizationStructHash(typehash, a).slice(2));
    const { r, s, v } = splitSignature(a.signature)!;
    recoverOnce(digest, a.signature, r, s, v);
  }

  /** Code at an address as the transaction sees it (the token's own from here). */
  codeOf(ctx: CallContext, address: Hex): Hex {
    if (address === this.address) return this.code;
    return ctx.codeAt?.(address) ?? '0x';
  }

  private gas(path: string, meter: GasMeter, proxyDynamic: bigint, ok: boolean, callSurplus = 0n): Pick<CallOutcome, 'gasUsed' | 'gas'> {
    const gas = priceCall(path, proxyDynamic, meter, ok, callSurplus);
    const metered = { dynamic: meter.dynamic, proxyDynamic, lastSstoreCost: meter.lastSstoreCost };
    return { gasUsed: gas.used, gas: { ...gas, path, metered } };
  }

  private outcome(path: string, meter: GasMeter, proxyDynamic: bigint, revert: Revert): CallOutcome {
    const revertData = revertDataOf(revert);
    return { ok: false, revertData, reason: revert.reason, ...this.gas(path, meter, proxyDynamic, false) };
  }

  genesis(ctx: GenesisContext): void {
    const storage = ctx.storage;
    const owner = this.owner;
    storage.set(TOKEN_SLOTS.owner, addressToWord(owner));
    storage.set(TOKEN_SLOTS.pauserAndPaused, packAddressAndBool(owner, false));
    storage.set(TOKEN_SLOTS.blacklister, addressToWord(owner));
    writeString(storage, TOKEN_SLOTS.name, this.options.name);
    writeString(storage, TOKEN_SLOTS.symbol, this.options.symbol);
    storage.set(TOKEN_SLOTS.decimals, BigInt(TOKEN_DECIMALS));
    writeString(storage, TOKEN_SLOTS.currency, this.options.currency);
    storage.set(TOKEN_SLOTS.masterMinterAndInitialized, packAddressAndBool(owner, true));
    storage.set(minterSlot(owner), 1n);
    storage.set(minterAllowedSlot(owner), GENESIS_MINTER_ALLOWANCE);
    storage.set(TOKEN_SLOTS.rescuer, addressToWord(owner));
    // v2's cached separator, computed once at initialization and kept (deprecated) since.
    storage.set(
      TOKEN_SLOTS.deprecatedCachedDomainSeparator,
      BigInt(
        tokenDomainSeparator({
          name: this.options.name,
          version: this.options.version,
          chainId: ctx.chainId,
          verifyingContract: this.address,
        }),
      ),
    );
    storage.set(TOKEN_SLOTS.initializedVersion, 3n);
    storage.set(PROXY_SLOTS.implementation, addressToWord(this.implementation));
    storage.set(PROXY_SLOTS.admin, addressToWord(this.proxyAdmin));
    let supply = 0n;
    for (const account of ctx.devAccounts) {
      const address = account.toLowerCase();
      storage.set(balanceSlot(address), storage.get(balanceSlot(address)) + this.options.balance);
      supply += this.options.balance;
    }
    storage.set(TOKEN_SLOTS.totalSupply, supply);
    // initializeV2_2 blocklists the token's own address.
    storage.set(balanceSlot(this.address), storage.get(balanceSlot(this.address)) | BLACKLIST_FLAG);
  }
}

