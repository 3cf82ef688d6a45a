// A reply's JSON text. Results are plain JSON values, except an integer past 2^53 that a method
// answers as a JSON number (evm_increaseTime, as Anvil): it comes as a bigint and is written with
// every digit, never rounded through a float. The common case costs one JSON.stringify.
const MARK = '\u0000bigint:';
const MARKED = /"\\u0000bigint:(-?\d+)"/g;

export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error; // JSON.stringify throws a TypeError for a bigint
  }
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? MARK + v.toString() : v)).replace(MARKED, '$1');
}
