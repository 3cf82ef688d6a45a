// Where the "Send" code lenses go in a `.jsonrpc` document: one above each single request, one
// above each batch (the whole batch) and one above each request inside a batch. Pure.
import { property, type ParsedRpcDocument } from './document';

/** The command the lenses run; extension/language/client.ts registers it. */
export const SEND_COMMAND = 'chainExplorer.language.send';

export interface LensSpec {
  offset: number;
  title: string;
  /** Arguments of SEND_COMMAND after the document URI. */
  segment: number;
  element?: number;
}

function methodName(node: Parameters<typeof property>[0]): string {
  const method = property(node, 'method');
  return typeof method?.value === 'string' ? method.value : 'request';
}

export function sendLenses(doc: ParsedRpcDocument, endpointName?: string): LensSpec[] {
  const to = endpointName ? ` to ${endpointName}` : '';
  const lenses: LensSpec[] = [];
  for (const segment of doc.segments) {
    const root = segment.root;
    if (!root || (root.type !== 'object' && root.type !== 'array')) continue;
    if (segment.batch) {
      const count = root.children?.length ?? 0;
      if (count === 0) continue;
      lenses.push({ offset: segment.offset, title: `▶ Send batch (${count} request${count === 1 ? '' : 's'})${to}`, segment: segment.index });
      root.children!.forEach((child, element) => {
        if (child.type === 'object') lenses.push({ offset: child.offset, title: `▶ Send ${methodName(child)}${to}`, segment: segment.index, element });
      });
    } else {
      lenses.push({ offset: segment.offset, title: `▶ Send ${methodName(root)}${to}`, segment: segment.index });
    }
  }
  return lenses;
}
