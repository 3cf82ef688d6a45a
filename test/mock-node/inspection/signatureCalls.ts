// One successful call of each of the token's functions that check a signature (each in its
// v, r, s and its bytes form), signed by dev account 1, sent by dev account 4 (or the payee for
// receiveWithAuthorization). Shared by the trace tests and the trace gas calibration.
import { Signature, TypedDataEncoder, Wallet, hexlify, randomBytes } from 'ethers';
import { TYPED_DATA_TYPES } from '../../../mock-node/tokenKit/index';
import { TOKEN_INTERFACE } from '../token/gasScenarios';

export interface SignedCall {
  signature: string;
  call: { from: string; to: string; data: string };
}

export function signatureCalls(token: string, chainId: bigint, wallets: Wallet[]): SignedCall[] {
  const [payer, payee, sender] = [wallets[1], wallets[3], wallets[4]];
  const domain = { name: 'USD Coin', version: '2', chainId, verifyingContract: token };
  const sign = (type: keyof typeof TYPED_DATA_TYPES, message: Record<string, unknown>) =>
    Signature.from(payer.signingKey.sign(TypedDataEncoder.hash(domain, TYPED_DATA_TYPES[type] as any, message)).serialized);
  const result: SignedCall[] = [];
  const add = (fn: string, from: Wallet, args: unknown[]) => {
    const fragment = TOKEN_INTERFACE.getFunction(fn)!;
    result.push({ signature: fragment.format('sighash'), call: { from: from.address, to: token, data: TOKEN_INTERFACE.encodeFunctionData(fragment, args) } });
  };
  for (const type of ['TransferWithAuthorization', 'ReceiveWithAuthorization'] as const) {
    const name = type === 'TransferWithAuthorization' ? 'transferWithAuthorization' : 'receiveWithAuthorization';
    const from = type === 'TransferWithAuthorization' ? sender : payee;
    for (const form of ['vrs', 'bytes'] as const) {
      const message = { from: payer.address, to: payee.address, value: 5n, validAfter: 0n, validBefore: 1n << 40n, nonce: hexlify(randomBytes(32)) };
      const sig = sign(type, message);
      const head = [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce];
      if (form === 'vrs') add(`${name}(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)`, from, [...head, sig.v, sig.r, sig.s]);
      else add(`${name}(address,address,uint256,uint256,uint256,bytes32,bytes)`, from, [...head, sig.serialized]);
    }
  }
  for (const form of ['vrs', 'bytes'] as const) {
    const nonce = hexlify(randomBytes(32));
    const sig = sign('CancelAuthorization', { authorizer: payer.address, nonce });
    if (form === 'vrs') add('cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)', sender, [payer.address, nonce, sig.v, sig.r, sig.s]);
    else add('cancelAuthorization(address,bytes32,bytes)', sender, [payer.address, nonce, sig.serialized]);
  }
  // Permits are signed for the payer's permit nonce 0: each is checked on a state that has not used it.
  for (const form of ['vrs', 'bytes'] as const) {
    const message = { owner: payer.address, spender: payee.address, value: 9n, nonce: 0n, deadline: 1n << 40n };
    const sig = sign('Permit', message);
    if (form === 'vrs') add('permit(address,address,uint256,uint256,uint8,bytes32,bytes32)', sender, [message.owner, message.spender, message.value, message.deadline, sig.v, sig.r, sig.s]);
    else add('permit(address,address,uint256,uint256,bytes)', sender, [message.owner, message.spender, message.value, message.deadline, sig.serialized]);
  }
  return result;
}
