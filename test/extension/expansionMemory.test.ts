// The explorer's expanded and collapsed rows across window reloads, and which endpoint opens by
// itself (the only one; the first new one: the mock node just started, an endpoint just added).
import { strict as assert } from 'node:assert';
import { ExpansionMemory, type Memento } from '../../extension/explorer/expansionMemory';
import type { NodeSpec } from '../../extension/explorer/nodeSpec';

class FakeMemento implements Memento {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

const spec = (id: string, collapsible: NodeSpec['collapsible'] = 'collapsed'): NodeSpec => ({ id, endpointId: id.split('/')[0], kind: 'endpoint', label: id, collapsible });

describe('explorer expansion memory', () => {
  it('opens the only endpoint, and later the first endpoint added', () => {
    const memory = new ExpansionMemory(new FakeMemento());
    memory.endpointsAre(['a']);
    assert.equal(memory.stateOf(spec('a')), 'expanded');
    memory.endpointsAre(['a', 'mock-public', 'mock-dedicated']);
    assert.equal(memory.stateOf(spec('mock-public')), 'expanded');
    assert.equal(memory.stateOf(spec('mock-dedicated')), 'collapsed');
    const many = new ExpansionMemory(new FakeMemento());
    many.endpointsAre(['a', 'b']);
    assert.deepEqual([many.stateOf(spec('a')), many.stateOf(spec('b'))], ['collapsed', 'collapsed'], 'two at the start: the user picks');
  });

  it('keeps what the user expanded and collapsed across a reload', () => {
    const memento = new FakeMemento();
    const before = new ExpansionMemory(memento);
    before.endpointsAre(['a']);
    before.record('a', false);
    before.record('a/recent', true);
    before.recordRow(spec('a/found', 'expanded'), false);
    before.recordRow(spec('a/token'), false);
    const after = new ExpansionMemory(memento); // a window reload: a new memory over the same workspace state
    after.endpointsAre(['a']);
    assert.equal(after.stateOf(spec('a')), 'collapsed', 'collapsed by the user: not opened again');
    assert.equal(after.stateOf(spec('a/recent')), 'expanded');
    assert.equal(after.stateOf(spec('a/found', 'expanded')), 'expanded', 'a row open by default opens again (Collapse All closes it)');
    assert.equal(after.stateOf(spec('a/token')), 'collapsed');
    assert.equal(after.stateOf(spec('a/field', 'none')), 'none');
    after.record('a', true);
    assert.equal(new ExpansionMemory(memento).stateOf(spec('a')), 'expanded');
  });

  it('says in its log what it remembered, and when the workspace state has it', async () => {
    const memento = new FakeMemento();
    const lines: string[] = [];
    const memory = new ExpansionMemory(memento, (line) => lines.push(line));
    memory.recordRow(spec('a/block'), true);
    await new Promise((resolve) => setImmediate(resolve));
    const reloaded: string[] = [];
    new ExpansionMemory(memento, (line) => reloaded.push(line));
    assert.deepEqual(lines, [
      'tree rows remembered from the workspace state: 0 expanded, 0 collapsed',
      'row a/block expanded (kept across reloads)',
      'tree rows saved (after a/block expanded): 1 expanded, 0 collapsed',
    ]);
    assert.deepEqual(reloaded, ['tree rows remembered from the workspace state: 1 expanded, 0 collapsed']);
  });
});
