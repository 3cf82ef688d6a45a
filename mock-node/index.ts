// The mock node's public API: everything outside mock-node/ (the CLI, tests, the VS Code
// extension) uses the node through this module only.
export { startMockNode } from './node';
export type { RunningMockNode, DevAccount } from './node';
export { resolveOptions, defaultOptions, OptionError, DEFAULT_MNEMONIC } from './options';
export type { MockNodeOptions, MockNodeOptionsInput, PendingIdentity, TokenOptions } from './options';
