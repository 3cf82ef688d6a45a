// A subscription notification written as one WebSocket text frame around bytes shared by every
// socket it goes to. ws.send takes one string per frame, so each socket would encode its own copy
// of the result (a newFlashblocks event carries the whole pending block: 1,000 subscribers made
// 1,000 copies of it per flashblock, and the collector spent more time than the node). Here the
// frame's head and the subscription's envelope are a few dozen bytes of their own, and the
// result's bytes are handed to the socket as they are, in one corked write.
//
// The frame goes straight to ws's socket only while ws's sender writes synchronously (its
// default state with nothing queued: this server never compresses and never sends a Blob), so
// frames stay whole and in order with ws's own (replies, pings, the close frame). Otherwise, or
// when ws's internals are not the ones this was written against, ws.send writes the joined text.
import type { WebSocket } from 'ws';
import type { NotificationResult } from './subscriptions';

export interface Notification {
  /** Everything before the result: `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0x…","result":`. */
  envelope: string;
  result: NotificationResult;
}

/** What closes the envelope after the result. */
export const ENVELOPE_END = '}}';
const END_BYTES = Buffer.from(ENVELOPE_END, 'latin1');

/** FIN and the text opcode. */
const FIN_TEXT = 0x81;

/** The parts of ws this relies on (ws 8: websocket.js and sender.js). */
interface WsInternals {
  _socket?: { writable: boolean; write(chunk: Buffer): boolean; cork(): void; uncork(): void };
  _sender?: { _state?: number; _queue?: unknown[] };
}

/** ws's sender state in which it writes each frame at once (sender.js DEFAULT). */
const SENDER_WRITES_NOW = 0;

/**
 * Writes `notification` as one unmasked text frame (a server's frames are not masked, RFC 6455
 * 5.1) straight to the socket; false when it could not, and the caller sends it through ws.
 */
export function writeNotificationFrame(ws: WebSocket, notification: Notification): boolean {
  const { _socket: socket, _sender: sender } = ws as unknown as WsInternals;
  if (!socket?.writable || sender?._state !== SENDER_WRITES_NOW || !Array.isArray(sender._queue) || sender._queue.length > 0) return false;
  const { envelope, result } = notification;
  const body = result.bytes;
  const length = envelope.length + body.length + END_BYTES.length;
  const lengthBytes = length < 126 ? 0 : length < 0x10000 ? 2 : 8;
  const head = Buffer.allocUnsafe(2 + lengthBytes + envelope.length);
  head[0] = FIN_TEXT;
  if (lengthBytes === 0) {
    head[1] = length;
  } else if (lengthBytes === 2) {
    head[1] = 126;
    head.writeUInt16BE(length, 2);
  } else {
    head[1] = 127;
    head.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    head.writeUInt32BE(length >>> 0, 6);
  }
  // The envelope is ASCII: a hex subscription id inside fixed JSON.
  head.write(envelope, 2 + lengthBytes, 'latin1');
  socket.cork();
  socket.write(head);
  socket.write(body);
  socket.write(END_BYTES);
  socket.uncork();
  return true;
}
