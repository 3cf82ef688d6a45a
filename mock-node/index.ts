// The mock node's public API: everything outside mock-node/ (the CLI, tests, the VS Code
// extension) uses the node through this module only.
export { startMockNode, mockNodeRouter, createMockNodeCore } from './node';
export type { RunningMockNode, DevAccount, MockNodeCore, MockNodeRouter } from './node';
export { resolveOptions, defaultOptions, OptionError, DEFAULT_MNEMONIC } from './options';
export type { MockNodeOptions, MockNodeOptionsInput, PendingIdentity, TokenOptions } from './options';
export type { LogEntry, LogLevel, LogSink, LogThreshold, Logger } from './logger';
// The token's ABI, EIP-712 types, typehashes, selectors, event topics, storage slots and
// buildTypedData(): the one source the mock node and the extension both use.
export * from './execution/token/abi';
