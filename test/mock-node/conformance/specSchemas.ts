// The Ethereum execution-apis specification as validators: the method files' `result` schemas,
// with `$ref`s resolved against the schema files' components (copied unmodified into
// ./execution-apis, see UPSTREAM.md). Parsed with `yaml`, validated with `ajv` (draft 2020-12 is
// not needed: the spec uses the draft-07 subset).
//
// Where the mock node differs on purpose, a named decision derives the documented shape from the
// spec's own schema (a copy of its components with the differing fields widened), so the rest of
// the object is still checked against the spec.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

const ROOT = join(__dirname, 'execution-apis', 'src');

type Schema = Record<string, any>;
type Components = Record<string, Schema>;

function readYaml(file: string): unknown {
  return parse(readFileSync(file, 'utf8'));
}

/** Every component schema of the schema files, by name. */
function loadComponents(): Components {
  const components: Components = {};
  for (const file of readdirSync(join(ROOT, 'schemas')).sort()) {
    for (const [name, schema] of Object.entries(readYaml(join(ROOT, 'schemas', file)) as Components)) {
      if (name in components) throw new Error(`schema ${name} is defined twice`);
      components[name] = schema;
    }
  }
  return components;
}

/** Each method's result schema, by method name. */
function loadResults(): Record<string, Schema> {
  const results: Record<string, Schema> = {};
  for (const file of readdirSync(join(ROOT, 'eth')).sort()) {
    for (const method of readYaml(join(ROOT, 'eth', file)) as { name: string; result: { schema: Schema } }[]) {
      results[method.name] = method.result.schema;
    }
  }
  return results;
}

/** A deliberate difference, as docs/mock-node.md names it, and how it widens the spec's schemas. */
export interface Decision {
  id: string;
  /** Why, in the words of docs/mock-node.md. */
  rule: string;
  widen(components: Components): void;
}

/** `properties[name]` of a schema may also be null. */
function nullable(schema: Schema, ...names: string[]): void {
  for (const name of names) {
    if (!schema.properties?.[name]) throw new Error(`no property ${name} to widen`);
    schema.properties[name] = { oneOf: [schema.properties[name], { type: 'null' }] };
  }
}

/** TransactionInfo's contextual part (block hash, number, timestamp, index, from, hash). */
function transactionContext(components: Components): Schema {
  const part = (components.TransactionInfo.allOf as Schema[]).find((s) => s.properties?.blockHash);
  if (!part) throw new Error('TransactionInfo has no contextual part');
  return part;
}

export const DECISIONS = {
  pendingNull: {
    id: 'pending identity `null`',
    rule: 'the pending block\'s number and hash are null ("null when pending", the seed), and so are the blockHash and blockNumber of the transactions, receipts and logs in it',
    widen: (c) => {
      nullable(c.Block, 'number', 'hash');
      nullable(transactionContext(c), 'blockHash', 'blockNumber');
      nullable(c.ReceiptInfo, 'blockHash', 'blockNumber');
      nullable(c.Log, 'blockHash', 'blockNumber');
    },
  },
  pendingZero: {
    id: 'pending identity `zero`',
    rule: 'a pre-confirmed transaction has blockHash null, as Base answers (the block and its receipts and logs carry the zero hash)',
    widen: (c) => nullable(transactionContext(c), 'blockHash'),
  },
  queued: {
    id: 'a transaction still queued',
    rule: 'blockHash, blockNumber, blockTimestamp and transactionIndex are null, as geth answers a mempool transaction (TransactionInfo describes included transactions only)',
    widen: (c) => nullable(transactionContext(c), 'blockHash', 'blockNumber', 'blockTimestamp', 'transactionIndex'),
  },
  header: {
    id: 'newHeads notification',
    rule: 'a header: the block without transactions, uncles, withdrawals and size, as geth sends it (the spec has no subscription schemas)',
    widen: (c) => {
      c.Block.required = (c.Block.required as string[]).filter((name) => !['transactions', 'uncles', 'size'].includes(name));
    },
  },
} satisfies Record<string, Decision>;

export type DecisionId = keyof typeof DECISIONS;

export class SpecValidators {
  private readonly components = loadComponents();
  readonly results = loadResults();
  private readonly cache = new Map<string, ValidateFunction>();

  /** Methods the loaded method files define. */
  has(method: string): boolean {
    return method in this.results;
  }

  /** The validator of a method's result, under the given decisions (none: the spec as it is). */
  result(method: string, decisions: readonly DecisionId[] = []): ValidateFunction {
    const schema = this.results[method];
    if (!schema) throw new Error(`the spec files define no ${method}`);
    return this.compile(`result:${method}`, schema, decisions);
  }

  /** The validator of a component (`Log`, `TransactionInfo`, `Block` ...), under the given decisions. */
  component(name: string, decisions: readonly DecisionId[] = []): ValidateFunction {
    if (!this.components[name]) throw new Error(`the spec files define no ${name}`);
    return this.compile(`component:${name}`, { $ref: `#/components/schemas/${name}` }, decisions);
  }

  /** The validator of a list of a component (`Log[]`), under the given decisions. */
  list(name: string, decisions: readonly DecisionId[] = []): ValidateFunction {
    if (!this.components[name]) throw new Error(`the spec files define no ${name}`);
    return this.compile(`list:${name}`, { type: 'array', items: { $ref: `#/components/schemas/${name}` } }, decisions);
  }

  private compile(what: string, schema: Schema, decisions: readonly DecisionId[]): ValidateFunction {
    const key = `${what}|${[...decisions].sort().join(',')}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const components = structuredClone(this.components);
      for (const id of decisions) DECISIONS[id].widen(components);
      const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
      ajv.addKeyword({ keyword: 'components' }); // where the spec's $refs point: '#/components/schemas/…'
      validate = ajv.compile({ ...structuredClone(schema), components: { schemas: components } });
      this.cache.set(key, validate);
    }
    return validate;
  }
}

/** Ajv's errors in one line each: where, what. */
export function describeErrors(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(result)'} ${e.message}${e.params && 'passingSchemas' in e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
}
