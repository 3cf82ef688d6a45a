// eth_getProof against the block's stateRoot, checked with @ethereumjs/mpt's verifier (which
// rebuilds a trie from nothing but the proof's nodes), for accounts and storage slots that exist
// and that do not, at several blocks; and side by side with Anvil holding the same USDC state:
// the token's storage trie (the same slots on both) must give the same storageHash and the same
// storage proofs, and Anvil's own proofs must pass the same verifier.
import assert from 'node:assert/strict';
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { decodeRlp, getBytes, hexlify, keccak256, Wallet } from 'ethers';
import { balanceSlot } from '../../../mock-node/tokenKit/index';
import { anvilOrSkip } from '../../helpers/anvil';
import { rpc, rpcError } from '../../helpers/rpc';
import { startUsdcPair, type UsdcPair } from '../token/usdcPair';
import { TOKEN_INTERFACE } from '../token/gasScenarios';

const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
const EMPTY_CODE_HASH = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

const word = (n: bigint): string => `0x${n.toString(16).padStart(64, '0')}`;
const toQuantity = (bytes: string): string => (bytes === '0x' ? '0x0' : `0x${BigInt(bytes).toString(16)}`);

interface Proof {
  address: string;
  balance: string;
  codeHash: string;
  nonce: string;
  storageHash: string;
  accountProof: string[];
  storageProof: { key: string; value: string; proof: string[] }[];
}

/** Checks every part of a proof against `stateRoot`; returns whether the account exists in the trie. */
async function verify(proof: Proof, stateRoot: string): Promise<boolean> {
  const leaf = await verifyMerkleProof(getBytes(proof.address), proof.accountProof.map((n) => getBytes(n)), { root: getBytes(stateRoot), useKeyHashing: true });
  if (leaf === null) {
    // Absence: an empty account with an empty storage trie.
    assert.equal(proof.balance, '0x0');
    assert.equal(proof.nonce, '0x0');
    assert.equal(proof.codeHash, EMPTY_CODE_HASH);
    assert.equal(proof.storageHash, EMPTY_TRIE_ROOT);
  } else {
    const [nonce, balance, storageRoot, codeHash] = decodeRlp(hexlify(leaf)) as string[];
    assert.equal(toQuantity(nonce), proof.nonce, 'nonce in the leaf');
    assert.equal(toQuantity(balance), proof.balance, 'balance in the leaf');
    assert.equal(storageRoot, proof.storageHash, 'storage root in the leaf');
    assert.equal(codeHash, proof.codeHash, 'code hash in the leaf');
  }
  for (const entry of proof.storageProof) {
    if (proof.storageHash === EMPTY_TRIE_ROOT) {
      // An empty trie is its root node rlp(''); every key is absent from it.
      assert.deepEqual(entry.proof, ['0x80']);
      assert.equal(keccak256('0x80'), EMPTY_TRIE_ROOT);
      assert.equal(entry.value, '0x0');
      continue;
    }
    const value = await verifyMerkleProof(getBytes(word(BigInt(entry.key))), entry.proof.map((n) => getBytes(n)), { root: getBytes(proof.storageHash), useKeyHashing: true });
    assert.equal(value === null ? '0x0' : toQuantity(decodeRlp(hexlify(value)) as string), entry.value, `slot ${entry.key}`);
  }
  return leaf !== null;
}

