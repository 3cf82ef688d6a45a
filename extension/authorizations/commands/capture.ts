// Capture: the merchant submits the capture (receiveWithAuthorization or transferWithAuthorization)
// after a dry run; only a successful receipt counts as paid.
import * as vscode from 'vscode';
import { markWalkthroughEvent } from '../../walkthrough';
import { captureCalldata } from '../chain';
import { readSettings } from '../../settings';
import { describeSighting, isIncluded } from '../evidence';
import { formatTokenAmount, InputError, routeFor, type CaptureRoute, type TxOutcome } from '../model';
import { Dismissed, type Wizard } from './prompts';
import { REVEAL_AUTHORIZATION_TRANSACTION_COMMAND } from './reveal';
import { RECEIPT_TIMEOUT_MS, type CommandContext, type CommandOutcome, type KeyArgs, type SignerChoice } from './context';

export interface CaptureArgs extends KeyArgs {
  /** Submit even though the dry run reverts (the receipt then shows status 0x0). */
  force?: boolean;
  /** Who sends for the merchant; default: the endpoint when it holds the merchant's account. */
  sender?: SignerChoice;
  /** How long to wait for a receipt (ms). */
  timeoutMs?: number;
  /**
   * Capture by this route instead of the drafted one: allowed only when it is the route the
   * signature's type fits (e.g. transferWithAuthorization for a TransferWithAuthorization signature).
   */
  route?: CaptureRoute;
  /** Consent to a capture on a chain that is not a development chain. */
  confirmed?: boolean;
  /** Consent to a well-known development key on a chain that is not a development chain. */
  allowDevKeys?: boolean;
}

export async function capture(ctx: CommandContext, w: Wizard, args: CaptureArgs): Promise<CommandOutcome> {
  let { record } = await ctx.target(w, args.key, 'capture');
  // A signature whose type does not fit the route (the seed's pair) can still be captured by the
  // route it does fit: offer that switch before anything is sent.
  const fitting = record.primaryType ? routeFor(record.primaryType) : record.route;
  if (args.route !== undefined && args.route !== record.route) {
    if (args.route !== fitting) throw new InputError(`the signature is ${record.primaryType ?? 'unknown'}: it can only be captured by ${fitting}`);
    record = await ctx.store.update(record.key, (r) => ({ ...r, route: fitting }));
  } else if (fitting !== record.route
    && await w.offer(`This authorization was signed as ${record.primaryType}, which ${record.route} rejects (FiatTokenV2: invalid signature). Capture it with ${fitting} instead?`, `Capture with ${fitting}`)) {
    record = await ctx.store.update(record.key, (r) => ({ ...r, route: fitting }));
  }
  const signature = await ctx.store.signature(record.key);
  if (!signature) throw new InputError('the signature is missing from the secret storage');
  const a = record.authorization;
  const chain = ctx.chain(record);
  const data = captureCalldata(record.route, a, signature);
  const dryRun = await chain.dryRun(data, a.to);
  if (!dryRun.ok && !args.force) {
    if (!w.interactive) throw new InputError(`the dry run of ${record.route} reverts: ${dryRun.reason}; nothing was sent`);
    if (!(await w.offer(`The dry run of ${record.route} reverts: ${dryRun.reason}. Submit anyway? The transaction will fail and cost gas.`, 'Submit anyway'))) throw new Dismissed();
  }
  const chainId = await chain.chainId();
  const devChain = ctx.isDevChain(record, chainId);
  await ctx.confirmSpend(w, 'capture', record, chainId, devChain, args.confirmed);
  const sender = await ctx.signerFor(w, chain, a.to, args.sender, 'merchant', undefined, { devChain, allowed: args.allowDevKeys });
  const hash = await ctx.send(chain, sender, a.to, data, dryRun.ok ? undefined : 200_000n);
  await ctx.store.update(record.key, (r) => ({ ...r, capture: { hash, status: 'pending' } }));
  ctx.output.info(`capture sent by ${a.to}: ${hash} (${record.route})`);
  // Stages as they come: only a capture sealed into a block with the signed transfer in its logs is paid.
  const { sighting, heads } = await chain.follow(hash, a, readSettings().confirmationDepth, args.timeoutMs ?? RECEIPT_TIMEOUT_MS, (s, h) => {
    ctx.output.info(`capture ${describeSighting(s, h)}`);
    if (s.stage === 'pre-confirmed') vscode.window.setStatusBarMessage(`Capture pre-confirmed in the pending block ${s.blockNumber}: not paid until sealed`, 4000);
  });
  let tx: TxOutcome = { hash, status: sighting.stage === 'reverted' ? 'reverted' : isIncluded(sighting) && sighting.effect?.kind === 'paid' ? 'success' : 'pending', blockNumber: sighting.blockNumber };
  if (tx.status === 'reverted') {
    const again = await chain.dryRun(data, a.to).catch(() => undefined);
    tx = { ...tx, reason: again && !again.ok ? again.reason : dryRun.ok ? undefined : dryRun.reason };
  }
  await ctx.store.update(record.key, (r) => ({ ...r, capture: tx }));
  const amount = formatTokenAmount(BigInt(a.value));
  const order = record.orderId;
  if (tx.status === 'success') {
    markWalkthroughEvent('authorizationCaptured');
    ctx.output.info(`capture ${hash} paid ${amount} for order ${order}: ${describeSighting(sighting, heads)}`);
    const reveal = 'Reveal in RPC Explorer';
    void vscode.window.showInformationMessage(`Paid: captured ${amount} for order ${order}, included in block ${sighting.blockNumber}${sighting.stage === 'confirmed' ? ` and confirmed (${heads.confirmedBy})` : `; confirmed at ${heads.confirmedBy}`}.`, reveal)
      .then((choice) => choice === reveal && vscode.commands.executeCommand(REVEAL_AUTHORIZATION_TRANSACTION_COMMAND, { key: record.key, transaction: 'capture' }));
  } else if (tx.status === 'reverted') {
    ctx.output.warn(`capture ${hash} failed (status 0x0)${tx.reason ? `: ${tx.reason}` : ''}`);
    void vscode.window.showErrorMessage(`Capture failed: receipt status 0x0${tx.reason ? ` (${tx.reason})` : ''}. Order ${order} is not paid.`);
  } else if (isIncluded(sighting)) {
    void vscode.window.showErrorMessage(`Capture ${hash} was sealed, but its logs do not show ${amount} moving from ${a.from} to ${a.to}: order ${order} is not paid.`);
  } else {
    void vscode.window.showWarningMessage(`Capture ${describeSighting(sighting, heads)}: order ${order} is not paid until it is sealed into a block. The view follows it.`);
  }
  return { key: record.key, tx, sighting, state: await ctx.derived(record.key) };
}
