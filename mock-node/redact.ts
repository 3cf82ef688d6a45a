// Keeps secrets out of log lines and error messages. Library errors carry the values they were
// given: ethers appends `(argument="…", value=…, code=…, version=…)`, RLP errors `buffer=0x…`,
// typed-data errors the field's value. A log may be shared, so every line (any level) and every
// internal error message returned to a client goes through scrubSecrets():
// - an ethers info suffix keeps only its `argument` and `code`;
// - `key=value` pairs naming a value (value, buffer, data, signature, transaction, tx, info,
//   raw, privateKey, key) lose the value;
// - JavaScript's `Cannot convert X to a BigInt` loses X;
// - hex longer than 32 bytes (signatures, raw transactions, call data) is replaced by its length;
//   32-byte hashes and 20-byte addresses stay, they are what a log is for;
// - the dedicated endpoint's key, in a path or anywhere verbatim, is hidden.
const ETHERS_INFO = /\s*\(((?:[a-zA-Z]+=(?:"(?:[^"\\]|\\.)*"|[^,()]*|\{[^]*?\}|\[[^]*?\]))(?:,\s*[a-zA-Z]+=(?:"(?:[^"\\]|\\.)*"|[^,()]*|\{[^]*?\}|\[[^]*?\]))*)\)/g;
const SECRET_PAIR = /\b(value|buffer|data|signature|transaction|tx|info|raw|privateKey|key)=("(?:[^"\\]|\\.)*"|\{[^]*?\}|\[[^]*?\]|[^\s,)]+)/g;
/** 0x-prefixed, or bare with at least one letter (a long decimal number is not hex). */
const LONG_HEX = /0[xX][0-9a-fA-F]{65,}|\b(?=[0-9]*[a-fA-F])[0-9a-fA-F]{65,}\b/g;
const DEDICATED_PATH = /(\/dedicated\/)[^\s/"'?#)]+/g;
/** JavaScript's own BigInt() error quotes its input. */
const BIGINT_ECHO = /Cannot convert [^]*? to a BigInt/g;

function keepNamedFields(inside: string): string {
  const kept = [...inside.matchAll(/\b(argument|code)=("(?:[^"\\]|\\.)*"|[A-Z_]+)/g)].map((m) => `${m[1]}=${m[2]}`);
  return kept.length ? ` (${kept.join(', ')})` : '';
}

export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(ETHERS_INFO, (_all, inside: string) => keepNamedFields(inside));
  out = out.replace(BIGINT_ECHO, 'cannot convert the value to a BigInt');
  out = out.replace(SECRET_PAIR, (_all, name: string) => `${name}=<hidden>`);
  out = out.replace(LONG_HEX, (hex: string) => {
    const digits = hex.startsWith('0x') || hex.startsWith('0X') ? hex.length - 2 : hex.length;
    return `<${Math.ceil(digits / 2)} bytes hidden>`;
  });
  out = out.replace(DEDICATED_PATH, '$1<key hidden>');
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('<key hidden>');
  return out;
}

/** scrubSecrets over every string inside a log entry's fields (objects and arrays too). */
export function scrubValue(value: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (typeof value === 'string') return scrubSecrets(value, secrets);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = scrubValue(item, secrets, depth + 1);
  return out;
}

/**
 * A URL as logs, banners and errors show it: its scheme, host and port, and `/<redacted>` when it
 * has anything more (a path, a query, user info: where providers put API keys).
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const more = (parsed.pathname !== '/' && parsed.pathname !== '') || parsed.search !== '' || parsed.username !== '' || parsed.password !== '' || parsed.hash !== '';
    return `${parsed.protocol}//${parsed.host}${more ? '/<redacted>' : ''}`;
  } catch {
    return '<a URL that does not parse>';
  }
}

/** The parts of a URL that may be a key, as secrets for scrubSecrets: the URL itself, its path and query, its user info, and each long path segment or query value. */
export function urlSecrets(url: string): string[] {
  const secrets = [url];
  try {
    const parsed = new URL(url);
    const tail = parsed.pathname + parsed.search;
    if (tail.length > 1) secrets.push(tail);
    if (parsed.username) secrets.push(decodeURIComponent(parsed.username));
    if (parsed.password) secrets.push(decodeURIComponent(parsed.password));
    for (const segment of parsed.pathname.split('/')) if (segment.length >= 8) secrets.push(segment);
    for (const value of parsed.searchParams.values()) if (value.length >= 4) secrets.push(value);
  } catch {
    // the whole string stays a secret
  }
  return secrets;
}
