/** Types of seaExecutable.mjs (for the bench, which is TypeScript). */
import type { StdioOptions } from 'node:child_process';

export interface SingleExecutableConfig {
  main: string;
  useSnapshot?: boolean;
  assets?: Record<string, string>;
}

export function makeSingleExecutable(config: SingleExecutableConfig, output: string, options?: { stdio?: StdioOptions }): string;
