// Tree nodes for the block at the current tag: header fields, transactions, receipts, logs.
// Pure functions from JSON-RPC results to NodeSpec. No vscode import.
import { blockTitle } from './blockTitle';
import { HEADER_FIELDS, hexAsDecimal, headerFieldDisplay, shortHex, transactionFieldDisplay, weiAsEth } from './format';
import { feeBreakdown, feeText } from './opStackDisplay';
import type { BlockDetail, FeeBreakdown, BlockJson, FilterLogs, Loaded, ReceiptJson, ReceiptSummary, TransactionJson } from './chainData';
import { blockParam } from './endpointReader';
import type { EndpointView, NodeSpec, TagView } from './nodeSpec';
import { decodeLog, decodeTransaction, type DecodeContext, type Decoded } from './decoding';

export const GO_TO_COMMAND = 'chainExplorer.goTo';

/** Clicking the row goes to the block, transaction or address `target` on the same endpoint. */
export function goToCommand(endpointId: string, target: string): NodeSpec['command'] {
  return { id: GO_TO_COMMAND, title: 'Go to', arguments: [endpointId, target] };
}

const LINKED_FIELDS = new Set(['from', 'to', 'blockNumber', 'blockHash', 'transactionHash', 'address', 'contractAddress']);
const isLinkable = (value: unknown): value is string => typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value)
  && (value.length === 42 || value.length === 66 || value.length <= 18);

/** The row as a link: clicking it goes to `target` (a block number, hash or address). */
function asLink(node: NodeSpec, target: string): NodeSpec {
  return { ...node, kind: 'link', icon: 'link', command: goToCommand(node.endpointId, target), tooltip: `${node.tooltip ?? node.label}\nclick: go to ${target}` };
}

/** A field row; transaction, block and address fields are links (click: Go to). */
function linkedField(id: string, endpointId: string, name: string, value: unknown, display?: string): NodeSpec {
  const node = fieldNode(id, endpointId, name, value, display);
  if (!LINKED_FIELDS.has(name) || !isLinkable(value)) return node;
  return asLink(node, name === 'blockNumber' ? BigInt(value).toString() : value);
}

/** `success` / `failed (0x0)` from a receipt's status. */
export function statusText(status: unknown): string {
  return status === '0x1' ? 'success' : `failed (${String(status)})`;
}

function errorNode(id: string, endpointId: string, error: string, needsDedicated = false): NodeSpec {
  return {
    id, endpointId, kind: 'error', collapsible: 'none',
    label: needsDedicated ? 'needs a dedicated endpoint (HTTP 403)' : error,
    description: needsDedicated ? 'public endpoint' : undefined,
    tooltip: error, icon: 'warning', copyValue: error,
  };
}

function messageNode(id: string, endpointId: string, label: string, description?: string): NodeSpec {
  return { id, endpointId, kind: 'message', collapsible: 'none', label, description };
}

export function fieldNode(id: string, endpointId: string, name: string, value: unknown, display?: string): NodeSpec {
  const raw = typeof value === 'string' ? value : JSON.stringify(value);
  return {
    id, endpointId, kind: 'field', collapsible: 'none', label: name,
    description: display ?? raw, tooltip: `${name}: ${raw}`, copyValue: raw,
  };
}


/** The decoded call's arguments as rows (addresses are links). */
function decodedArgRows(id: string, endpointId: string, decoded: Decoded): NodeSpec[] {
  return decoded.args.map((a) => (/^0x[0-9a-fA-F]{40}$/.test(a.raw)
    ? { ...linkedField(`${id}/${a.name}`, endpointId, 'address', a.raw), label: a.name }
    : { ...fieldNode(`${id}/${a.name}`, endpointId, a.name, a.raw, a.value), tooltip: `${a.name} (${a.type}): ${a.raw}` }));
}

/** The row of a transaction's decoded input: what it calls, with its arguments below. */
function inputNode(id: string, endpointId: string, decoded: Decoded, input: string): NodeSpec {
  return {
    id: `${id}/decodedInput`, endpointId, kind: 'field', collapsible: decoded.args.length > 0 ? 'expanded' : 'none', icon: 'symbol-method',
    label: decoded.source === 'selector' ? `call: selector ${decoded.name}` : `call: ${decoded.name}`,
    // The selector beside the name it was decoded to: what a reader matches against other tools.
    description: [decoded.selector && decoded.source !== 'selector' ? decoded.selector : undefined,
      decoded.abiSource ? `ABI ${decoded.abiSource}` : decoded.source === 'token' ? 'token' : undefined].filter(Boolean).join(' · ') || undefined,
    tooltip: input.length > 1000 ? `${input.slice(0, 1000)}…` : input, copyValue: input,
    children: decodedArgRows(`${id}/decodedInput`, endpointId, decoded),
  };
}

