// The rules a JSON-RPC param value must follow, written once (geth's rules: hex quantities with
// 0x and no leading zeros, at most 256 bits; 20-byte addresses; 32-byte hashes; even-length hex
// bytes; the five block tags). Each rule answers the fault it finds, as data, or undefined when the
// value is fine. Two edges word the faults for their readers: the node's parsers (params.ts, geth's
// -32602 messages) and the language server's diagnostics (extension/language/server/values.ts).
// Pure: no imports, no I/O; the language server imports it.

export type BlockTag = 'latest' | 'pending' | 'safe' | 'finalized' | 'earliest';
export const BLOCK_TAGS: readonly BlockTag[] = ['latest', 'pending', 'safe', 'finalized', 'earliest'];

export function isBlockTag(value: unknown): value is BlockTag {
  return typeof value === 'string' && (BLOCK_TAGS as readonly string[]).includes(value);
}

/** How a param is checked. The scalar kinds have a rule here; the others are objects checked field by field. */
export type ParamKind =
  | 'block'             // tag, hex number, or EIP-1898 object
  | 'quantity'          // hex number without leading zeros
  | 'integer'           // JSON number (non-negative integer) or hex quantity
  | 'amount'            // token base units: JSON integer, decimal string or hex quantity
  | 'address'
  | 'hash'              // 32 bytes
  | 'data'              // 0x-prefixed hex bytes
  | 'signedTransaction' // 0x-prefixed hex bytes, at least one
  | 'message'           // a message to sign: 0x-prefixed hex bytes, or any other string as UTF-8 text
  | 'slot'              // hex integer up to 32 bytes, leading zeros allowed
  | 'boolean'
  | 'milliseconds'      // positive JSON integer
  | 'filter'            // eth_getLogs filter object
  | 'transaction'       // call / transaction object
  | 'typedData'         // EIP-712 payload: object or JSON string
  | 'percentiles'       // array of numbers 0..100
  | 'any';

export type QuantityFault = 'not-string' | 'no-prefix' | 'no-digits' | 'not-hex' | 'leading-zeros' | 'over-256-bits';

export type ParamFault =
  | { rule: 'quantity'; fault: QuantityFault }
  | { rule: 'unknown-tag' }
  | { rule: 'not-string' }
  | { rule: 'not-boolean' }
  | { rule: 'not-whole-number' }     // a JSON number that is fractional, negative or above 2^53 - 1
  | { rule: 'not-positive' }
  | { rule: 'not-number-or-string' }
  | { rule: 'address'; digits?: number }
  | { rule: 'hash'; digits?: number }
  | { rule: 'bytes'; odd: boolean }
  | { rule: 'no-bytes' }
  | { rule: 'slot'; tooLong: boolean };

const HEX_DIGITS = /^0x[0-9a-f]+$/i;
const CANONICAL_QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/i;
const ANY_HEX = /^0x[0-9a-f]*$/i;

export function quantityFault(value: unknown): QuantityFault | undefined {
  if (typeof value !== 'string') return 'not-string';
  if (!/^0x/i.test(value)) return 'no-prefix';
  if (value.length === 2) return 'no-digits';
  if (!HEX_DIGITS.test(value)) return 'not-hex';
  if (!CANONICAL_QUANTITY.test(value)) return 'leading-zeros';
  if (value.length > 66) return 'over-256-bits';
  return undefined;
}

/** A block given as a string: a tag, or a hex number by the quantity rule. */
export function blockStringFault(value: string): ParamFault | undefined {
  if (isBlockTag(value)) return undefined;
  if (/^0x/i.test(value)) {
    const fault = quantityFault(value);
    return fault ? { rule: 'quantity', fault } : undefined;
  }
  return { rule: 'unknown-tag' };
}

function wholeNumberFault(value: number): ParamFault | undefined {
  return Number.isSafeInteger(value) && value >= 0 ? undefined : { rule: 'not-whole-number' };
}

function quantityRule(value: unknown): ParamFault | undefined {
  const fault = quantityFault(value);
  return fault ? { rule: 'quantity', fault } : undefined;
}

function hexLengthFault(value: unknown, rule: 'address' | 'hash', bytes: number): ParamFault | undefined {
  if (typeof value !== 'string') return { rule: 'not-string' };
  if (value.length === 2 + bytes * 2 && HEX_DIGITS.test(value)) return undefined;
  return { rule, digits: ANY_HEX.test(value) ? value.length - 2 : undefined };
}

function bytesFault(value: unknown): ParamFault | undefined {
  if (typeof value !== 'string') return { rule: 'not-string' };
  if (!ANY_HEX.test(value)) return { rule: 'bytes', odd: false };
  if (value.length % 2 !== 0) return { rule: 'bytes', odd: true };
  return undefined;
}

/** The rule of each scalar kind, on a JSON value. */
export const SCALAR_RULES = {
  quantity: quantityRule,
  integer: (value: unknown): ParamFault | undefined =>
    typeof value === 'number' ? wholeNumberFault(value) : typeof value === 'string' ? quantityRule(value) : { rule: 'not-number-or-string' },
  amount: (value: unknown): ParamFault | undefined =>
    typeof value === 'number' ? wholeNumberFault(value)
      : typeof value === 'string' ? (/^[0-9]+$/.test(value) ? undefined : quantityRule(value))
        : { rule: 'not-number-or-string' },
  milliseconds: (value: unknown): ParamFault | undefined =>
    typeof value !== 'number' || !Number.isInteger(value) ? { rule: 'not-whole-number' } : value <= 0 ? { rule: 'not-positive' } : undefined,
  address: (value: unknown): ParamFault | undefined => hexLengthFault(value, 'address', 20),
  hash: (value: unknown): ParamFault | undefined => hexLengthFault(value, 'hash', 32),
  data: bytesFault,
  signedTransaction: (value: unknown): ParamFault | undefined => bytesFault(value) ?? (value === '0x' ? { rule: 'no-bytes' } : undefined),
  message: (value: unknown): ParamFault | undefined =>
    typeof value !== 'string' ? { rule: 'not-string' } : ANY_HEX.test(value) && value.length % 2 !== 0 ? { rule: 'bytes', odd: true } : undefined,
  slot: (value: unknown): ParamFault | undefined => {
    if (typeof value !== 'string') return { rule: 'not-string' };
    if (/^0x[0-9a-f]{1,64}$/i.test(value)) return undefined;
    return { rule: 'slot', tooLong: /^0x[0-9a-f]{65,}$/i.test(value) };
  },
  boolean: (value: unknown): ParamFault | undefined => (typeof value === 'boolean' ? undefined : { rule: 'not-boolean' }),
} satisfies Partial<Record<ParamKind, (value: unknown) => ParamFault | undefined>>;

export type ScalarKind = keyof typeof SCALAR_RULES;

export function isScalarKind(kind: ParamKind): kind is ScalarKind {
  return kind in SCALAR_RULES;
}

/** The fault of a scalar value, or undefined when the value follows its kind's rule. */
export function scalarFault(kind: ScalarKind, value: unknown): ParamFault | undefined {
  return SCALAR_RULES[kind](value);
}

/** EIP-1898 block object members. */
export const BLOCK_OBJECT_FIELDS = ['blockHash', 'blockNumber', 'requireCanonical'] as const;

/** The most topic positions a log filter may constrain. */
export const MAX_TOPIC_POSITIONS = 4;
