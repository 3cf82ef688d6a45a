// The EVM hashes and recovers with the node's own backends (mock-node/execution/evm/nodeCrypto.ts):
// KECCAK256 in the node's keccak, ECRECOVER in libsecp256k1, SHA256 in Node's crypto. Their answers
// must be the ones the EVM's own JavaScript gives and Anvil gives: on valid signatures (low and
// high s), on every kind of invalid one (r or s zero or past the curve order, v other than 27 or
// 28, an r with no point, short and long input), and on inputs of every length around a block.
import assert from 'node:assert/strict';
import { Wallet, concat, getBytes, hexlify, keccak256, randomBytes, sha256, toBeHex, zeroPadValue } from 'ethers';
import type { RunningMockNode } from '../../../mock-node/index';
import { anvilOrSkip, startAnvil, type RunningAnvil } from '../../helpers/anvil';
import { rpc, startTestNode } from '../../helpers/rpc';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const ECRECOVER = '0x0000000000000000000000000000000000000001';
const SHA256 = '0x0000000000000000000000000000000000000002';
const HASHER = '0x0000000000000000000000000000000000c0ffee';
// Returns keccak256 of its calldata: CALLDATASIZE PUSH0 PUSH0 CALLDATACOPY CALLDATASIZE PUSH0 SHA3 PUSH0 MSTORE PUSH1 32 PUSH0 RETURN
const KECCAK_OF_CALLDATA = '0x365f5f37365f205f5260205ff3';

const word = (value: bigint | number) => zeroPadValue(toBeHex(value), 32);

/** ECRECOVER inputs: hash ‖ v ‖ r ‖ s, valid and not. */
function recoveryCases(): { name: string; input: string; signer?: string }[] {
  const cases: { name: string; input: string; signer?: string }[] = [];
  for (let i = 0; i < 8; i++) {
    const wallet = Wallet.createRandom();
    const digest = hexlify(randomBytes(32));
    const signature = wallet.signingKey.sign(digest);
    const v = BigInt(signature.v);
    const r = BigInt(signature.r);
    const s = BigInt(signature.s);
    const signer = wallet.address.toLowerCase();
    cases.push({ name: `valid ${i}`, input: concat([digest, word(v), word(r), word(s)]), signer });
    // The same signature with s on the high side and v flipped: ECRECOVER takes it (no low-s rule).
    cases.push({ name: `high s ${i}`, input: concat([digest, word(v === 27n ? 28n : 27n), word(r), word(N - s)]), signer });
    cases.push({ name: `other v ${i}`, input: concat([digest, word(v === 27n ? 28n : 27n), word(r), word(s)]) });
  }
  const digest = hexlify(randomBytes(32));
  const r = BigInt(hexlify(randomBytes(32))) % N;
  const s = BigInt(hexlify(randomBytes(32))) % N;
  for (const [name, v, rr, ss] of [
    ['r zero', 27n, 0n, s], ['s zero', 27n, r, 0n], ['r = n', 27n, N, s], ['s = n', 28n, r, N], ['r past n', 27n, N + 5n, s],
    ['v 0', 0n, r, s], ['v 1', 1n, r, s], ['v 29', 29n, r, s], ['v 27 + 2^64', 27n + (1n << 64n), r, s],
    ['r with no point', 27n, 5n, s], ['r = n - 1', 28n, N - 1n, s], ['s = n - 1', 27n, r, N - 1n],
  ] as const) cases.push({ name, input: concat([digest, word(v), word(rr), word(ss)]) });
  const valid = cases[0].input;
  cases.push({ name: 'short (96 bytes: s missing, read as zero)', input: hexlify(getBytes(valid).subarray(0, 96)) });
  cases.push({ name: 'short (127 bytes)', input: hexlify(getBytes(valid).subarray(0, 127)) });
  cases.push({ name: 'long (160 bytes)', input: concat([valid, hexlify(randomBytes(32))]) });
  cases.push({ name: 'empty', input: '0x' });
  return cases;
}

function lengths(): number[] {
  return [0, 1, 31, 32, 33, 64, 100, 135, 136, 137, 200, 271, 272, 273, 500, 1000];
}

