// eth_getProof (EIP-1186): an account and some of its storage slots at a block, with the
// Merkle-Patricia proofs that tie them to the block's stateRoot. The proofs come from the same
// trie that computed the root (state/stateTrie.ts), so they verify with any MPT library.
import { quantity, word, type Hex } from '../../encoding/hex';
import { codeHash, EMPTY_TRIE_ROOT } from '../../state/stateTrie';
import { stateBlock } from '../blockResolution';
import { invalidParams } from '../errors';
import { parseAddress, parseBlockSelector, parseSlot } from '../params';
import type { MethodTable } from './types';

/** The most storage keys one request may ask for (each is a trie walk). */
export const MAX_PROOF_KEYS = 1024;

function parseStorageKeys(value: unknown): Hex[] {
  // JSON null decodes to no keys (geth's nil slice).
  if (value === null) return [];
  if (!Array.isArray(value)) throw invalidParams('invalid argument 1: storage keys must be a list of 32-byte hex slots');
  if (value.length > MAX_PROOF_KEYS) throw invalidParams(`invalid argument 1: at most ${MAX_PROOF_KEYS} storage keys per request`);
  return value.map((key) => {
    parseSlot(key, 1);
    return (key as string).toLowerCase();
  });
}

export const proofMethods: MethodTable = {
  eth_getProof: async (params, { node }) => {
    const address = parseAddress(params[0], 0);
    const keys = parseStorageKeys(params[1]);
    const block = stateBlock(node.chain, parseBlockSelector(params[2], 2));
    const state = block.state;
    const account = state.account(address);
    const storageHash = state.storageRoot(address) ?? EMPTY_TRIE_ROOT;
    const trie = node.chain.trie;
    const accountProof = await trie.prove(state.stateRoot, address, state);
    const storageProof = [];
    for (const key of keys) {
      const slot = BigInt(key);
      storageProof.push({ key, value: quantity(state.storage(address, slot)), proof: await trie.prove(storageHash, word(slot), state) });
    }
    return {
      address,
      balance: quantity(account.balance),
      codeHash: codeHash(account.code),
      nonce: quantity(account.nonce),
      storageHash,
      accountProof,
      storageProof,
    };
  },
};
