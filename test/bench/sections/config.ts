// What every bench section is told: quick (smoke test) or full sizes, where Anvil is, and
// whether to profile the mock node.
import { defaultOptions } from '../../../mock-node/index';
export interface BenchConfig {
  quick: boolean;
  /** The Anvil binary, when installed. */
  anvil: string | undefined;
  /** When set, the mock node of the intake and capture sections runs under `node --cpu-prof` writing here. */
  profileDir: string | undefined;
}

/** `full` normally, `quick` in the smoke test. */
export function size<T>(config: BenchConfig, full: T, quick: T): T {
  return config.quick ? quick : full;
}

/** The `node` options that profile the mock node into `dir`, or none. */
export function profileArgs(config: BenchConfig, name: string): string[] {
  return config.profileDir ? ['--cpu-prof', '--cpu-prof-dir', config.profileDir, '--cpu-prof-name', `${name}.cpuprofile`] : [];
}

export const NOT_INSTALLED = { value: NaN };

/** The mock node's token at its default address (the CLI runs with default options). */
export const MOCK_TOKEN = defaultOptions().token.address;
