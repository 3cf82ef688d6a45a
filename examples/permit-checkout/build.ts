// Compiles PermitCheckout.sol with the pinned npm solc (package.json: solc, exact version) into
// PermitCheckout.json: ABI, creation and runtime bytecode, compiler version and the source's
// keccak256. `--check` compiles again and fails unless the committed JSON is exactly what the
// source gives (the test suite runs it), so the source and the bytecode cannot drift apart.
//   npx tsx examples/permit-checkout/build.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keccak256, toUtf8Bytes } from 'ethers';
import solc from 'solc';

const HERE = __dirname;
const SOURCE = join(HERE, 'PermitCheckout.sol');
const ARTIFACT = join(HERE, 'PermitCheckout.json');

export interface CheckoutArtifact {
  contractName: 'PermitCheckout';
  compiler: string;
  sourceKeccak256: string;
  abi: unknown[];
  bytecode: string;
  deployedBytecode: string;
}

/** Compiles the source as the committed artifact was compiled (optimizer on, 200 runs, solc's default EVM version). */
export function compileCheckout(): CheckoutArtifact {
  const source = readFileSync(SOURCE, 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'PermitCheckout.sol': { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // No metadata hash: the bytecode depends on the source and the settings only.
      metadata: { bytecodeHash: 'none', appendCBOR: false },
      outputSelection: { 'PermitCheckout.sol': { PermitCheckout: ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'));
  const contract = output.contracts['PermitCheckout.sol'].PermitCheckout;
  return {
    contractName: 'PermitCheckout',
    compiler: `solc ${solc.version()}`,
    sourceKeccak256: keccak256(toUtf8Bytes(source)),
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
    deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
  };
}

export function committedCheckout(): CheckoutArtifact {
  return JSON.parse(readFileSync(ARTIFACT, 'utf8')) as CheckoutArtifact;
}

if (require.main === module) {
  const fresh = compileCheckout();
  const text = `${JSON.stringify(fresh, null, 2)}\n`;
  if (process.argv.includes('--check')) {
    if (readFileSync(ARTIFACT, 'utf8') !== text) {
      console.error('PermitCheckout.json does not match PermitCheckout.sol: run npx tsx examples/permit-checkout/build.ts');
      process.exit(1);
    }
    console.log(`PermitCheckout.json matches PermitCheckout.sol (${fresh.compiler})`);
  } else {
    writeFileSync(ARTIFACT, text);
    console.log(`wrote PermitCheckout.json (${fresh.compiler}, ${(fresh.deployedBytecode.length - 2) / 2} bytes of runtime code)`);
  }
}
