// Store for Order: the signed authorization is kept against one order (one order, one
// authorization; a nonce is never reused for another order).
import { InputError } from '../model';
import type { CommandContext, CommandOutcome, KeyArgs } from './context';
import type { Wizard } from './prompts';

export interface StoreArgs extends KeyArgs {
  orderId?: string;
}

export async function storeForOrder(ctx: CommandContext, w: Wizard, args: StoreArgs): Promise<CommandOutcome> {
  const { record } = await ctx.target(w, args.key, 'store');
  const taken = (id: string): boolean => ctx.store.list().some((r) => r.key !== record.key && r.orderId === id);
  const orderId = (args.orderId ?? await w.input({
    title: 'Store Authorization', prompt: 'Order id this payment is for', ignoreFocusOut: true,
    validateInput: (v) => (!v.trim() ? 'an order id' : taken(v.trim()) ? 'another authorization is stored for that order' : undefined),
  })).trim();
  if (!orderId) throw new InputError('order id is empty');
  if (taken(orderId)) throw new InputError(`another authorization is already stored for order ${orderId}: a nonce is never reused for another order, and an order has one authorization`);
  if (!(await ctx.store.signature(record.key))) throw new InputError('the signature is missing from the secret storage');
  await ctx.store.put({ ...record, orderId, storedAt: Date.now() });
  ctx.output.info(`authorization stored for order ${orderId} (payer ${record.authorization.from}, nonce ${record.authorization.nonce})`);
  return { key: record.key, state: await ctx.derived(record.key) };
}
