// The method catalog and the implementations agree: every catalog entry has exactly one
// implementation (WebSocket-only methods none over HTTP) and every implementation an entry; the
// node refuses to start otherwise, naming each problem.
import assert from 'node:assert/strict';
import { createLogger } from '../../../mock-node/logger';
import { CATALOG, METHOD_CATALOG } from '../../../mock-node/catalog/index';
import { buildDispatch, CatalogMismatchError } from '../../../mock-node/rpc/dispatch';
import { FaultInjector } from '../../../mock-node/rpc/faults';
import { faultControlMethods } from '../../../mock-node/rpc/methods/faultControl';
import { METHOD_TABLES } from '../../../mock-node/rpc/methods/index';
import type { MethodTable } from '../../../mock-node/rpc/methods/types';
import { isScalarKind } from '../../../mock-node/catalog/index';

const NODE_TABLES: MethodTable[] = [...METHOD_TABLES, faultControlMethods(new FaultInjector({}), createLogger({ json: false, threshold: 'off' }))];

function mismatch(tables: MethodTable[]): string[] {
  try {
    buildDispatch(tables);
    return [];
  } catch (error) {
    assert.ok(error instanceof CatalogMismatchError);
    return error.problems;
  }
}

describe('catalog: every method has exactly one implementation and every implementation an entry', () => {
  it('the node\'s tables match the catalog', () => {
    assert.deepEqual(mismatch(NODE_TABLES), []);
    const implemented = NODE_TABLES.flatMap((table) => Object.keys(table)).sort();
    const served = METHOD_CATALOG.filter((spec) => spec.transport !== 'websocket' && spec.aliasOf === undefined).map((spec) => spec.name).sort();
    assert.deepEqual(implemented, served);
  });

  it('names a missing implementation, a second one, and one without an entry', () => {
    const [first, ...rest] = NODE_TABLES;
    const { eth_chainId: _dropped, ...withoutChainId } = first;
    assert.deepEqual(mismatch([withoutChainId, ...rest]), ['eth_chainId has a catalog entry but no implementation']);
    assert.deepEqual(mismatch([...NODE_TABLES, { eth_chainId: () => '0x1' }]), ['eth_chainId has more than one implementation']);
    assert.deepEqual(mismatch([...NODE_TABLES, { eth_madeUp: () => null }]), ['eth_madeUp is implemented but has no catalog entry']);
    assert.deepEqual(mismatch([...NODE_TABLES, { eth_subscribe: () => null }]), ['eth_subscribe is served over a WebSocket only but has an HTTP implementation']);
  });

  it('entries are complete: unique names, a summary and a result, optional params after required ones, control methods named as such', () => {
    assert.equal(CATALOG.size, METHOD_CATALOG.length, 'unique names');
    for (const spec of METHOD_CATALOG) {
      assert.ok(spec.summary.length > 0 && spec.result.length > 0, spec.name);
      const firstOptional = spec.params.findIndex((param) => !param.required);
      if (firstOptional >= 0) assert.ok(spec.params.slice(firstOptional).every((param) => !param.required), `${spec.name}: optional params last`);
      assert.equal(!!spec.control, /^(evm|anvil|hardhat|mock)_/.test(spec.name), `${spec.name}: control flag`);
      if (spec.aliasOf !== undefined) assert.ok(CATALOG.get(spec.aliasOf) && !CATALOG.get(spec.aliasOf)!.aliasOf, `${spec.name}: an alias of a method with an implementation`);
      for (const param of spec.params) assert.ok(param.doc.length > 0 && (isScalarKind(param.kind) || ['block', 'filter', 'transaction', 'typedData', 'percentiles', 'any'].includes(param.kind)), `${spec.name}.${param.name}`);
    }
  });
});
