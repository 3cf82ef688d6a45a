// The token kit's hashes are written out as constants so that loading it computes nothing (the
// node's start-up pays for every keccak at import). This recomputes each one from its source text,
// so a constant cannot drift from the signature or type it stands for.
import assert from 'node:assert/strict';
import { Interface, TypedDataEncoder, id } from 'ethers';
import { EVENT_SIGNATURES, EVENT_TOPICS, STABLE_TOKEN_ABI, TYPED_DATA_TYPES, TYPEHASHES, tokenDomainSeparator } from '../../../mock-node/tokenKit/index';

describe('token kit constants', () => {
  it('EVENT_TOPICS is keccak256 of each event signature, one topic per signature', () => {
    assert.deepEqual(Object.keys(EVENT_TOPICS).sort(), Object.keys(EVENT_SIGNATURES).sort());
    for (const [name, signature] of Object.entries(EVENT_SIGNATURES)) {
      assert.equal(EVENT_TOPICS[name as keyof typeof EVENT_TOPICS], id(signature), name);
    }
  });

  it('EVENT_TOPICS matches the ABI\'s events as ethers parses them', () => {
    const abi = new Interface(STABLE_TOKEN_ABI.filter((fragment) => fragment.startsWith('event ')));
    let seen = 0;
    abi.forEachEvent((event) => {
      assert.equal(EVENT_TOPICS[event.name as keyof typeof EVENT_TOPICS], event.topicHash, event.name);
      seen++;
    });
    assert.equal(seen, Object.keys(EVENT_TOPICS).length);
  });

  it('TYPEHASHES are keccak256 of the encoded EIP-712 types', () => {
    for (const [primaryType, types] of Object.entries(TYPED_DATA_TYPES)) {
      const encoded = TypedDataEncoder.from(types as unknown as Record<string, { name: string; type: string }[]>).encodeType(primaryType);
      assert.equal(TYPEHASHES[primaryType as keyof typeof TYPEHASHES], id(encoded), primaryType);
    }
  });

  it('the domain separator (with the written-out EIP712Domain typehash) is EIP-712\'s hashDomain', () => {
    const domain = { name: 'USD Coin', version: '2', chainId: 84532n, verifyingContract: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' };
    assert.equal(tokenDomainSeparator(domain), TypedDataEncoder.hashDomain(domain));
    const other = { name: 'Other', version: '7', chainId: 1n, verifyingContract: '0x000000000000000000000000000000000000dEaD' };
    assert.equal(tokenDomainSeparator(other), TypedDataEncoder.hashDomain(other));
  });
});
