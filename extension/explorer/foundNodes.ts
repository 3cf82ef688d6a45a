// Go to results under an endpoint: a transaction with its receipt, a block, an address with its
// balances, code and recent token transfers. No vscode import.
import { blockDetailChildren, fieldNode, GO_TO_COMMAND, logNode, receiptNode, statusText, transactionNode } from './blockNodes';
import { hashDescription } from './blockTitle';
import { hexAsDecimal, hexToBigInt, shortHex, tokenUnits, weiAsEth } from './format';
import type { EndpointView, NodeSpec } from './nodeSpec';
import type { AddressData, BlockDetail, Found, TransactionFound } from './chainData';
import { decodeTransaction, type DecodeContext } from './decoding';

export function foundGroupId(endpointId: string): string {
  return `${endpointId}/found`;
}

/** The tree id of a Go to result: the newest one's (what Go to reveals). */
export function foundId(endpointId: string, found: Pick<Found, 'kind' | 'key'>): string {
  return `${foundGroupId(endpointId)}/${found.kind}/${found.key}`;
}

/**
 * The tree id of an older Go to result: it names the newest result too, so each new Go to gives
 * the older results new ids. VS Code keeps a row's expanded state by id whatever the item says
 * (the user's state wins), so a new id is what lets them show collapsed under the new result.
 */
export function olderFoundId(endpointId: string, found: Pick<Found, 'kind' | 'key'>, newest: Pick<Found, 'kind' | 'key'>): string {
  return `${foundGroupId(endpointId)}/under-${newest.kind}-${newest.key}/${found.kind}/${found.key}`;
}

/** The row that opens Go to… for this endpoint: the tree's search box. */
export function goToRow(endpointId: string): NodeSpec {
  return {
    id: `${endpointId}/goTo`, endpointId, kind: 'goTo', collapsible: 'none', icon: 'search',
    label: 'Go to…', description: 'block number or hash, transaction hash, address',
    command: { id: GO_TO_COMMAND, title: 'Go to…', arguments: [endpointId] },
  };
}

function transactionFound(ep: EndpointView, id: string, found: TransactionFound, ctx: DecodeContext): NodeSpec {
  const tx = found.tx;
  const created = typeof found.receipt?.contractAddress === 'string' ? found.receipt.contractAddress : undefined;
  const inner = transactionNode(id, ep.id, tx, 0, found.receipt ? { status: found.receipt.status, gasUsed: found.receipt.gasUsed, contractAddress: created } : undefined, ctx);
  const decoded = decodeTransaction(tx, ctx, created);
  const where = typeof tx.blockNumber === 'string' ? `#${hexAsDecimal(tx.blockNumber)}` : 'pending';
  const receiptRow: NodeSpec = found.receipt
    ? receiptNode(id, ep.id, found.receipt, ctx)
    : { id: `${id}/noReceipt`, endpointId: ep.id, kind: 'message', collapsible: 'none', label: found.receipt === null ? 'no receipt yet' : 'receipt not available' };
  const failed = found.receipt && found.receipt.status !== '0x1';
  const reason: NodeSpec[] = failed && found.revertReason
    ? [{ id: `${id}/revertReason`, endpointId: ep.id, kind: 'field', collapsible: 'none', icon: 'error', label: `reverted: ${found.revertReason}`, tooltip: found.revertReason, copyValue: found.revertReason }]
    : [];
  const status = found.receipt ? (found.receipt.status === '0x1' ? 'success' : 'failed') : 'no receipt';
  return {
    ...inner,
    id,
    collapsible: 'expanded',
    label: decoded.summary,
    description: `${status} · ${where} · tx ${shortHex(tx.hash, 10, 6)}`,
    tooltip: `${decoded.summary}\n${tx.hash}\n${status}${found.revertReason ? `: ${found.revertReason}` : ''} · ${where}\nfrom ${String(tx.from)}\nto ${String(tx.to ?? `(contract creation)${created ? ` ${created}` : ''}`)}`,
    children: [...reason, { ...receiptRow, label: `receipt: ${receiptRow.label}`, collapsible: found.receipt && (found.receipt.logs?.length ?? 0) > 0 ? 'expanded' : receiptRow.collapsible }, ...(inner.children ?? [])],
  };
}

function blockFound(ep: EndpointView, id: string, detail: BlockDetail, ctx: DecodeContext): NodeSpec {
  const block = detail.block;
  return {
    id, endpointId: ep.id, kind: 'block', collapsible: 'expanded', icon: 'package',
    label: `block #${hexAsDecimal(block.number)}`,
    description: `${hashDescription(block.hash)} · ${block.transactions.length} tx`,
    copyValue: typeof block.hash === 'string' ? block.hash : undefined,
    json: { title: `block-${hexAsDecimal(block.number)}`, value: block },
    request: { method: 'eth_getBlockByHash', params: [block.hash, true] },
    children: blockDetailChildren(id, ep.id, detail, ctx),
  };
}

