// A long reply body written as the socket takes it: a few chunks at a time from reused buffers
// (replyBuffers.ts), the next ones once the last of them is written or the socket drains. A
// multi-megabyte eth_getLogs reply then never exists whole in memory, and never needs megabytes
// of fresh pages (the kernel maps each on first touch: far dearer than writing the text).
//
// The body's length was counted before its head was sent (Content-Length). A body that writes
// more or fewer bytes than that can no longer be answered with an error: the stream fails, and
// the connection is closed rather than left with a reply that disagrees with its head.
import type { AsciiCursor } from './jsonText';
import { recycleStreamChunk, takeStreamChunk } from './replyBuffers';

/** Where the chunks go: a socket. */
export interface StreamTarget {
  write(chunk: Buffer, written: (error?: Error | null) => void): boolean;
  readonly writableLength: number;
}

/** Chunks written before waiting for the last one's callback. */
const CHUNKS_PER_TURN = 4;
/** Bytes queued in the socket (not yet taken by the kernel) past which the stream waits for 'drain'. */
const HIGH_WATER_BYTES = 256 * 1024;

export class ReplyStream {
  private written = 0;
  /** Waiting for the callback of the last chunk of a turn. */
  private waiting = false;
  private state: 'writing' | 'done' | 'failed' = 'writing';

  constructor(
    private readonly target: StreamTarget,
    private readonly cursor: AsciiCursor,
    /** The bytes the body's head announced. */
    private readonly bytes: number,
    /** Called once: true when the body is all written (to the socket's queue), false when it failed. */
    private readonly settled: (ok: boolean) => void,
  ) {}

  /** Writes the next chunks (again after 'drain'); the stream goes on by itself after their callbacks. */
  pump(): void {
    if (this.state !== 'writing' || this.waiting) return;
    for (let turn = 0; turn < CHUNKS_PER_TURN; turn++) {
      if (this.target.writableLength >= HIGH_WATER_BYTES) return; // resumed on 'drain'
      const chunk = takeStreamChunk();
      const end = this.cursor.write(chunk, 0);
      this.written += end;
      const last = this.cursor.done;
      if (this.written > this.bytes || (last && this.written !== this.bytes) || (end === 0 && !last)) {
        recycleStreamChunk(chunk);
        return this.end(false);
      }
      const endOfTurn = !last && turn === CHUNKS_PER_TURN - 1;
      if (endOfTurn) this.waiting = true;
      this.target.write(end === chunk.length ? chunk : chunk.subarray(0, end), (error) => {
        recycleStreamChunk(chunk);
        if (error) return this.end(false);
        if (endOfTurn) {
          this.waiting = false;
          this.pump();
        }
      });
      if (last) return this.end(true);
    }
  }

  /** Stops the stream (the connection went away); its chunks come back through their callbacks. */
  abandon(): void {
    if (this.state === 'writing') this.state = 'failed';
  }

  private end(ok: boolean): void {
    if (this.state !== 'writing') return;
    this.state = ok ? 'done' : 'failed';
    this.settled(ok);
  }
}
