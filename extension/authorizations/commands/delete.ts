// Remove: the authorization and its signature leave this workspace (not a stored one for an open order).
import type { CommandContext, KeyArgs } from './context';
import type { Wizard } from './prompts';

export async function deleteOne(ctx: CommandContext, w: Wizard, args: KeyArgs): Promise<string> {
  const { record } = await ctx.target(w, args.key, 'delete');
  await w.consent('Remove this authorization and its signature from this workspace?', 'Remove');
  await ctx.store.delete(record.key);
  return record.key;
}
