// The EVM, loaded on first use: a node whose messages never meet code never loads
// @ethereumjs/evm. The bundles resolve require('./machine') to dist/mock-node-evm.js beside them
// (esbuild.mjs), so start-up neither reads nor compiles it; the single executable keeps it inside.
import type { Machine } from './machine';
import { NODE_EVM_CRYPTO } from './nodeCrypto';

const machines = new Map<bigint, Promise<Machine>>();

/** The EVM for `chainId`, created on first use and kept. */
export function machineFor(chainId: bigint): Promise<Machine> {
  let machine = machines.get(chainId);
  if (!machine) {
    machine = Promise.resolve().then(() => (require('./machine') as typeof import('./machine')).Machine.create(chainId, NODE_EVM_CRYPTO));
    machines.set(chainId, machine);
    machine.catch(() => machines.delete(chainId));
  }
  return machine;
}

/** Whether the EVM module has been loaded in this process (tests check that plain traffic never loads it). */
export function evmLoaded(): boolean {
  return machines.size > 0;
}
