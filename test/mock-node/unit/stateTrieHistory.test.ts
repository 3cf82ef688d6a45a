// The state trie keeps the nodes of its newest layers only (state/stateTrie.ts): older versions
// and the intermediate nodes of each change are collected, and a layer whose nodes went is
// planted again from its full state when a change builds on it or a proof asks for it. Small
// limits here make collections frequent; every root and proof must stay what a trie holding
// every version would give.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { getBytes, hexlify } from 'ethers';
import { word } from '../../../mock-node/encoding/hex';
import { StateTrie } from '../../../mock-node/state/stateTrie';
import { StateDraft, type AccountRecord, type StateLayer } from '../../../mock-node/state/worldState';

const addresses = Array.from({ length: 12 }, () => hexlify(randomBytes(20)));

async function chainOfLayers(trie: StateTrie, length: number): Promise<StateLayer[]> {
  const accounts = new Map<string, AccountRecord>(addresses.map((a) => [a, { nonce: 0n, balance: 10n ** 18n, code: '0x' }]));
  const storage = new Map([[addresses[0], new Map([[1n, 5n], [2n, 6n]])]]);
  const layers = [await trie.genesis(accounts, storage)];
  for (let i = 1; i < length; i++) {
    const draft = new StateDraft(layers[i - 1]);
    for (let k = 0; k < 3; k++) {
      const address = addresses[(i * 3 + k) % addresses.length];
      draft.updateAccount(address, { nonce: draft.account(address).nonce + 1n, balance: draft.account(address).balance - BigInt(i) });
    }
    draft.setStorage(addresses[0], BigInt(i % 7), BigInt(i));
    if (i % 5 === 0) draft.setStorage(addresses[1], BigInt(i), 1n);
    layers.push(await trie.commit(layers[i - 1], draft));
  }
  return layers;
}

describe('the state trie keeps only recent versions', () => {
  it('gives the same roots as a trie that keeps every version, and proves any layer, old ones planted again', async () => {
    const lean = new StateTrie({ recentLayers: 3, minCollectNodes: 20 });
    const full = new StateTrie({ recentLayers: 1_000_000, minCollectNodes: 1_000_000_000 });
    const leanLayers = await chainOfLayers(lean, 60);
    const fullLayers = await chainOfLayers(full, 60);
    assert.deepEqual(leanLayers.map((l) => l.stateRoot), fullLayers.map((l) => l.stateRoot));
    for (const n of [0, 1, 17, 33, 58, 59]) {
      const layer = leanLayers[n];
      for (const address of [addresses[0], addresses[1], addresses[n % addresses.length], hexlify(randomBytes(20))]) {
        const proof = await lean.prove(layer.stateRoot, address, layer);
        assert.deepEqual(proof, await full.prove(layer.stateRoot, address), `account proof at layer ${n}`);
        const leaf = await verifyMerkleProof(getBytes(address), proof.map((node) => getBytes(node)), { root: getBytes(layer.stateRoot), useKeyHashing: true });
        assert.equal(leaf !== null, addresses.includes(address));
      }
      const storageRoot = layer.storageRoot(addresses[0])!;
      for (const slot of [0n, 1n, 2n, 6n, 99n]) {
        const proof = await lean.prove(storageRoot, word(slot), layer);
        assert.deepEqual(proof, await full.prove(storageRoot, word(slot)), `storage proof at layer ${n}, slot ${slot}`);
      }
    }
  });

  it('a change built on an old layer (a deep revert) plants it again and gets the right root', async () => {
    const lean = new StateTrie({ recentLayers: 2, minCollectNodes: 10 });
    const full = new StateTrie({ recentLayers: 1_000_000, minCollectNodes: 1_000_000_000 });
    const leanLayers = await chainOfLayers(lean, 40);
    const fullLayers = await chainOfLayers(full, 40);
    const change = (base: StateLayer) => {
      const draft = new StateDraft(base);
      draft.updateAccount(addresses[4], { balance: 7n });
      draft.setStorage(addresses[0], 3n, 0n);
      return draft;
    };
    const lean5 = await lean.commit(leanLayers[5], change(leanLayers[5]));
    const full5 = await full.commit(fullLayers[5], change(fullLayers[5]));
    assert.equal(lean5.stateRoot, full5.stateRoot);
  });
});
