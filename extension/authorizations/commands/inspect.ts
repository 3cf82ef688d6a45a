// Inspect: would a capture succeed now, and if not, why. Reads the chain at `pending`, dry-runs the
// capture and opens the verdict as a read-only markdown document.
import { describeRpcError } from '../../rpc/errors';
import { readSettings } from '../../settings';
import { captureCalldata } from '../chain';
import { inspect as check, inspectionMarkdown, type Inspection, type InspectionInput } from '../inspector';
import type { DerivedState } from '../model';
import type { CommandContext, KeyArgs } from './context';
import type { Wizard } from './prompts';

export interface InspectArgs extends KeyArgs {
  /** Open the markdown document (default true). */
  show?: boolean;
}

export interface InspectResult {
  inspection: Inspection;
  state: DerivedState;
  markdown: string;
}

export async function inspect(ctx: CommandContext, w: Wizard, args: InspectArgs): Promise<InspectResult> {
  const { record } = await ctx.target(w, args.key, 'inspect');
  const signature = await ctx.store.signature(record.key);
  const input: InspectionInput = { record, signature };
  const chain = ctx.deps.tree.observer.chainFor(record);
  if (!chain) {
    input.chainError = `endpoint ${record.endpointName} is not available`;
  } else {
    try {
      input.chain = await chain.facts(record.authorization);
      input.symbol = await chain.symbol().catch(() => undefined);
      const endpoint = ctx.deps.registry.get(record.endpointId);
      const off = readSettings().dryRunOff.some((name) => name === record.endpointId || name === endpoint?.name);
      input.dryRunNote = off
        ? `Dry run off for ${record.endpointName} (setting chainExplorer.authorizations.dryRunOff): the signature was not sent.`
        : `The dry run sends the signature to ${record.endpointName} (eth_estimateGas and eth_call of the capture; nothing is mined). Turn it off for this endpoint with the setting chainExplorer.authorizations.dryRunOff.`;
      if (signature && !off) input.dryRun = await chain.dryRun(captureCalldata(record.route, record.authorization, signature), record.authorization.to);
    } catch (error) {
      input.chainError = describeRpcError(error);
      input.chain = undefined;
    }
  }
  await ctx.deps.tree.refresh();
  input.state = ctx.deps.tree.observer.stateOf(record);
  const inspection = check(input);
  const markdown = inspectionMarkdown(input, inspection);
  const docName = `authorization-${record.orderId ? `order-${record.orderId}` : record.authorization.nonce.slice(0, 10)}`;
  if (args.show !== false) await ctx.deps.documents.show(docName, markdown);
  return { inspection, state: input.state, markdown };
}
