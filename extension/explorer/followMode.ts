// How the explorer follows an expanded endpoint's chain, as its row says: by WebSocket
// subscription, by HTTP polling (no WebSocket URL, or the endpoint offers no subscriptions), or
// polling while it (re)connects. No vscode import.
export type FollowMode = 'subscribed' | 'polling' | 'connecting' | 'reconnecting';

/** The words the endpoint row shows for a mode. */
export function followModeText(mode: FollowMode): string {
  return mode === 'connecting' ? 'polling, connecting' : mode === 'reconnecting' ? 'polling, reconnecting' : mode;
}

/** The endpoint row's tooltip line for a mode. */
export function followTooltip(mode: FollowMode): string {
  switch (mode) {
    case 'subscribed': return 'by WebSocket subscription (eth_subscribe)';
    case 'polling': return 'by HTTP polling';
    case 'connecting': return 'by HTTP polling while the WebSocket connects';
    case 'reconnecting': return 'by HTTP polling while the WebSocket reconnects';
  }
}
