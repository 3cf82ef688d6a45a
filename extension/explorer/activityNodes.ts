// The "Activity" section of an endpoint: each log filter's matches over the last blocks, newest
// first, a reorg's dropped logs shown as removed. No vscode import.
import { logNode } from './blockNodes';
import { hexAsDecimal } from './format';
import type { EndpointView, NodeSpec } from './nodeSpec';
import type { DecodeContext } from './decoding';

/** Rows shown per filter (the list keeps more). */
const SHOWN = 50;

export function activityNode(ep: EndpointView, ctx: DecodeContext, blocks: number): NodeSpec {
  const id = `${ep.id}/activity`;
  const base: NodeSpec = {
    id, endpointId: ep.id, kind: 'activity', collapsible: 'collapsed', icon: 'pulse', label: 'Activity', section: 'activity',
    tooltip: `Log filters (chainExplorer.logFilters) over the last ${blocks} blocks, following new heads`,
  };
  const loaded = ep.activity;
  if (!ep.open.has('activity') || !loaded) return base;
  if (!loaded.ok) return { ...base, description: 'error', children: [{ id: `${id}/error`, endpointId: ep.id, kind: 'error', collapsible: 'none', icon: 'warning', label: loaded.error, copyValue: loaded.error }] };
  if (loaded.value.length === 0) {
    return { ...base, children: [{ id: `${id}/none`, endpointId: ep.id, kind: 'message', collapsible: 'none', label: 'no log filter configured', description: 'chainExplorer.logFilters' }] };
  }
  const total = loaded.value.reduce((sum, f) => sum + f.logs.filter((l) => l.removed !== true).length, 0);
  return {
    ...base,
    description: `${total} in the last ${blocks} blocks`,
    children: loaded.value.map((f) => {
      const filterId = `${id}/${f.filter.name}`;
      const removed = f.logs.filter((l) => l.removed === true).length;
      return {
        id: filterId, endpointId: ep.id, kind: 'logFilter' as const, collapsible: 'expanded' as const, icon: 'filter',
        label: f.filter.name,
        description: `${f.logs.length - removed}${removed > 0 ? ` · ${removed} removed` : ''}`,
        json: { title: `activity-${f.filter.name}`, value: f.logs },
        children: f.logs.slice(0, SHOWN).map((log, i) => {
          const node = logNode(filterId, ep.id, log, i, ctx);
          // A removed replay and the log that replaced it share a key: keep their ids apart.
          return {
            ...node,
            id: log.removed === true ? `${node.id}/removed` : node.id,
            icon: log.removed === true ? 'discard' : node.icon,
            description: `#${hexAsDecimal(log.blockNumber)} · ${node.description ?? ''}`,
          };
        }),
      };
    }),
  };
}
