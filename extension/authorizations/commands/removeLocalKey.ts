// Remove Local Signing Key: the key leaves the secret storage and its address the list.
import { InputError } from '../model';
import type { CommandContext } from './context';
import type { Wizard } from './prompts';

export interface RemoveLocalKeyArgs {
  address?: string;
}

export async function removeLocalKey(ctx: CommandContext, w: Wizard, args: RemoveLocalKeyArgs): Promise<string> {
  const known = ctx.store.localKeyAddresses();
  const chosen = args.address ?? (await w.pick(known.map((label) => ({ label })), { placeHolder: 'Local signing key to remove' })).label;
  if (!known.some((a) => a.toLowerCase() === chosen.toLowerCase())) throw new InputError(`no local key for ${chosen}`);
  await ctx.store.removeLocalKey(chosen);
  ctx.output.info(`local signing key for ${chosen} removed`);
  return chosen;
}
