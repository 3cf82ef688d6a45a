// The node's x402 facilitator, driven by x402's own packages: HTTPFacilitatorClient (@x402/core)
// calls /supported, /verify and /settle; payloads are signed by x402's client scheme (@x402/evm).
// Every refusal answers the protocol's reason code and moves no funds.
import assert from 'node:assert/strict';
import { HTTPFacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { Wallet } from 'ethers';
import type { RunningMockNode } from '../../../mock-node/index';
import { parseCommandLine } from '../../../mock-node/cli';
import { EVENT_TOPICS } from '../../../mock-node/tokenKit';
import { rawRequest } from '../../helpers/rawHttp';
import { post, rpc, sleep, startTestNode, startTestNodeVia } from '../../helpers/rpc';
import { balanceOf, pendingNonce, requirementsFor, signPayment, signPaymentV1 } from './helpers';

/** Balances of the payer and the merchant and the facilitator's nonce: a refusal must change none of them. */
async function fundsSnapshot(node: RunningMockNode, payer: string, payTo: string) {
  return {
    payer: await balanceOf(node, payer),
    payTo: await balanceOf(node, payTo),
    facilitatorNonce: await pendingNonce(node, node.x402!.signer),
    queued: (await rpc(node.url, 'eth_getBlockByNumber', ['pending', false])).transactions.length,
  };
}

describe('x402 facilitator (with x402\'s HTTPFacilitatorClient)', function () {
  this.timeout(30_000);
  let node: RunningMockNode;
  let facilitator: HTTPFacilitatorClient;
  const payerKey = () => node.accounts[1].privateKey;
  const payer = () => node.accounts[1].address;
  const merchant = () => node.accounts[2].address;

  beforeEach(async () => {
    node = await startTestNode({ auto: true, flashblockMs: 100, blockTimeMs: 1000 });
    facilitator = new HTTPFacilitatorClient({ url: node.x402!.url });
  });
  afterEach(() => node.stop());

  async function expectRefused(payload: PaymentPayload, requirements: PaymentRequirements, reason: string, message?: RegExp): Promise<void> {
    const from = (payload.payload as { authorization: { from: string } }).authorization.from;
    const before = await fundsSnapshot(node, from, requirements.payTo);
    const verified = await facilitator.verify(payload, requirements);
    assert.equal(verified.isValid, false);
    assert.equal(verified.invalidReason, reason);
    assert.equal(verified.payer?.toLowerCase(), from.toLowerCase());
    if (message) assert.match(verified.invalidMessage ?? '', message);
    const settled = await facilitator.settle(payload, requirements);
    assert.deepEqual(
      { success: settled.success, errorReason: settled.errorReason, transaction: settled.transaction, network: settled.network },
      { success: false, errorReason: reason, transaction: '', network: requirements.network },
    );
    assert.deepEqual(await fundsSnapshot(node, from, requirements.payTo), before, 'no funds moved and nothing was sent');
  }

  it('GET /supported: the exact scheme on eip155:<chainId> with the token, and the facilitator\'s signer', async () => {
    const supported = await facilitator.getSupported();
    assert.deepEqual(supported.kinds, [
      {
        x402Version: 2,
        scheme: 'exact',
        network: 'eip155:31337',
        extra: { asset: '0x3600000000000000000000000000000000000000', name: 'USD Coin', version: '2', decimals: 6 },
      },
    ]);
    assert.deepEqual(supported.extensions, []);
    assert.deepEqual(supported.signers, { 'eip155:*': [node.accounts[node.accounts.length - 1].address] });
    const dedicated = await new HTTPFacilitatorClient({ url: node.x402!.dedicatedUrl }).getSupported();
    assert.deepEqual(dedicated, supported, 'the dedicated profile serves the same facilitator');
    const wrongKey = await fetch(node.x402!.dedicatedUrl.replace(node.apiKey, 'nope') + '/supported');
    assert.equal(wrongKey.status, 401);
  });

  it('verify, then settle: answered after pre-confirmation, the Transfer is in the pending block', async () => {
    // Manual mode: the test cuts the flashblocks, so "answered after pre-confirmation" is observable.
    await node.stop();
    node = await startTestNode();
    facilitator = new HTTPFacilitatorClient({ url: node.x402!.url });
    const requirements = requirementsFor(node);
    const payload = await signPayment(payerKey(), requirements);
    const before = { payer: await balanceOf(node, payer()), merchant: await balanceOf(node, merchant()) };

    const verified = await facilitator.verify(payload, requirements);
    assert.deepEqual(verified, { isValid: true, payer: payer() });
    assert.equal(await balanceOf(node, merchant()), before.merchant, 'verify moves nothing');

    let answered = false;
    const settling = facilitator.settle(payload, requirements).finally(() => { answered = true; });
    // Cut flashblocks until one pre-confirms the settlement: settle has not answered before that.
    for (let cut = 0; ; cut++) {
      await sleep(20);
      assert.equal(answered, false, 'settle waits for the pre-confirmation');
      if ((await rpc(node.url, 'mock_flashblock')).transactions > 0) break;
      assert.ok(cut < 200, 'the settlement reached the node');
    }
    const settled = await settling;
    assert.equal(settled.success, true, JSON.stringify(settled));
    assert.match(settled.transaction, /^0x[0-9a-f]{64}$/);
    assert.equal(settled.network, 'eip155:31337');
    assert.equal(settled.payer, payer());

    // No waiting: the answer came after the flashblock that pre-confirmed it.
    const pending = await rpc(node.url, 'eth_getBlockByNumber', ['pending', true]);
    const tx = pending.transactions.find((t: { hash: string }) => t.hash === settled.transaction);
    assert.ok(tx, 'the settlement is in the pending block');
    assert.equal(tx.from.toLowerCase(), node.x402!.signer.toLowerCase());
    assert.equal(tx.to.toLowerCase(), node.tokenAddress);
    assert.equal(tx.input.slice(0, 10), '0xe3ee160e', 'transferWithAuthorization (v, r, s)');
    const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [settled.transaction]);
    assert.equal(receipt.status, '0x1');
    assert.deepEqual(receipt.logs.map((l: { topics: string[] }) => l.topics[0]), [EVENT_TOPICS.AuthorizationUsed, EVENT_TOPICS.Transfer]);
    const pendingTransfers = await rpc(node.url, 'eth_getLogs', [{ fromBlock: 'pending', toBlock: 'pending', address: node.tokenAddress, topics: [EVENT_TOPICS.Transfer] }]);
    assert.ok(pendingTransfers.some((l: { transactionHash: string }) => l.transactionHash === settled.transaction));
    assert.equal(await balanceOf(node, merchant()), before.merchant + 250_000n);
    assert.equal(await balanceOf(node, payer()), before.payer - 250_000n);
  });

  it('replay: the same payment again is invalid_exact_evm_nonce_already_used and moves nothing', async () => {
    const requirements = requirementsFor(node);
    const payload = await signPayment(payerKey(), requirements);
    assert.equal((await facilitator.settle(payload, requirements)).success, true);
    await expectRefused(payload, requirements, 'invalid_exact_evm_nonce_already_used', /authorization is used or canceled/);
  });

  it('two settles of one payment at once: one settles, the other is refused', async () => {
    const requirements = requirementsFor(node);
    const payload = await signPayment(payerKey(), requirements);
    const results = await Promise.all([facilitator.settle(payload, requirements), facilitator.settle(payload, requirements)]);
    assert.deepEqual(results.map((r) => r.success).sort(), [false, true]);
    assert.equal(results.find((r) => !r.success)!.errorReason, 'invalid_exact_evm_nonce_already_used');
  });

  it('expiry: less than 6 s left is already expired; and after the chain\'s clock moves past validBefore', async () => {
    const short = requirementsFor(node, { maxTimeoutSeconds: 5 });
    await expectRefused(await signPayment(payerKey(), short), short, 'invalid_exact_evm_payload_authorization_valid_before');
    const requirements = requirementsFor(node, { maxTimeoutSeconds: 60 });
    const payload = await signPayment(payerKey(), requirements);
    assert.equal((await facilitator.verify(payload, requirements)).isValid, true);
    await rpc(node.url, 'evm_increaseTime', [55]);
    await expectRefused(payload, requirements, 'invalid_exact_evm_payload_authorization_valid_before');
  });

  it('insufficient balance: invalid_exact_evm_insufficient_balance, found by simulating at pending', async () => {
    const poor = Wallet.createRandom();
    const requirements = requirementsFor(node);
    await expectRefused(await signPayment(poor.privateKey, requirements), requirements, 'invalid_exact_evm_insufficient_balance', /transfer amount exceeds balance/);
  });

  it('wrong payTo: invalid_exact_evm_recipient_mismatch', async () => {
    const signedFor = requirementsFor(node, { payTo: node.accounts[3].address });
    const payload = await signPayment(payerKey(), signedFor);
    const required = requirementsFor(node, { payTo: merchant() });
    await expectRefused({ ...payload, accepted: required }, required, 'invalid_exact_evm_recipient_mismatch');
  });

  it('wrong amount: invalid_exact_evm_payload_authorization_value_mismatch', async () => {
    const signedFor = requirementsFor(node, { amount: '1000' });
    const payload = await signPayment(payerKey(), signedFor);
    const required = requirementsFor(node, { amount: '2000' });
    await expectRefused({ ...payload, accepted: required }, required, 'invalid_exact_evm_payload_authorization_value_mismatch');
  });

  it('tampered signature or tampered authorization: invalid_exact_evm_signature', async () => {
    const requirements = requirementsFor(node);
    const payload = await signPayment(payerKey(), requirements);
    const inner = payload.payload as { signature: string; authorization: Record<string, string> };
    const flipped = inner.signature.slice(0, 10) + (inner.signature[10] === 'a' ? 'b' : 'a') + inner.signature.slice(11);
    await expectRefused({ ...payload, payload: { ...inner, signature: flipped } }, requirements, 'invalid_exact_evm_signature');
    const raised = { ...inner.authorization, validBefore: String(Number(inner.authorization.validBefore) + 3600) };
    await expectRefused({ ...payload, payload: { ...inner, authorization: raised } }, requirements, 'invalid_exact_evm_signature');
  });

  it('paused token: invalid_exact_evm_transaction_simulation_failed with the token\'s reason', async () => {
    const requirements = requirementsFor(node);
    const payload = await signPayment(payerKey(), requirements);
    await rpc(node.url, 'mock_setPaused', [true]);
    await expectRefused(payload, requirements, 'invalid_exact_evm_transaction_simulation_failed', /Pausable: paused/);
    await rpc(node.url, 'mock_setPaused', [false]);
    assert.equal((await facilitator.settle(payload, requirements)).success, true, 'settles once unpaused');
  });

  it('another network or scheme is refused with the core reason codes', async () => {
    const requirements = requirementsFor(node, { network: 'eip155:8453' });
    const payload = await signPayment(payerKey(), requirements);
    const verified = await facilitator.verify(payload, requirements);
    assert.equal(verified.invalidReason, 'invalid_network');
    const upto = { ...requirementsFor(node), scheme: 'upto' };
    assert.equal((await facilitator.verify({ ...payload, accepted: upto }, upto)).invalidReason, 'unsupported_scheme');
  });

  it('a web page cannot drive verify or settle: an Origin not allowed is 403, a text/plain body 415; nothing moves', async () => {
    const requirements = requirementsFor(node);
    const payload = await signPayment(payerKey(), requirements);
    const body = JSON.stringify({ x402Version: 2, paymentPayload: payload, paymentRequirements: requirements });
    const before = await fundsSnapshot(node, payer(), merchant());
    for (const base of [node.x402!.url, node.x402!.dedicatedUrl]) {
      for (const operation of ['verify', 'settle'] as const) {
        const fromPage = await rawRequest(`${base}/${operation}`, { headers: { 'content-type': 'application/json', origin: 'https://attacker.example' }, body });
        assert.equal(fromPage.status, 403, `${operation} from a page`);
        assert.match(fromPage.body.errorMessage ?? fromPage.body.invalidMessage, /origin "https:\/\/attacker.example" is not allowed/);
        // text/plain is what a page can POST cross-origin without a preflight (and without an Origin check in old browsers).
        const simple = await rawRequest(`${base}/${operation}`, { headers: { 'content-type': 'text/plain' }, body });
        assert.equal(simple.status, 415, `${operation} as text/plain`);
      }
    }
    assert.deepEqual(await fundsSnapshot(node, payer(), merchant()), before, 'nothing settled');
    // The same payment from a tool (no Origin, application/json) settles: the refusals above were the guards'.
    const settled = await facilitator.settle(payload, requirements);
    assert.equal(settled.success, true, JSON.stringify(settled));
  });

  it('a body it cannot read is HTTP 400 with invalid_payload or invalid_payment_requirements; nothing changes', async () => {
    const url = node.x402!.url;
    const notJson = await post(`${url}/verify`, '{"x402Version":');
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.invalidReason, 'invalid_payload');
    const requirements = requirementsFor(node);
    const payload = await signPayment(payerKey(), requirements);
    const badAmount = await post(`${url}/settle`, { x402Version: 2, paymentPayload: payload, paymentRequirements: { ...requirements, amount: '-1' } });
    assert.equal(badAmount.status, 400);
    assert.deepEqual(
      { ...badAmount.body, errorMessage: undefined },
      { success: false, errorReason: 'invalid_payment_requirements', errorMessage: undefined, payer: payer(), transaction: '', network: 'eip155:31337' },
    );
    assert.match(badAmount.body.errorMessage, /paymentRequirements\.amount must be a whole number/);
    const badNonce = await post(`${url}/verify`, { x402Version: 2, paymentPayload: { ...payload, payload: { ...(payload.payload as object), authorization: { ...(payload.payload as { authorization: object }).authorization, nonce: '0x12' } } }, paymentRequirements: requirements });
    assert.deepEqual([badNonce.status, badNonce.body.invalidReason], [400, 'invalid_payload']);
    assert.equal((await facilitator.settle(payload, requirements)).success, true, 'the node still settles');
  });

  it('faults apply: 503 on verify, latency on settle, a timeout on supported', async () => {
    const requirements = requirementsFor(node);
    const payload = await signPayment(payerKey(), requirements);
    await rpc(node.url, 'mock_setFaults', [{ '*': { 'x402/verify': { rate503: 1 }, 'x402/settle': { latencyMs: 300 }, 'x402/supported': { timeoutMs: 2000 } } }]);
    await assert.rejects(facilitator.verify(payload, requirements), /Facilitator verify failed \(503\)/);
    const started = performance.now();
    assert.equal((await facilitator.settle(payload, requirements)).success, true);
    const ms = performance.now() - started;
    console.log(`      injected 300 ms on settle: settle answered in ${ms.toFixed(0)} ms`);
    assert.ok(ms >= 295, 'the latency was applied');
    const impatient = new HTTPFacilitatorClient({ url: node.x402!.url, timeoutMs: 500 });
    await assert.rejects(impatient.getSupported(), (error: Error) => error.name === 'FacilitatorTimeoutError');
    await rpc(node.url, 'mock_setFaults', [{}]);
    assert.equal((await impatient.getSupported()).kinds.length, 1, 'cleared');
  });

  it('--x402-account picks the settling dev account; --no-x402 and bad accounts are options errors', async () => {
    assert.equal(parseCommandLine(['--no-x402']).options.x402, false);
    assert.equal(parseCommandLine(['--x402-account', '3']).options.x402Account, 3);
    const other = await startTestNode({ x402Account: node.accounts[4].address.toLowerCase() });
    try {
      assert.equal(other.x402!.signer, node.accounts[4].address);
      assert.deepEqual((await new HTTPFacilitatorClient({ url: other.x402!.url }).getSupported()).signers, { 'eip155:*': [node.accounts[4].address] });
    } finally {
      await other.stop();
    }
    await assert.rejects(startTestNode({ x402Account: 10 }), /x402Account must be a dev account index from 0 to 9/);
    await assert.rejects(startTestNode({ x402Account: Wallet.createRandom().address }), /is not one of the node's dev accounts/);
  });

  it('mockNodeRouter() serves the facilitator under its mount path, on both profiles', async () => {
    const mounted = await startTestNodeVia('router');
    try {
      const supported = await new HTTPFacilitatorClient({ url: `${mounted.url}x402` }).getSupported();
      assert.equal(supported.kinds[0].network, 'eip155:31337');
      assert.deepEqual(await new HTTPFacilitatorClient({ url: `${mounted.dedicatedUrl}/x402` }).getSupported(), supported);
      const verified = await post(`${mounted.url}x402/verify`, '[]');
      assert.deepEqual([verified.status, verified.body.invalidReason], [400, 'invalid_payload']);
    } finally {
      await mounted.stop();
    }
  });

  it('x402: false turns the routes off', async () => {
    const plain = await startTestNode({ x402: false });
    try {
      assert.equal(plain.x402, undefined);
      const response = await fetch(`${plain.url}x402/supported`);
      assert.equal(response.status, 404);
    } finally {
      await plain.stop();
    }
  });
});