/** `in` / `out` / `self` for a Transfer log seen from `address`. */
function direction(log: Record<string, unknown>, address: string): string {
  const topics = Array.isArray(log.topics) ? (log.topics as string[]) : [];
  const from = topics[1]?.slice(-40).toLowerCase();
  const to = topics[2]?.slice(-40).toLowerCase();
  const me = address.slice(2).toLowerCase();
  return from === me && to === me ? 'self' : from === me ? 'out' : 'in';
}

function addressFound(ep: EndpointView, id: string, data: AddressData, ctx: DecodeContext): NodeSpec {
  const token = { decimals: ctx.token?.decimals ?? 6, symbol: ctx.token?.symbol ?? '' };
  const field = (name: string, description: string, copy?: string): NodeSpec => ({
    ...fieldNode(`${id}/${name}`, ep.id, name, copy ?? description, description),
  });
  const tokenBalance = data.tokenBalance !== undefined ? hexToBigInt(data.tokenBalance) : undefined;
  const tokenText = tokenBalance !== undefined ? tokenUnits(tokenBalance, token.decimals, token.symbol) : undefined;
  const codeBytes = (data.code.length - 2) / 2;
  const children: NodeSpec[] = [
    field('balance', `${weiAsEth(data.balanceLatest)} · pending ${weiAsEth(data.balancePending)}`, hexAsDecimal(data.balanceLatest)),
    field('nonce', `${hexAsDecimal(data.nonceLatest)} · pending ${hexAsDecimal(data.noncePending)}`, hexAsDecimal(data.noncePending)),
    ...(tokenText ? [field(token.symbol || 'token', tokenText, String(tokenBalance))] : []),
    field('code', codeBytes > 0 ? `${codeBytes} bytes` : 'no code', data.code),
    transfersNode(ep, id, data, ctx),
  ];
  return {
    id, endpointId: ep.id, kind: 'address', collapsible: 'expanded', icon: codeBytes > 0 ? 'file-code' : 'person',
    label: shortHex(data.address, 8, 6),
    description: `${weiAsEth(data.balanceLatest)}${tokenText ? ` · ${tokenText}` : ''} · nonce ${hexAsDecimal(data.nonceLatest)}${codeBytes > 0 ? ' · contract' : ''}`,
    tooltip: `${data.address}\nread at block #${hexAsDecimal(data.head)}`,
    copyValue: data.address,
    request: { method: 'eth_getBalance', params: [data.address, 'latest'] },
    children,
  };
}

function transfersNode(ep: EndpointView, addressNodeId: string, data: AddressData, ctx: DecodeContext): NodeSpec {
  const id = `${addressNodeId}/transfers`;
  const base: NodeSpec = { id, endpointId: ep.id, kind: 'logs', collapsible: 'expanded', icon: 'arrow-swap', label: 'Token transfers' };
  if (!data.transfers.ok) {
    return { ...base, description: 'error', children: [{ id: `${id}/error`, endpointId: ep.id, kind: 'error', collapsible: 'none', icon: 'warning', label: data.transfers.error, copyValue: data.transfers.error }] };
  }
  const history = data.transfers.value;
  const range = `blocks #${hexAsDecimal(history.fromBlock)}–#${hexAsDecimal(history.toBlock)}`;
  const logs = history.logs.slice(0, 50);
  return {
    ...base,
    description: `${history.logs.length} in ${range}${history.requests > 2 ? ` (${history.requests} eth_getLogs: range split)` : ''}`,
    json: { title: `transfers-${data.address.slice(0, 10)}`, value: history.logs },
    children: logs.length === 0
      ? [{ id: `${id}/none`, endpointId: ep.id, kind: 'message', collapsible: 'none', label: `no Transfer in ${range}` }]
      : logs.map((log, i) => {
        // Only the known token's amounts are scaled (decodeLog); other tokens' are shown as raw integers.
        const node = logNode(id, ep.id, log, i, ctx);
        return { ...node, label: `${direction(log, data.address)} · ${node.label}`, description: `#${hexAsDecimal(log.blockNumber)} · ${node.description ?? ''}` };
      }),
  };
}

function foundNode(ep: EndpointView, id: string, f: Found, ctx: DecodeContext): NodeSpec {
  switch (f.kind) {
    case 'transaction': return transactionFound(ep, id, f.found, ctx);
    case 'block': return blockFound(ep, id, f.detail, ctx);
    case 'address': return addressFound(ep, id, f.data, ctx);
  }
}

/**
 * The Go to results group, newest first; undefined while there are none. The newest is open
 * (what Go to reveals and selects); the older ones are collapsed to one row each, so the newest
 * one's rows are in view at once.
 */
export function foundGroup(ep: EndpointView, ctx: DecodeContext): NodeSpec | undefined {
  const found = ep.found ?? [];
  if (found.length === 0) return undefined;
  const newest = found[0];
  return {
    id: foundGroupId(ep.id), endpointId: ep.id, kind: 'found', collapsible: 'expanded', icon: 'search',
    label: 'Go to results', description: `${found.length}`,
    children: found.map((f, i) => i === 0
      ? foundNode(ep, foundId(ep.id, f), f, ctx)
      : { ...foundNode(ep, olderFoundId(ep.id, f, newest), f, ctx), collapsible: 'collapsed' as const }),
  };
}
