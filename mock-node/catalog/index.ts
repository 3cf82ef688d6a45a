// The method catalog, a light public entry like the token kit: every JSON-RPC method the node
// serves (methods.ts) and the rules its param values follow (paramRules.ts). The node's handler and
// the language server both import it; it imports nothing (no chain, no Express, no ethers).
export * from './methods';
export * from './paramRules';
