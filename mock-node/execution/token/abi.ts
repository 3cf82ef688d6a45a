// The built-in token's public interface: its ABI (human-readable fragments that both ethers and
// viem parse), its EIP-712 type definitions and the constants a client needs to build or check
// an authorization. This module is the one source the node and the VS Code extension share, so it
// imports nothing from the node.
import { AbiCoder, id, keccak256 } from 'ethers';

/** ABI of the built-in token: FiatToken v2.2 (USDC) as seen from outside, plus `transferWithMemo`. */
export const STABLE_TOKEN_ABI = [
  // ERC-20 and metadata
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function currency() view returns (string)',
  'function version() pure returns (string)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function increaseAllowance(address spender, uint256 increment) returns (bool)',
  'function decreaseAllowance(address spender, uint256 decrement) returns (bool)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  // Memo variant (Tempo's TIP-20 selector 0x95777d59; the Memo event layout is ours)
  'function transferWithMemo(address to, uint256 value, bytes32 memo)',
  // EIP-3009
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
  'function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
  'function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function cancelAuthorization(address authorizer, bytes32 nonce, bytes signature)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  // EIP-2612
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, bytes signature)',
  'function nonces(address owner) view returns (uint256)',
  // EIP-712
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function TRANSFER_WITH_AUTHORIZATION_TYPEHASH() view returns (bytes32)',
  'function RECEIVE_WITH_AUTHORIZATION_TYPEHASH() view returns (bytes32)',
  'function CANCEL_AUTHORIZATION_TYPEHASH() view returns (bytes32)',
  'function PERMIT_TYPEHASH() view returns (bytes32)',
  // Roles and policy
  'function owner() view returns (address)',
  'function pauser() view returns (address)',
  'function blacklister() view returns (address)',
  'function masterMinter() view returns (address)',
  'function paused() view returns (bool)',
  'function isBlacklisted(address account) view returns (bool)',
  'function isMinter(address account) view returns (bool)',
  'function minterAllowance(address minter) view returns (uint256)',
  'function mint(address to, uint256 amount) returns (bool)',
  'function burn(uint256 amount)',
  'function pause()',
  'function unpause()',
  'function blacklist(address account)',
  'function unBlacklist(address account)',
  // Events
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)',
  'event Memo(address indexed from, address indexed to, uint256 value, bytes32 indexed memo)',
  'event Mint(address indexed minter, address indexed to, uint256 amount)',
  'event Burn(address indexed burner, uint256 amount)',
  'event Blacklisted(address indexed _account)',
  'event UnBlacklisted(address indexed _account)',
  'event Pause()',
  'event Unpause()',
] as const;

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

/** The token's event signatures (canonical form, as hashed into topic 0). */
export const EVENT_SIGNATURES = {
  Transfer: 'Transfer(address,address,uint256)',
  Approval: 'Approval(address,address,uint256)',
  AuthorizationUsed: 'AuthorizationUsed(address,bytes32)',
  AuthorizationCanceled: 'AuthorizationCanceled(address,bytes32)',
  Memo: 'Memo(address,address,uint256,bytes32)',
  Mint: 'Mint(address,address,uint256)',
  Burn: 'Burn(address,uint256)',
  Blacklisted: 'Blacklisted(address)',
  UnBlacklisted: 'UnBlacklisted(address)',
  Pause: 'Pause()',
  Unpause: 'Unpause()',
} as const;

export type TokenEventName = keyof typeof EVENT_SIGNATURES;

/** topic 0 of each of the token's events. */
export const EVENT_TOPICS = Object.fromEntries(
  Object.entries(EVENT_SIGNATURES).map(([name, signature]) => [name, id(signature)]),
) as Readonly<Record<TokenEventName, string>>;

/** Function selectors of the authorization flow and the memo transfer. */
export const SELECTORS = {
  transferWithAuthorization: '0xe3ee160e',
  transferWithAuthorizationBytes: '0xcf092995',
  receiveWithAuthorization: '0xef55bec6',
  receiveWithAuthorizationBytes: '0x88b7ab63',
  cancelAuthorization: '0x5a049a70',
  cancelAuthorizationBytes: '0xb7b72899',
  authorizationState: '0xe94a0102',
  permit: '0xd505accf',
  permitBytes: '0x9fd5a6cf',
  nonces: '0x7ecebe00',
  DOMAIN_SEPARATOR: '0x3644e515',
  version: '0x54fd4d50',
  isBlacklisted: '0xfe575a87',
  paused: '0x5c975abb',
  mint: '0x40c10f19',
  transferWithMemo: '0x95777d59',
} as const;

/** Storage slots of FiatToken v2.2, where the built-in token keeps the same variables. */
export const TOKEN_SLOTS = {
  owner: 0n,
  /** pauser in the low 20 bytes, `paused` in byte 20. */
  pauserAndPaused: 1n,
  blacklister: 2n,
  deprecatedBlacklisted: 3n,
  name: 4n,
  symbol: 5n,
  decimals: 6n,
  currency: 7n,
  /** masterMinter in the low 20 bytes, `initialized` in byte 20. */
  masterMinterAndInitialized: 8n,
  /** mapping(address => uint256); bit 255 is the blocklist flag. */
  balanceAndBlacklistStates: 9n,
  /** mapping(owner => mapping(spender => uint256)). */
  allowed: 10n,
  totalSupply: 11n,
  /** mapping(address => bool). */
  minters: 12n,
  /** mapping(address => uint256). */
  minterAllowed: 13n,
  rescuer: 14n,
  deprecatedCachedDomainSeparator: 15n,
  /** mapping(authorizer => mapping(bytes32 nonce => bool)). */
  authorizationStates: 16n,
  /** mapping(address => uint256). */
  permitNonces: 17n,
  initializedVersion: 18n,
} as const;

/** The token's decimals (fixed, like USDC). */
export const TOKEN_DECIMALS = 6;

/** An EIP-712 domain as the token computes it. */
export interface TokenDomain {
  name: string;
  version: string;
  chainId: bigint;
  verifyingContract: string;
}

const EIP712_DOMAIN_TYPEHASH = id('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)');

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
