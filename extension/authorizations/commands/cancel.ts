// Cancel onchain: the payer's CancelAuthorization signature (pasted from their wallet, or signed by
// an account the endpoint holds or a local key), relayed by the merchant or by the payer
// themselves as cancelAuthorization; the nonce is then consumed for good. On a chain that is not
// a development chain it first asks for confirmation with amount, recipient and chain.
import * as vscode from 'vscode';
import { readSettings } from '../../settings';
import { cancelCalldata } from '../chain';
import { describeSighting, isIncluded } from '../evidence';
import { cancelTypedData, InputError, normalizeV, type TxOutcome } from '../model';
import { checkPastedCancel } from '../pasted';
import { RECEIPT_TIMEOUT_MS, type CommandContext, type CommandOutcome, type KeyArgs, type SignerChoice } from './context';
import type { Wizard } from './prompts';

export interface CancelArgs extends KeyArgs {
  /** Who signs the cancellation for the payer when no signature was pasted. */
  payerSigner?: SignerChoice;
  /** The payer's CancelAuthorization signature from their own wallet. */
  cancelSignature?: string;
  /** Who sends cancelAuthorization (and pays its gas): the merchant (default) or the payer. */
  relayer?: 'merchant' | 'payer';
  sender?: SignerChoice;
  /** Consent to a cancel on a chain that is not a development chain. */
  confirmed?: boolean;
  /** Consent to a well-known development key on a chain that is not a development chain. */
  allowDevKeys?: boolean;
  timeoutMs?: number;
}

const PAYER_SIGNS = [
  { label: "Paste the payer's signature", description: 'copies the CancelAuthorization typed data for their wallet', paste: true },
  { label: "Enter the payer's private key", description: 'test keys only; kept in the secret storage', paste: false },
];

const RELAYERS = [
  { label: 'The merchant relays it', description: 'the merchant sends cancelAuthorization and pays its gas', relayer: 'merchant' as const },
  { label: 'The payer relays it', description: 'the buyer sends their own cancellation', relayer: 'payer' as const },
];

export async function cancel(ctx: CommandContext, w: Wizard, args: CancelArgs): Promise<CommandOutcome> {
  const { record } = await ctx.target(w, args.key, 'cancel');
  const a = record.authorization;
  const chain = ctx.chain(record);
  const domain = await chain.domain();
  const devChain = ctx.isDevChain(record, BigInt(domain.chainId));
  await ctx.confirmSpend(w, 'cancel', record, BigInt(domain.chainId), devChain, args.confirmed,
    `Cancel the authorization${record.orderId ? ` for order ${record.orderId}` : ''} onchain? The payer ${a.from} signs a cancellation and it is relayed; the nonce is then consumed for good.`);
  const guard = { devChain, allowed: args.allowDevKeys };
  const typedData = cancelTypedData(domain, a.from, a.nonce);
  let signature = args.cancelSignature ?? await ctx.store.cancelSignature(record.key);
  if (!signature && !args.payerSigner && !(await ctx.canSignFor(chain, a.from))) {
    // Nobody here holds the payer's key: the payer signs in their own wallet (a private key only if the user insists).
    const how = await w.pick(PAYER_SIGNS, { placeHolder: `Nobody here holds the payer ${a.from}'s key: how does the payer sign the cancellation?` }, PAYER_SIGNS[1]);
    if (how.paste) {
      void Promise.resolve(vscode.env.clipboard.writeText(JSON.stringify(typedData))).catch(() => undefined);
      signature = (await w.input({
        title: 'Paste the payer\'s cancellation', prompt: `Copied the CancelAuthorization typed data: the payer ${a.from} signs it with eth_signTypedData_v4; paste the signature`,
        placeHolder: '0x…', password: true, ignoreFocusOut: true,
      })).trim();
    }
  }
  signature ??= normalizeV(await ctx.signTyped(chain, await ctx.signerFor(w, chain, a.from, args.payerSigner, 'payer', undefined, guard), a.from, typedData));
  const verdict = checkPastedCancel(record, domain, signature);
  if (!verdict.accepted) throw new InputError(`the cancellation signature does not verify: ${verdict.checks.filter((c) => c.status === 'fail').map((c) => c.detail).join('; ')}; nothing was sent`);
  const relayer = args.relayer ?? (await w.pick(RELAYERS, { placeHolder: 'Who sends cancelAuthorization?' }, RELAYERS[0])).relayer;
  const from = relayer === 'payer' ? a.from : a.to;
  const data = cancelCalldata(a.from, a.nonce, signature);
  const dryRun = await chain.dryRun(data, from);
  if (!dryRun.ok) throw new InputError(`the dry run of cancelAuthorization reverts: ${dryRun.reason}; nothing was sent`);
  const sender = await ctx.signerFor(w, chain, from, args.sender, relayer, undefined, guard);
  const hash = await ctx.send(chain, sender, from, data);
  await ctx.store.update(record.key, (r) => ({ ...r, cancel: { hash, status: 'pending' } }));
  ctx.output.info(`cancelAuthorization relayed by the ${relayer} ${from}: ${hash}`);
  const { sighting, heads } = await chain.follow(hash, a, readSettings().confirmationDepth, args.timeoutMs ?? RECEIPT_TIMEOUT_MS, (s, h) => ctx.output.info(`cancel ${describeSighting(s, h)}`));
  const tx: TxOutcome = { hash, status: sighting.stage === 'reverted' ? 'reverted' : isIncluded(sighting) && sighting.effect?.kind === 'canceled' ? 'success' : 'pending', blockNumber: sighting.blockNumber };
  await ctx.store.update(record.key, (r) => ({ ...r, cancel: tx }));
  if (tx.status === 'success') void vscode.window.showInformationMessage(`Canceled onchain in block ${tx.blockNumber}: a later capture reverts.`);
  else void vscode.window.showErrorMessage(`cancelAuthorization ${describeSighting(sighting, heads)}${tx.status === 'pending' ? ': not canceled until it is sealed' : ''}.`);
  return { key: record.key, tx, sighting, state: await ctx.derived(record.key) };
}
