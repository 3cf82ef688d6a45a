// The transaction page as text (an Otterscan-like read-only document): the stage, overview,
// decoded input, gas, token movements, decoded logs, the receipt, the call trace. Pure: the
// reads are the caller's (transactionPage.ts). No vscode import.
import { feeBreakdown } from './opStackDisplay';
import type { ReceiptJson, TransactionJson } from './chainData';
import { decodeLog, decodeTransaction, inputOf, type DecodeContext } from './decoding';
import { hexAsDecimal, hexAsTime, hexToBigInt, weiAsEth } from './format';

export type Stage =
  | { kind: 'not found' }
  | { kind: 'queued' }
  | { kind: 'pre-confirmed'; block: bigint; flashblock?: number }
  | { kind: 'included' | 'safe' | 'finalized'; block: bigint; confirmations: bigint }
  | { kind: 'dropped'; block: bigint };

export interface TraceFrame {
  type?: string;
  from?: string;
  to?: string;
  value?: string;
  gas?: string;
  gasUsed?: string;
  input?: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: TraceFrame[];
}

export interface PageData {
  endpointName: string;
  hash: string;
  tx: TransactionJson | null;
  receipt: ReceiptJson | null | undefined;
  /** The latest sealed block number; safe and finalized when the endpoint tells them. */
  latest?: bigint;
  safe?: bigint;
  finalized?: bigint;
  /** The block timestamp (hex) of the block holding it. */
  blockTimestamp?: string;
  /** The flashblock of the pending block that first showed it, as this page saw it. */
  flashblock?: number;
  /** The block it was in when it was last seen, if it is gone now. */
  droppedFrom?: bigint;
  revertReason?: string;
  trace?: { ok: true; value: TraceFrame } | { ok: false; reason: string };
  ctx: DecodeContext;
}

/** Where the transaction is now. */
export function transactionStage(data: Pick<PageData, 'tx' | 'latest' | 'safe' | 'finalized' | 'flashblock' | 'droppedFrom'>): Stage {
  const { tx } = data;
  if (!tx) return data.droppedFrom !== undefined ? { kind: 'dropped', block: data.droppedFrom } : { kind: 'not found' };
  const block = hexToBigInt(tx.blockNumber);
  if (block === undefined) return { kind: 'queued' };
  if (data.latest !== undefined && block > data.latest) return { kind: 'pre-confirmed', block, flashblock: data.flashblock };
  const confirmations = data.latest !== undefined ? data.latest - block + 1n : 1n;
  if (data.finalized !== undefined && block <= data.finalized) return { kind: 'finalized', block, confirmations };
  if (data.safe !== undefined && block <= data.safe) return { kind: 'safe', block, confirmations };
  return { kind: 'included', block, confirmations };
}

export function stageText(stage: Stage): string {
  switch (stage.kind) {
    case 'not found': return 'not found on this endpoint';
    case 'queued': return 'queued (in the mempool, not yet in a block)';
    case 'pre-confirmed': return `pre-confirmed in the pending block #${stage.block}${stage.flashblock !== undefined ? `, flashblock ${stage.flashblock}` : ''}`;
    case 'dropped': return `dropped by a reorg (it was in block #${stage.block})`;
    default: return `${stage.kind} in block #${stage.block} (${stage.confirmations} confirmation${stage.confirmations === 1n ? '' : 's'})`;
  }
}

const line = (label: string, value: string): string => `${`${label}:`.padEnd(18)}${value}`;

function traceLines(frame: TraceFrame, depth: number, ctx: DecodeContext, out: string[]): void {
  const call = frame.to ? decodeTransaction({ to: frame.to, input: frame.input ?? '0x', value: frame.value ?? '0x0' }, ctx) : undefined;
  const what = call ? call.summary : `${frame.type ?? 'CALL'} (no target)`;
  const gas = frame.gasUsed ? ` · gas ${hexAsDecimal(frame.gasUsed)}` : '';
  const error = frame.error ? ` · ${frame.error}${frame.revertReason ? `: ${frame.revertReason}` : ''}` : '';
  out.push(`${'  '.repeat(depth)}${frame.type ?? 'CALL'} ${frame.from ?? '?'} → ${what}${gas}${error}`);
  for (const child of frame.calls ?? []) traceLines(child, depth + 1, ctx, out);
}

/** The authorization a capture or cancel consumed (from its AuthorizationUsed / AuthorizationCanceled log). */
export function consumedAuthorization(receipt: ReceiptJson | null | undefined, ctx: DecodeContext): { event: string; authorizer: string; nonce: string } | undefined {
  for (const log of (receipt?.logs ?? []) as Record<string, unknown>[]) {
    const decoded = decodeLog(log, ctx);
    if (decoded.source === 'token' && (decoded.name === 'AuthorizationUsed' || decoded.name === 'AuthorizationCanceled')) {
      const get = (n: string): string => decoded.args.find((a) => a.name === n)?.raw ?? '';
      return { event: decoded.name, authorizer: get('authorizer'), nonce: get('nonce') };
    }
  }
  return undefined;
}

