// Decoding transactions and logs for the explorer: every function and event of FiatTokenV2_2 by
// name (amounts in token units, the authorization's nonce), other contracts through the user's
// ABIs, the selector and raw topics otherwise, revert reasons; the transaction page's stages.
import { strict as assert } from 'node:assert';
import { AbiCoder, getAddress, Interface, type ParamType } from 'ethers';
import { STABLE_TOKEN_ABI } from '../../mock-node/tokenKit/index';
import { AbiBook, decodeLog, decodeTransaction, revertReason, type DecodeContext } from '../../extension/explorer/decoding';
import { consumedAuthorization, transactionPageText, transactionStage } from '../../extension/explorer/transactionPageText';

const TOKEN = '0x3600000000000000000000000000000000000000';
const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const BOB = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const NONCE = `0x${'ab'.repeat(32)}`;
const ctx: DecodeContext = { token: { address: TOKEN, decimals: 6, symbol: 'USDC' } };
const token = new Interface(STABLE_TOKEN_ABI);

function sample(param: ParamType): unknown {
  if (param.baseType === 'array') return [sample(param.arrayChildren!)];
  if (param.type === 'address') return BOB;
  if (param.type === 'bool') return true;
  if (param.type === 'string') return 'USD Coin';
  if (param.type === 'bytes') return '0x1234';
  if (param.type === 'bytes32') return NONCE;
  if (param.type === 'uint8') return 27;
  return 1_500_000n;
}

describe('decoding transactions and logs', () => {
  it('names every function of FiatTokenV2_2 called on the token, amounts in token units', () => {
    let count = 0;
    token.forEachFunction((fn) => {
      const data = token.encodeFunctionData(fn, fn.inputs.map(sample));
      const decoded = decodeTransaction({ to: TOKEN, input: data, value: '0x0' }, ctx);
      assert.equal(decoded.source, 'token', fn.format());
      assert.equal(decoded.name, fn.name);
      assert.ok(decoded.summary.startsWith(fn.name), decoded.summary);
      for (const [i, input] of fn.inputs.entries()) {
        if (['value', 'amount', 'increment', 'decrement', 'minterAllowedAmount'].includes(input.name)) assert.equal(decoded.args[i].value, '1.5 USDC', `${fn.name}.${input.name}`);
      }
      count++;
    });
    assert.ok(count >= 50, `${count} functions`);
  });

  it('reads a transfer and a capture the way a person says them', () => {
    const transfer = decodeTransaction({ to: TOKEN, input: token.encodeFunctionData('transfer', [BOB, 1_234_567n]) }, ctx);
    assert.equal(transfer.summary, `transfer 1.234567 USDC to ${getAddress(BOB).slice(0, 6)}…${getAddress(BOB).slice(-4)}`);
    const fragment = token.getFunction('receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)')!;
    const capture = decodeTransaction({ to: TOKEN, input: token.encodeFunctionData(fragment, [ALICE, BOB, 2_000_000n, 0, 99, NONCE, 27, NONCE, NONCE]) }, ctx);
    assert.match(capture.summary, /^receiveWithAuthorization 2 USDC 0xf39F…2266 → 0x7099…79C8 · nonce 0xabababab…ababab$/);
    assert.equal(capture.args.find((a) => a.name === 'nonce')?.raw, NONCE);
  });

  it('names every token event, amounts in token units from the token and raw from another contract', () => {
    let count = 0;
    token.forEachEvent((ev) => {
      const encoded = token.encodeEventLog(ev, ev.inputs.map(sample));
      const decoded = decodeLog({ address: TOKEN, ...encoded }, ctx);
      assert.equal(decoded.source, 'token', ev.format());
      assert.equal(decoded.name, ev.name);
      count++;
    });
    assert.ok(count >= 18, `${count} events`);
    const transfer = token.encodeEventLog('Transfer', [ALICE, BOB, 1_500_000n]);
    assert.equal(decodeLog({ address: TOKEN, ...transfer }, ctx).summary, 'Transfer 1.5 USDC 0xf39F…2266 → 0x7099…79C8');
    assert.equal(decodeLog({ address: BOB, ...transfer }, ctx).summary, 'Transfer 1500000 0xf39F…2266 → 0x7099…79C8');
  });

  it('decodes another contract with the ABI the user gave, else shows the selector and raw topics', () => {
    const counter = ['function setNumber(uint256 newNumber)', 'event NumberSet(address indexed by, uint256 value)'];
    const iface = new Interface(counter);
    const input = iface.encodeFunctionData('setNumber', [42]);
    const contract = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
    assert.deepEqual(
      [decodeTransaction({ to: contract, input }, ctx).summary, decodeTransaction({ to: contract, input }, ctx).source],
      [`call ${input.slice(0, 10)} on 0x5fbd…0aa3`, 'selector'],
    );
    const book = new AbiBook();
    assert.equal(book.add({ abi: iface.fragments.map((f) => JSON.parse(f.format('json'))) }, 'out/Counter.sol/Counter.json'), true, 'an artifact holding an abi');
    const decoded = decodeTransaction({ to: contract, input }, { ...ctx, abis: book });
    assert.equal(decoded.source, 'abi');
    assert.equal(decoded.summary, 'setNumber 42 · 0x5fbd…0aa3');
    assert.equal(decoded.abiSource, 'out/Counter.sol/Counter.json');
    const log = iface.encodeEventLog('NumberSet', [ALICE, 42]);
    assert.equal(decodeLog({ address: contract, ...log }, { ...ctx, abis: book }).summary, 'NumberSet 0xf39F…2266 42');
    const raw = decodeLog({ address: contract, ...log }, ctx);
    assert.equal(raw.source, 'topics');
    assert.deepEqual(raw.args.map((a) => a.name), ['topic0', 'topic1', 'data']);
    assert.equal(book.add({ bytecode: '0x' }, 'out/nothing.json'), false, 'a file without an ABI is skipped');
  });

  it('says why a call reverted', () => {
    const error = new Interface(['error Error(string)']).encodeErrorResult('Error', ['FiatTokenV2: authorization is used or canceled']);
    assert.equal(revertReason(error), 'FiatTokenV2: authorization is used or canceled');
    assert.equal(revertReason(`0x4e487b71${AbiCoder.defaultAbiCoder().encode(['uint256'], [0x11]).slice(2)}`), 'panic 0x11');
    assert.equal(revertReason('0x'), 'reverted without a reason');
    assert.equal(revertReason('0xdeadbeef'), 'custom error 0xdeadbeef');
  });
});

