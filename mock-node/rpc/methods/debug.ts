// debug_traceTransaction, debug_traceCall, debug_traceBlockByNumber and debug_traceBlockByHash:
// the transaction (or call) runs again through the same execution as the builder's, with a
// TraceRecorder; the tracer named in the options shapes what it recorded.
import type { Hex } from '../../encoding/hex';
import { replayBlock } from '../../chain/replay';
import type { BlockRecord } from '../../chain/types';
import { runMessageOnAnyPath } from '../../execution/evm/anyPath';
import { TraceRecorder } from '../../execution/trace/index';
import { StateDraft } from '../../state/worldState';
import { findBlock, stateBlock } from '../blockResolution';
import { RpcError } from '../errors';
import { parseBlockSelector, parseHash } from '../params';
import { parseTraceOptions, traceResult, type TraceOptions } from './tracing';
import { parseCallObject } from './transactions';
import type { MethodContext, MethodTable } from './types';

async function traceBlock(ctx: MethodContext, block: BlockRecord, options: TraceOptions): Promise<{ txHash: Hex; result: unknown }[]> {
  const recorders = new Map<Hex, TraceRecorder>();
  const replayed = await replayBlock(ctx.node.chain, ctx.node.contracts, block, (included) => {
    const recorder = new TraceRecorder();
    recorders.set(included.tx.hash, recorder);
    return recorder;
  });
  return replayed.map(({ included, pre, post }) => ({
    txHash: included.tx.hash,
    result: traceResult({ recorder: recorders.get(included.tx.hash)!, pre, post, from: included.tx.from, to: included.tx.to, coinbase: block.header.miner }, options),
  }));
}

function blockOrNotFound(block: BlockRecord | null): BlockRecord {
  if (!block) throw new RpcError(-32001, 'block not found');
  return block;
}

export const debugMethods: MethodTable = {
  debug_traceTransaction: async (params, ctx) => {
    const hash = parseHash(params[0], 0, 'transaction hash');
    const options = parseTraceOptions(params[1], 1);
    const found = ctx.node.chain.findTransaction(hash);
    if (!found) throw new RpcError(-32000, `transaction ${hash} not found`);
    const recorder = new TraceRecorder();
    const target = found.included.index;
    const replayed = await replayBlock(ctx.node.chain, ctx.node.contracts, found.block, (included) => (included.index === target ? recorder : undefined), target);
    const mine = replayed[replayed.length - 1];
    if (!mine) throw new RpcError(-32000, `transaction ${hash} not found`);
    return traceResult({ recorder, pre: mine.pre, post: mine.post, from: found.included.tx.from, to: found.included.tx.to, coinbase: found.block.header.miner }, options);
  },
  debug_traceBlockByNumber: (params, ctx) => {
    const block = blockOrNotFound(findBlock(ctx.node.chain, parseBlockSelector(params[0], 0)));
    return traceBlock(ctx, block, parseTraceOptions(params[1], 1));
  },
  debug_traceBlockByHash: (params, ctx) => {
    const hash = parseHash(params[0], 0, 'block hash');
    const block = blockOrNotFound(findBlock(ctx.node.chain, { kind: 'hash', hash, requireCanonical: false }));
    return traceBlock(ctx, block, parseTraceOptions(params[1], 1));
  },
  debug_traceCall: async (params, ctx) => {
    const call = parseCallObject(params[0], 0, false);
    const block = stateBlock(ctx.node.chain, params[1] === undefined || params[1] === null ? { kind: 'tag', tag: 'latest' } : parseBlockSelector(params[1], 1));
    const options = parseTraceOptions(params[2], 2);
    const env = ctx.node.chain.environment(block);
    const draft = new StateDraft(block.state);
    // As Anvil runs it: a transaction at gas price zero (unless one is given) that bumps the sender's nonce.
    const sender = draft.account(call.from);
    draft.updateAccount(call.from, { nonce: sender.nonce + 1n });
    const recorder = new TraceRecorder();
    const gasLimit = call.gas ?? block.header.gasLimit;
    const price = call.gasPrice ?? call.maxFeePerGas ?? 0n;
    const request = { from: call.from, to: call.to, value: call.value, input: call.input, gasLimit, accessList: call.accessList ?? null };
    const result = await runMessageOnAnyPath(draft, request, env, ctx.node.contracts, { origin: call.from, nonceBumped: true, gasPrice: price, tracer: recorder });
    if (price > 0n) draft.subtractBalance(call.from, result.gasUsed * price > draft.account(call.from).balance ? draft.account(call.from).balance : result.gasUsed * price);
    return traceResult({ recorder, pre: block.state, post: draft, from: call.from, to: call.to, coinbase: env.coinbase }, options);
  },
};
