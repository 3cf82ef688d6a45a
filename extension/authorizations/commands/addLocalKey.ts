// Add Local Signing Key: a private key kept in the secret storage for an account the endpoint
// does not hold (its address, which is public, listed in the global state).
import type { CommandContext } from './context';
import type { Wizard } from './prompts';

export interface AddLocalKeyArgs {
  privateKey?: string;
}

export async function addLocalKey(ctx: CommandContext, w: Wizard, args: AddLocalKeyArgs): Promise<string> {
  const key = args.privateKey ?? await w.input({
    title: 'Add Local Signing Key', prompt: 'Private key (kept in the secret storage only; use test keys)', password: true, ignoreFocusOut: true,
  });
  const address = await ctx.store.addLocalKey(key);
  ctx.output.info(`local signing key for ${address} kept in the secret storage`);
  return address;
}
