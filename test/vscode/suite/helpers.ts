// Shared helpers for the in-VS-Code tests.
export const EXTENSION_ID = 'chain-rpc-explorer.chain-rpc-explorer';
