// debug_traceCall, debug_traceTransaction, debug_traceBlockByNumber/ByHash and
// eth_createAccessList side by side with Anvil running Circle's FiatTokenV2_2 behind its proxy
// at the same address, with the same storage: the same call frames (the proxy's DELEGATECALL, the
// SignatureChecker library's DELEGATECALL and its STATICCALL to ecrecover), gas, logs, revert
// reasons, prestates and access lists. What differs on purpose is normalised away and named:
// the code of the token's accounts (the mock's is a marker, it runs no bytecode) and the fee
// recipient (each node has its own).
import assert from 'node:assert/strict';
import { Signature, TypedDataEncoder, Wallet } from 'ethers';
import { TYPED_DATA_TYPES } from '../../../mock-node/tokenKit/index';
import { anvilOrSkip } from '../../helpers/anvil';
import { rpc, rpcError } from '../../helpers/rpc';
import { TOKEN_INTERFACE } from '../token/gasScenarios';
import { startUsdcPair, type UsdcPair } from '../token/usdcPair';
import { signatureCalls } from './signatureCalls';

type Call = { from: string; to: string; data?: string; value?: string; gas?: string; accessList?: unknown };

/**
 * Drops `code` everywhere, the listed accounts (fee recipients) and the token's nonce from a
 * prestate result: the mock's token account has nonce 1 as a deployed contract, USDC installed
 * on Anvil with anvil_setCode has 0.
 */
function normalisePrestate(result: any, drop: string[], token: string): any {
  const strip = (map: Record<string, any>) => {
    const out: Record<string, any> = {};
    for (const [address, account] of Object.entries(map)) {
      if (drop.includes(address)) continue;
      const { code: _code, ...rest } = account;
      if (address === token) delete rest.nonce;
      if (Object.keys(rest).length > 0) out[address] = rest;
    }
    return out;
  };
  return result.pre && result.post ? { pre: strip(result.pre), post: strip(result.post) } : strip(result);
}

