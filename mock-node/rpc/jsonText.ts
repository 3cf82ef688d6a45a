// A reply's JSON text. Results are plain JSON values, except an integer past 2^53 that a method
// answers as a JSON number (evm_increaseTime, as Anvil): it comes as a bigint and is written with
// every digit, never rounded through a float. The common case costs one JSON.stringify.
//
// A result a method has already rendered (a block or its receipts, kept per block: see
// blockResults.ts) carries its text: a response holding it is written around that text instead
// of walking the object again. Such a result is shared between the requests that read it, so it
// is read-only, like every result handle() returns.
const MARK = '\u0000bigint:';
const MARKED = /"\\u0000bigint:(-?\d+)"/g;

const knownTexts = new WeakMap<object, string>();

/** Renders `value` once and remembers its text for the replies that carry it; returns `value`. */
export function withKnownText<T extends object>(value: T): T {
  knownTexts.set(value, plainJsonText(value));
  return value;
}

function plainJsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error; // JSON.stringify throws a TypeError for a bigint
  }
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? MARK + v.toString() : v)).replace(MARKED, '$1');
}

/** The text of a JSON-RPC response `{jsonrpc, id, result}` whose result's text is known, else undefined. */
function responseText(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const response = value as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown };
  const result = response.result;
  if (result === null || typeof result !== 'object') return undefined;
  const text = knownTexts.get(result);
  if (text === undefined || response.error !== undefined) return undefined;
  // The order JSON.stringify writes handler.ts's responses in: jsonrpc, id, result.
  const keys = Object.keys(response);
  if (keys.length !== 3 || keys[0] !== 'jsonrpc' || keys[1] !== 'id' || keys[2] !== 'result') return undefined;
  return `{"jsonrpc":${JSON.stringify(response.jsonrpc)},"id":${JSON.stringify(response.id)},"result":${text}}`;
}

export function jsonText(value: unknown): string {
  const known = responseText(value);
  if (known !== undefined) return known;
  if (Array.isArray(value) && value.some((item) => responseText(item) !== undefined)) {
    return `[${value.map((item) => responseText(item) ?? plainJsonText(item)).join(',')}]`;
  }
  return plainJsonText(value);
}
