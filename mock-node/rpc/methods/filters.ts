// eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter, eth_getFilterChanges,
// eth_getFilterLogs, eth_uninstallFilter: the node's polling filters (pollingFilters.ts), one set
// per chain, made on first use.
import type { Chain } from '../../chain/chain';
import { invalidParams } from '../errors';
import { PollingFilters } from '../pollingFilters';
import { parseLogFilter, queryLogs } from './logs';
import type { MethodTable, NodeServices } from './types';

const registries = new WeakMap<Chain, PollingFilters>();

export function pollingFilters(node: NodeServices): PollingFilters {
  let filters = registries.get(node.chain);
  if (!filters) {
    filters = new PollingFilters(node.chain, { maxFilters: node.options.maxFilters, identity: () => node.options.pendingIdentity });
    registries.set(node.chain, filters);
  }
  return filters;
}

function filterId(value: unknown): string {
  if (typeof value !== 'string') throw invalidParams('invalid argument 0: filter id must be a hex string');
  return value.toLowerCase();
}

export const filterMethods: MethodTable = {
  eth_newFilter: (params, { node }) => {
    const query = parseLogFilter(params[0]);
    const from = query.from.kind === 'tag' && query.from.tag === 'pending';
    const to = query.to.kind === 'tag' && query.to.tag === 'pending';
    if (from && !to) throw invalidParams('invalid block range params');
    if (query.from.kind === 'number' && query.to.kind === 'number' && query.from.number > query.to.number) throw invalidParams('invalid block range params');
    return pollingFilters(node).newLogFilter(query);
  },
  eth_newBlockFilter: (_params, { node }) => pollingFilters(node).newBlockFilter(),
  eth_newPendingTransactionFilter: (_params, { node }) => pollingFilters(node).newPendingTransactionFilter(),
  eth_getFilterChanges: (params, { node }) => pollingFilters(node).changes(filterId(params[0])),
  eth_getFilterLogs: (params, { node, profile }) => queryLogs(node, profile, pollingFilters(node).logQuery(filterId(params[0]))),
  eth_uninstallFilter: (params, { node }) => pollingFilters(node).uninstall(filterId(params[0])),
};
