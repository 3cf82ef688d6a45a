// Pure pieces of the chain: parameter parsing, the base fee rule, the logs bloom, roots of empty tries.
import assert from 'node:assert/strict';
import { keccak256, encodeRlp } from 'ethers';
import { nextBaseFee } from '../../../mock-node/chain/baseFee';
import { bloomMayContain, bloomOfLogs } from '../../../mock-node/encoding/bloom';
import { EMPTY_UNCLES_HASH } from '../../../mock-node/encoding/header';
import { orderedTrieRoot } from '../../../mock-node/encoding/tries';
import { parseBlockSelector, parseQuantity, parseSlot } from '../../../mock-node/rpc/params';
import { EMPTY_CODE_HASH, EMPTY_TRIE_ROOT } from '../../../mock-node/state/stateTrie';
import { resolveOptions } from '../../../mock-node/options';

describe('param parsing', () => {
  it('accepts minimal hex quantities and rejects leading zeros, empty and non-hex', () => {
    assert.equal(parseQuantity('0x0', 0), 0n);
    assert.equal(parseQuantity('0x1f', 0), 31n);
    for (const bad of ['0x', '0x01', '0x00', '1f', '0xg', 12, null]) assert.throws(() => parseQuantity(bad, 0), (e: any) => e.code === -32602, String(bad));
  });

  it('parses every tag, numbers and EIP-1898 objects', () => {
    for (const tag of ['latest', 'pending', 'safe', 'finalized', 'earliest']) assert.deepEqual(parseBlockSelector(tag, 0), { kind: 'tag', tag });
    assert.deepEqual(parseBlockSelector('0x10', 0), { kind: 'number', number: 16n });
    const hash = '0x' + 'ab'.repeat(32);
    assert.deepEqual(parseBlockSelector({ blockHash: hash, requireCanonical: true }, 0), { kind: 'hash', hash, requireCanonical: true });
    assert.deepEqual(parseBlockSelector({ blockNumber: 'safe' }, 0), { kind: 'tag', tag: 'safe' });
    for (const bad of ['newest', '0x01', { blockHash: '0x12' }, { blockHash: hash, blockNumber: '0x1' }, 5]) {
      assert.throws(() => parseBlockSelector(bad, 0), (e: any) => e.code === -32602);
    }
  });

  it('storage slots may be zero-padded, up to 32 bytes', () => {
    assert.equal(parseSlot('0x' + '00'.repeat(31) + '09', 1), 9n);
    assert.throws(() => parseSlot('0x' + '00'.repeat(33), 1));
  });
});

describe('EIP-1559 base fee', () => {
  const params = { elasticity: 2n, denominator: 8n, minBaseFee: 7n };
  it('stays at target, rises 12.5% when full, falls 12.5% when empty, floors at the minimum', () => {
    const parent = { baseFeePerGas: 1_000_000_000n, gasLimit: 30_000_000n };
    assert.equal(nextBaseFee({ ...parent, gasUsed: 15_000_000n }, params), 1_000_000_000n);
    assert.equal(nextBaseFee({ ...parent, gasUsed: 30_000_000n }, params), 1_125_000_000n);
    assert.equal(nextBaseFee({ ...parent, gasUsed: 0n }, params), 875_000_000n);
    assert.equal(nextBaseFee({ baseFeePerGas: 7n, gasLimit: 30_000_000n, gasUsed: 0n }, params), 7n);
  });
  it('rises by at least 1 wei above target', () => {
    assert.equal(nextBaseFee({ baseFeePerGas: 8n, gasLimit: 30_000_000n, gasUsed: 15_000_001n }, params), 9n);
  });
});

describe('logs bloom and empty roots', () => {
  it('contains every address and topic it was built from', () => {
    const log = { address: '0x3600000000000000000000000000000000000000', topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'] };
    const bloom = bloomOfLogs([log]);
    assert.equal((bloom.length - 2) / 2, 256);
    assert.ok(bloomMayContain(bloom, log.address));
    assert.ok(bloomMayContain(bloom, log.topics[0]));
    const bits = BigInt(bloom).toString(2).split('').filter((b) => b === '1').length;
    assert.ok(bits >= 1 && bits <= 6, 'three bits per value');
    assert.equal(bloomOfLogs([]), '0x' + '00'.repeat(256));
  });

  it('sets the yellow paper\'s bits for each value, the same when a value comes again and after its memory of values starts over', () => {
    // The bits from scratch: keccak-256 (ethers) of the value's bytes, three 11-bit indexes from its first six bytes.
    const expected = (values: string[]) => {
      const bits = new Uint8Array(256);
      for (const value of values) {
        const hash = Buffer.from(keccak256(value).slice(2), 'hex');
        for (let i = 0; i < 6; i += 2) {
          const bit = ((hash[i] << 8) | hash[i + 1]) & 2047;
          bits[255 - (bit >> 3)] |= 1 << (bit & 7);
        }
      }
      return '0x' + Buffer.from(bits).toString('hex');
    };
    const token = '0x3600000000000000000000000000000000000000';
    const transfer = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
    // More distinct values than the bloom remembers (4,096), the token's two among them again and again.
    for (let i = 0; i < 5000; i++) {
      const from = '0x' + i.toString(16).padStart(64, '0');
      const log = { address: token, topics: [transfer, from] };
      assert.equal(bloomOfLogs([log]), expected([token, transfer, from]), `log ${i}`);
    }
  });

  it('known constants: empty trie, empty code, empty uncles', async () => {
    assert.equal(EMPTY_TRIE_ROOT, keccak256(encodeRlp('0x')));
    assert.equal(EMPTY_CODE_HASH, keccak256('0x'));
    assert.equal(EMPTY_UNCLES_HASH, keccak256(encodeRlp([])));
    assert.equal(await orderedTrieRoot([]), EMPTY_TRIE_ROOT);
  });
});

describe('options', () => {
  it('validates with clear messages', () => {
    assert.throws(() => resolveOptions({ pendingIdentity: 'maybe' as never }), /pendingIdentity must be one of partial, zero, null/);
    assert.throws(() => resolveOptions({ flashblockMs: 3000, blockTimeMs: 2000 }), /flashblockMs \(3000\) must not exceed blockTimeMs/);
    assert.throws(() => resolveOptions({ port: 70000 }), /port must be an integer from 0 to 65535/);
    assert.throws(() => resolveOptions({ nope: 1 } as never), /unknown option nope/);
    assert.equal(resolveOptions({ flashblockMs: 0 }).auto, false);
  });
});