describe("the EVM's hashing and recovery by the node's own backends", function () {
  this.timeout(60_000);
  let node: RunningMockNode;
  const cases = recoveryCases();

  before(async () => {
    node = await startTestNode();
    await rpc(node.url, 'anvil_setCode', [HASHER, KECCAK_OF_CALLDATA]);
  });

  after(() => node.stop());

  it('ECRECOVER answers the signer of every valid signature (high s too) and nothing for every invalid one', async () => {
    let recovered = 0;
    for (const { name, input, signer } of cases) {
      const answer = await rpc<string>(node.url, 'eth_call', [{ to: ECRECOVER, data: input }, 'latest']);
      if (signer) {
        assert.equal(answer, zeroPadValue(signer, 32), name);
        recovered++;
      } else if (['r zero', 's zero', 'r = n', 's = n', 'r past n', 'v 0', 'v 1', 'v 29', 'v 27 + 2^64', 'empty', 'short (96 bytes: s missing, read as zero)'].includes(name)) {
        assert.equal(answer, '0x', `${name}: nothing`);
      }
    }
    assert.equal(recovered, 16);
  });

  it('keccak256 (SHA3) and SHA256 of inputs of every length around a block answer as ethers computes them', async () => {
    for (const length of lengths()) {
      const data = hexlify(randomBytes(length));
      assert.equal(await rpc(node.url, 'eth_call', [{ to: HASHER, data }, 'latest']), keccak256(data), `keccak256 of ${length} bytes`);
      assert.equal(await rpc(node.url, 'eth_call', [{ to: SHA256, data }, 'latest']), sha256(data), `sha256 of ${length} bytes`);
    }
  });

  it('every answer (recoveries, keccak, sha256) is the one Anvil gives', async function () {
    const binary = anvilOrSkip(this);
    const anvil: RunningAnvil = await startAnvil(binary);
    try {
      await rpc(anvil.url, 'anvil_setCode', [HASHER, KECCAK_OF_CALLDATA]);
      const calls = [
        ...cases.map(({ name, input }) => ({ name: `ECRECOVER ${name}`, to: ECRECOVER, data: input })),
        ...lengths().flatMap((length) => {
          const data = hexlify(randomBytes(length));
          return [{ name: `keccak ${length}`, to: HASHER, data }, { name: `sha256 ${length}`, to: SHA256, data }];
        }),
      ];
      for (const { name, to, data } of calls) {
        const [mine, theirs] = [await rpc(node.url, 'eth_call', [{ to, data }, 'latest']), await rpc(anvil.url, 'eth_call', [{ to, data }, 'latest'])];
        assert.equal(mine, theirs, name);
      }
    } finally {
      await anvil.stop();
    }
  });

  it('a transaction straight to a precompile runs it: the same gas used as on Anvil', async function () {
    const binary = anvilOrSkip(this);
    const anvil: RunningAnvil = await startAnvil(binary);
    const from = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
    try {
      const gasUsed = async (url: string, to: string, data: string) => {
        await rpc(url, 'evm_setAutomine', [true]);
        const hash = await rpc<string>(url, 'eth_sendTransaction', [{ from, to, data, gas: '0x30d40' }]);
        for (let i = 0; i < 100; i++) {
          const receipt = await rpc<{ gasUsed: string; status: string } | null>(url, 'eth_getTransactionReceipt', [hash]);
          if (receipt) return `${receipt.status} ${BigInt(receipt.gasUsed)}`;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        throw new Error(`no receipt for ${hash}`);
      };
      for (const [to, data] of [[ECRECOVER, cases[0].input], [SHA256, hexlify(randomBytes(100))], [ECRECOVER, '0x']]) {
        const mine = await gasUsed(node.url, to, data);
        assert.equal(mine, await gasUsed(anvil.url, to, data), `${to} with ${(data.length - 2) / 2} bytes`);
        assert.notEqual(mine.split(' ')[1], String(21000n + 16n * BigInt((data.length - 2) / 2)), 'more than a plain transfer: the precompile ran');
      }
    } finally {
      await anvil.stop();
    }
  });
});
