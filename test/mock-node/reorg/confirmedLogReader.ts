// The seed's confirmed-log reader pattern, as a client would write it: hold candidates until
// they are `depth` blocks deep, then read them with eth_getLogs over a range that overlaps what
// was already stored by `overlap` blocks and replace the stored rows of that whole range. A reorg
// shallower than depth + overlap is repaired by the rescan: orphaned rows are replaced.
import { rpc } from '../../helpers/rpc';

export interface StoredLog {
  blockNumber: number;
  blockHash: string;
  transactionHash: string;
  logIndex: number;
  address: string;
  topics: string[];
  data: string;
}

/** A row as the reader stores it, from a log as eth_getLogs returns it. */
export function toStoredLog(log: any): StoredLog {
  return {
    blockNumber: Number(BigInt(log.blockNumber)),
    blockHash: log.blockHash,
    transactionHash: log.transactionHash,
    logIndex: Number(BigInt(log.logIndex)),
    address: log.address,
    topics: log.topics,
    data: log.data,
  };
}

export class ConfirmedLogReader {
  /** The store: rows per block number. */
  private readonly rows = new Map<number, StoredLog[]>();
  /** Highest block number stored as confirmed (-1: nothing yet). */
  confirmedThrough = -1;
  /** Stored rows that a rescan replaced with different ones (orphaned by a reorg). */
  replacedRows = 0;

  constructor(
    private readonly url: string,
    private readonly filter: { address?: string | string[]; topics?: (string | string[] | null)[] },
    private readonly depth: number,
    private readonly overlap: number,
    /** Stay under the endpoint's eth_getLogs block range limit. */
    private readonly maxRange = 2000,
  ) {}

  async poll(): Promise<void> {
    const head = Number(BigInt(await rpc<string>(this.url, 'eth_blockNumber')));
    const target = head - this.depth;
    if (target < 0) return;
    const from = Math.max(0, this.confirmedThrough + 1 - this.overlap);
    for (let start = from; start <= target; start += this.maxRange) {
      const end = Math.min(target, start + this.maxRange - 1);
      const logs = await rpc<any[]>(this.url, 'eth_getLogs', [{ ...this.filter, fromBlock: hex(start), toBlock: hex(end) }]);
      const fresh = new Map<number, StoredLog[]>();
      for (const log of logs) {
        const row = toStoredLog(log);
        const list = fresh.get(row.blockNumber) ?? [];
        list.push(row);
        fresh.set(row.blockNumber, list);
      }
      for (let n = start; n <= end; n++) {
        const before = this.rows.get(n) ?? [];
        const after = fresh.get(n) ?? [];
        const keys = new Set(after.map(rowKey));
        this.replacedRows += before.filter((row) => !keys.has(rowKey(row))).length;
        if (after.length) this.rows.set(n, after);
        else this.rows.delete(n);
      }
    }
    this.confirmedThrough = Math.max(this.confirmedThrough, target);
  }

  /** Every stored row, in chain order. */
  stored(): StoredLog[] {
    return [...this.rows.keys()].sort((a, b) => a - b).flatMap((n) => this.rows.get(n)!);
  }
}

function rowKey(row: StoredLog): string {
  return `${row.blockHash}:${row.logIndex}`;
}

function hex(n: number): string {
  return '0x' + n.toString(16);
}
