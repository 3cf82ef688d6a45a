// Import: an authorization someone else produced (the Export format or the seed's stored form),
// read by the one file reader, for an endpoint; its signature goes to the secret storage.
import * as fs from 'node:fs/promises';
import { getAddress } from 'ethers';
import { AuthorizationChain } from '../chain';
import { parseImport } from '../exchange';
import { recoverAuthorizationSigner } from '../inspector';
import { AUTHORIZATION_PRIMARY_TYPES, authorizationKey, InputError, type AuthorizationRecord } from '../model';
import type { CommandContext } from './context';
import type { Wizard } from './prompts';

export interface ImportArgs {
  /** The exported JSON (object or text) or the seed's stored-authorization shape. */
  json?: unknown;
  endpointId?: string;
}

export async function importOne(ctx: CommandContext, w: Wizard, args: ImportArgs): Promise<string> {
  const json = args.json ?? await fs.readFile((await w.openDialog({ canSelectMany: false, filters: { 'Authorization JSON': ['json'] }, title: 'Import Authorization' })).fsPath, 'utf8');
  const parsed = parseImport(json);
  const endpointId = await ctx.endpointId(w, args.endpointId, { placeHolder: 'Endpoint the authorization is for' });
  const endpoint = ctx.endpoint(endpointId);
  const token = parsed.domain?.verifyingContract ?? endpoint.tokenAddress;
  if (!token) throw new InputError('the token address is unknown: the JSON has no domain.verifyingContract');
  const chain = new AuthorizationChain(ctx.chain({ endpointId, token }).client, getAddress(token));
  const domain = parsed.domain ?? await chain.domain();
  const base: AuthorizationRecord = {
    key: authorizationKey(parsed.authorization.from, parsed.authorization.nonce), endpointId, endpointName: endpoint.name,
    token: getAddress(token), route: parsed.captureRoute, authorization: parsed.authorization, createdAt: Date.now(), domain,
  };
  // Without a stated primaryType, take the type the signature actually recovers the payer under,
  // else the seed's envelope type.
  const primaryType = parsed.primaryType
    ?? AUTHORIZATION_PRIMARY_TYPES.find((t) => recoverAuthorizationSigner(base, t, parsed.signature) === getAddress(parsed.authorization.from))
    ?? 'TransferWithAuthorization';
  if (ctx.store.get(base.key)) throw new InputError('an authorization with this payer and nonce is already in the list');
  if (parsed.orderId && ctx.store.list().some((r) => r.orderId === parsed.orderId)) throw new InputError(`another authorization is already stored for order ${parsed.orderId}`);
  await ctx.store.setSignature(base.key, parsed.signature);
  await ctx.store.put({
    ...base, primaryType, signed: true, signedWith: 'imported',
    ...(parsed.orderId ? { orderId: parsed.orderId, storedAt: Date.now() } : {}),
  });
  ctx.output.info(`authorization imported: payer ${base.authorization.from}, nonce ${base.authorization.nonce}, ${primaryType} for ${base.route}`);
  return base.key;
}
