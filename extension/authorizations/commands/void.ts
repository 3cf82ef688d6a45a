// Void offchain: the merchant's own record says "never submit"; the nonce stays unused onchain
// until it expires or the payer cancels it.
import type { CommandContext, CommandOutcome, KeyArgs } from './context';
import type { Wizard } from './prompts';

export async function voidOffchain(ctx: CommandContext, w: Wizard, args: KeyArgs): Promise<CommandOutcome> {
  const { record } = await ctx.target(w, args.key, 'void');
  await w.consent('Void this authorization in your own records? It will never be submitted, but the nonce stays unused onchain until it expires or the payer cancels it.', 'Void offchain');
  await ctx.store.put({ ...record, voided: true });
  ctx.output.info(`authorization voided offchain${record.orderId ? ` (order ${record.orderId})` : ''}; nonce ${record.authorization.nonce} stays unused onchain`);
  return { key: record.key, state: await ctx.derived(record.key) };
}
