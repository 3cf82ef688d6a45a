// The persistent trie the state root comes from: after every change its root equals
// @ethereumjs/mpt's over the same secure-trie operations (puts, updates, deletes, down to empty),
// every earlier root still reads as it was, and its proofs are @ethereumjs/mpt's node for node.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createMerkleProof, MerklePatriciaTrie } from '@ethereumjs/mpt';
import { keccak256Bytes } from '../../../mock-node/encoding/keccak';
import { get, keyNibbles, proof, put, remove, rootHash, type TrieNode } from '../../../mock-node/state/persistentTrie';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('persistent trie', () => {
  it('has the root @ethereumjs/mpt has after each put, update and delete, and keeps every version', async () => {
    const reference = new MerklePatriciaTrie({ useKeyHashing: true });
    let trie: TrieNode | undefined;
    const keys: Uint8Array[] = [];
    const versions: { trie: TrieNode | undefined; root: string; values: Map<string, string> }[] = [];
    const values = new Map<string, string>();
    for (let step = 0; step < 600; step++) {
      const roll = step % 10;
      let key: Uint8Array;
      if (keys.length > 0 && roll >= 7) key = keys[(step * 7919) % keys.length];
      else {
        key = randomBytes(step % 3 === 0 ? 20 : 32);
        keys.push(key);
      }
      const nibbles = keyNibbles(keccak256Bytes(key));
      if (roll === 9 || (step > 450 && roll >= 4)) {
        trie = remove(trie, nibbles);
        await reference.del(key);
        values.delete(hex(key));
      } else {
        // Values short (embedded leaves are possible only deep down) and long.
        const value = randomBytes(step % 2 ? 1 + (step % 5) : 40 + (step % 50));
        trie = put(trie, nibbles, value);
        await reference.put(key, value);
        values.set(hex(key), hex(value));
      }
      assert.equal(hex(rootHash(trie)), hex(reference.root()), `step ${step}`);
      if (step % 50 === 0) versions.push({ trie, root: hex(rootHash(trie)), values: new Map(values) });
    }
    for (const version of versions) {
      assert.equal(hex(rootHash(version.trie)), version.root);
      for (const key of keys) {
        const value = get(version.trie, keyNibbles(keccak256Bytes(key)));
        assert.equal(value ? hex(value) : undefined, version.values.get(hex(key)));
      }
    }
  });

  it('deleting every key gives the empty trie', () => {
    let trie: TrieNode | undefined;
    const keys = Array.from({ length: 50 }, () => keyNibbles(keccak256Bytes(randomBytes(32))));
    for (const key of keys) trie = put(trie, key, randomBytes(33));
    for (const key of keys) trie = remove(trie, key);
    assert.equal(trie, undefined);
    assert.equal(hex(rootHash(trie)), '56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
  });

  it('proves present and absent keys with the nodes @ethereumjs/mpt gives', async () => {
    const reference = new MerklePatriciaTrie({ useKeyHashing: true });
    let trie: TrieNode | undefined;
    const keys = Array.from({ length: 300 }, () => randomBytes(32));
    for (const key of keys) {
      const value = randomBytes(70);
      trie = put(trie, keyNibbles(keccak256Bytes(key)), value);
      await reference.put(key, value);
    }
    for (const key of [...keys.slice(0, 40), ...Array.from({ length: 20 }, () => randomBytes(32))]) {
      const ours = proof(trie, keyNibbles(keccak256Bytes(key))).map(hex);
      const theirs = (await createMerkleProof(reference, key)).map(hex);
      assert.deepEqual(ours, theirs);
    }
  });
});
