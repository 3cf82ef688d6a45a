// Sign: the payer signs the typed data its capture route verifies (through the endpoint's account
// or a local key); the answer must recover the payer before it is kept in the secret storage.
import { getAddress } from 'ethers';
import { recoverAuthorizationSigner } from '../inspector';
import { authorizationTypedData, InputError, normalizeV, primaryTypeFor, type AuthorizationRecord } from '../model';
import type { CommandContext, CommandOutcome, KeyArgs, SignerChoice } from './context';
import type { Wizard } from './prompts';

export interface SignArgs extends KeyArgs {
  signer?: SignerChoice;
  /** With signer 'local key': a key to keep in SecretStorage first. */
  privateKey?: string;
  /** Consent to a well-known development key on a chain that is not a development chain. */
  allowDevKeys?: boolean;
}

export async function sign(ctx: CommandContext, w: Wizard, args: SignArgs): Promise<CommandOutcome> {
  const { record } = await ctx.target(w, args.key, 'sign');
  const chain = ctx.chain(record);
  const domain = await chain.domain();
  const primaryType = primaryTypeFor(record.route);
  const a = record.authorization;
  const signer = await ctx.signerFor(w, chain, a.from, args.signer, 'payer', args.privateKey, { devChain: ctx.isDevChain(record, BigInt(domain.chainId)), allowed: args.allowDevKeys });
  const payload = authorizationTypedData(primaryType, domain, a);
  // Some wallets answer v as 0/1; the token accepts only 27/28 (the same signature, re-encoded).
  const signature = normalizeV(await ctx.signTyped(chain, signer, a.from, payload));
  // The wallet's answer is checked before it is kept: it must recover the payer.
  const candidate: AuthorizationRecord = { ...record, primaryType, domain };
  const recovered = recoverAuthorizationSigner(candidate, primaryType, signature);
  if (!recovered || recovered !== getAddress(a.from)) throw new InputError(`the signature recovers ${recovered ?? 'nobody'}, not the payer ${a.from}`);
  await ctx.store.setSignature(record.key, signature);
  await ctx.store.put({ ...candidate, signed: true, signedWith: signer.kind });
  ctx.output.info(`authorization signed as ${primaryType} by ${a.from} (${signer.kind}); domain ${domain.name} v${domain.version} chain ${domain.chainId}; signature kept in the secret storage`);
  return { key: record.key, state: await ctx.derived(record.key) };
}