/** An access list as a map, since Anvil's order of addresses is a hash map's. */
function byAddress(list: { address: string; storageKeys: string[] }[]): Record<string, string[]> {
  return Object.fromEntries(list.map((e) => [e.address.toLowerCase(), e.storageKeys]).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * USDC's revert data after a signature check carries a stray byte in the string's zero padding
 * (memory the library left behind: 0x41, the signature's length); the mock's padding is clean.
 * Same reason, same length: the padding is not compared.
 */
function cleanPadding(frame: any): any {
  if (!frame || typeof frame !== 'object') return frame;
  const out = { ...frame };
  if (typeof out.output === 'string' && out.revertReason !== undefined) out.output = out.output.slice(0, 2 + 8 + 64 * 2 + 2 * Buffer.byteLength(out.revertReason));
  if (Array.isArray(out.calls)) out.calls = out.calls.map(cleanPadding);
  return out;
}

/** Where two JSON values differ, as paths (short enough to read in a failure). */
function jsonDiff(a: any, b: any, path = ''): string[] {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b ? [] : [`${path}: mock ${JSON.stringify(a)?.slice(0, 140)} anvil ${JSON.stringify(b)?.slice(0, 140)}`];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => jsonDiff(a[k], b[k], `${path}.${k}`));
}

describe('traces and access lists agree with Anvil running the real USDC', function () {
  this.timeout(180_000);
  let pair: UsdcPair;
  let calls: Record<string, Call>;
  let mockCoinbase: string;
  let anvilCoinbase: string;

  before(async function () {
    anvilOrSkip(this);
    pair = await startUsdcPair();
    const w = pair.node.accounts.map((a) => new Wallet(a.privateKey));
    const token = pair.token.address;
    const data = (fn: string, args: unknown[]) => TOKEN_INTERFACE.encodeFunctionData(fn, args);
    const domain = { name: 'USD Coin', version: '2', chainId: pair.node.chainId, verifyingContract: token };
    const authorization = (nonce: string, value: bigint) => {
      const message = { from: w[1].address, to: w[3].address, value, validAfter: 0n, validBefore: 1n << 40n, nonce };
      const sig = Signature.from(w[1].signingKey.sign(TypedDataEncoder.hash(domain, TYPED_DATA_TYPES.TransferWithAuthorization as any, message)).serialized);
      return { message, sig };
    };
    const a = authorization(`0x${'11'.repeat(32)}`, 5n);
    const b = authorization(`0x${'22'.repeat(32)}`, 7n);
    const tooMuch = authorization(`0x${'33'.repeat(32)}`, 10n ** 20n);
    const twaVrs = (x: typeof a) => data('transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)', [x.message.from, x.message.to, x.message.value, x.message.validAfter, x.message.validBefore, x.message.nonce, x.sig.v, x.sig.r, x.sig.s]);
    calls = {
      transfer: { from: w[1].address, to: token, data: data('transfer', [w[2].address, 1000n]) },
      'transfer to a new holder': { from: w[2].address, to: token, data: data('transfer', [Wallet.createRandom().address, 1n]) },
      'transfer over the balance': { from: w[1].address, to: token, data: data('transfer', [w[2].address, 10n ** 20n]) },
      approve: { from: w[1].address, to: token, data: data('approve', [w[2].address, 77n]) },
      'transferWithAuthorization (v, r, s)': { from: w[4].address, to: token, data: twaVrs(a) },
      'transferWithAuthorization (bytes)': { from: w[4].address, to: token, data: data('transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)', [b.message.from, b.message.to, b.message.value, b.message.validAfter, b.message.validBefore, b.message.nonce, b.sig.serialized]) },
      'transferWithAuthorization over the balance': { from: w[4].address, to: token, data: twaVrs(tooMuch) },
      'ETH transfer': { from: w[5].address, to: w[6].address, value: '0x1234' },
      'ETH transfer to a new account': { from: w[5].address, to: Wallet.createRandom().address.toLowerCase(), value: '0x1' },
    };
    for (const { signature, call } of signatureCalls(token, pair.node.chainId, w)) calls[signature] = call;
    mockCoinbase = (await rpc(pair.node.url, 'eth_getBlockByNumber', ['latest', false])).miner;
    anvilCoinbase = (await rpc(pair.anvil.url, 'eth_getBlockByNumber', ['latest', false])).miner;
  });

  after(async () => {
    await pair?.stop();
  });

  it('debug_traceCall with callTracer (withLog): the same frames, gas, logs and revert reasons', async () => {
    const differences: string[] = [];
    for (const [name, call] of Object.entries(calls)) {
      const options = { tracer: 'callTracer', tracerConfig: { withLog: true } };
      const mock = cleanPadding(await rpc(pair.node.url, 'debug_traceCall', [call, 'latest', options]));
      const anvil = cleanPadding(await rpc(pair.anvil.url, 'debug_traceCall', [call, 'latest', options]));
      try {
        assert.deepEqual(mock, anvil);
      } catch {
        differences.push(`${name}: ${jsonDiff(mock, anvil).join('; ')}`);
      }
    }
    assert.deepEqual(differences, []);
  });

  it('debug_traceCall with prestateTracer, and with diffMode: the same accounts and slots', async () => {
    const differences: string[] = [];
    for (const [name, call] of Object.entries(calls)) {
      for (const tracerConfig of [{}, { diffMode: true }]) {
        const options = { tracer: 'prestateTracer', tracerConfig };
        const mock = normalisePrestate(await rpc(pair.node.url, 'debug_traceCall', [call, 'latest', options]), [mockCoinbase], pair.token.address);
        const anvil = normalisePrestate(await rpc(pair.anvil.url, 'debug_traceCall', [call, 'latest', options]), [anvilCoinbase], pair.token.address);
        try {
          assert.deepEqual(mock, anvil);
        } catch {
          differences.push(`${name} ${JSON.stringify(tracerConfig)}: ${jsonDiff(mock, anvil).join('; ')}`);
        }
      }
    }
    assert.deepEqual(differences, []);
  });

  it('eth_createAccessList: the same list and the same gas with it attached', async () => {
    const differences: string[] = [];
    for (const [name, call] of Object.entries(calls)) {
      if (name.includes('over the balance')) continue;
      const mock = await rpc(pair.node.url, 'eth_createAccessList', [call, 'latest']);
      const anvil = await rpc(pair.anvil.url, 'eth_createAccessList', [call, 'latest']);
      if (mock.gasUsed !== anvil.gasUsed || JSON.stringify(byAddress(mock.accessList)) !== JSON.stringify(byAddress(anvil.accessList))) {
        differences.push(`${name}: ${jsonDiff(byAddress(mock.accessList), byAddress(anvil.accessList)).join('; ')} gas ${mock.gasUsed} ${anvil.gasUsed}`);
      }
    }
    assert.deepEqual(differences, []);
    // A list given in the request is kept; a call that reverts answers the revert, as on Anvil.
    const given = { ...calls.transfer, accessList: [{ address: calls['ETH transfer'].to, storageKeys: [`0x${'0'.repeat(63)}1`] }] };
    const mock = await rpc(pair.node.url, 'eth_createAccessList', [given, 'latest']);
    const anvil = await rpc(pair.anvil.url, 'eth_createAccessList', [given, 'latest']);
    assert.deepEqual(byAddress(mock.accessList), byAddress(anvil.accessList));
    assert.equal(mock.gasUsed, anvil.gasUsed);
    const mockError = await rpcError(pair.node.url, 'eth_createAccessList', [calls['transfer over the balance'], 'latest']);
    const anvilError = await rpcError(pair.anvil.url, 'eth_createAccessList', [calls['transfer over the balance'], 'latest']);
    assert.equal(mockError.message, anvilError.message);
    assert.equal(mockError.code, anvilError.code);
  });

  it('debug_traceTransaction and debug_traceBlockByNumber/ByHash of sent transactions: the same frames; the struct logger for ETH only', async () => {
    const differences: string[] = [];
    for (const name of ['transfer', 'transferWithAuthorization (v, r, s)', 'transfer over the balance', 'ETH transfer']) {
      const call = { ...calls[name], gas: '0x30000' };
      const mockHash = await rpc(pair.node.url, 'eth_sendTransaction', [call]);
      await rpc(pair.node.url, 'evm_mine');
      const anvilHash = await rpc(pair.anvil.url, 'eth_sendTransaction', [call]);
      for (let i = 0; i < 100 && !(await rpc(pair.anvil.url, 'eth_getTransactionReceipt', [anvilHash])); i++) await new Promise((r) => setTimeout(r, 20));
      for (const options of [{ tracer: 'callTracer' }, { tracer: 'callTracer', tracerConfig: { withLog: true, onlyTopCall: true } }]) {
        const mock = cleanPadding(await rpc(pair.node.url, 'debug_traceTransaction', [mockHash, options]));
        const anvil = cleanPadding(await rpc(pair.anvil.url, 'debug_traceTransaction', [anvilHash, options]));
        try {
          assert.deepEqual(mock, anvil);
        } catch {
          differences.push(`${name} ${JSON.stringify(options)}: ${jsonDiff(mock, anvil).join('; ')}`);
        }
      }
      const diff = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } };
      const mock = await rpc(pair.node.url, 'debug_traceTransaction', [mockHash, diff]);
      const anvil = await rpc(pair.anvil.url, 'debug_traceTransaction', [anvilHash, diff]);
      // Fees differ (each node its own base fee and fee recipient): compare the token's storage and the nonces.
      const tokenPart = (r: any) => ({ pre: r.pre[pair.token.address]?.storage, post: r.post[pair.token.address]?.storage, nonce: r.post[call.from.toLowerCase()]?.nonce });
      assert.deepEqual(tokenPart(mock), tokenPart(anvil), `${name} prestate diff`);

      const mockBlock = await rpc(pair.node.url, 'eth_getBlockByNumber', ['latest', false]);
      const byNumber = await rpc(pair.node.url, 'debug_traceBlockByNumber', [mockBlock.number, { tracer: 'callTracer' }]);
      const byHash = await rpc(pair.node.url, 'debug_traceBlockByHash', [mockBlock.hash, { tracer: 'callTracer' }]);
      assert.deepEqual(byNumber, [{ txHash: mockHash, result: await rpc(pair.node.url, 'debug_traceTransaction', [mockHash, { tracer: 'callTracer' }]) }]);
      assert.deepEqual(byHash, byNumber);

      if (name === 'ETH transfer') {
        assert.deepEqual(await rpc(pair.node.url, 'debug_traceTransaction', [mockHash, {}]), await rpc(pair.anvil.url, 'debug_traceTransaction', [anvilHash, {}]));
      } else {
        const error = await rpcError(pair.node.url, 'debug_traceTransaction', [mockHash, {}]);
        assert.match(error.message, /callTracer or prestateTracer/);
      }
    }
    assert.deepEqual(differences, []);
  });

  it('traces a pre-confirmed transaction in the pending block, and the same after the block seals', async () => {
    const url = pair.node.url;
    const hash = await rpc(url, 'eth_sendTransaction', [{ ...calls.transfer, gas: '0x30000' }]);
    await rpc(url, 'mock_flashblock');
    const options = { tracer: 'callTracer', tracerConfig: { withLog: true } };
    const pending = await rpc(url, 'debug_traceTransaction', [hash, options]);
    const pendingBlock = await rpc(url, 'debug_traceBlockByNumber', ['pending', options]);
    assert.deepEqual(pendingBlock.map((t: any) => t.txHash), [hash]);
    assert.deepEqual(pendingBlock[0].result, pending);
    assert.equal(pending.calls[0].type, 'DELEGATECALL');
    assert.equal(pending.calls[0].logs.length, 1);
    await rpc(url, 'evm_mine');
    assert.deepEqual(await rpc(url, 'debug_traceTransaction', [hash, options]), pending);
    const receipt = await rpc(url, 'eth_getTransactionReceipt', [hash]);
    assert.equal(pending.gasUsed, receipt.gasUsed, 'the replay charges what the block charged');
  });

  it('refuses a tracer it does not serve, naming those it does; unknown transactions and blocks are errors', async () => {
    const error = await rpcError(pair.node.url, 'debug_traceCall', [calls.transfer, 'latest', { tracer: '4byteTracer' }]);
    assert.equal(error.code, (await rpcError(pair.anvil.url, 'debug_traceCall', [calls.transfer, 'latest', { tracer: '4byteTracer' }])).code);
    assert.match(error.message, /callTracer, prestateTracer, noopTracer/);
    assert.equal((await rpcError(pair.node.url, 'debug_traceTransaction', [`0x${'ab'.repeat(32)}`, {}])).code, -32000);
    assert.equal((await rpcError(pair.node.url, 'debug_traceBlockByNumber', ['0xffffff', {}])).code, (await rpcError(pair.anvil.url, 'debug_traceBlockByNumber', ['0xffffff', {}])).code);
    assert.deepEqual(await rpc(pair.node.url, 'debug_traceCall', [calls.transfer, 'latest', { tracer: 'noopTracer' }]), await rpc(pair.anvil.url, 'debug_traceCall', [calls.transfer, 'latest', { tracer: 'noopTracer' }]));
  });
});
