// Draft: the terms (endpoint, token, payer, merchant, amount, window, capture route) and a fresh
// random nonce; nothing is sent onchain.
import { randomBytes } from 'node:crypto';
import { getAddress } from 'ethers';
import { readSettings } from '../../settings';
import { AuthorizationChain } from '../chain';
import {
  authorizationKey, CAPTURE_ROUTES, defaultWindow, draftAuthorization, formatTokenAmount, InputError, parseAddress, parseTokenAmount,
  type CaptureRoute,
} from '../model';
import { nowSeconds, validAddress, type CommandContext } from './context';
import type { Wizard } from './prompts';

export interface DraftArgs {
  endpointId?: string;
  token?: string;
  payer?: string;
  merchant?: string;
  /** Token units, e.g. "12.50". */
  amount?: string;
  validAfter?: number;
  validBefore?: number;
  route?: CaptureRoute;
}

const STEPS = 7;
const title = (step: number): string => `Draft Authorization (${step}/${STEPS})`;

export async function draft(ctx: CommandContext, w: Wizard, args: DraftArgs): Promise<string> {
  const endpointId = await ctx.endpointId(w, args.endpointId, { title: title(1), placeHolder: 'Endpoint (the chain the authorization is for)', ignoreFocusOut: true });
  const endpoint = ctx.endpoint(endpointId);
  const defaultToken = endpoint.tokenAddress ?? readSettings().tokenAddress;
  const tokenText = args.token ?? await w.input({
    title: title(2), prompt: 'Token address (EIP-3009)', value: defaultToken, ignoreFocusOut: true, validateInput: validAddress('token address'),
  });
  if (!tokenText) throw new InputError('token address is missing (set chainExplorer.tokenAddress or give one)');
  const token = parseAddress(tokenText, 'token address');
  const chain = new AuthorizationChain(ctx.chain({ endpointId, token }).client, token);
  const payer = args.payer ?? await ctx.pickAccount(w, chain, title(3), 'Payer (signs the authorization)');
  const merchant = args.merchant ?? await ctx.pickAccount(w, chain, title(4), 'Merchant (the only party that may capture)', getAddress(payer));
  const amount = args.amount ?? await w.input({
    title: title(5), prompt: 'Amount in token units (6 decimals)', placeHolder: '12.50', ignoreFocusOut: true,
    validateInput: (v) => { try { parseTokenAmount(v); return undefined; } catch (e) { return (e as Error).message; } },
  });
  // The token checks the window against block time: take "now" from the chain when it answers.
  const now = await chain.now().catch(() => nowSeconds());
  const window = await validityWindow(w, args, now);
  const routes = [
    { label: 'receiveWithAuthorization', description: 'default: only the merchant can capture; the payer signs ReceiveWithAuthorization', route: 'receiveWithAuthorization' as const },
    { label: 'transferWithAuthorization', description: 'anyone can relay the capture; the payer signs TransferWithAuthorization', route: 'transferWithAuthorization' as const },
  ];
  const route = args.route ?? (await w.pick(routes, { title: title(7), placeHolder: 'Capture route (decides the typed data the payer signs)', ignoreFocusOut: true }, routes[0])).route;
  if (!CAPTURE_ROUTES.includes(route)) throw new InputError(`capture route must be ${CAPTURE_ROUTES.join(' or ')}`);
  // A fresh cryptographically random nonce for every attempt.
  const nonce = `0x${randomBytes(32).toString('hex')}`;
  const authorization = draftAuthorization({ payer, merchant, amount, ...window, nonce, route, token });
  const key = authorizationKey(authorization.from, authorization.nonce);
  if (ctx.store.get(key)) throw new InputError('nonce collision: draft again');
  await ctx.store.put({ key, endpointId, endpointName: endpoint.name, token, route, authorization, createdAt: Date.now() });
  ctx.output.info(`authorization drafted: ${formatTokenAmount(BigInt(authorization.value))} from ${authorization.from} to ${authorization.to}, nonce ${authorization.nonce}, ${route}`);
  return key;
}

/** The window from the arguments, else the default (60 s before to 15 min after the chain's now) or minutes the user gives. */
async function validityWindow(w: Wizard, args: DraftArgs, now: number): Promise<{ validAfter: number; validBefore: number }> {
  const window = defaultWindow(now);
  if (args.validAfter !== undefined || args.validBefore !== undefined) {
    return { validAfter: args.validAfter ?? window.validAfter, validBefore: args.validBefore ?? window.validBefore };
  }
  const choices = [
    { label: 'Default window', description: '60 s before now to 15 min after (block time)', custom: false },
    { label: 'Custom window…', description: 'minutes before and after now', custom: true },
  ];
  const pick = await w.pick(choices, { title: title(6), placeHolder: 'Validity window', ignoreFocusOut: true }, choices[0]);
  if (!pick.custom) return window;
  const minutes = async (prompt: string, value: string): Promise<number> => Number(await w.input({
    title: title(6), prompt, value, ignoreFocusOut: true,
    validateInput: (v) => (/^\d+(\.\d+)?$/.test(v.trim()) ? undefined : 'a number of minutes'),
  }));
  const before = await minutes('validAfter: minutes before now', '1');
  const after = await minutes('validBefore: minutes after now', '15');
  return { validAfter: Math.floor(now - before * 60), validBefore: Math.floor(now + after * 60) };
}
