// Decodes the token's events (EIP-3009 / FiatToken plus the memo variant) from raw logs. No vscode import.
import { Interface, type LogDescription } from 'ethers';
import { tokenUnits } from './format';

/**
 * The token events the explorer names, as in the mock node's STABLE_TOKEN_ABI (a unit test keeps
 * the two equal; importing that module here would pull the whole node into the extension bundle).
 * `Memo` is this project's layout (SPEC 2.4): the seed names the event but leaves its arguments open.
 */
export const TOKEN_EVENTS_ABI = [
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)',
  'event Memo(address indexed from, address indexed to, uint256 value, bytes32 indexed memo)',
] as const;

const tokenEvents = new Interface(TOKEN_EVENTS_ABI as unknown as string[]);

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

function argValue(value: unknown, name: string, decimals: number, symbol: string): string {
  if (typeof value === 'bigint') return name === 'value' ? tokenUnits(value, decimals, symbol) : value.toString();
  return String(value);
}

/** Decodes a token event; undefined when the log is not one of the known events (shown raw). */
export function decodeTokenLog(log: RawLog, decimals = 6, symbol = ''): DecodedLog | undefined {
  let description: LogDescription | null;
  try {
    description = tokenEvents.parseLog({ topics: log.topics, data: log.data });
  } catch {
    return undefined;
  }
  if (!description) return undefined;
  const args = description.fragment.inputs.map((input, i) => ({
    name: input.name,
    value: argValue(description.args[i], input.name, decimals, symbol),
  }));
  const get = (n: string): string => args.find((a) => a.name === n)?.value ?? '';
  const short = (a: string): string => (a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a);
  let summary: string;
  switch (description.name) {
    case 'Transfer':
      summary = `Transfer ${short(get('from'))} → ${short(get('to'))} ${get('value')}`;
      break;
    case 'Memo':
      summary = `Memo ${short(get('from'))} → ${short(get('to'))} ${get('value')} memo ${short(get('memo'))}`;
      break;
    case 'AuthorizationUsed':
    case 'AuthorizationCanceled':
      summary = `${description.name} by ${short(get('authorizer'))} nonce ${short(get('nonce'))}`;
      break;
    default:
      summary = `${description.name} ${args.map((a) => short(a.value)).join(' ')}`;
  }
  return { name: description.name, args, summary };
}

/** topic0 of each known event, for filters. */
export function eventTopic(name: 'Transfer' | 'Approval' | 'AuthorizationUsed' | 'AuthorizationCanceled' | 'Memo'): string {
  const event = tokenEvents.getEvent(name);
  if (!event) throw new Error(`unknown event ${name}`);
  return event.topicHash;
}
