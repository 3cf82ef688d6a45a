// Imported first by mock-node/seaMain.ts: marks the bundle as the single executable's, so that
// cli.ts does not run main() while Node builds the executable's startup snapshot (seaMain.ts runs
// it when the executable starts). The CLI bundle so never loads node:v8 to ask.
(globalThis as Record<symbol, unknown>)[Symbol.for('chain-mock-node.singleExecutable')] = true;

export {};
