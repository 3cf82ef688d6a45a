// The token kit: everything a client needs to know about the built-in token, which is also
// everything USDC's FiatToken v2.2 shows from outside: ABI, selectors, events and their
// decoding, EIP-712 types and domain, storage slots, signature rules and 6-decimal units.
// The node's token and the VS Code extension both import it, and it stays light: it loads only
// ethers' abi/hash/crypto/utils parts (no chain, no Express, no ethers wallet or provider).
// A test checks that importing it loads none of those.
export * from './abi';
export * from './typedData';
export * from './slots';
export * from './signature';
export * from './units';
export * from './events';