describe('eth_getProof: proofs verify against the stateRoot, and agree with Anvil', function () {
  this.timeout(120_000);
  let pair: UsdcPair;

  before(async function () {
    anvilOrSkip(this);
    pair = await startUsdcPair();
  });

  after(async () => {
    await pair?.stop();
  });

  it('proves accounts and slots that exist and that do not, at the block asked for, also after later blocks', async () => {
    const url = pair.node.url;
    const [a, b] = pair.node.accounts;
    const stranger = Wallet.createRandom().address.toLowerCase();
    const token = pair.token.address;
    const holderSlot = word(balanceSlot(a.address.toLowerCase()));
    const emptySlot = word(balanceSlot(stranger));
    const before = await rpc(url, 'eth_getBlockByNumber', ['latest', false]);
    const proofBefore: Proof = await rpc(url, 'eth_getProof', [token, [holderSlot, emptySlot], before.number]);

    await rpc(url, 'eth_sendTransaction', [{ from: a.address, to: token, data: TOKEN_INTERFACE.encodeFunctionData('transfer', [stranger, 1234n]) }]);
    await rpc(url, 'eth_sendTransaction', [{ from: b.address, to: stranger, value: '0x10' }]);
    await rpc(url, 'evm_mine');
    const after = await rpc(url, 'eth_getBlockByNumber', ['latest', false]);

    // The earlier block is still provable against its own root.
    assert.equal(await verify(proofBefore, before.stateRoot), true);
    assert.equal(proofBefore.storageProof[1].value, '0x0', 'absent slot before');
    const again: Proof = await rpc(url, 'eth_getProof', [token, [holderSlot, emptySlot], before.number]);
    assert.deepEqual(again, proofBefore);

    const tokenNow: Proof = await rpc(url, 'eth_getProof', [token, [holderSlot, emptySlot], 'latest']);
    assert.equal(await verify(tokenNow, after.stateRoot), true);
    assert.equal(tokenNow.storageProof[1].value, '0x4d2', 'the stranger\'s balance slot now holds 1234');
    assert.notEqual(tokenNow.storageHash, proofBefore.storageHash);
    assert.equal(tokenNow.codeHash, keccak256(await rpc(url, 'eth_getCode', [token, 'latest'])));

    const strangerNow: Proof = await rpc(url, 'eth_getProof', [stranger, [word(0n)], 'latest']);
    assert.equal(await verify(strangerNow, after.stateRoot), true);
    assert.equal(strangerNow.balance, '0x10');
    assert.deepEqual(strangerNow.storageProof, [{ key: word(0n), value: '0x0', proof: ['0x80'] }]);
    const strangerBefore: Proof = await rpc(url, 'eth_getProof', [stranger, [], before.number]);
    assert.equal(await verify(strangerBefore, before.stateRoot), false, 'absence proof at the earlier block');

    // A proof is not a formality: the same nodes do not verify against another root.
    await assert.rejects(verify(strangerNow, before.stateRoot));

    // Pending and block hashes too.
    const pendingProof: Proof = await rpc(url, 'eth_getProof', [a.address, [], 'pending']);
    const pending = await rpc(url, 'eth_getBlockByNumber', ['pending', false]);
    assert.equal(await verify(pendingProof, pending.stateRoot), true);
    const byHash: Proof = await rpc(url, 'eth_getProof', [a.address, [], { blockHash: after.hash }]);
    assert.equal(await verify(byHash, after.stateRoot), true);
  });

  it('gives the token the same storageHash and storage proofs as USDC on Anvil, and the same account fields for a dev account', async () => {
    const token = pair.token.address;
    const [a, b] = pair.node.accounts;
    const slots = [word(balanceSlot(a.address.toLowerCase())), word(balanceSlot(Wallet.createRandom().address.toLowerCase())), word(0n), word(11n)];
    // The first test moved the mock on; Anvil holds the mock's genesis token state.
    const mock: Proof = await rpc(pair.node.url, 'eth_getProof', [token, slots, '0x0']);
    const anvil: Proof = await rpc(pair.anvil.url, 'eth_getProof', [token, slots, 'latest']);
    assert.equal(mock.storageHash, anvil.storageHash);
    assert.deepEqual(mock.storageProof, anvil.storageProof);
    assert.deepEqual(Object.keys(mock), Object.keys(anvil));
    // Anvil's setCode/setStorageAt (how USDC was installed) reach a stateRoot with the next block.
    await rpc(pair.anvil.url, 'evm_mine');
    const anvilBlock = await rpc(pair.anvil.url, 'eth_getBlockByNumber', ['latest', false]);
    const anvilMined: Proof = await rpc(pair.anvil.url, 'eth_getProof', [token, slots, anvilBlock.number]);
    assert.equal(await verify(anvilMined, anvilBlock.stateRoot), true, 'Anvil\'s proof passes the same verifier');

    const fresh = Wallet.createRandom().address.toLowerCase();
    for (const address of [b.address.toLowerCase(), fresh]) {
      const m: Proof = await rpc(pair.node.url, 'eth_getProof', [address, [word(1n)], '0x0']);
      const n: Proof = await rpc(pair.anvil.url, 'eth_getProof', [address, [word(1n)], 'latest']);
      const fields = (p: Proof) => ({ address: p.address, balance: p.balance, nonce: p.nonce, codeHash: p.codeHash, storageHash: p.storageHash, storageProof: p.storageProof });
      assert.deepEqual(fields(m), fields(n), address);
    }
  });

  it('refuses bad params with -32602 and an unknown block as the node\'s other reads do', async () => {
    const url = pair.node.url;
    const address = pair.node.accounts[0].address;
    for (const params of [[address, '0x1', 'latest'], [address, ['0xzz'], 'latest'], ['0x12', [], 'latest'], [address, [], 'latest', 1]]) {
      assert.equal((await rpcError(url, 'eth_getProof', params)).code, -32602, JSON.stringify(params));
      assert.equal((await rpcError(pair.anvil.url, 'eth_getProof', params)).code, -32602, `Anvil ${JSON.stringify(params)}`);
    }
    assert.equal((await rpcError(url, 'eth_getProof', [address, [], '0x999999'])).code, -32000);
    assert.equal((await rpcError(url, 'eth_getProof', [address, new Array(1025).fill(word(1n)), 'latest'])).code, -32602);
  });
});