/**
 * A transaction row, leading with what it does (`#0 transfer 1.5 USDC to 0x7099…79c8`), its
 * decoded input and every field below (links on from, to and block); `receipt`: its status
 * shown inline where the endpoint gave the receipt.
 */
export function transactionNode(
  parentId: string, endpointId: string, tx: TransactionJson | string, index: number, receipt?: ReceiptSummary, ctx: DecodeContext = {},
): NodeSpec {
  if (typeof tx === 'string') {
    return {
      id: `${parentId}/${tx}`, endpointId, kind: 'link', collapsible: 'none', icon: 'link', label: `#${index} ${shortHex(tx, 10, 6)}`,
      description: receipt ? statusText(receipt.status) : undefined, tooltip: tx, copyValue: tx, command: goToCommand(endpointId, tx),
    };
  }
  const id = `${parentId}/${tx.hash}`;
  const decoded = decodeTransaction(tx, ctx, receipt?.contractAddress);
  const fields = Object.keys(tx).sort().map((key) => linkedField(`${id}/${key}`, endpointId, key, tx[key], transactionFieldDisplay(key, tx[key])));
  const failed = receipt !== undefined && receipt.status !== '0x1';
  // A failed transaction says why first: the reason is what a reader looks for.
  const status = receipt ? `${failed && receipt.revertReason ? `reverted: ${receipt.revertReason}` : statusText(receipt.status)} · ` : '';
  const extra: NodeSpec[] = [];
  if (failed && receipt.revertReason) {
    extra.push({ id: `${id}/revertReason`, endpointId, kind: 'field', collapsible: 'none', icon: 'error', label: `reverted: ${receipt.revertReason}`, tooltip: receipt.revertReason, copyValue: receipt.revertReason });
  }
  if (receipt?.contractAddress) extra.push({ ...linkedField(`${id}/created`, endpointId, 'address', receipt.contractAddress), label: 'created contract' });
  if (receipt?.fees) extra.push(feesNode(id, endpointId, receipt.fees));
  return {
    id, endpointId, kind: 'transaction', collapsible: 'collapsed', icon: receipt ? (receipt.status === '0x1' ? 'pass' : 'error') : 'arrow-swap',
    label: `#${index} ${decoded.summary}`,
    description: `${status}${shortHex(tx.hash, 10, 6)} · from ${shortHex(tx.from)} · nonce ${hexAsDecimal(tx.nonce)}`,
    tooltip: `${decoded.summary}\n${tx.hash}${failed ? `\n${statusText(receipt.status)}${receipt.revertReason ? `: ${receipt.revertReason}` : ''}` : ''}\nfrom ${tx.from}\nto ${tx.to ?? `(contract creation)${receipt?.contractAddress ? ` ${receipt.contractAddress}` : ''}`}\nvalue ${weiAsEth(tx.value)}`,
    copyValue: tx.hash,
    json: { title: `tx-${tx.hash.slice(0, 10)}`, value: tx },
    request: { method: 'eth_getTransactionByHash', params: [tx.hash] },
    children: [...extra, inputNode(id, endpointId, decoded, String(tx.input ?? tx.data ?? '0x')), ...fields],
  };
}

/** An OP Stack transaction's fees: its L1 data fee beside its L2 fee, and the total its sender paid. */
function feesNode(id: string, endpointId: string, fees: FeeBreakdown): NodeSpec {
  return {
    id: `${id}/fees`, endpointId, kind: 'field', collapsible: 'none', icon: 'credit-card', label: 'fees', description: feeText(fees),
    tooltip: `L2 fee (gasUsed × effectiveGasPrice) ${fees.l2Fee} wei\nL1 data fee ${fees.l1Fee} wei\ntotal ${fees.total} wei`, copyValue: String(fees.total),
  };
}

