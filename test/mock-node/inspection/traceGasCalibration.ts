// Measures the constant gas around USDC's signature check that call traces show (the gas the
// implementation spends before DELEGATECALLing the SignatureChecker library, the library's gas
// before its STATICCALL to ecrecover, and all of the library's constant gas), from callTracer
// traces of Circle's contracts on Anvil, against the mock's own traces of the same calls, and
// prints or writes mock-node/execution/token/traceGasTable.ts.
//   npx tsx test/mock-node/inspection/traceGasCalibration.ts [--write]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { signatureCallGas } from '../../../mock-node/execution/token/traceGas';
import { rpc } from '../../helpers/rpc';
import { startUsdcPair } from '../token/usdcPair';
import { signatureCalls } from './signatureCalls';

/** The least gas A from which a call forwards `forwarded` (all but one 64th). */
function forwardedFrom(forwarded: bigint): bigint {
  let a = (forwarded * 64n) / 63n - 2n;
  while (a - a / 64n < forwarded) a += 1n;
  return a;
}

interface Frame { gas: string; gasUsed: string; calls?: Frame[] }

function frames(trace: Frame) {
  const implementation = trace.calls![0];
  const library = implementation.calls![0];
  const ecrecover = library.calls![0];
  return { implementation: BigInt(implementation.gas), library: BigInt(library.gas), libraryUsed: BigInt(library.gasUsed), ecrecover: BigInt(ecrecover.gas) };
}

async function main(): Promise<void> {
  const pair = await startUsdcPair();
  const rows: string[] = [];
  try {
    const wallets = pair.node.accounts.map((a) => new Wallet(a.privateKey));
    for (const { signature, call } of signatureCalls(pair.token.address, pair.node.chainId, wallets)) {
      const options = { tracer: 'callTracer' };
      const usdc = frames(await rpc(pair.anvil.url, 'debug_traceCall', [call, 'latest', options]));
      const mock = frames(await rpc(pair.node.url, 'debug_traceCall', [call, 'latest', options]));
      const old = signatureCallGas(signature);
      const implementationBefore = old.implementationBefore + (usdc.implementation - forwardedFrom(usdc.library)) - (mock.implementation - forwardedFrom(mock.library));
      const libraryBefore = old.libraryBefore + (usdc.library - forwardedFrom(usdc.ecrecover)) - (mock.library - forwardedFrom(mock.ecrecover));
      const library = old.library + usdc.libraryUsed - mock.libraryUsed;
      rows.push(`  ${JSON.stringify(signature)}: { implementationBefore: ${implementationBefore}n, libraryBefore: ${libraryBefore}n, library: ${library}n },`);
    }
  } finally {
    await pair.stop();
  }
  const text = [
    '// Written by test/mock-node/inspection/traceGasCalibration.ts --write: do not edit by hand.',
    "import type { SignatureCallGas } from './signatureCallGas';",
    '',
    'export const SIGNATURE_CALL_GAS_TABLE: Record<string, SignatureCallGas> = {',
    ...rows,
    '};',
    '',
  ].join('\n');
  if (process.argv.includes('--write')) writeFileSync(join(__dirname, '..', '..', '..', 'mock-node', 'execution', 'token', 'traceGasTable.ts'), text);
  process.stdout.write(text);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