describe('x402 facilitator: protocol v1 on a chain with a v1 network name', function () {
  this.timeout(30_000);
  let node: RunningMockNode;
  beforeEach(async () => {
    node = await startTestNode({ auto: true, flashblockMs: 100, blockTimeMs: 1000, chainId: 84532 });
  });
  afterEach(() => node.stop());

  it('lists v1 base-sepolia beside v2 eip155:84532 and settles a v1 payment', async () => {
    const facilitator = new HTTPFacilitatorClient({ url: node.x402!.url });
    const supported = await facilitator.getSupported();
    assert.deepEqual(supported.kinds.map((k) => [k.x402Version, k.network]), [[2, 'eip155:84532'], [1, 'base-sepolia']]);
    const { payload, requirements } = await signPaymentV1(node.accounts[1].privateKey, node, 'base-sepolia', node.accounts[2].address, '1000');
    const before = await balanceOf(node, node.accounts[2].address);
    assert.deepEqual(await facilitator.verify(payload, requirements as never), { isValid: true, payer: node.accounts[1].address });
    const settled = await facilitator.settle(payload, requirements as never);
    assert.deepEqual([settled.success, settled.network], [true, 'base-sepolia']);
    assert.equal(await balanceOf(node, node.accounts[2].address), before + 1000n);
    const again = await facilitator.settle(payload, requirements as never);
    assert.equal(again.errorReason, 'invalid_exact_evm_nonce_already_used');
  });

  it('v1 wrong amount is invalid_exact_evm_authorization_value', async () => {
    const facilitator = new HTTPFacilitatorClient({ url: node.x402!.url });
    const { payload, requirements } = await signPaymentV1(node.accounts[1].privateKey, node, 'base-sepolia', node.accounts[2].address, '1000');
    const verified = await facilitator.verify(payload, { ...requirements, maxAmountRequired: '999' } as never);
    assert.equal(verified.invalidReason, 'invalid_exact_evm_authorization_value');
  });
});