export function receiptNode(parentId: string, endpointId: string, receipt: ReceiptJson, ctx: DecodeContext): NodeSpec {
  const id = `${parentId}/${receipt.transactionHash}`;
  const ok = receipt.status === '0x1';
  const logs = (receipt.logs ?? []) as Record<string, unknown>[];
  const fees = feeBreakdown(receipt as Record<string, unknown>);
  return {
    id, endpointId, kind: 'receipt', collapsible: 'collapsed', icon: ok ? 'pass' : 'error',
    label: shortHex(receipt.transactionHash, 10, 6),
    description: `${statusText(receipt.status)} · gas ${hexAsDecimal(receipt.gasUsed)} · ${logs.length} log${logs.length === 1 ? '' : 's'}`,
    copyValue: receipt.transactionHash,
    json: { title: `receipt-${receipt.transactionHash.slice(0, 10)}`, value: receipt },
    request: { method: 'eth_getTransactionReceipt', params: [receipt.transactionHash] },
    children: [
      fieldNode(`${id}/status`, endpointId, 'status', receipt.status, ok ? 'success (0x1)' : statusText(receipt.status)),
      fieldNode(`${id}/gasUsed`, endpointId, 'gasUsed', receipt.gasUsed, hexAsDecimal(receipt.gasUsed)),
      ...('cumulativeGasUsed' in receipt ? [fieldNode(`${id}/cumulativeGasUsed`, endpointId, 'cumulativeGasUsed', receipt.cumulativeGasUsed, hexAsDecimal(receipt.cumulativeGasUsed))] : []),
      ...('effectiveGasPrice' in receipt ? [fieldNode(`${id}/effectiveGasPrice`, endpointId, 'effectiveGasPrice', receipt.effectiveGasPrice, `${hexAsDecimal(receipt.effectiveGasPrice)} wei`)] : []),
      ...(fees ? [feesNode(id, endpointId, fees)] : []),
      ...logs.map((log, i) => logNode(`${id}/logs`, endpointId, log, i, ctx)),
    ],
  };
}

export function logNode(parentId: string, endpointId: string, log: Record<string, unknown>, index: number, ctx: DecodeContext): NodeSpec {
  const key = `${String(log.transactionHash ?? '')}:${String(log.logIndex ?? index)}`;
  const id = `${parentId}/${key}`;
  const decoded = decodeLog(log, ctx);
  const children = decoded.source === 'topics'
    ? [linkedField(`${id}/address`, endpointId, 'address', log.address), ...decoded.args.map((a) => fieldNode(`${id}/${a.name}`, endpointId, a.name, a.raw))]
    : [...decodedArgRows(id, endpointId, decoded), linkedField(`${id}/address`, endpointId, 'address', log.address)];
  if (typeof log.transactionHash === 'string') children.push(linkedField(`${id}/transactionHash`, endpointId, 'transactionHash', log.transactionHash));
  if (typeof log.blockNumber === 'string') children.push(linkedField(`${id}/blockNumber`, endpointId, 'blockNumber', log.blockNumber, `#${hexAsDecimal(log.blockNumber)}`));
  return {
    id, endpointId, kind: 'log', collapsible: 'collapsed', icon: decoded.source === 'topics' ? 'note' : 'symbol-event',
    label: decoded.summary,
    description: `${log.removed === true ? 'removed · ' : ''}tx ${shortHex(log.transactionHash ?? '', 10, 6)} #${hexAsDecimal(log.logIndex)}`,
    tooltip: `${decoded.summary}\ncontract ${String(log.address)}${decoded.abiSource ? `\nABI ${decoded.abiSource}` : ''}`,
    json: { title: `log-${key.slice(0, 10)}`, value: log },
    copyValue: JSON.stringify(log),
    children,
  };
}

function receiptsNode(ep: EndpointView, parentId: string, param: string, txCount: number, ctx: DecodeContext): NodeSpec {
  const id = `${parentId}/receipts`;
  const request = { method: 'eth_getBlockReceipts', params: [param] };
  const base: NodeSpec = {
    id, endpointId: ep.id, kind: 'receipts', collapsible: 'collapsed', icon: 'checklist', label: 'Receipts',
    section: 'receipts', request,
  };
  const loaded = ep.receipts;
  if (!ep.open.has('receipts') || !loaded) return { ...base, description: `${txCount}` };
  if (!loaded.ok) {
    return { ...base, description: loaded.needsDedicated ? 'HTTP 403' : 'error', children: [errorNode(`${id}/error`, ep.id, loaded.error, loaded.needsDedicated)] };
  }
  return {
    ...base,
    description: `${loaded.value.length}`,
    json: { title: `receipts-${param}`, value: loaded.value },
    children: loaded.value.map((r) => receiptNode(id, ep.id, r, ctx)),
  };
}

function logsNode(ep: EndpointView, parentId: string, ctx: DecodeContext): NodeSpec {
  const id = `${parentId}/logs`;
  const base: NodeSpec = { id, endpointId: ep.id, kind: 'logs', collapsible: 'collapsed', icon: 'list-filter', label: 'Logs', section: 'logs' };
  const loaded: Loaded<FilterLogs[]> | undefined = ep.logs;
  if (!ep.open.has('logs') || !loaded) return base;
  if (!loaded.ok) return { ...base, description: 'error', children: [errorNode(`${id}/error`, ep.id, loaded.error)] };
  if (loaded.value.length === 0) {
    return { ...base, children: [{ id: `${id}/none`, endpointId: ep.id, kind: 'message', collapsible: 'none', label: 'no log filter configured', description: 'chainExplorer.logFilters' }] };
  }
  return {
    ...base,
    description: `${loaded.value.reduce((n, f) => n + f.logs.length, 0)}`,
    children: loaded.value.map((f) => ({
      id: `${id}/${f.filter.name}`, endpointId: ep.id, kind: 'logFilter' as const, collapsible: 'collapsed' as const, icon: 'filter',
      label: f.filter.name, description: `${f.logs.length}`,
      json: { title: `logs-${f.filter.name}`, value: f.logs },
      children: f.logs.map((log, i) => logNode(`${id}/${f.filter.name}`, ep.id, log, i, ctx)),
    })),
  };
}

