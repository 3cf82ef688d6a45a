// Foundry's tools (Anvil, cast) from their npm packages. Not dependencies (npm ci cannot resolve
// their packages for other platforms): `.ci/run` installs each into the tools cache, and a
// developer can set ANVIL_BIN / CAST_BIN or run `npm install --no-save @foundry-rs/<tool>`.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The version `.ci/run` installs (keep the two in step). */
export const FOUNDRY_VERSION = '1.7.1';
const ROOT = join(__dirname, '..', '..');

export type FoundryTool = 'anvil' | 'cast';

/** Where `.ci/run` installs a tool: the same cache as the VS Code tools. */
export function foundryCacheDir(tool: FoundryTool): string {
  return join(process.env.CHAIN_EXPLORER_TOOLS_CACHE ?? join(homedir(), '.cache', 'chain-rpc-explorer'), `${tool}-${FOUNDRY_VERSION}`);
}

/** <TOOL>_BIN, the project's node_modules, or the tools cache; undefined when none has it. */
export function findFoundryTool(tool: FoundryTool): string | undefined {
  const candidates = [
    process.env[`${tool.toUpperCase()}_BIN`],
    join(ROOT, 'node_modules', '.bin', tool),
    join(foundryCacheDir(tool), 'node_modules', '.bin', tool),
  ];
  return candidates.find((file): file is string => !!file && existsSync(file));
}

/** In a mocha `before`: the tool's binary, or the suite is skipped with a message saying how to get it. */
export function foundryToolOrSkip(tool: FoundryTool, context: Mocha.Context): string {
  const binary = findFoundryTool(tool);
  if (!binary) {
    const name = tool === 'anvil' ? 'Anvil' : 'cast';
    console.log(`      SKIPPED: ${name} is not installed (.ci/run installs it; or ${tool.toUpperCase()}_BIN / npm install --no-save @foundry-rs/${tool}@${FOUNDRY_VERSION})`);
    context.skip();
  }
  return binary!;
}