describe('the transaction page', () => {
  const tx = { hash: `0x${'11'.repeat(32)}`, from: ALICE, to: TOKEN, value: '0x0', nonce: '0x3', gas: '0x186a0', input: token.encodeFunctionData('transfer', [BOB, 1_500_000n]) };

  it('tells the stage: queued, pre-confirmed, included, safe, finalized, dropped by a reorg', () => {
    assert.equal(transactionStage({ tx: { ...tx, blockNumber: null } }).kind, 'queued');
    assert.deepEqual(transactionStage({ tx: { ...tx, blockNumber: '0xb' }, latest: 10n, flashblock: 3 }), { kind: 'pre-confirmed', block: 11n, flashblock: 3 });
    assert.deepEqual(transactionStage({ tx: { ...tx, blockNumber: '0xa' }, latest: 12n }), { kind: 'included', block: 10n, confirmations: 3n });
    assert.equal(transactionStage({ tx: { ...tx, blockNumber: '0xa' }, latest: 12n, safe: 10n }).kind, 'safe');
    assert.equal(transactionStage({ tx: { ...tx, blockNumber: '0xa' }, latest: 12n, safe: 11n, finalized: 10n }).kind, 'finalized');
    assert.deepEqual(transactionStage({ tx: null, droppedFrom: 10n }), { kind: 'dropped', block: 10n });
    assert.equal(transactionStage({ tx: null }).kind, 'not found');
  });

  it('shows the decoded input, gas and fee, token movements, logs, the consumed authorization and the trace', () => {
    const used = token.encodeEventLog('AuthorizationUsed', [ALICE, NONCE]);
    const moved = token.encodeEventLog('Transfer', [ALICE, BOB, 1_500_000n]);
    const receipt = {
      transactionHash: tx.hash, status: '0x1', gasUsed: '0xc350', effectiveGasPrice: '0x3b9aca00',
      logs: [{ address: TOKEN, ...moved }, { address: TOKEN, ...used }],
    };
    const text = transactionPageText({
      endpointName: 'Mock node (public)', hash: tx.hash, tx: { ...tx, blockNumber: '0xa', blockHash: `0x${'22'.repeat(32)}` }, receipt, latest: 10n, ctx,
      trace: { ok: false, reason: 'this endpoint does not serve debug_traceTransaction' },
    });
    assert.match(text, /Stage: +included in block #10 \(1 confirmation\)/);
    assert.match(text, /Action: +transfer 1\.5 USDC to 0x7099…79C8/);
    assert.match(text, /  to \(address\): 0x70997970C51812dc3A010C7d01b50e0d17dc79C8/);
    assert.match(text, /  value \(uint256\): 1\.5 USDC {2}\[1500000\]/);
    assert.match(text, /  used: +50000 \(50\.00 %\)/);
    assert.match(text, /  fee: +0\.00005 ETH/);
    assert.match(text, /Token movements \(1\)\n  Transfer 1\.5 USDC/);
    assert.match(text, /Authorization: +used: authorizer 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 nonce 0xabab/);
    assert.match(text, /this endpoint does not serve debug_traceTransaction/);
    assert.deepEqual(consumedAuthorization(receipt, ctx), { event: 'AuthorizationUsed', authorizer: getAddress(ALICE), nonce: NONCE });
    const traced = transactionPageText({
      endpointName: 'x', hash: tx.hash, tx: { ...tx, blockNumber: '0xa', blockHash: `0x${'22'.repeat(32)}` }, receipt, latest: 10n, ctx,
      trace: { ok: true, value: { type: 'CALL', from: ALICE, to: TOKEN, input: tx.input, gasUsed: '0x5208', calls: [{ type: 'STATICCALL', from: TOKEN, to: BOB, input: '0x70a08231', gasUsed: '0x64' }] } },
    });
    assert.match(traced, /  CALL 0xf39f\w+ → transfer 1\.5 USDC to 0x7099…79C8 · gas 21000\n    STATICCALL 0x3600\w+ → call 0x70a08231 on 0x7099…79C8 · gas 100/i);
  });
});
