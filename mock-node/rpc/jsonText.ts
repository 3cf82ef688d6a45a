// A reply's JSON text. Results are plain JSON values, except an integer past 2^53 that a method
// answers as a JSON number (evm_increaseTime, as Anvil): it comes as a bigint and is written with
// every digit, never rounded through a float. The common case costs one JSON.stringify.
//
// A result a method has already rendered (a block or its receipts, kept per block: see
// blockResults.ts) carries its text: a response holding it is written around that text instead
// of walking the object again. Such a result is shared between the requests that read it, so it
// is read-only, like every result handle() returns.
//
// A long result can carry its text as a DeferredAsciiText instead (eth_getLogs): its length is
// counted first, and its characters are written when the reply is sent, piece by piece into
// reused buffers as the socket takes them (replyStream.ts), so megabytes of text are never held
// as strings that outlive the request (on a fresh node they would be copied by every
// young-generation collection until the reply went out) nor as one fresh buffer (whose pages
// the kernel must first map, one by one); a transport that needs a string gets one (toString).
//
// jsonBody also gives the text's length in UTF-8 bytes, which a reply's Content-Length needs:
// for a known text it was counted once (or is its length: eth_getLogs's text is ASCII), so a
// reply of megabytes is not scanned again to count it (Buffer.byteLength walks a string that is
// not flat character by character).
/** Writes a text in order, as much as each buffer has room for. */
export interface AsciiCursor {
  /** Writes the next characters into `buffer` from `at` on, as many as fit; answers where they end. */
  write(buffer: Buffer, at: number): number;
  /** True once every character is written. */
  readonly done: boolean;
}

/** ASCII text written on demand: `length` characters, the same ones by its cursors and toString. */
export interface DeferredAsciiText {
  readonly length: number;
  cursor(): AsciiCursor;
  toString(): string;
}

export type JsonPart = string | DeferredAsciiText;

/** A cursor over parts written one after the other (each string part ASCII). */
export class PartsCursor implements AsciiCursor {
  private index = 0;
  /** Characters of the current string part already written. */
  private offset = 0;
  private current: AsciiCursor | undefined;

  constructor(private readonly parts: readonly JsonPart[]) {}

  get done(): boolean {
    return this.index === this.parts.length;
  }

  write(buffer: Buffer, at: number): number {
    while (this.index < this.parts.length && at < buffer.length) {
      const part = this.parts[this.index];
      if (typeof part === 'string') {
        const count = Math.min(part.length - this.offset, buffer.length - at);
        at += buffer.write(this.offset === 0 && count === part.length ? part : part.slice(this.offset, this.offset + count), at, count, 'latin1');
        this.offset += count;
        if (this.offset < part.length) return at;
      } else {
        this.current ??= part.cursor();
        at = this.current.write(buffer, at);
        if (!this.current.done) return at;
        this.current = undefined;
      }
      this.index++;
      this.offset = 0;
    }
    // Parts with nothing to write (empty strings, empty texts) end here too.
    while (this.index < this.parts.length && this.parts[this.index].length === 0) this.index++;
    return at;
  }
}

const MARK = '\u0000bigint:';
const MARKED = /"\\u0000bigint:(-?\d+)"/g;

/** A JSON text, in parts to be written one after the other, and its length in UTF-8 bytes (equal to its length when, and only when, it is ASCII). */
export interface JsonBody {
  parts: readonly JsonPart[];
  bytes: number;
}

const knownTexts = new WeakMap<object, JsonBody>();

/** Renders `value` once and remembers its text for the replies that carry it; returns `value`. */
export function withKnownText<T extends object>(value: T): T {
  const text = plainJsonText(value);
  knownTexts.set(value, { parts: [text], bytes: Buffer.byteLength(text) });
  return value;
}

/**
 * Remembers `parts`, which written one after the other must be exactly `value`'s JSON text, and
 * ASCII, for the replies that carry `value`; returns `value`.
 */
export function withAsciiJsonParts<T extends object>(value: T, parts: readonly JsonPart[]): T {
  let bytes = 0;
  for (const part of parts) bytes += part.length;
  knownTexts.set(value, { parts, bytes });
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

/** The body of a JSON-RPC response `{jsonrpc, id, result}` whose result's text is known, else undefined. */
function responseBody(value: unknown): JsonBody | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const response = value as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown };
  const result = response.result;
  if (result === null || typeof result !== 'object') return undefined;
  const known = knownTexts.get(result);
  if (known === undefined || response.error !== undefined) return undefined;
  // The order JSON.stringify writes handler.ts's responses in: jsonrpc, id, result.
  const keys = Object.keys(response);
  if (keys.length !== 3 || keys[0] !== 'jsonrpc' || keys[1] !== 'id' || keys[2] !== 'result') return undefined;
  const head = `{"jsonrpc":${JSON.stringify(response.jsonrpc)},"id":${JSON.stringify(response.id)},"result":`;
  const only = known.parts.length === 1 ? known.parts[0] : undefined;
  const parts = typeof only === 'string' ? [`${head}${only}}`] : [head, ...known.parts, '}'];
  return { parts, bytes: Buffer.byteLength(head) + known.bytes + 1 };
}

/** `value`'s JSON text with its UTF-8 length. */
export function jsonBody(value: unknown): JsonBody {
  const known = responseBody(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const items = value.map((item) => responseBody(item));
    if (items.some((item) => item !== undefined)) {
      let bytes = value.length + 1; // the brackets and commas
      const parts: JsonPart[] = ['['];
      items.forEach((item, i) => {
        const body = item ?? plainBody(value[i]);
        if (i > 0) parts.push(',');
        for (const part of body.parts) parts.push(part);
        bytes += body.bytes;
      });
      parts.push(']');
      return { parts, bytes };
    }
  }
  return plainBody(value);
}

function plainBody(value: unknown): JsonBody {
  const text = plainJsonText(value);
  // undefined: JSON.stringify(undefined), which the callers check for before.
  return text === undefined ? { parts: [], bytes: 0 } : { parts: [text], bytes: Buffer.byteLength(text) };
}

/** The body's text in one string. */
export function joinedText(body: JsonBody): string {
  return body.parts.length === 1 ? body.parts[0].toString() : body.parts.join(''); // join calls each DeferredAsciiText's toString
}

export function jsonText(value: unknown): string {
  return joinedText(jsonBody(value));
}
