// The chain's flashblocks as FlashblocksPayloadV1 frames (flashblocksPayload.ts), for the
// flashblocks WebSocket stream. Built only while someone listens; each frame's JSON text is made
// once, and its brotli-compressed bytes (Base's public stream sends those) once, on first ask.
// When sealing changes a block's hash after its last flashblock (an empty block takes its
// timestamp at the seal), one more frame with no transactions carries the sealed roots and hash,
// so the last frame of every block names the sealed block's hash.
import type { Chain } from '../../chain/chain';
import type { BlockRecord, IncludedTransaction } from '../../chain/types';
import type { Hex } from '../../encoding/hex';
import { flashblockPayload, payloadIdOf } from './flashblocksPayload';

export interface FlashblockFrame {
  /** The payload's JSON text (a text frame). */
  readonly text: string;
  /** The text brotli-compressed (a binary frame), made on first ask. */
  brotli(): Buffer;
}

export type FrameListener = (frame: FlashblockFrame) => void;

/** Brotli at quality 5: node:zlib is loaded on the first brotli client, not at start-up. */
function brotli(text: string): Buffer {
  const zlib = require('node:zlib') as typeof import('node:zlib');
  return zlib.brotliCompressSync(Buffer.from(text), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
}

function frameOf(text: string): FlashblockFrame {
  let compressed: Buffer | undefined;
  return {
    text,
    brotli: () => (compressed ??= brotli(text)),
  };
}

export class FlashblocksFeed {
  private readonly listeners = new Set<FrameListener>();
  /** The block being streamed: its number, payload id, the index and hash last sent. */
  private current: { number: bigint; payloadId: Hex; index: number; hash: Hex } | undefined;
  private attempt = 0;
  private readonly onFlashblock = (pending: BlockRecord, added: IncludedTransaction[]) => this.flashblock(pending, added);
  private readonly onBlock = (block: BlockRecord) => this.sealed(block);
  private readonly onDropped = () => {
    this.attempt++;
    this.current = undefined;
  };

  constructor(private readonly chain: Chain) {}

  /** Adds a listener; the feed follows the chain while it has any. Returns the way to remove it. */
  listen(listener: FrameListener): () => void {
    if (this.listeners.size === 0) {
      this.chain.on('flashblock', this.onFlashblock);
      this.chain.on('block', this.onBlock);
      this.chain.on('pendingDropped', this.onDropped);
    }
    this.listeners.add(listener);
    return () => {
      if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
      this.chain.off('flashblock', this.onFlashblock);
      this.chain.off('block', this.onBlock);
      this.chain.off('pendingDropped', this.onDropped);
      this.current = undefined;
    };
  }

  get size(): number {
    return this.listeners.size;
  }

  private flashblock(pending: BlockRecord, added: readonly IncludedTransaction[]): void {
    const number = pending.header.number;
    const index = pending.flashblockIndex;
    // A listener that joined mid-block starts at the next block's index 0 (index 0 carries `base`).
    if (index === 0) this.current = { number, payloadId: payloadIdOf(pending, this.attempt), index: -1, hash: pending.hash };
    const current = this.current;
    if (!current || current.number !== number) return;
    this.send(pending, index, added);
  }

  private sealed(block: BlockRecord): void {
    const current = this.current;
    if (!current || current.number !== block.header.number) return;
    if (block.hash !== current.hash) this.send(block, current.index + 1, []);
    this.current = undefined;
    this.attempt = 0;
  }

  private send(block: BlockRecord, index: number, added: readonly IncludedTransaction[]): void {
    const current = this.current!;
    current.index = index;
    current.hash = block.hash;
    const state = block.state;
    const payload = flashblockPayload(block, index, current.payloadId, added, (address) => state.account(address).balance);
    const frame = frameOf(JSON.stringify(payload));
    for (const listener of this.listeners) listener(frame);
  }
}
