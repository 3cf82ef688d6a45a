// What a transaction does and what its logs say, in words: calls and events of the built-in token
// (every FiatTokenV2_2 function and event, amounts in token units), of contracts the user gave an
// ABI for (the AbiBook), and otherwise the 4-byte selector and the raw topics. Pure: no vscode
// import, no I/O.
import { DEPOSIT_TYPE, depositSummary } from './opStackDisplay';
import { Interface, type InterfaceAbi, type LogDescription, type ParamType, type TransactionDescription } from 'ethers';
import { STABLE_TOKEN_ABI } from '../../mock-node/tokenKit/index';
import { shortHex, tokenUnits, weiAsEth } from './format';

/** The token the endpoint follows: its calls and events are decoded with amounts in its units. */
export interface TokenFormat {
  address?: string;
  decimals: number;
  symbol: string;
}

export interface DecodeContext {
  token?: TokenFormat;
  abis?: AbiBook;
}

export interface DecodedArg {
  name: string;
  type: string;
  /** As shown: token units for amounts, a checksummed address, a decimal integer. */
  value: string;
  /** The full value (copy, tooltip). */
  raw: string;
}

export interface Decoded {
  /** The function or event name; for an unknown call the selector. */
  name: string;
  /** One line leading with the action: `transfer 1.5 USDC to 0x7099…79c8`. */
  summary: string;
  args: DecodedArg[];
  /** Where the names came from. */
  source: 'token' | 'abi' | 'selector' | 'topics' | 'plain';
  /** The ABI file the names came from (source `abi`). */
  abiSource?: string;
  /** A call's 4-byte selector (`0xa9059cbb`). */
  selector?: string;
}

const TOKEN_INTERFACE = new Interface(STABLE_TOKEN_ABI);

/** Argument names of FiatToken functions and events that hold an amount of the token. */
const AMOUNT_ARGS = new Set(['value', 'amount', 'increment', 'decrement', 'minterAllowedAmount']);

const same = (a: unknown, b: unknown): boolean => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
const short = (value: string): string => (/^0x[0-9a-fA-F]{40}$/.test(value) ? shortHex(value) : /^0x[0-9a-fA-F]{64}$/.test(value) ? shortHex(value, 10, 6) : value);

