// One-line summaries of the token's events (EIP-3009 / FiatToken plus the memo variant) for the
// explorer tree; the decoding itself is the token kit's. No vscode import.
import { decodeTokenEvent } from '../../mock-node/tokenKit/index';
import { tokenUnits } from './format';

export interface RawLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber?: string | null;
  transactionHash?: string | null;
  logIndex?: string | null;
  removed?: boolean;
}

export interface DecodedLog {
  name: string;
  args: { name: string; value: string }[];
  /** One line: `Transfer 0xf39f…2266 → 0x7099…79c8 1.5 USDC`. */
  summary: string;
}

/** Argument names that hold an amount of the token. */
const AMOUNT_ARGS = new Set(['value', 'amount']);

function argValue(value: unknown, name: string, decimals: number, symbol: string): string {
  if (typeof value === 'bigint') return AMOUNT_ARGS.has(name) ? tokenUnits(value, decimals, symbol) : value.toString();
  return String(value);
}

/** Decodes a token event; undefined when the log is not one of the token's events (shown raw). */
export function decodeTokenLog(log: RawLog, decimals = 6, symbol = ''): DecodedLog | undefined {
  const event = decodeTokenEvent(log);
  if (!event) return undefined;
  const args = event.args.map((arg) => ({ name: arg.name, value: argValue(arg.value, arg.name, decimals, symbol) }));
  const get = (n: string): string => args.find((a) => a.name === n)?.value ?? '';
  const short = (a: string): string => (a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a);
  let summary: string;
  switch (event.name) {
    case 'Transfer':
      summary = `Transfer ${short(get('from'))} → ${short(get('to'))} ${get('value')}`;
      break;
    case 'Memo':
      summary = `Memo ${short(get('from'))} → ${short(get('to'))} ${get('value')} memo ${short(get('memo'))}`;
      break;
    case 'AuthorizationUsed':
    case 'AuthorizationCanceled':
      summary = `${event.name} by ${short(get('authorizer'))} nonce ${short(get('nonce'))}`;
      break;
    default:
      summary = `${event.name} ${args.map((a) => short(a.value)).join(' ')}`;
  }
  return { name: event.name, args, summary };
}
