// The chain presets as the extension may read them (pure data, no node): the language server
// completes an authorization's domain from them. Like catalog/index.ts, an entry of its own so the
// extension never loads the node to read them.
export { CHAIN_NAMES, allPresets, presetByName, presetForChainId, OP_STACK_PREDEPLOYS } from './chainPresets';
export type { ChainName, ChainPreset } from './chainPresets';