function rawValue(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(rawValue).join(', ')}]`;
  return String(value);
}

function arg(param: ParamType, value: unknown, token: TokenFormat | undefined): DecodedArg {
  const raw = rawValue(value);
  const shown = typeof value === 'bigint' && token && AMOUNT_ARGS.has(param.name) ? tokenUnits(value, token.decimals, token.symbol) : raw;
  return { name: param.name || param.type, type: param.type, value: shown, raw };
}

/** `transfer 1.5 USDC to 0x7099…79c8`: the action first, then what it moves and where. */
function tokenCallSummary(name: string, args: DecodedArg[]): string {
  const get = (n: string): string => short(args.find((a) => a.name === n)?.value ?? '');
  switch (name) {
    case 'transfer': return `transfer ${get('value')} to ${get('to')}`;
    case 'transferFrom': return `transferFrom ${get('value')} ${get('from')} → ${get('to')}`;
    case 'transferWithMemo': return `transferWithMemo ${get('value')} to ${get('to')} memo ${get('memo')}`;
    case 'approve': return `approve ${get('spender')} for ${get('value')}`;
    case 'increaseAllowance': return `increaseAllowance of ${get('spender')} by ${get('increment')}`;
    case 'decreaseAllowance': return `decreaseAllowance of ${get('spender')} by ${get('decrement')}`;
    case 'transferWithAuthorization':
    case 'receiveWithAuthorization':
      return `${name} ${get('value')} ${get('from')} → ${get('to')} · nonce ${get('nonce')}`;
    case 'cancelAuthorization': return `cancelAuthorization by ${get('authorizer')} · nonce ${get('nonce')}`;
    case 'permit': return `permit ${get('spender')} to spend ${get('value')} of ${get('owner')}`;
    case 'mint': return `mint ${get('amount')} to ${get('to')}`;
    case 'burn': return `burn ${get('amount')}`;
    case 'configureMinter': return `configureMinter ${get('minter')} allowance ${get('minterAllowedAmount')}`;
    case 'rescueERC20': return `rescueERC20 ${get('amount')} of ${get('tokenContract')} to ${get('to')}`;
    default: return genericSummary(name, args);
  }
}

function tokenEventSummary(name: string, args: DecodedArg[]): string {
  const get = (n: string): string => short(args.find((a) => a.name === n)?.value ?? '');
  switch (name) {
    case 'Transfer': return `Transfer ${get('value')} ${get('from')} → ${get('to')}`;
    case 'Approval': return `Approval ${get('owner')} lets ${get('spender')} spend ${get('value')}`;
    case 'Memo': return `Memo ${get('value')} ${get('from')} → ${get('to')} memo ${get('memo')}`;
    case 'AuthorizationUsed':
    case 'AuthorizationCanceled':
      return `${name} by ${get('authorizer')} · nonce ${get('nonce')}`;
    case 'Mint': return `Mint ${get('amount')} to ${get('to')} by ${get('minter')}`;
    case 'Burn': return `Burn ${get('amount')} by ${get('burner')}`;
    default: return genericSummary(name, args);
  }
}

function genericSummary(name: string, args: DecodedArg[]): string {
  return args.length === 0 ? name : `${name} ${args.map((a) => short(a.value)).join(' ')}`;
}

function fromDescription(parsed: TransactionDescription | LogDescription, token: TokenFormat | undefined): DecodedArg[] {
  return parsed.fragment.inputs.map((input, i) => arg(input, parsed.args[i], token));
}

/** The calldata of a transaction (`input`, or `data` as some nodes name it). */
export function inputOf(tx: Record<string, unknown>): string {
  const input = tx.input ?? tx.data;
  return typeof input === 'string' ? input : '0x';
}

/**
 * What a transaction does: a token call by name, a call decoded with the user's ABI, an ETH
 * transfer, a contract creation, or the selector of a call nobody named.
 */
export function decodeTransaction(tx: Record<string, unknown>, ctx: DecodeContext, created?: string): Decoded {
  // An OP Stack deposit says what it is (the L1-attributes deposit opens every block).
  if (tx.type === DEPOSIT_TYPE) return { name: 'deposit', summary: depositSummary(tx), args: [], source: 'plain' };
  const input = inputOf(tx);
  const to = typeof tx.to === 'string' ? tx.to : undefined;
  const value = typeof tx.value === 'string' ? tx.value : '0x0';
  if (!to) {
    // A deployment: the address it created (from its receipt) is what identifies it.
    const bytes = `${(input.length - 2) / 2} bytes`;
    return { name: 'create', summary: created ? `create contract ${short(created)} · ${bytes}` : `create contract · ${bytes}`, args: [], source: 'plain' };
  }
  if (input === '0x' || input === '') return { name: 'ETH transfer', summary: `send ${weiAsEth(value)} to ${short(to)}`, args: [], source: 'plain' };
  const selector = input.slice(0, 10).toLowerCase();
  if (ctx.token?.address && same(to, ctx.token.address)) {
    const parsed = parse(TOKEN_INTERFACE, input, value);
    if (parsed) {
      const args = fromDescription(parsed, ctx.token);
      return { name: parsed.name, summary: tokenCallSummary(parsed.name, args), args, source: 'token', selector };
    }
  }
  const known = ctx.abis?.forCall(to, selector);
  if (known) {
    const parsed = parse(known.iface, input, value);
    if (parsed) {
      const args = fromDescription(parsed, undefined);
      return { name: parsed.name, summary: `${genericSummary(parsed.name, args)} · ${short(to)}`, args, source: 'abi', abiSource: known.source, selector };
    }
  }
  return { name: selector, summary: `call ${selector} on ${short(to)}`, args: [], source: 'selector', selector };
}

function parse(iface: Interface, data: string, value: string): TransactionDescription | undefined {
  try {
    return iface.parseTransaction({ data, value: BigInt(value) }) ?? undefined;
  } catch {
    return undefined;
  }
}

export interface LogLike {
  address?: unknown;
  topics?: unknown;
  data?: unknown;
}

/**
 * What a log says: a token event (amounts in the token's units when it comes from the token the
 * endpoint follows, raw integers from any other ERC-20), an event from the user's ABI, or the
 * raw topics.
 */
export function decodeLog(log: LogLike, ctx: DecodeContext): Decoded {
  const topics = Array.isArray(log.topics) ? (log.topics as string[]) : [];
  const data = typeof log.data === 'string' ? log.data : '0x';
  const address = typeof log.address === 'string' ? log.address : '';
  const fromToken = ctx.token !== undefined && (ctx.token.address === undefined || same(address, ctx.token.address));
  const tokenEvent = parseLog(TOKEN_INTERFACE, topics, data);
  if (tokenEvent && (fromToken || !ctx.abis?.forEvent(address, topics[0] ?? ''))) {
    const args = fromDescription(tokenEvent, fromToken ? ctx.token : undefined);
    return { name: tokenEvent.name, summary: tokenEventSummary(tokenEvent.name, args), args, source: 'token' };
  }
  const known = ctx.abis?.forEvent(address, topics[0] ?? '');
  const parsed = known ? parseLog(known.iface, topics, data) : undefined;
  if (known && parsed) {
    const args = fromDescription(parsed, undefined);
    return { name: parsed.name, summary: genericSummary(parsed.name, args), args, source: 'abi', abiSource: known.source };
  }
  const args = topics.map((t, i) => ({ name: `topic${i}`, type: 'bytes32', value: t, raw: t }));
  args.push({ name: 'data', type: 'bytes', value: data, raw: data });
  return { name: topics[0] ?? 'anonymous', summary: `log ${topics[0] ? shortHex(topics[0], 10, 6) : '(anonymous)'} · ${topics.length} topic${topics.length === 1 ? '' : 's'}`, args, source: 'topics' };
}

function parseLog(iface: Interface, topics: string[], data: string): LogDescription | undefined {
  try {
    return iface.parseLog({ topics, data }) ?? undefined;
  } catch {
    return undefined;
  }
}

/** `Error(string)` and `Panic(uint256)` revert data in words; undefined for anything else. */
export function revertReason(data: unknown): string | undefined {
  if (typeof data !== 'string' || !/^0x[0-9a-fA-F]*$/.test(data)) return undefined;
  if (data === '0x') return 'reverted without a reason';
  try {
    const errors = new Interface(['error Error(string message)', 'error Panic(uint256 code)']);
    const parsed = errors.parseError(data);
    if (parsed?.name === 'Error') return String(parsed.args[0]);
    if (parsed?.name === 'Panic') return `panic 0x${(parsed.args[0] as bigint).toString(16)}`;
  } catch { /* a custom error */ }
  return `custom error ${data.slice(0, 10)}`;
}

/** One ABI the user gave, with where it came from. */
interface AbiEntry {
  iface: Interface;
  source: string;
}

/**
 * The ABIs the user gave: per contract address (a setting) and, for calls and events to any other
 * address, by selector and topic (every ABI found in the workspace's build output).
 */
export class AbiBook {
  private readonly byAddress = new Map<string, AbiEntry>();
  private readonly bySelector = new Map<string, AbiEntry>();
  private readonly byTopic = new Map<string, AbiEntry>();
  /** Problems met while adding (unreadable ABIs), for the log. */
  readonly problems: string[] = [];

  get size(): number {
    return new Set([...this.byAddress.values(), ...this.bySelector.values()].map((e) => e.source)).size;
  }

  /** Adds an ABI (an array, or an artifact holding one under `abi`); false when it holds none. */
  add(abi: unknown, source: string, address?: string): boolean {
    const fragments = Array.isArray(abi) ? abi : abi && typeof abi === 'object' && Array.isArray((abi as { abi?: unknown }).abi) ? (abi as { abi: unknown[] }).abi : undefined;
    if (!fragments || fragments.length === 0) return false;
    let iface: Interface;
    try {
      iface = new Interface(fragments as InterfaceAbi);
    } catch (error) {
      this.problems.push(`${source}: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
    const entry = { iface, source };
    if (address) this.byAddress.set(address.toLowerCase(), entry);
    iface.forEachFunction((fn) => { if (!this.bySelector.has(fn.selector)) this.bySelector.set(fn.selector, entry); });
    iface.forEachEvent((ev) => { if (!this.byTopic.has(ev.topicHash)) this.byTopic.set(ev.topicHash, entry); });
    return true;
  }

  forCall(address: string, selector: string): AbiEntry | undefined {
    const own = this.byAddress.get(address.toLowerCase());
    if (own && own.iface.getFunction(selector)) return own;
    return this.bySelector.get(selector.toLowerCase());
  }

  forEvent(address: string, topic0: string): AbiEntry | undefined {
    const own = this.byAddress.get(address.toLowerCase());
    if (own && own.iface.getEvent(topic0)) return own;
    return this.byTopic.get(topic0.toLowerCase());
  }
}