/** The node of the block at the current tag, with its fields, transactions, receipts and logs. */
export function blockNode(ep: EndpointView, tagView: TagView, ctx: DecodeContext = {}): NodeSpec {
  const id = `${ep.id}/block`;
  const loaded = ep.block;
  const head = ep.overview?.ok ? ep.overview.value.head : undefined;
  const base: NodeSpec = {
    id, endpointId: ep.id, kind: 'block', collapsible: 'collapsed', icon: tagView.tag === 'pending' ? 'pulse' : 'package',
    label: tagView.tag, request: { method: 'eth_getBlockByNumber', params: [tagView.tag, true] },
  };
  // Never an expandable row without children: one the user keeps open would show an open twistie
  // over nothing while it loads; it says what it waits for instead.
  if (!loaded) return { ...base, description: 'loading…', children: [messageNode(`${id}/loading`, ep.id, 'loading…')] };
  if (!loaded.ok) return { ...base, description: 'error', children: [errorNode(`${id}/error`, ep.id, loaded.error)] };
  const block = loaded.value;
  const title = blockTitle(tagView.tag, block, head);
  if (!block) return { ...base, label: title.label, children: [messageNode(`${id}/none`, ep.id, `no ${tagView.tag} block`, 'the endpoint answered null')] };
  const param = blockParam(tagView.tag, block);
  const txs = block.transactions;
  const fields = headerFields(id, ep.id, block);
  const numberField = fields.find((f) => f.label === 'number');
  if (numberField && block.number === null && title.number !== undefined) numberField.description = `null (pending: latest+1 = ${title.number})`;
  const hashField = fields.find((f) => f.label === 'hash');
  if (hashField && typeof block.hash === 'string' && title.description === 'not sealed') hashField.description = `${block.hash.slice(0, 10)}… (zero: not sealed)`;
  return {
    ...base,
    label: title.label,
    description: `${title.description} · ${txs.length} tx`,
    copyValue: typeof block.hash === 'string' ? block.hash : undefined,
    json: { title: `block-${title.label.replace(/[^a-z0-9]+/gi, '-')}`, value: block },
    children: [
      transactionsNode(id, ep.id, txs, ep.blockReceipts, ctx),
      receiptsNode(ep, id, param, txs.length, ctx),
      logsNode(ep, id, ctx),
      headerNode(id, ep.id, fields),
    ],
  };
}

function headerFields(blockNodeId: string, endpointId: string, block: BlockJson): NodeSpec[] {
  return HEADER_FIELDS.filter((f) => f in block).map((f) => {
    const node = fieldNode(`${blockNodeId}/field/${f}`, endpointId, f, block[f], headerFieldDisplay(f, block[f]));
    return f === 'parentHash' && isLinkable(block[f]) ? asLink(node, block[f]) : node;
  });
}

function headerNode(blockNodeId: string, endpointId: string, fields: NodeSpec[]): NodeSpec {
  return {
    id: `${blockNodeId}/header`, endpointId, kind: 'message', collapsible: 'collapsed', icon: 'symbol-field',
    label: 'Header', description: `${fields.length} fields`, children: fields,
  };
}

function transactionsNode(blockNodeId: string, endpointId: string, txs: (TransactionJson | string)[], receipts: ReadonlyMap<string, ReceiptSummary> | undefined, ctx: DecodeContext): NodeSpec {
  const id = `${blockNodeId}/transactions`;
  return {
    id, endpointId, kind: 'transactions', collapsible: 'expanded', icon: 'list-ordered',
    label: 'Transactions', description: `${txs.length}`,
    children: txs.map((tx, i) => transactionNode(id, endpointId, tx, i, receipts?.get(typeof tx === 'string' ? tx : tx.hash), ctx)),
  };
}

/** Transactions (with their status) and header of a block that is not the one at the tag. */
export function blockDetailChildren(blockNodeId: string, endpointId: string, detail: BlockDetail, ctx: DecodeContext = {}): NodeSpec[] {
  return [
    transactionsNode(blockNodeId, endpointId, detail.block.transactions, detail.receipts, ctx),
    headerNode(blockNodeId, endpointId, headerFields(blockNodeId, endpointId, detail.block)),
  ];
}
