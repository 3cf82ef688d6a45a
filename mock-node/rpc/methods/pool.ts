// The pool as geth's txpool namespace shows it (Anvil's answers): txpool_status, txpool_content,
// txpool_inspect; and anvil_dropTransaction / anvil_dropAllTransactions. The pool is every
// transaction not yet sealed: `pending` holds those pre-confirmed in the pending block and the
// queued ones next in their sender's nonce order; `queued` those behind a nonce gap.
import type { Chain } from '../../chain/chain';
import type { Hex } from '../../encoding/hex';
import type { TransactionRecord } from '../../chain/types';
import { parseHash } from '../params';
import { transactionJson } from '../shapes';
import type { MethodTable } from './types';

interface PoolView {
  pending: TransactionRecord[];
  queued: TransactionRecord[];
}

function poolView(chain: Chain): PoolView {
  const { preconfirmed, queued } = chain.pool();
  const pending = [...preconfirmed];
  const gapped: TransactionRecord[] = [];
  const bySender = new Map<Hex, TransactionRecord[]>();
  for (const tx of queued) {
    const list = bySender.get(tx.from);
    if (list) list.push(tx);
    else bySender.set(tx.from, [tx]);
  }
  const state = chain.pending.state;
  for (const [sender, list] of bySender) {
    let next = state.account(sender).nonce;
    for (const tx of list.sort((a, b) => (a.nonce < b.nonce ? -1 : a.nonce > b.nonce ? 1 : 0))) {
      if (tx.nonce === next) {
        pending.push(tx);
        next++;
      } else {
        gapped.push(tx);
      }
    }
  }
  return { pending, queued: gapped };
}

/** { sender: { nonce (decimal): value } }, senders and nonces in ascending order. */
function bySenderAndNonce(txs: TransactionRecord[], value: (tx: TransactionRecord) => unknown): Record<string, Record<string, unknown>> {
  const sorted = [...txs].sort((a, b) => (a.from !== b.from ? (a.from < b.from ? -1 : 1) : a.nonce < b.nonce ? -1 : a.nonce > b.nonce ? 1 : 0));
  const out: Record<string, Record<string, unknown>> = {};
  for (const tx of sorted) (out[tx.from] ??= {})[tx.nonce.toString()] = value(tx);
  return out;
}

/** Anvil's summary line: `to: value wei + gas gas × price wei` (price: gasPrice, or maxFeePerGas). */
function inspectLine(tx: TransactionRecord): string {
  const price = tx.gasPrice ?? tx.maxFeePerGas ?? 0n;
  return `${tx.to ?? 'contract creation'}: ${tx.value} wei + ${tx.gasLimit} gas × ${price} wei`;
}

export const poolMethods: MethodTable = {
  txpool_status: (_params, { node }) => {
    const view = poolView(node.chain);
    return { pending: '0x' + view.pending.length.toString(16), queued: '0x' + view.queued.length.toString(16) };
  },
  txpool_content: (_params, { node }) => {
    const view = poolView(node.chain);
    const json = (tx: TransactionRecord) => transactionJson(tx, null, null);
    return { pending: bySenderAndNonce(view.pending, json), queued: bySenderAndNonce(view.queued, json) };
  },
  txpool_inspect: (_params, { node }) => {
    const view = poolView(node.chain);
    return { pending: bySenderAndNonce(view.pending, inspectLine), queued: bySenderAndNonce(view.queued, inspectLine) };
  },
  anvil_dropTransaction: async (params, { node }) => {
    const hash = parseHash(params[0], 0);
    const dropped = await node.chain.dropTransactions((tx) => tx.hash === hash);
    return dropped.length > 0 ? hash : null;
  },
  anvil_dropAllTransactions: async (_params, { node }) => {
    await node.chain.dropTransactions(() => true);
    return null;
  },
};
