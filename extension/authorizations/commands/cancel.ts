// Cancel onchain: the payer signs CancelAuthorization, the merchant relays cancelAuthorization;
// the nonce is then consumed for good.
import * as vscode from 'vscode';
import { getAddress, verifyTypedData } from 'ethers';
import { TYPED_DATA_TYPES } from '../../../mock-node/tokenKit/index';
import { cancelCalldata } from '../chain';
import { cancelTypedData, InputError, normalizeV } from '../model';
import { RECEIPT_TIMEOUT_MS, type CommandContext, type CommandOutcome, type KeyArgs, type SignerChoice } from './context';
import type { Wizard } from './prompts';

export interface CancelArgs extends KeyArgs {
  payerSigner?: SignerChoice;
  sender?: SignerChoice;
  timeoutMs?: number;
}

export async function cancel(ctx: CommandContext, w: Wizard, args: CancelArgs): Promise<CommandOutcome> {
  const { record } = await ctx.target(w, args.key, 'cancel');
  const a = record.authorization;
  const chain = ctx.chain(record);
  await w.consent(`Cancel the authorization${record.orderId ? ` for order ${record.orderId}` : ''} onchain? The payer ${a.from} signs a cancellation and the merchant relays it; the nonce is then consumed for good.`, 'Cancel onchain');
  const domain = await chain.domain();
  const payerSigner = await ctx.signerFor(w, chain, a.from, args.payerSigner, 'payer');
  const cancelSignature = normalizeV(await ctx.signTyped(chain, payerSigner, a.from, cancelTypedData(domain, a.from, a.nonce)));
  const types = { CancelAuthorization: [...TYPED_DATA_TYPES.CancelAuthorization.CancelAuthorization] };
  const recovered = verifyTypedData({ ...domain, chainId: BigInt(domain.chainId) }, types, { authorizer: a.from, nonce: a.nonce }, cancelSignature);
  if (recovered !== getAddress(a.from)) throw new InputError(`the cancellation signature recovers ${recovered}, not the payer ${a.from}`);
  const data = cancelCalldata(a.from, a.nonce, cancelSignature);
  const dryRun = await chain.dryRun(data, a.to);
  if (!dryRun.ok) throw new InputError(`the dry run of cancelAuthorization reverts: ${dryRun.reason}; nothing was sent`);
  const sender = await ctx.signerFor(w, chain, a.to, args.sender, 'merchant');
  const hash = await ctx.send(chain, sender, a.to, data);
  await ctx.store.update(record.key, (r) => ({ ...r, cancel: { hash, status: 'pending' } }));
  ctx.output.info(`cancelAuthorization relayed by ${a.to}: ${hash}`);
  const tx = await chain.waitForReceipt(hash, args.timeoutMs ?? RECEIPT_TIMEOUT_MS);
  await ctx.store.update(record.key, (r) => ({ ...r, cancel: tx }));
  if (tx.status === 'success') void vscode.window.showInformationMessage(`Canceled onchain in block ${tx.blockNumber}: a later capture reverts.`);
  else void vscode.window.showErrorMessage(`cancelAuthorization ${hash}: ${tx.status === 'pending' ? 'no receipt yet' : 'failed (status 0x0)'}.`);
  return { key: record.key, tx, state: await ctx.derived(record.key) };
}
