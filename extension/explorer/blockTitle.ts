// How the block at the current tag is named in the tree and the status bar, for every pending
// shape real nodes send: partial hash, 32 zero bytes ("not sealed"), or number and hash null.
import { ZERO_HASH, hexToBigInt, shortHex } from './format';
import type { BlockJson } from './chainData';

export interface BlockTitle {
  /** Tree label: `latest #12`, `pending #13`, or `pending (latest+1)` when the number is null. */
  label: string;
  /** Tree description: the hash, `not sealed` for a zero hash, `hash null` for a null one. */
  description: string;
  /** The block number, from the block or (null number) from the head. */
  number?: bigint;
}

export function hashDescription(hash: string | null | undefined): string {
  if (hash === null || hash === undefined) return 'hash null';
  if (hash.toLowerCase() === ZERO_HASH) return 'not sealed';
  return shortHex(hash, 10, 6);
}

export function blockTitle(tag: 'latest' | 'pending', block: BlockJson | null | undefined, head?: string): BlockTitle {
  if (!block) return { label: `${tag}: no block`, description: '' };
  const number = hexToBigInt(block.number);
  const headNumber = hexToBigInt(head);
  if (tag === 'pending' && number === undefined) {
    return {
      label: 'pending (latest+1)',
      description: hashDescription(block.hash),
      number: headNumber === undefined ? undefined : headNumber + 1n,
    };
  }
  return { label: `${tag} #${number ?? '?'}`, description: hashDescription(block.hash), number };
}

/** The status bar text: `latest #N` or `pending #N.k`. */
export function statusBarText(tag: 'latest' | 'pending', number: bigint | undefined, pendingRefreshes: number): string {
  const n = number === undefined ? '?' : number.toString();
  return tag === 'latest' ? `latest #${n}` : `pending #${n}.${pendingRefreshes}`;
}

/** The flashblock index when the endpoint tells it (a `flashblockIndex` field, hex or number). */
export function flashblockIndexOf(block: BlockJson | null | undefined): number | undefined {
  const raw = block?.flashblockIndex;
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0) return raw;
  if (typeof raw === 'string' && /^0x[0-9a-fA-F]+$/.test(raw)) return Number.parseInt(raw, 16);
  return undefined;
}

/**
 * Counts pending refreshes per block number: k grows when the same block number comes back
 * with different contents (hash, transaction count or gas used), and restarts at a new number.
 * Where the endpoint tells the flashblock index, k is that index instead.
 */
export class PendingRefreshCounter {
  private number: bigint | undefined;
  private fingerprint = '';
  count = 0;

  observe(number: bigint | undefined, block: BlockJson | null | undefined): number {
    const told = flashblockIndexOf(block);
    if (told !== undefined) {
      this.number = number;
      this.count = told;
      return told;
    }
    const fingerprint = block ? `${block.hash}|${block.transactions.length}|${String(block.gasUsed)}` : '';
    if (number !== this.number) {
      this.number = number;
      this.fingerprint = fingerprint;
      this.count = 0;
    } else if (fingerprint !== this.fingerprint) {
      this.fingerprint = fingerprint;
      this.count++;
    }
    return this.count;
  }

  reset(): void {
    this.number = undefined;
    this.fingerprint = '';
    this.count = 0;
  }
}
