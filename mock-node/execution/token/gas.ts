// Execution gas of the native token, equal to what USDC (FiatTokenV2_2 behind FiatTokenProxy,
// with the SignatureChecker library it links) costs on the EVM of Anvil's default hardfork.
//
// A call's gas has two parts:
// - what depends on state, metered while the token runs (GasMeter, ../evmGas.ts) over the very
//   slots and accounts USDC touches: the proxy's admin and implementation slots and the
//   implementation it delegates to, the token's own slots, the SignatureChecker library and the
//   signer whose code size it asks for;
// - what does not: every other opcode on the path the call takes (dispatch, ABI decoding,
//   hashing, memory, logs, ecrecover), one set of constants per path, measured on the real
//   contract on Anvil (tokenGasTable.ts, written by test/mock-node/token/gasCalibration.ts).
// Where a few of those constants sit matters for the gas a call needs, as opposed to what it uses:
// the proxy forwards all but 1/64 of its gas to the implementation (EIP-150), and an SSTORE needs
// more than 2,300 gas left (EIP-2200). So eth_estimateGas is above gasUsed, as on Anvil.
import { allButOne64thInverse, EVM_GAS, type GasMeter } from '../evmGas';
import type { PathGas } from './pathGas';
import { TOKEN_GAS_TABLE } from './tokenGasTable';

/** What one call to the token costs, as the transaction that makes it needs to know. */
export interface CallGas {
  /** Execution gas used, before the refund. */
  used: bigint;
  /** EIP-3529 refund earned (0 for a call that reverts); the transaction caps it at a fifth of its gas. */
  refund: bigint;
  /** The least execution gas with which the call does what it does. */
  needed: bigint;
  /** Execution gas used when only `available` (< `needed`) is offered: the implementation runs out of gas. */
  outOfGas(available: bigint): bigint;
}

const MEMO_SIGNATURE = 'transferWithMemo(address,uint256,bytes32)';
/** LOG4 with one word of data: the Memo event, which USDC does not have. */
const MEMO_LOG_GAS = 375n + 4n * 375n + 8n * 32n;

/**
 * The measured constants of a path. `transferWithMemo` is ours (USDC has no such function): it
 * costs what `transfer` costs on the same path plus its Memo log. A path the calibration never
 * measured (a signer with code, a signature of another length than 64 or 65 bytes, a check no
 * scenario fails) takes the constants of the measured path of the same function whose failing
 * check is nearest before it: close, not exact (docs/token.md lists these).
 */
export function pathGas(path: string): PathGas {
  if (path.startsWith(MEMO_SIGNATURE)) {
    const transfer = pathGas(`transfer(address,uint256)${path.slice(MEMO_SIGNATURE.length)}`);
    const logged = path.endsWith('|ok');
    return {
      ...transfer,
      total: transfer.total + (logged ? MEMO_LOG_GAS : 0n),
      afterLastSstore: transfer.afterLastSstore === undefined ? undefined : transfer.afterLastSstore + (logged ? MEMO_LOG_GAS : 0n),
    };
  }
  const exact = TOKEN_GAS_TABLE[path];
  if (exact) return exact;
  const fn = path.slice(0, path.indexOf('|'));
  const check = (key: string): number => Number(/\|revert (\d+)/.exec(key)?.[1] ?? Number.MAX_SAFE_INTEGER);
  const wanted = check(path);
  const candidates = Object.keys(TOKEN_GAS_TABLE).filter((key) => key.startsWith(`${fn}|`));
  const before = candidates.filter((key) => check(key) <= wanted).sort((a, b) => check(b) - check(a));
  const nearest = before[0] ?? candidates.sort((a, b) => check(a) - check(b))[0];
  return TOKEN_GAS_TABLE[nearest ?? 'unknown|revert'];
}

/**
 * Prices a call that took `path`: the metered state-dependent gas (`meter.dynamic`, of which
 * `proxyDynamic` was spent by the proxy before it delegated) plus the path's constants.
 * `nestedNeedsOver`: what a nested CALL made by the implementation must be offered beyond what it uses.
 */
export function priceCall(path: string, proxyDynamic: bigint, meter: Pick<GasMeter, 'dynamic' | 'lastSstoreCost' | 'refund'>, ok: boolean, nestedNeedsOver = 0n): CallGas {
  const constants = pathGas(path);
  // What the nested CALL needs over what it uses is partly covered by the 1/64 the caller keeps
  // for what it does after the call (EIP-150).
  const afterCall = constants.afterCall ?? 0n;
  const callSurplus = nestedNeedsOver > afterCall ? nestedNeedsOver - afterCall : 0n;
  const used = constants.total + meter.dynamic;
  const proxyBefore = constants.proxyBefore + proxyDynamic;
  const inner = used - proxyBefore - constants.proxyAfter;
  // A CALL the implementation makes (the token calling itself) must be offered 64/63 of what it needs.
  let innerNeeded = inner + callSurplus;
  if (ok && meter.lastSstoreCost !== undefined && constants.afterLastSstore !== undefined) {
    const sentry = inner - meter.lastSstoreCost - constants.afterLastSstore + EVM_GAS.sstoreSentry + 1n;
    if (sentry > innerNeeded) innerNeeded = sentry;
  }
  const needed = ok ? proxyBefore + allButOne64thInverse(innerNeeded) : used;
  const afterFailure = TOKEN_GAS_TABLE['outOfGas|proxy'].proxyAfter;
  return {
    used,
    refund: ok ? meter.refund : 0n,
    needed: needed > used ? needed : used,
    outOfGas(available: bigint): bigint {
      const forwarded = available - proxyBefore;
      if (forwarded <= 0n) return available;
      const spent = proxyBefore + (forwarded - forwarded / 64n) + afterFailure;
      return spent < available ? spent : available;
    },
  };
}

/**
 * What a CALL the implementation makes to the token's own address must be offered beyond what it
 * uses: the nested call (proxy, then implementation) needs more than it uses (its own 63/64 rule
 * and SSTORE sentry), and the CALL forwards only 63/64 of what is left. `dynamic` and
 * `proxyDynamic` are the nested call's own metered parts.
 */
export function nestedCallSurplus(path: string, dynamic: bigint, proxyDynamic: bigint, lastSstoreCost: bigint | undefined): bigint {
  const nested = priceCall(path, proxyDynamic, { dynamic, lastSstoreCost, refund: 0n }, true);
  return allButOne64thInverse(nested.needed) - nested.used;
}
