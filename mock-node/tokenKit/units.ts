// Token amounts without floating point: text in token units ("12.50") to base units (12500000n)
// and back, with the token's 6 decimals unless told otherwise.

/** The token's decimals (fixed, like USDC). */
export const TOKEN_DECIMALS = 6;

/** The largest amount a v2.2 balance can hold: 2^255 - 1 base units. */
const MAX_AMOUNT = (1n << 255n) - 1n;

/**
 * "12.5" → 12500000n. Accepts digits with an optional fraction ("12", "12.5", ".25", "1_000");
 * refuses signs, exponents, more fraction digits than `decimals` and amounts above 2^255 - 1,
 * with a RangeError that says why.
 */
export function parseTokenUnits(text: string, decimals = TOKEN_DECIMALS): bigint {
  const trimmed = text.trim().replace(/_/g, '');
  const match = /^(\d+)(?:\.(\d*))?$/.exec(trimmed) ?? /^()\.(\d+)$/.exec(trimmed);
  if (!match) throw new RangeError(`amount "${text}" is not a decimal number of token units (e.g. 12.50)`);
  const [, whole, fraction = ''] = match;
  if (fraction.length > decimals) throw new RangeError(`amount "${text}" has more than ${decimals} decimals`);
  const value = BigInt(whole || '0') * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (value > MAX_AMOUNT) throw new RangeError(`amount "${text}" is too large`);
  return value;
}

export interface FormatOptions {
  decimals?: number;
  /** Group the whole part by thousands with commas ("10,000.5"). */
  group?: boolean;
}

/** 12500000n → "12.5": exact, trailing zeros of the fraction dropped, no fraction for whole amounts. */
export function formatTokenUnits(value: bigint, options: FormatOptions = {}): string {
  const decimals = options.decimals ?? TOKEN_DECIMALS;
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const unit = 10n ** BigInt(decimals);
  const fraction = (abs % unit).toString().padStart(decimals, '0').replace(/0+$/, '');
  const whole = (abs / unit).toString();
  const grouped = options.group ? whole.replace(/\B(?=(\d{3})+$)/g, ',') : whole;
  return `${negative ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}
