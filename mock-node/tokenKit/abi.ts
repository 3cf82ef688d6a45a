// The token's public interface: its ABI (human-readable fragments that ethers and viem both
// parse), function selectors and event signatures with their topics. Part of the token kit.
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
  // Administration (FiatTokenV2_2's roles)
  'function configureMinter(address minter, uint256 minterAllowedAmount) returns (bool)',
  'function removeMinter(address minter) returns (bool)',
  'function updateMasterMinter(address newMasterMinter)',
  'function transferOwnership(address newOwner)',
  'function updatePauser(address newPauser)',
  'function updateBlacklister(address newBlacklister)',
  'function rescuer() view returns (address)',
  'function updateRescuer(address newRescuer)',
  'function rescueERC20(address tokenContract, address to, uint256 amount)',
  // Initializers (they revert: the deployed token is initialized to version 3)
  'function initialize(string tokenName, string tokenSymbol, string tokenCurrency, uint8 tokenDecimals, address newMasterMinter, address newPauser, address newBlacklister, address newOwner)',
  'function initializeV2(string newName)',
  'function initializeV2_1(address lostAndFound)',
  'function initializeV2_2(address[] accountsToBlacklist, string newSymbol)',
  // The proxy (FiatTokenProxy): admin() and implementation() answer anyone; the others only its admin
  'function admin() view returns (address)',
  'function implementation() view returns (address)',
  'function changeAdmin(address newAdmin)',
  'function upgradeTo(address newImplementation)',
  'function upgradeToAndCall(address newImplementation, bytes data) payable',
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
  'event MinterConfigured(address indexed minter, uint256 minterAllowedAmount)',
  'event MinterRemoved(address indexed oldMinter)',
  'event MasterMinterChanged(address indexed newMasterMinter)',
  'event OwnershipTransferred(address previousOwner, address newOwner)',
  'event PauserChanged(address indexed newAddress)',
  'event BlacklisterChanged(address indexed newBlacklister)',
  'event RescuerChanged(address indexed newRescuer)',
  'event AdminChanged(address previousAdmin, address newAdmin)',
  'event Upgraded(address implementation)',
] as const;

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
  MinterConfigured: 'MinterConfigured(address,uint256)',
  MinterRemoved: 'MinterRemoved(address)',
  MasterMinterChanged: 'MasterMinterChanged(address)',
  OwnershipTransferred: 'OwnershipTransferred(address,address)',
  PauserChanged: 'PauserChanged(address)',
  BlacklisterChanged: 'BlacklisterChanged(address)',
  RescuerChanged: 'RescuerChanged(address)',
  AdminChanged: 'AdminChanged(address,address)',
  Upgraded: 'Upgraded(address)',
} as const;

/** Functions the proxy (FiatTokenProxy) answers itself; every other selector goes to the implementation. */
export const PROXY_FUNCTIONS = ['admin()', 'implementation()', 'changeAdmin(address)', 'upgradeTo(address)', 'upgradeToAndCall(address,bytes)'] as const;

export type TokenEventName = keyof typeof EVENT_SIGNATURES;

/**
 * topic 0 of each of the token's events: keccak256 of its signature, written out so that loading
 * the kit hashes nothing (test/mock-node/unit/tokenKitConstants.test.ts recomputes them).
 */
export const EVENT_TOPICS: Readonly<Record<TokenEventName, string>> = {
  Transfer: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
  Approval: '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925',
  AuthorizationUsed: '0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5',
  AuthorizationCanceled: '0x1cdd46ff242716cdaa72d159d339a485b3438398348d68f09d7c8c0a59353d81',
  Memo: '0x739777285604c12fd8dfad1e5635875fd3d8e26fc960a81ffab8f866671c89ba',
  Mint: '0xab8530f87dc9b59234c4623bf917212bb2536d647574c8e7e5da92c2ede0c9f8',
  Burn: '0xcc16f5dbb4873280815c1ee09dbd06736cffcc184412cf7a71a0fdb75d397ca5',
  Blacklisted: '0xffa4e6181777692565cf28528fc88fd1516ea86b56da075235fa575af6a4b855',
  UnBlacklisted: '0x117e3210bb9aa7d9baff172026820255c6f6c30ba8999d1c2fd88e2848137c4e',
  Pause: '0x6985a02210a168e66602d3235cb6db0e70f92b3ba4d376a33c0f3d9434bff625',
  Unpause: '0x7805862f689e2f13df9f062ff482ad3ad112aca9e0847911ed832e158c525b33',
  MinterConfigured: '0x46980fca912ef9bcdbd36877427b6b90e860769f604e89c0e67720cece530d20',
  MinterRemoved: '0xe94479a9f7e1952cc78f2d6baab678adc1b772d936c6583def489e524cb66692',
  MasterMinterChanged: '0xdb66dfa9c6b8f5226fe9aac7e51897ae8ee94ac31dc70bb6c9900b2574b707e6',
  OwnershipTransferred: '0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0',
  PauserChanged: '0xb80482a293ca2e013eda8683c9bd7fc8347cfdaeea5ede58cba46df502c2a604',
  BlacklisterChanged: '0xc67398012c111ce95ecb7429b933096c977380ee6c421175a71a4a4c6c88c06e',
  RescuerChanged: '0xe475e580d85111348e40d8ca33cfdd74c30fe1655c2d8537a13abc10065ffa5a',
  AdminChanged: '0x7e644d79422f17c01e4894b5f4f588d331ebfa28653d42ae832dc59e38c9798f',
  Upgraded: '0xbc7cd75a20ee27fd9adebab32041f755214dbc6bffa90cc0225b39da2e5c2d3b',
};

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

