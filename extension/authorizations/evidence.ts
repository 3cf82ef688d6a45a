// What the chain itself shows about one authorization, as pure functions: the effect of a
// transaction on it (read from that transaction's own logs), and how far a transaction has got
// (submitted, pre-confirmed in the pending block, included in a sealed block, confirmed at the
// depth the user chose). "Paid" needs the token's AuthorizationUsed(payer, nonce) and a
// Transfer(payer, merchant, value) in the same transaction; a consumed nonce alone proves nothing
// about who was paid. No I/O and no vscode import.
import { decodeTokenEvent } from '../../mock-node/tokenKit/index';
import type { AuthorizationMessage } from './message';

export interface LogEntry {
  address: string;
  topics: string[];
  data: string;
}

/** What one transaction did to the authorization's nonce. */
export type Effect =
  /** AuthorizationUsed for the nonce and the transfer the payer signed: the merchant was paid. */
  | { kind: 'paid' }
  /** AuthorizationUsed for the nonce, but no Transfer of the signed value to the signed merchant. */
  | { kind: 'consumed elsewhere'; transfers: { to: string; value: bigint }[] }
  | { kind: 'canceled' }
  | { kind: 'unrelated' };

/** The token's events in the transaction's logs, decoded by the token kit. */
function tokenEvents(token: string, logs: readonly LogEntry[]): { name: string; arg: (name: string) => string | bigint }[] {
  return logs.filter((l) => l.address.toLowerCase() === token.toLowerCase()).flatMap((l) => {
    const event = decodeTokenEvent(l);
    if (!event) return [];
    const arg = (name: string): string | bigint => {
      const value = event.args.find((x) => x.name === name)?.value;
      return typeof value === 'string' ? value.toLowerCase() : (value as bigint);
    };
    return [{ name: event.name, arg }];
  });
}

export function effectOf(token: string, a: AuthorizationMessage, logs: readonly LogEntry[]): Effect {
  const events = tokenEvents(token, logs);
  const payer = a.from.toLowerCase();
  const forNonce = (name: string): boolean => events.some((e) => e.name === name && e.arg('authorizer') === payer && e.arg('nonce') === a.nonce.toLowerCase());
  if (forNonce('AuthorizationCanceled')) return { kind: 'canceled' };
  if (!forNonce('AuthorizationUsed')) return { kind: 'unrelated' };
  const transfers = events.filter((e) => e.name === 'Transfer' && e.arg('from') === payer).map((e) => ({ to: String(e.arg('to')), value: e.arg('value') as bigint }));
  const pays = transfers.some((t) => t.to === a.to.toLowerCase() && t.value === BigInt(a.value));
  return pays ? { kind: 'paid' } : { kind: 'consumed elsewhere', transfers };
}

/** The chain's heads a transaction's progress is measured against. */
export interface Heads {
  /** The newest sealed block. */
  latest: number;
  /** The newest block counted as confirmed: the endpoint's `safe` block, or latest − depth + 1. */
  confirmed: number;
  /** How `confirmed` was chosen, for the note ("the endpoint's safe block", "12 blocks deep"). */
  confirmedBy: string;
}

export type Stage = 'submitted' | 'pre-confirmed' | 'included' | 'confirmed' | 'reverted' | 'dropped';

/** One of our transactions as the chain shows it now. */
export interface Sighting {
  hash: string;
  stage: Stage;
  blockNumber?: number;
  /** Sealed blocks on top of its block, its own included (1 = just included). */
  confirmations?: number;
  effect?: Effect;
}

export interface ReceiptLike {
  status: string;
  blockNumber: string;
  logs: LogEntry[];
}

/**
 * Where a transaction stands: no receipt and unknown to the node → dropped; no receipt → submitted;
 * a receipt in a block after `latest` → pre-confirmed (a flashblock's receipt); else included, and
 * confirmed once its block is at or below the confirmed head. A reverted receipt is reverted.
 */
export function sight(hash: string, receipt: ReceiptLike | null, known: boolean, heads: Heads, effect: (logs: LogEntry[]) => Effect): Sighting {
  if (!receipt) return { hash, stage: known ? 'submitted' : 'dropped' };
  const blockNumber = Number(BigInt(receipt.blockNumber));
  if (receipt.status !== '0x1') return { hash, stage: 'reverted', blockNumber };
  const found = effect(receipt.logs);
  if (blockNumber > heads.latest) return { hash, stage: 'pre-confirmed', blockNumber, effect: found };
  const confirmations = heads.latest - blockNumber + 1;
  return { hash, stage: blockNumber <= heads.confirmed ? 'confirmed' : 'included', blockNumber, confirmations, effect: found };
}

/** True for a transaction sealed into a block (included or deeper). */
export function isIncluded(s: Sighting | undefined): boolean {
  return s?.stage === 'included' || s?.stage === 'confirmed';
}

/** True while a transaction may still land: sent, or only in the pending block. */
export function inFlight(s: Sighting | undefined): boolean {
  return s?.stage === 'submitted' || s?.stage === 'pre-confirmed';
}

export function describeSighting(s: Sighting, heads?: Pick<Heads, 'confirmedBy'>): string {
  switch (s.stage) {
    case 'submitted': return `${s.hash} submitted, not in a block yet`;
    case 'pre-confirmed': return `${s.hash} pre-confirmed in the pending block ${s.blockNumber} (not sealed yet)`;
    case 'included': return `${s.hash} included in block ${s.blockNumber} (${s.confirmations} confirmation${s.confirmations === 1 ? '' : 's'}; not yet at ${heads?.confirmedBy ?? 'the confirmed depth'})`;
    case 'confirmed': return `${s.hash} confirmed in block ${s.blockNumber} (${s.confirmations} confirmation${s.confirmations === 1 ? '' : 's'}, at ${heads?.confirmedBy ?? 'the confirmed depth'})`;
    case 'reverted': return `${s.hash} reverted in block ${s.blockNumber} (status 0x0)`;
    case 'dropped': return `${s.hash} is not known to the endpoint (dropped, replaced or reorganized away)`;
  }
}
