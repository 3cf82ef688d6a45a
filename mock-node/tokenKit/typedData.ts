// The token's EIP-712 definitions: the domain, the struct types of each signed message, their
// typehashes, the domain separator as the token computes it, and eth_signTypedData_v4 payloads.
import { AbiCoder } from 'ethers/abi';
import { keccak256 } from 'ethers/crypto';
import { id } from 'ethers/hash';

/** One field of an EIP-712 struct type. */
export interface TypedDataField {
  readonly name: string;
  readonly type: string;
}

export const EIP712_DOMAIN_TYPE: readonly TypedDataField[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
];

const AUTHORIZATION_FIELDS: readonly TypedDataField[] = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
];

/**
 * The EIP-712 `types` objects for each signed message, without `EIP712Domain` (the form
 * ethers' `signTypedData` and viem's `signTypedData` take; add `EIP712_DOMAIN_TYPE` for a raw
 * `eth_signTypedData_v4` payload).
 */
/** The message of TransferWithAuthorization and ReceiveWithAuthorization (EIP-3009), as values. */
export interface AuthorizationMessage {
  from: string;
  to: string;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  /** bytes32 hex. */
  nonce: string;
}

export const TYPED_DATA_TYPES = {
  TransferWithAuthorization: { TransferWithAuthorization: AUTHORIZATION_FIELDS },
  ReceiveWithAuthorization: { ReceiveWithAuthorization: AUTHORIZATION_FIELDS },
  CancelAuthorization: {
    CancelAuthorization: [
      { name: 'authorizer', type: 'address' },
      { name: 'nonce', type: 'bytes32' },
    ] as readonly TypedDataField[],
  },
  Permit: {
    Permit: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ] as readonly TypedDataField[],
  },
} as const;

export type TypedDataPrimaryType = keyof typeof TYPED_DATA_TYPES;

/** The typehashes (keccak256 of the type string), as the token's getters return them. */
export const TYPEHASHES = {
  TransferWithAuthorization: '0x7c7c6cdb67a18743f49ec6fa9b35f50d52ed05cbed4cc592e13b44501c1a2267',
  ReceiveWithAuthorization: '0xd099cc98ef71107a616c4f0f941f04c322d8e254fe26b3c6668db87aae413de8',
  CancelAuthorization: '0x158b0a9edf7a828aad02f63cd515c68ef2f50ba807396f6d12842833a1597429',
  Permit: '0x6e71edae12b1b97f4d1f60370fef10105fa2faae0126114a169c64845d6126c9',
} as const;

/** An EIP-712 domain as the token computes it. */
export interface TokenDomain {
  name: string;
  version: string;
  chainId: bigint;
  verifyingContract: string;
}

/** keccak256 of the EIP712Domain type string (test/mock-node/unit/tokenKitConstants.test.ts recomputes it). */
const EIP712_DOMAIN_TYPEHASH = '0x8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f';

/** The EIP-712 domain separator as the token's `DOMAIN_SEPARATOR()` computes it. */
export function tokenDomainSeparator(domain: TokenDomain): string {
  return keccak256(
    AbiCoder.defaultAbiCoder().encode(
      ['bytes32', 'bytes32', 'bytes32', 'uint256', 'address'],
      [EIP712_DOMAIN_TYPEHASH, id(domain.name), id(domain.version), domain.chainId, domain.verifyingContract],
    ),
  );
}

/** A JSON-ready `eth_signTypedData_v4` payload (uint256 values as decimal strings). */
export interface TypedDataPayload {
  types: Record<string, readonly TypedDataField[]>;
  primaryType: TypedDataPrimaryType;
  domain: { name: string; version: string; chainId: string; verifyingContract: string };
  message: Record<string, string>;
}

/**
 * Builds the `eth_signTypedData_v4` payload for one of the token's messages, with
 * `EIP712Domain` included, ready for `JSON.stringify`. The message must have exactly the fields
 * of `primaryType`; integers may be bigint, number or string.
 */
export function buildTypedData(
  primaryType: TypedDataPrimaryType,
  domain: TokenDomain,
  message: Readonly<Record<string, bigint | number | string>>,
): TypedDataPayload {
  const fields = (TYPED_DATA_TYPES[primaryType] as Record<string, readonly TypedDataField[]>)[primaryType];
  const extra = Object.keys(message).filter((key) => !fields.some((f) => f.name === key));
  if (extra.length) throw new Error(`${primaryType} has no field ${extra.join(', ')}`);
  const json: Record<string, string> = {};
  for (const field of fields) {
    const value = message[field.name];
    if (value === undefined) throw new Error(`${primaryType} needs ${field.name}`);
    json[field.name] = field.type === 'uint256' ? BigInt(value).toString() : String(value);
  }
  return {
    types: { EIP712Domain: EIP712_DOMAIN_TYPE, [primaryType]: fields },
    primaryType,
    domain: {
      name: domain.name,
      version: domain.version,
      chainId: domain.chainId.toString(),
      verifyingContract: domain.verifyingContract,
    },
    message: json,
  };
}
