// Diagnostics of an `.authorization.json` file: the problems the one reader of the format
// (authorizations/authorizationFile.ts, also used by Import) finds, with the window judged by the
// chain's block time when the extension has read it for the file's chain and token (sent as
// chain clocks), else by this computer's clock; the message names which. Pure.
import { readAuthorizationFile, type FileClock } from '../../authorizations/authorizationFile';
import type { DomainFields } from '../../authorizations/model';
import type { Problem } from './document';

/** The block time the extension read from one endpoint for one token, and when. */
export interface ChainClock {
  /** Decimal chain id. */
  chainId: string;
  token: string;
  endpointName: string;
  /** Unix seconds of the block a transaction sent then would run in. */
  now: number;
  /** When it was read (ms, this computer's clock): the chain's time is carried forward from there. */
  observedAtMs: number;
}

/** The clock for a file's domain: the chain's, carried forward since it was read, else this computer's. */
export function clockFor(clocks: readonly ChainClock[], domain: DomainFields | undefined, nowMs: number): FileClock {
  const chain = domain && clocks.find((c) => c.chainId === domain.chainId && c.token.toLowerCase() === domain.verifyingContract.toLowerCase());
  if (chain) return { now: chain.now + Math.max(0, Math.floor((nowMs - chain.observedAtMs) / 1000)), name: `block time of ${chain.endpointName}` };
  const why = domain ? `no endpoint of chain ${domain.chainId} with this token was read` : 'the file has no domain';
  return { now: Math.floor(nowMs / 1000), name: `this computer's clock (${why})` };
}

export function analyzeAuthorization(text: string, clock: FileClock | ((domain: DomainFields | undefined) => FileClock)): Problem[] {
  return readAuthorizationFile(text, clock).problems;
}
