// x402 payment headers in the extension: a signed TransferWithAuthorization written as the x402 v2
// PAYMENT-SIGNATURE value (x402's own decoder reads it, and the node's facilitator verifies it), a
// header from x402's own client read back, the facilitator's extra checks, and a settlement read
// out of a transferWithAuthorization transaction.
import assert from 'node:assert/strict';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { decodePaymentSignatureHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { Transaction, Wallet, getAddress, hexlify, randomBytes } from 'ethers';
import type { RunningMockNode } from '../../../mock-node/index';
import { TYPED_DATA_TYPES } from '../../../mock-node/tokenKit/index';
import { transferWithAuthorizationData } from '../../../mock-node/x402/exactEvm';
import { decodePaymentHeader, paymentHeaderChecks, paymentHeaderFor, PaymentHeaderError, type SignedTransfer } from '../../../extension/x402/paymentHeader';
import { settlementOf } from '../../../extension/x402/settlements';
import { startTestNode } from '../../helpers/rpc';
import { requirementsFor, signPayment } from '../../mock-node/x402/helpers';

const TOKEN = '0x3600000000000000000000000000000000000000';

async function signedTransfer(wallet: Wallet, to: string, value: string, validBefore: number): Promise<SignedTransfer> {
  const domain = { name: 'USD Coin', version: '2', chainId: '31337', verifyingContract: getAddress(TOKEN) };
  const authorization = { from: wallet.address, to: getAddress(to), value, validAfter: 0, validBefore, nonce: hexlify(randomBytes(32)) };
  const signature = await wallet.signTypedData(domain, TYPED_DATA_TYPES.TransferWithAuthorization as never, authorization);
  return { authorization, signature, domain };
}

describe('x402 payment headers (extension)', function () {
  this.timeout(30_000);
  let node: RunningMockNode;
  before(async () => {
    node = await startTestNode({ auto: true, flashblockMs: 100, blockTimeMs: 1000 });
  });
  after(() => node.stop());

  it('writes a v2 PAYMENT-SIGNATURE that x402\'s decoder reads and the facilitator verifies', async () => {
    const wallet = new Wallet(node.accounts[1].privateKey);
    const now = Math.floor(Date.now() / 1000);
    const signed = await signedTransfer(wallet, node.accounts[2].address, '125000', now + 600);
    const header = paymentHeaderFor({ ...signed, issuedAt: now }, 'http://merchant.test/report');
    const payload = decodePaymentSignatureHeader(header);
    assert.equal(payload.x402Version, 2);
    assert.deepEqual(payload.accepted, {
      scheme: 'exact', network: 'eip155:31337', amount: '125000', asset: getAddress(TOKEN), payTo: node.accounts[2].address,
      maxTimeoutSeconds: 600, extra: { name: 'USD Coin', version: '2' },
    });
    assert.deepEqual(payload.resource, { url: 'http://merchant.test/report' });
    const verified = await new HTTPFacilitatorClient({ url: node.x402!.url }).verify(payload, payload.accepted);
    assert.deepEqual(verified, { isValid: true, payer: wallet.address });
  });

  it('reads back a header made by x402\'s own client, also as the whole header line', async () => {
    const requirements = requirementsFor(node);
    const payload = await signPayment(node.accounts[1].privateKey, requirements);
    const header = encodePaymentSignatureHeader(payload);
    for (const text of [header, `PAYMENT-SIGNATURE: ${header}`, JSON.stringify(payload)]) {
      const decoded = decodePaymentHeader(text);
      assert.equal(decoded.chainId, 31337n);
      assert.equal(decoded.payload.version, 2);
      assert.equal(decoded.payload.authorization.from, node.accounts[1].address.toLowerCase());
      assert.equal(decoded.payload.accepted?.payTo, requirements.payTo.toLowerCase());
    }
  });

  it('refuses what is not an EIP-3009 x402 payload with a clear message', () => {
    assert.throws(() => decodePaymentHeader(''), /empty/);
    assert.throws(() => decodePaymentHeader('not base64!'), /not base64/);
    assert.throws(() => decodePaymentHeader(Buffer.from('hello').toString('base64')), /not JSON/);
    assert.throws(() => decodePaymentHeader(JSON.stringify({ x402Version: 3 })), /invalid_x402_version/);
    const permit2 = { x402Version: 1, scheme: 'exact', network: 'base', payload: { signature: '0x00', permit2Authorization: {} } };
    assert.throws(() => decodePaymentHeader(JSON.stringify(permit2)), (e: Error) => e instanceof PaymentHeaderError && /Permit2/.test(e.message));
    const noNonce = { x402Version: 1, scheme: 'exact', network: 'base', payload: { signature: '0x00', authorization: { from: TOKEN, to: TOKEN, value: '1', validAfter: '0', validBefore: '1' } } };
    assert.throws(() => decodePaymentHeader(JSON.stringify(noNonce)), /authorization\.nonce must be a non-empty string/);
  });

  it('adds the facilitator\'s checks: payTo, amount, network, asset and the 6 s margin', async () => {
    const wallet = new Wallet(hexlify(randomBytes(32)));
    const now = 1_800_000_000;
    const signed = await signedTransfer(wallet, node.accounts[2].address, '1000', now + 5);
    const decoded = decodePaymentHeader(paymentHeaderFor(signed));
    const context = { chainId: 31337n, token: TOKEN, now };
    const status = (checks: ReturnType<typeof paymentHeaderChecks>) => Object.fromEntries(checks.map((c) => [c.id, c.status]));
    assert.deepEqual(status(paymentHeaderChecks(decoded, context)), {
      'x402.scheme': 'pass', 'x402.network': 'pass', 'x402.asset': 'pass', 'x402.payTo': 'pass', 'x402.amount': 'pass', 'x402.domain': 'pass', 'x402.validBefore': 'fail',
    });
    assert.equal(status(paymentHeaderChecks(decoded, { ...context, chainId: 8453n }))['x402.network'], 'fail');
    const accepted = decoded.payload.accepted!;
    const other = { ...decoded, payload: { ...decoded.payload, accepted: { ...accepted, payTo: node.accounts[3].address.toLowerCase(), amount: 999n } } };
    const checks = paymentHeaderChecks(other, { ...context, now: now - 100 });
    assert.deepEqual([status(checks)['x402.payTo'], status(checks)['x402.amount'], status(checks)['x402.validBefore']], ['fail', 'fail', 'pass']);
    assert.match(checks.find((c) => c.id === 'x402.payTo')!.detail, /invalid_exact_evm_recipient_mismatch/);
  });

  it('reads a settlement out of a transferWithAuthorization transaction (v, r, s and bytes forms)', async () => {
    const wallet = new Wallet(hexlify(randomBytes(32)));
    const signed = await signedTransfer(wallet, node.accounts[2].address, '42', 2_000_000_000);
    const authorization = { ...signed.authorization, from: signed.authorization.from.toLowerCase(), to: signed.authorization.to.toLowerCase(), value: 42n, validAfter: 0n, validBefore: 2_000_000_000n };
    for (const sig of [signed.signature, signed.signature + 'ff']) {
      const input = transferWithAuthorizationData(authorization, sig);
      const read = settlementOf({ from: node.accounts[9].address, to: TOKEN, input }, TOKEN);
      assert.deepEqual(read?.authorization, { ...signed.authorization, nonce: signed.authorization.nonce.toLowerCase() });
      assert.equal(read?.signature, sig);
    }
    const transfer = Transaction.from({ to: TOKEN, data: '0xa9059cbb' + '00'.repeat(64) });
    assert.equal(settlementOf({ from: node.accounts[9].address, to: TOKEN, input: transfer.data }, TOKEN), undefined, 'a plain transfer is not a settlement');
  });
});
