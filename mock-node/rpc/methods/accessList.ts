// eth_createAccessList: runs the call once recording what it touches, builds the EIP-2930 list
// from that (as Anvil's inspector does), then runs it again with the list attached for the gas
// the transaction would use with it.
import { quantity } from '../../encoding/hex';
import { simulateCall } from '../../execution/call';
import { buildAccessList, TraceRecorder } from '../../execution/trace/index';
import { runMessageOnAnyPath } from '../../execution/evm/anyPath';
import { StateDraft } from '../../state/worldState';
import { ChainError } from '../../encoding/errors';
import { stateBlock } from '../blockResolution';
import { parseBlockSelector } from '../params';
import { parseCallObject } from './transactions';
import type { MethodTable } from './types';

export const accessListMethods: MethodTable = {
  eth_createAccessList: async (params, ctx) => {
    const call = parseCallObject(params[0], 0, false);
    const block = stateBlock(ctx.node.chain, params[1] === undefined || params[1] === null ? { kind: 'tag', tag: 'latest' } : parseBlockSelector(params[1], 1));
    const env = ctx.node.chain.environment(block);
    const gasLimit = call.gas ?? block.header.gasLimit;
    const request = { from: call.from, to: call.to, value: call.value, input: call.input, gasLimit, accessList: call.accessList ?? null };
    if (call.value > 0n && block.state.account(call.from).balance < call.value) throw new ChainError({ kind: 'insufficient-funds-for-transfer' });
    const recorder = new TraceRecorder();
    const traced = await runMessageOnAnyPath(new StateDraft(block.state), request, env, ctx.node.contracts, { origin: call.from, nonceBumped: false, gasPrice: 0n, isStatic: true, tracer: recorder });
    // A creation's own address is excluded as a call's recipient is (geth's rule).
    const accessList = buildAccessList(recorder, call.from, call.to ?? traced.createdAddress ?? null, call.accessList ?? null);
    // A call that fails with the list fails here as eth_call does (Anvil answers the error).
    const withList = await simulateCall(block.state, { ...request, accessList }, env, ctx.node.contracts);
    return { accessList, gasUsed: quantity(withList.gasUsed) };
  },
};
