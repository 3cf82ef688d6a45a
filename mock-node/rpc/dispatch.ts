// The node's dispatch, built from the method catalog and the method tables: each catalog entry
// gets exactly one implementation, each implementation must have an entry (methods served over a
// WebSocket only have none here: the gateway answers them; an alias is answered by the method it
// names). Any disagreement stops the node from starting, with every problem named.
import { CATALOG, type MethodSpec } from '../catalog/index';
import type { MethodHandler, MethodTable } from './methods/types';

export interface DispatchEntry {
  spec: MethodSpec;
  /** Undefined for WebSocket-only methods. */
  handler?: MethodHandler;
}

export class CatalogMismatchError extends Error {
  constructor(readonly problems: string[]) {
    super(`the method catalog and the implementations disagree: ${problems.join('; ')}`);
    this.name = 'CatalogMismatchError';
  }
}

export function buildDispatch(tables: readonly MethodTable[], catalog: ReadonlyMap<string, MethodSpec> = CATALOG): Map<string, DispatchEntry> {
  const implementations = new Map<string, MethodHandler>();
  const problems: string[] = [];
  for (const table of tables) {
    for (const [name, handler] of Object.entries(table)) {
      if (implementations.has(name)) problems.push(`${name} has more than one implementation`);
      else implementations.set(name, handler);
      if (!catalog.has(name)) problems.push(`${name} is implemented but has no catalog entry`);
    }
  }
  const dispatch = new Map<string, DispatchEntry>();
  for (const spec of catalog.values()) {
    if (spec.aliasOf !== undefined) {
      // Another name: answered by the implementation of the method it names, never by its own.
      if (implementations.has(spec.name)) problems.push(`${spec.name} is an alias of ${spec.aliasOf} but has an implementation of its own`);
      const handler = implementations.get(spec.aliasOf);
      if (!handler) problems.push(`${spec.name} is an alias of ${spec.aliasOf}, which has no implementation`);
      dispatch.set(spec.name, { spec, handler });
      continue;
    }
    const handler = implementations.get(spec.name);
    if (spec.transport === 'websocket') {
      if (handler) problems.push(`${spec.name} is served over a WebSocket only but has an HTTP implementation`);
    } else if (!handler) {
      problems.push(`${spec.name} has a catalog entry but no implementation`);
    }
    dispatch.set(spec.name, { spec, handler });
  }
  if (problems.length > 0) throw new CatalogMismatchError(problems);
  return dispatch;
}
