// Long reply bodies are copied into buffers used again and again, not into fresh memory. Writing
// a multi-megabyte text as a string costs fresh memory twice (V8 flattens it into a new string,
// then Node copies that into a new backing store), and the first touch of each new page costs far
// more than the copy itself: on this project's bench machine kind, about 4 ms per MiB against
// 0.3 ms for copying into pages already used. A buffer goes back to the free list once the socket
// has written it (its write callback), never before; free buffers are let go after a while idle.
// A reply written as it is sent (replyStream.ts) takes small chunks from a free list of their own,
// so even its first use touches only a few fresh pages.
/** Below this, a reply is written as a string (its copy is small, and so is its fresh memory). */
export const REUSED_BUFFER_MIN_BYTES = 256 * 1024;
/** Free buffers kept, and the largest one kept. */
const MAX_FREE = 2;
const MAX_KEPT_BYTES = 64 * 1024 * 1024;
/** Free buffers are let go after this long without a long reply. */
const IDLE_MS = 10_000;
/** The pieces a streamed reply is written in (replyStream.ts), and how many free ones are kept. */
export const STREAM_CHUNK_BYTES = 64 * 1024;
const MAX_FREE_CHUNKS = 16;

const free: Buffer[] = [];
const freeChunks: Buffer[] = [];
let idleTimer: NodeJS.Timeout | undefined;
let lastUse = 0;

/** A buffer of exactly `bytes` bytes (contents undefined); give it back with recycleReplyBuffer once written. */
export function takeReplyBuffer(bytes: number): Buffer {
  lastUse = Date.now();
  let best = -1;
  for (let i = 0; i < free.length; i++) if (free[i].length >= bytes && (best < 0 || free[i].length < free[best].length)) best = i;
  // Sized with room (an eighth more), so a reply that grows a little still fits the next time.
  const whole = best >= 0 ? free.splice(best, 1)[0] : Buffer.allocUnsafeSlow(bytes + (bytes >>> 3));
  return whole.subarray(0, bytes);
}

/** A buffer of STREAM_CHUNK_BYTES for a piece of a streamed reply; give it back with recycleStreamChunk once written. */
export function takeStreamChunk(): Buffer {
  lastUse = Date.now();
  return freeChunks.pop() ?? Buffer.allocUnsafeSlow(STREAM_CHUNK_BYTES);
}

/** Takes back a chunk from takeStreamChunk whose bytes the socket no longer needs. */
export function recycleStreamChunk(chunk: Buffer): void {
  if (freeChunks.length >= MAX_FREE_CHUNKS) return;
  freeChunks.push(chunk);
  idleTimer ??= setTimeout(letGoWhenIdle, IDLE_MS).unref();
}

/** Takes back a buffer from takeReplyBuffer whose bytes the socket no longer needs. */
export function recycleReplyBuffer(buffer: Buffer): void {
  const whole = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.buffer.byteLength - buffer.byteOffset);
  if (whole.length > MAX_KEPT_BYTES) return;
  if (free.length >= MAX_FREE) {
    // Keep the larger ones.
    let smallest = 0;
    for (let i = 1; i < free.length; i++) if (free[i].length < free[smallest].length) smallest = i;
    if (free[smallest].length >= whole.length) return;
    free.splice(smallest, 1);
  }
  free.push(whole);
  idleTimer ??= setTimeout(letGoWhenIdle, IDLE_MS).unref();
}

function letGoWhenIdle(): void {
  idleTimer = undefined;
  if (free.length === 0 && freeChunks.length === 0) return;
  const idle = Date.now() - lastUse;
  if (idle >= IDLE_MS) {
    free.length = 0;
    freeChunks.length = 0;
  }
  else idleTimer = setTimeout(letGoWhenIdle, IDLE_MS - idle).unref();
}

/** The free buffers and their bytes, and the free stream chunks (tests read these). */
export function freeReplyBuffers(): { count: number; bytes: number; chunks: number } {
  return { count: free.length, bytes: free.reduce((sum, b) => sum + b.length, 0), chunks: freeChunks.length };
}
