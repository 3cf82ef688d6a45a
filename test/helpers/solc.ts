// Compiles Solidity sources for tests with the pinned npm solc (solc-js, no native binary), once
// per process per source set. Returns each contract's creation code, runtime code and ABI.
import solc from 'solc';

export interface Compiled {
  abi: any[];
  bytecode: string;
  deployedBytecode: string;
}

const cache = new Map<string, Record<string, Compiled>>();

/** `sources`: file name → Solidity text. Throws with solc's messages on any error. */
export function compileSolidity(sources: Record<string, string>, optimizer = true): Record<string, Compiled> {
  const key = JSON.stringify([sources, optimizer]);
  const known = cache.get(key);
  if (known) return known;
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])),
    settings: {
      optimizer: { enabled: optimizer, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: any) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e: any) => e.formattedMessage).join('\n'));
  const result: Record<string, Compiled> = {};
  for (const file of Object.values(output.contracts) as any[]) {
    for (const [name, contract] of Object.entries(file) as [string, any][]) {
      result[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}`, deployedBytecode: `0x${contract.evm.deployedBytecode.object}` };
    }
  }
  cache.set(key, result);
  return result;
}
