// The authorization feature's chain access (no vscode) against a running mock node in manual mode:
// domain read from the token, inspector facts at pending, dry runs with the token's reasons,
// endpoint and local-key signing, a locally signed capture and cancel sent raw, receipts, and
// which event consumed a nonce. Transactions execute when the test cuts a flashblock.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import type { RunningMockNode } from '../../../mock-node/index';
import { AuthorizationChain, cancelCalldata, captureCalldata, NEW_SEARCH } from '../../../extension/authorizations/chain';
import { inspect } from '../../../extension/authorizations/inspector';
import {
  authorizationKey, authorizationTypedData, cancelTypedData, deriveState, draftAuthorization, type AuthorizationRecord,
} from '../../../extension/authorizations/model';
import { RpcClient } from '../../../extension/rpc/client';
import { rpc, startTestNode } from '../../helpers/rpc';

describe('authorization chain access against the mock node @integration', function () {
  this.timeout(30_000);
  let node: RunningMockNode;
  let chain: AuthorizationChain;
  let payer: Wallet;
  let merchant: Wallet;

  before(async () => {
    node = await startTestNode();
    chain = new AuthorizationChain(new RpcClient(node.url), node.tokenAddress);
    payer = new Wallet(node.accounts[4].privateKey);
    merchant = new Wallet(node.accounts[5].privateKey);
  });
  after(async () => node?.stop());

  async function draft(route: AuthorizationRecord['route'], overrides: { validAfter?: number; validBefore?: number } = {}): Promise<AuthorizationRecord> {
    const now = await chain.now();
    const authorization = draftAuthorization({
      payer: payer.address, merchant: merchant.address, amount: '2.5', validAfter: overrides.validAfter ?? now - 60,
      validBefore: overrides.validBefore ?? now + 900, nonce: `0x${randomBytes(32).toString('hex')}`, route, token: node.tokenAddress,
    });
    return {
      key: authorizationKey(authorization.from, authorization.nonce), endpointId: 'test', endpointName: 'test', token: node.tokenAddress,
      route, authorization, createdAt: 0, domain: await chain.domain(),
    };
  }

  /** Sends, cuts a flashblock so it executes, and reads the receipt. */
  async function mined(send: Promise<string>) {
    const hash = await send;
    await rpc(node.url, 'mock_flashblock');
    return chain.waitForReceipt(hash, 5_000);
  }

  it("reads the domain from the token and the chain (name, version, chain id)", async () => {
    assert.deepEqual(await chain.domain(), { name: 'USD Coin', version: '2', chainId: '31337', verifyingContract: node.tokenAddress });
  });

  it('signs on the endpoint and locally to the same signature, which the inspector accepts with a passing dry run', async () => {
    const record = await draft('receiveWithAuthorization');
    const payload = authorizationTypedData('ReceiveWithAuthorization', record.domain!, record.authorization);
    const onEndpoint = await chain.signTypedDataOnEndpoint(payer.address, payload);
    const { EIP712Domain: _skip, ...types } = payload.types;
    const local = await payer.signTypedData({ ...payload.domain, chainId: BigInt(payload.domain.chainId) }, { ...types } as never, payload.message);
    assert.equal(onEndpoint, local);
    const signed = { ...record, primaryType: 'ReceiveWithAuthorization' as const, signed: true };
    const facts = await chain.facts(record.authorization);
    const dryRun = await chain.dryRun(captureCalldata('receiveWithAuthorization', record.authorization, local), merchant.address);
    assert.ok(dryRun.ok && dryRun.gas !== undefined && dryRun.gas > 21_000n, JSON.stringify(dryRun, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
    const result = inspect({ record: signed, signature: local, chain: facts, dryRun });
    assert.deepEqual(result.checks.filter((c) => c.status !== 'pass').map((c) => c.detail), []);
  });

  it('dry runs give the token reasons: caller must be the payee, not yet valid, invalid signature for the wrong type', async () => {
    const record = await draft('receiveWithAuthorization');
    const payload = authorizationTypedData('ReceiveWithAuthorization', record.domain!, record.authorization);
    const signature = await chain.signTypedDataOnEndpoint(payer.address, payload);
    const data = captureCalldata('receiveWithAuthorization', record.authorization, signature);
    assert.deepEqual(await chain.dryRun(data, payer.address), { ok: false, reason: 'FiatTokenV2: caller must be the payee' });
    const seedStyle = await chain.signTypedDataOnEndpoint(payer.address, authorizationTypedData('TransferWithAuthorization', record.domain!, record.authorization));
    assert.deepEqual(await chain.dryRun(captureCalldata('receiveWithAuthorization', record.authorization, seedStyle), merchant.address),
      { ok: false, reason: 'FiatTokenV2: invalid signature' });
    const now = await chain.now();
    const early = await draft('receiveWithAuthorization', { validAfter: now + 100, validBefore: now + 1000 });
    const earlySig = await chain.signTypedDataOnEndpoint(payer.address, authorizationTypedData('ReceiveWithAuthorization', early.domain!, early.authorization));
    assert.deepEqual(await chain.dryRun(captureCalldata('receiveWithAuthorization', early.authorization, earlySig), merchant.address),
      { ok: false, reason: 'FiatTokenV2: authorization is not yet valid' });
  });

  it('a locally signed transferWithAuthorization capture sent raw by the merchant: status 1, balances moved, AuthorizationUsed found', async () => {
    const record = await draft('transferWithAuthorization');
    const signature = await payer.signTypedData(
      { ...record.domain!, chainId: 31337n },
      { TransferWithAuthorization: [...authorizationTypedData('TransferWithAuthorization', record.domain!, record.authorization).types.TransferWithAuthorization] },
      { ...record.authorization, value: BigInt(record.authorization.value) },
    );
    const [payerBefore, merchantBefore] = [await chain.balanceOf(payer.address), await chain.balanceOf(merchant.address)];
    const tx = await mined(chain.sendFromLocalKey(merchant.privateKey, captureCalldata('transferWithAuthorization', record.authorization, signature)));
    assert.equal(tx.status, 'success');
    assert.equal(await chain.balanceOf(payer.address), payerBefore - 2_500_000n);
    assert.equal(await chain.balanceOf(merchant.address), merchantBefore + 2_500_000n);
    assert.equal(await chain.consumed(payer.address, record.authorization.nonce), true);
    const search = await chain.findConsumer(payer.address, record.authorization.nonce, NEW_SEARCH);
    assert.equal(search.hash, tx.hash, 'the AuthorizationUsed log leads to the capture');
    await rpc(node.url, 'evm_mine');
    const heads = await chain.heads(1);
    const sighting = await chain.sighting(tx.hash, heads, record.authorization);
    assert.deepEqual(sighting.effect, { kind: 'paid' });
    assert.equal(sighting.stage, 'confirmed');
    const now = await chain.now();
    assert.equal(deriveState({ ...record, signed: true, orderId: 'x' }, { consumed: true, now, heads, consumer: { found: true, sighting } }).state, 'Used');
  });

  it('stages: submitted, pre-confirmed by a flashblock (not paid), included when sealed, confirmed at the chosen depth', async () => {
    const record = await draft('receiveWithAuthorization');
    const signature = await chain.signTypedDataOnEndpoint(payer.address, authorizationTypedData('ReceiveWithAuthorization', record.domain!, record.authorization));
    const hash = await chain.sendFromEndpointAccount(merchant.address, captureCalldata('receiveWithAuthorization', record.authorization, signature));
    const at = async (depth = 2) => chain.sighting(hash, await chain.heads(depth), record.authorization);
    assert.equal((await at()).stage, 'submitted');
    await rpc(node.url, 'mock_flashblock');
    const pre = await at();
    assert.equal(pre.stage, 'pre-confirmed', 'the receipt comes from the pending block');
    assert.equal(pre.blockNumber, (await chain.heads(2)).latest + 1);
    assert.notEqual(deriveState({ ...record, signed: true, orderId: 'x' }, { consumed: true, now: await chain.now(), capture: pre, heads: await chain.heads(2) }).state, 'Used');
    await rpc(node.url, 'evm_mine');
    assert.deepEqual([(await at()).stage, (await at()).confirmations], ['included', 1]);
    await rpc(node.url, 'evm_mine');
    assert.deepEqual([(await at()).stage, (await at()).confirmations], ['confirmed', 2]);
    assert.equal((await at(0)).stage, 'included', "depth 0 means the endpoint's safe block, 10 blocks behind latest on the mock node");
    await rpc(node.url, 'evm_mine', [9]);
    assert.equal((await at(0)).stage, 'confirmed');
  });

  it('a second TransferWithAuthorization for the same nonce to someone else consumes it without paying the merchant', async () => {
    const record = await draft('transferWithAuthorization');
    const stranger = Wallet.createRandom();
    const types = { TransferWithAuthorization: [...authorizationTypedData('TransferWithAuthorization', record.domain!, record.authorization).types.TransferWithAuthorization] };
    const other = { ...record.authorization, to: stranger.address };
    const signature = await payer.signTypedData({ ...record.domain!, chainId: 31337n }, types, { ...other, value: BigInt(other.value) });
    const merchantBefore = await chain.balanceOf(merchant.address);
    const tx = await mined(chain.sendFromLocalKey(payer.privateKey, captureCalldata('transferWithAuthorization', other, signature)));
    await rpc(node.url, 'evm_mine');
    assert.equal(tx.status, 'success');
    assert.equal(await chain.balanceOf(merchant.address), merchantBefore);
    const search = await chain.findConsumer(payer.address, record.authorization.nonce, NEW_SEARCH);
    const sighting = await chain.sighting(search.hash!, await chain.heads(1), record.authorization);
    assert.deepEqual(sighting.effect, { kind: 'consumed elsewhere', transfers: [{ to: stranger.address.toLowerCase(), value: 2_500_000n }] });
    const d = deriveState({ ...record, signed: true, orderId: 'x' }, { consumed: true, now: await chain.now(), heads: await chain.heads(1), consumer: { found: true, sighting } });
    assert.equal(d.state, 'Consumed elsewhere');
  });

  it('cancel: payer-signed CancelAuthorization relayed raw; then AuthorizationCanceled is found and a capture dry run reverts', async () => {
    const record = await draft('receiveWithAuthorization');
    const signature = await chain.signTypedDataOnEndpoint(payer.address, authorizationTypedData('ReceiveWithAuthorization', record.domain!, record.authorization));
    const cancelSig = await chain.signTypedDataOnEndpoint(payer.address, cancelTypedData(record.domain!, payer.address, record.authorization.nonce));
    const tx = await mined(chain.sendFromLocalKey(merchant.privateKey, cancelCalldata(payer.address, record.authorization.nonce, cancelSig)));
    assert.equal(tx.status, 'success');
    const search = await chain.findConsumer(payer.address, record.authorization.nonce, NEW_SEARCH);
    assert.deepEqual((await chain.sighting(search.hash!, await chain.heads(1), record.authorization)).effect, { kind: 'canceled' });
    assert.deepEqual(await chain.dryRun(captureCalldata('receiveWithAuthorization', record.authorization, signature), merchant.address),
      { ok: false, reason: 'FiatTokenV2: authorization is used or canceled' });
  });

  it('a capture forced past a failing dry run is mined with status 0x0 and changes no balance', async () => {
    const record = await draft('receiveWithAuthorization');
    const wrongType = await chain.signTypedDataOnEndpoint(payer.address, authorizationTypedData('TransferWithAuthorization', record.domain!, record.authorization));
    const before = await chain.balanceOf(payer.address);
    const tx = await mined(chain.sendFromLocalKey(merchant.privateKey, captureCalldata('receiveWithAuthorization', record.authorization, wrongType), 200_000n));
    assert.equal(tx.status, 'reverted');
    assert.equal(await chain.balanceOf(payer.address), before);
    assert.equal(await chain.consumed(payer.address, record.authorization.nonce), false);
  });

  it('a receipt that does not arrive in time is reported pending, not paid', async () => {
    const record = await draft('receiveWithAuthorization');
    const signature = await chain.signTypedDataOnEndpoint(payer.address, authorizationTypedData('ReceiveWithAuthorization', record.domain!, record.authorization));
    const hash = await chain.sendFromEndpointAccount(merchant.address, captureCalldata('receiveWithAuthorization', record.authorization, signature));
    assert.deepEqual(await chain.waitForReceipt(hash, 300, 50), { hash, status: 'pending' });
    await rpc(node.url, 'mock_flashblock');
    assert.equal((await chain.waitForReceipt(hash, 5_000)).status, 'success');
  });

  it('finds an old cancel at any depth: walks back in ranges, halving on the -32005 range error, continuing where it stopped', async () => {
    // A node whose public profile allows 50-block log ranges, so a few hundred blocks are "deep".
    const small = await startTestNode({ limits: { public: { maxLogBlockRange: 50 } } });
    try {
      const c = new AuthorizationChain(new RpcClient(small.url), small.tokenAddress);
      const [p, m] = [new Wallet(small.accounts[4].privateKey), new Wallet(small.accounts[5].privateKey)];
      const nonce = `0x${randomBytes(32).toString('hex')}`;
      const cancelSig = await c.signTypedDataOnEndpoint(p.address, cancelTypedData(await c.domain(), p.address, nonce));
      const hash = await c.sendFromLocalKey(m.privateKey, cancelCalldata(p.address, nonce, cancelSig));
      await rpc(small.url, 'evm_mine', [300]);
      const head = (await c.heads(1)).latest;
      // Starting with ranges the endpoint refuses: it halves until they fit (5000 → … → 39).
      const found = await c.findConsumer(p.address, nonce, { ...NEW_SEARCH, span: 5000 });
      assert.equal(found.hash, hash);
      assert.equal(found.span, 39);
      // Two requests per call: the search stops, then continues where it stopped, down to block 0.
      const fresh = `0x${randomBytes(32).toString('hex')}`;
      let search = await c.findConsumer(p.address, fresh, { ...NEW_SEARCH, span: 40 }, 2);
      assert.deepEqual([search.hash, search.complete, search.newest, search.oldest], [undefined, false, head, head - 79]);
      let calls = 1;
      while (!search.complete) { search = await c.findConsumer(p.address, fresh, search, 2); calls++; }
      assert.equal(search.oldest, 0);
      assert.equal(calls, Math.ceil((head + 1) / 80));
      assert.equal(search.hash, undefined, 'an unused nonce: nothing found, every block read');
    } finally {
      await small.stop();
    }
  });
});
