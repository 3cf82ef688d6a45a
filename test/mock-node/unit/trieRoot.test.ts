import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { indexKey, OrderedTrieBuilder, orderedTrieRootBytes, trieRoot, type TrieEntry } from '../../../mock-node/encoding/trieRoot';
import { encodeRlp } from 'ethers';

async function mptRoot(entries: readonly TrieEntry[], useKeyHashing = false): Promise<string> {
  const trie = new MerklePatriciaTrie({ useKeyHashing });
  for (const [key, value] of entries) await trie.put(key, value);
  return Buffer.from(trie.root()).toString('hex');
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('trieRoot: a trie root from all entries at once', function () {
  this.timeout(120_000);
  it('equals @ethereumjs/mpt for random keys of one length and of mixed lengths, values short and long', async () => {
    for (let round = 0; round < 60; round++) {
      const count = round % 20 === 0 ? round / 20 : 1 + Math.floor(Math.random() * 100);
      const entries: TrieEntry[] = [];
      for (let i = 0; i < count; i++) {
        const keyLength = round % 2 ? 32 : 1 + Math.floor(Math.random() * 3);
        entries.push([randomBytes(keyLength), randomBytes(1 + Math.floor(Math.random() * (round % 3 ? 40 : 4)))]);
      }
      // Mixed-length random keys can be prefixes of others; keep only prefix-free sets there,
      // as Ethereum's tries have (fixed-length hashed keys, or rlp(i)).
      const keys = entries.map(([k]) => hex(k));
      const prefixFree = entries.filter(([k]) => !keys.some((other) => other !== hex(k) && other.startsWith(hex(k))));
      assert.equal(hex(trieRoot(prefixFree)), await mptRoot(prefixFree), `round ${round}, ${prefixFree.length} entries`);
    }
  });

  it('ordered tries (key rlp(i)) equal @ethereumjs/mpt up to 1,000 items, across the 127/128 key boundary', async () => {
    for (const count of [0, 1, 2, 16, 127, 128, 129, 300, 1000]) {
      const items = Array.from({ length: count }, (_, i) => randomBytes(1 + ((i * 37) % 120)));
      const entries = items.map((item, i) => [indexKey(i), item] as const);
      assert.equal(hex(orderedTrieRootBytes(items)), await mptRoot(entries), `${count} items`);
    }
    for (const i of [0, 1, 127, 128, 255, 256, 65535, 65536]) assert.equal(hex(indexKey(i)), encodeRlp(i === 0 ? '0x' : '0x' + i.toString(16).padStart(i.toString(16).length + (i.toString(16).length % 2), '0')).slice(2));
  });

  it('later duplicates win and empty values are no entry', async () => {
    const key = randomBytes(32);
    const other = randomBytes(32);
    const value = randomBytes(40);
    assert.equal(hex(trieRoot([[key, randomBytes(40)], [other, value], [key, value]])), await mptRoot([[key, value], [other, value]]));
    assert.equal(hex(trieRoot([[key, value], [other, new Uint8Array()]])), await mptRoot([[key, value]]));
  });
});

describe('OrderedTrieBuilder: a growing ordered trie', () => {
  it('its root after each append equals a trie built from scratch (1 to 400 items, appended in uneven steps)', async function () {
    this.timeout(120_000);
    const builder = new OrderedTrieBuilder<Uint8Array>((item) => item);
    const all: Uint8Array[] = [];
    for (const step of [1, 1, 3, 7, 20, 50, 45, 1, 1, 100, 171]) {
      const items = Array.from({ length: step }, (_, i) => randomBytes(1 + ((all.length + i) * 53) % 200));
      builder.append(items);
      all.push(...items);
      const entries = all.map((item, i) => [indexKey(i), item] as const);
      assert.equal(hex(builder.root()), await mptRoot(entries), `${all.length} items`);
      assert.equal(hex(builder.root()), hex(orderedTrieRootBytes(all)));
    }
  });

  it('holds items and encodes each only when its leaf is built, and keeps its roots right past 65,535 items (where its memo keys change form)', function () {
    this.timeout(300_000);
    let encoded = 0;
    const builder = new OrderedTrieBuilder<number>((i) => {
      encoded++;
      return Uint8Array.of(0x80 + (i % 50), i & 0xff, (i >> 8) & 0xff);
    });
    const all: Uint8Array[] = [];
    const add = (count: number) => {
      const items = Array.from({ length: count }, (_, k) => all.length + k);
      builder.append(items);
      for (const i of items) all.push(Uint8Array.of(0x80 + (i % 50), i & 0xff, (i >> 8) & 0xff));
    };
    add(65_530);
    assert.equal(encoded, 0, 'nothing is encoded before a root is asked for');
    for (const step of [1, 4, 1, 1, 20]) {
      add(step);
      assert.equal(hex(builder.root()), hex(orderedTrieRootBytes(all)), `${all.length} items`);
    }
    const before = encoded;
    add(3);
    builder.root();
    assert.ok(encoded - before < 64, `a root after 3 more items encodes a few leaves again, not the trie (${encoded - before})`);
  });
});