export function transactionPageText(data: PageData): string {
  const out: string[] = [];
  const { tx, receipt, ctx } = data;
  const stage = transactionStage(data);
  out.push(`Transaction ${data.hash}`, `on ${data.endpointName}`, '');
  out.push(line('Stage', stageText(stage)));
  if (!tx) {
    out.push('', stage.kind === 'dropped'
      ? 'The block that held it is no longer on the chain and the endpoint no longer knows the transaction.'
      : 'The endpoint does not know this transaction (yet).');
    return `${out.join('\n')}\n`;
  }
  const decoded = decodeTransaction(tx, ctx, typeof receipt?.contractAddress === 'string' ? receipt.contractAddress : undefined);
  const status = receipt ? (receipt.status === '0x1' ? 'success' : `failed${data.revertReason ? `: ${data.revertReason}` : ''}`) : receipt === null ? 'no receipt yet' : 'receipt not available';
  out.push(line('Status', status));
  out.push(line('Action', decoded.summary));
  if (typeof tx.blockNumber === 'string') out.push(line('Block', `#${hexAsDecimal(tx.blockNumber)}${typeof tx.blockHash === 'string' ? ` ${tx.blockHash}` : ''}`));
  if (data.blockTimestamp) out.push(line('Time', hexAsTime(data.blockTimestamp)));
  out.push(line('From', String(tx.from ?? '?')));
  out.push(line('To', tx.to ? String(tx.to) : `(contract creation)${receipt?.contractAddress ? ` ${String(receipt.contractAddress)}` : ''}`));
  out.push(line('Value', weiAsEth(tx.value ?? '0x0')));
  out.push(line('Nonce', hexAsDecimal(tx.nonce)));
  if (typeof tx.transactionIndex === 'string') out.push(line('Position', hexAsDecimal(tx.transactionIndex)));
  const consumed = consumedAuthorization(receipt, ctx);
  if (consumed) out.push(line('Authorization', `${consumed.event === 'AuthorizationUsed' ? 'used' : 'canceled'}: authorizer ${consumed.authorizer} nonce ${consumed.nonce} (open in Authorizations)`));

  out.push('', 'Gas');
  const gasPrice = hexToBigInt(receipt?.effectiveGasPrice ?? tx.gasPrice);
  const gasUsed = hexToBigInt(receipt?.gasUsed);
  out.push(line('  limit', hexAsDecimal(tx.gas)));
  out.push(line('  used', gasUsed !== undefined ? `${gasUsed}${hexToBigInt(tx.gas) ? ` (${(Number(gasUsed * 10000n / hexToBigInt(tx.gas)!) / 100).toFixed(2)} %)` : ''}` : '(no receipt yet)'));
  out.push(line('  price', gasPrice !== undefined ? `${gasPrice} wei` : '?'));
  const opStackFees = receipt ? feeBreakdown(receipt as Record<string, unknown>) : undefined;
  if (opStackFees) {
    // An OP Stack chain: the L1 data fee is paid on top of the L2 fee.
    out.push(line('  L2 fee', weiAsEth(`0x${opStackFees.l2Fee.toString(16)}`)));
    out.push(line('  L1 fee', `${weiAsEth(`0x${opStackFees.l1Fee.toString(16)}`)}${typeof receipt!.l1GasUsed === 'string' ? ` (L1 gas ${hexAsDecimal(receipt!.l1GasUsed)} at ${hexAsDecimal(receipt!.l1GasPrice)} wei)` : ''}`));
    out.push(line('  total fee', weiAsEth(`0x${opStackFees.total.toString(16)}`)));
  } else {
    out.push(line('  fee', gasPrice !== undefined && gasUsed !== undefined ? weiAsEth(`0x${(gasPrice * gasUsed).toString(16)}`) : '(no receipt yet)'));
  }

  out.push('', `Input: ${decoded.source === 'selector' ? `selector ${decoded.name} (no ABI names it)` : `${decoded.name}${decoded.selector ? ` ${decoded.selector}` : ''}`}${decoded.abiSource ? ` (ABI ${decoded.abiSource})` : ''}`);
  for (const a of decoded.args) out.push(`  ${a.name} (${a.type}): ${a.value}${a.value !== a.raw ? `  [${a.raw}]` : ''}`);
  const input = inputOf(tx);
  out.push(`  data: ${input.length > 2 + 64 * 12 ? `${input.slice(0, 2 + 64 * 12)}… (${(input.length - 2) / 2} bytes)` : input}`);

  const logs = (receipt?.logs ?? []) as Record<string, unknown>[];
  const movements = logs.map((log) => decodeLog(log, ctx)).filter((d) => d.source === 'token' && (d.name === 'Transfer' || d.name === 'Mint' || d.name === 'Burn'));
  out.push('', `Token movements (${movements.length})`);
  for (const m of movements) out.push(`  ${m.summary}`);

  out.push('', `Logs (${logs.length})`);
  logs.forEach((log, i) => {
    const d = decodeLog(log, ctx);
    out.push(`  ${i}. ${d.summary}`, `     contract ${String(log.address)}${d.abiSource ? ` (ABI ${d.abiSource})` : ''}`);
    for (const a of d.args) out.push(`     ${a.name}: ${a.value}${a.value !== a.raw && a.type !== 'bytes32' ? `  [${a.raw}]` : ''}`);
  });

  out.push('', 'Receipt');
  if (receipt) {
    for (const key of ['status', 'gasUsed', 'cumulativeGasUsed', 'effectiveGasPrice', 'contractAddress', 'type']) {
      if (key in receipt) out.push(line(`  ${key}`, String(receipt[key])));
    }
  } else {
    out.push(`  ${receipt === null ? 'none yet' : 'the endpoint would not give it'}`);
  }

  out.push('', 'Call trace (debug_traceTransaction, callTracer)');
  if (!data.trace) out.push('  (read once the transaction is in a block)');
  else if (!data.trace.ok) out.push(`  ${data.trace.reason}`);
  else traceLines(data.trace.value, 1, ctx, out);
  return `${out.join('\n')}\n`;
}

