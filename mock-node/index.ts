// The mock node's public API: everything outside mock-node/ (the CLI, tests, the VS Code
// extension) uses the node through this module only.
export { startMockNode, mockNodeRouter, createMockNodeCore } from './node';
export type { RunningMockNode, DevAccount, MockNodeCore, MockNodeRouter } from './node';
export { resolveOptions, defaultOptions, OptionError, DEFAULT_MNEMONIC } from './options';
export type { MockNodeOptions, MockNodeOptionsInput, PendingIdentity, PendingNonce, TokenOptions } from './options';
export { CHAIN_NAMES, presetByName, presetForChainId } from './presets/chainPresets';
export type { ChainName, ChainPreset } from './presets/chainPresets';
export type { LogEntry, LogLevel, LogSink, LogThreshold, Logger } from './logger';
/** Which ECDSA recovery the node runs: 'native' (libsecp256k1 as an addon), 'wasm' (the same in WebAssembly) or 'js' (the fallback). */
export { recoveryBackend } from './execution/signatures';
/** Which native binary loaded (our own build, chain-recover.node, or the secp256k1 package's), or why none did. */
export { addonStatus } from './execution/secp256k1Addon';
// The token kit (ABI, typed data, slots, signature rules, units, event decoding): the one source
// the node's token and the extension both use. The extension imports mock-node/tokenKit/index.ts
// itself, which is light; this module would load the whole node.
export * from './tokenKit/index';
