// Deciding whether an endpoint URL holds a key, and masking it for display. No vscode import.

/** A path segment or query value this long and random-looking is treated as an API key. */
const KEY_LIKE = /^[A-Za-z0-9_-]{16,}$/;

export function urlHoldsKey(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return true;
  if ([...parsed.searchParams.values()].some((v) => v.length > 0)) return true;
  return parsed.pathname.split('/').some((segment) => KEY_LIKE.test(segment) || segment.toLowerCase().startsWith('key'));
}

/** Shows the origin and the path's shape with every key-like part replaced by dots. */
export function maskUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(invalid URL)';
  }
  if (!urlHoldsKey(url)) return url;
  const segments = parsed.pathname.split('/').map((segment, i, all) =>
    KEY_LIKE.test(segment) || (i === all.length - 1 && segment.length > 0 && all.length > 2) ? '••••' : segment);
  const query = [...parsed.searchParams.keys()].map((k) => `${k}=••••`).join('&');
  return `${parsed.protocol}//${parsed.host}${segments.join('/')}${query ? `?${query}` : ''}`;
}

/** A ws:// or wss:// URL (an endpoint's optional WebSocket URL). */
export function isWebSocketUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'ws:' || parsed.protocol === 'wss:';
  } catch {
    return false;
  }
}

export function isHttpUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}
