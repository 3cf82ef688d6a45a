// The "Recent blocks" section of an endpoint: the last blocks, newest first, each expanding (and
// loading) like a block of its own, and a row that loads older ones. No vscode import.
import { blockDetailChildren } from './blockNodes';
import { hashDescription } from './blockTitle';
import { hexAsDecimal, hexAsTime } from './format';
import type { EndpointView, NodeSpec, SectionKey } from './nodeSpec';
import type { BlockJson } from './chainData';
import type { DecodeContext } from './decoding';

export const LOAD_OLDER_COMMAND = 'chainExplorer.loadOlderBlocks';

export function recentSectionId(endpointId: string): string {
  return `${endpointId}/recent`;
}

/** The section key of one recent block (its number in hex). */
export function recentBlockKey(number: string): SectionKey {
  return `block:0x${BigInt(number).toString(16)}`;
}

function recentBlockNode(ep: EndpointView, block: BlockJson, ctx: DecodeContext): NodeSpec | undefined {
  if (typeof block.number !== 'string') return undefined;
  const key = recentBlockKey(block.number);
  const id = `${recentSectionId(ep.id)}/${key.slice('block:'.length)}`;
  const time = hexAsTime(block.timestamp).replace(/^\d{4}-\d\d-\d\d /, '');
  const base: NodeSpec = {
    id, endpointId: ep.id, kind: 'recentBlock', collapsible: 'collapsed', icon: 'package', section: key,
    label: `#${hexAsDecimal(block.number)}`,
    description: `${hashDescription(block.hash)} · ${block.transactions.length} tx · ${time}`,
    tooltip: `block ${hexAsDecimal(block.number)}\n${String(block.hash)}\n${hexAsTime(block.timestamp)}`,
    copyValue: typeof block.hash === 'string' ? block.hash : undefined,
    request: { method: 'eth_getBlockByNumber', params: [block.number, true] },
  };
  const detail = ep.open.has(key) ? ep.recentBlocks?.get(key) : undefined;
  if (!detail) return base;
  if (!detail.ok) return { ...base, children: [{ id: `${id}/error`, endpointId: ep.id, kind: 'error', collapsible: 'none', icon: 'warning', label: detail.error, copyValue: detail.error }] };
  return { ...base, json: { title: `block-${hexAsDecimal(block.number)}`, value: detail.value.block }, children: blockDetailChildren(id, ep.id, detail.value, ctx) };
}

export function recentNode(ep: EndpointView, ctx: DecodeContext = {}): NodeSpec {
  const id = recentSectionId(ep.id);
  const base: NodeSpec = { id, endpointId: ep.id, kind: 'recent', collapsible: 'collapsed', icon: 'history', label: 'Recent blocks', section: 'recent' };
  const loaded = ep.recent;
  if (!ep.open.has('recent') || !loaded) return base;
  if (!loaded.ok) return { ...base, description: 'error', children: [{ id: `${id}/error`, endpointId: ep.id, kind: 'error', collapsible: 'none', icon: 'warning', label: loaded.error, copyValue: loaded.error }] };
  const blocks = loaded.value;
  const newest = blocks[0]?.number;
  const oldest = blocks[blocks.length - 1]?.number;
  const children = blocks.map((b) => recentBlockNode(ep, b, ctx)).filter((n): n is NodeSpec => n !== undefined);
  if (oldest !== undefined && oldest !== null && BigInt(oldest) > 0n) {
    const page = ep.recentPageSize ?? 10;
    children.push({
      id: `${id}/older`, endpointId: ep.id, kind: 'older', collapsible: 'none', icon: 'fold-down',
      label: `Load ${page} older blocks…`, description: `before #${hexAsDecimal(oldest)}`,
      command: { id: LOAD_OLDER_COMMAND, title: 'Load older blocks', arguments: [ep.id] },
    });
  }
  return {
    ...base,
    description: newest && oldest ? `#${hexAsDecimal(oldest)}–#${hexAsDecimal(newest)}` : 'none',
    children,
  };
}
