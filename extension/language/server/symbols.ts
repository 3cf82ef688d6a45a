// The outline of a `.jsonrpc` file (Outline view, breadcrumbs, Go to Symbol): each request by its
// method and id, each batch with its requests. Pure.
import { property, rawText, type ParsedRpcDocument } from './document';
import type { Node } from './jsonc';

export interface RequestSymbol {
  name: string;
  detail?: string;
  kind: 'request' | 'batch';
  offset: number;
  length: number;
  /** The method string (or the bracket of a batch): what the outline selects. */
  selectionOffset: number;
  selectionLength: number;
  children: RequestSymbol[];
}

function requestSymbol(text: string, node: Node): RequestSymbol {
  const method = property(node, 'method');
  const id = property(node, 'id');
  const name = typeof method?.value === 'string' && method.value !== '' ? method.value : '(no method)';
  const selection = method ?? node;
  return {
    name, detail: id ? `id ${rawText(text, id)}` : 'no id', kind: 'request',
    offset: node.offset, length: node.length, selectionOffset: selection.offset, selectionLength: selection.length, children: [],
  };
}

export function documentSymbols(doc: ParsedRpcDocument): RequestSymbol[] {
  const symbols: RequestSymbol[] = [];
  for (const segment of doc.segments) {
    const root = segment.root;
    if (!root) continue;
    if (root.type === 'object') symbols.push(requestSymbol(doc.text, root));
    else if (root.type === 'array') {
      const children = (root.children ?? []).filter((c) => c.type === 'object').map((c) => requestSymbol(doc.text, c));
      symbols.push({
        name: `batch (${children.length} request${children.length === 1 ? '' : 's'})`, detail: children.map((c) => c.name).join(', '), kind: 'batch',
        offset: root.offset, length: root.length, selectionOffset: root.offset, selectionLength: 1, children,
      });
    }
  }
  return symbols;
}
