// Fixed inputs for the authorization unit tests: two well-known test keys (Hardhat / Anvil
// accounts 1 and 2), the mock node's token domain and a record at each step of the lifecycle.
import { Wallet } from 'ethers';
import type { AuthorizationRecord, DomainFields } from '../../../extension/authorizations/model';

export const PAYER = new Wallet('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
export const MERCHANT = new Wallet('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
export const TOKEN = '0x3600000000000000000000000000000000000000';
export const NONCE = '0x' + 'ab'.repeat(32);
export const VALID_AFTER = 1_800_000_000;
export const VALID_BEFORE = VALID_AFTER + 960;
export const DOMAIN: DomainFields = { name: 'USD Coin', version: '2', chainId: '31337', verifyingContract: TOKEN };

export function drafted(overrides: Partial<AuthorizationRecord> = {}): AuthorizationRecord {
  return {
    key: `${PAYER.address.toLowerCase()}:${NONCE}`,
    endpointId: 'ep:mock:public',
    endpointName: 'Mock node (public)',
    token: TOKEN,
    route: 'receiveWithAuthorization',
    authorization: {
      from: PAYER.address, to: MERCHANT.address, value: '12500000', validAfter: VALID_AFTER, validBefore: VALID_BEFORE, nonce: NONCE,
    },
    createdAt: 0,
    ...overrides,
  };
}

export function signedRecord(overrides: Partial<AuthorizationRecord> = {}): AuthorizationRecord {
  return drafted({ signed: true, signedWith: 'local key', primaryType: 'ReceiveWithAuthorization', domain: DOMAIN, ...overrides });
}

export function storedRecord(overrides: Partial<AuthorizationRecord> = {}): AuthorizationRecord {
  return signedRecord({ orderId: 'order-42', storedAt: 1, ...overrides });
}

/** Signs the record's authorization as `primaryType` with `wallet` over `domain`. */
export async function signAs(
  record: AuthorizationRecord,
  primaryType: 'ReceiveWithAuthorization' | 'TransferWithAuthorization',
  wallet: Wallet = PAYER,
  domain: DomainFields = DOMAIN,
): Promise<string> {
  const fields = [
    { name: 'from', type: 'address' }, { name: 'to', type: 'address' }, { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' }, { name: 'validBefore', type: 'uint256' }, { name: 'nonce', type: 'bytes32' },
  ];
  const a = record.authorization;
  return wallet.signTypedData({ ...domain, chainId: BigInt(domain.chainId) }, { [primaryType]: fields }, { ...a, value: BigInt(a.value) });
}
