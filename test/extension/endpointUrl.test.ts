import * as assert from 'node:assert/strict';
import { requestAsCurl } from '../../extension/rpc/curl';
import { isHttpUrl, maskUrl, urlHoldsKey } from '../../extension/rpc/endpointUrl';

describe('endpoint URLs', () => {
  it('recognises URLs that hold a key', () => {
    assert.equal(urlHoldsKey('https://mainnet.base.org'), false);
    assert.equal(urlHoldsKey('http://127.0.0.1:8545/'), false);
    assert.equal(urlHoldsKey('https://base-mainnet.g.alchemy.com/v2/AbCdEf0123456789xyzXYZ'), true);
    assert.equal(urlHoldsKey('https://rpc.example.com/?apikey=s3cret'), true);
    assert.equal(urlHoldsKey('https://user:pass@rpc.example.com/'), true);
  });

  it('masks the key and keeps the host', () => {
    assert.equal(maskUrl('https://base-mainnet.g.alchemy.com/v2/AbCdEf0123456789xyzXYZ'), 'https://base-mainnet.g.alchemy.com/v2/••••');
    assert.equal(maskUrl('https://rpc.example.com/?apikey=s3cret'), 'https://rpc.example.com/?apikey=••••');
    assert.equal(maskUrl('https://mainnet.base.org/'), 'https://mainnet.base.org/');
    assert.ok(!maskUrl('https://user:pass@rpc.example.com/').includes('pass'));
  });

  it('accepts only http(s) URLs', () => {
    assert.equal(isHttpUrl('https://x.org'), true);
    assert.equal(isHttpUrl('ws://x.org'), false);
    assert.equal(isHttpUrl('nonsense'), false);
  });

  it('copies a request as a shell-safe curl command', () => {
    assert.equal(
      requestAsCurl('http://127.0.0.1:8545/', 'eth_getBlockByNumber', ['pending', false]),
      `curl -sS -X POST -H 'content-type: application/json' --data '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["pending",false]}' 'http://127.0.0.1:8545/'`,
    );
    assert.match(requestAsCurl('http://h/', 'x', ["it's"]), /it'\\''s/);
  });
});
