// Measures the constant part of the token's gas on each path, on Circle's FiatTokenV2_2 behind its
// proxy on Anvil (debug_traceCall with --steps-tracing), and prints or writes
// mock-node/execution/token/tokenGasTable.ts. For each scenario of gasScenarios.ts:
//   constant total   = execution gas before refund (from the trace) − what the mock meters for
//                      state (cold/warm storage and accounts, SSTORE) on the same call;
//   proxyAfter       = the proxy's gas after its DELEGATECALL returns;
//   proxyBefore      = the proxy's gas before it, less what the mock meters for the proxy;
//   afterLastSstore  = the implementation's gas after its last SSTORE.
// A path measured twice with different constants means the model misses a state dependency: the
// script says so and fails.
//   npx tsx test/mock-node/token/gasCalibration.ts [--write]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMessage } from '../../../mock-node/execution/execute';
import { StateDraft } from '../../../mock-node/state/worldState';
import { stateBlock } from '../../../mock-node/rpc/blockResolution';
import { rpc } from '../../helpers/rpc';
import { buildScenarios, seededRandom, type TxSpec } from './gasScenarios';
import { startUsdcPair, txJson, type UsdcPair } from './usdcPair';

interface StructLog {
  op: string;
  gas: number;
  gasCost: number;
  depth: number;
}

interface Measured {
  total: bigint;
  proxyBefore: bigint;
  proxyAfter: bigint;
  afterLastSstore?: bigint;
  afterCall?: bigint;
}

/** The mock's own view of the call: its path and what it metered. */
function mockCall(pair: UsdcPair, spec: TxSpec) {
  const chain = pair.node.core.services.chain;
  const block = stateBlock(chain, { kind: 'tag', tag: 'latest' });
  const accessList = spec.accessList?.map((e) => ({ address: e.address.toLowerCase(), storageKeys: e.storageKeys.map((k) => k.toLowerCase()) })) ?? null;
  const result = runMessage(
    new StateDraft(block.state),
    { from: spec.from.toLowerCase(), to: spec.to.toLowerCase(), value: spec.value ?? 0n, input: spec.data, gasLimit: spec.gas ?? 1_000_000n, accessList },
    chain.environment(block),
    pair.node.core.services.contracts,
    { isStatic: true, origin: spec.from.toLowerCase() },
  );
  return result.outcome.gas;
}

/** Splits a struct-log trace of a call to the proxy into the constants of PathGas. */
function measure(logs: StructLog[], metered: { dynamic: bigint; proxyDynamic: bigint; lastSstoreCost?: bigint }): Measured & { lastSstoreCost?: bigint } {
  const last = logs[logs.length - 1];
  const remaining = BigInt(last.gas - last.gasCost);
  const used = BigInt(logs[0].gas) - remaining;
  const call = logs.findIndex((l) => l.depth === 1 && l.op === 'DELEGATECALL');
  if (call < 0) return { total: used - metered.dynamic, proxyBefore: used - metered.dynamic, proxyAfter: 0n };
  const back = logs.findIndex((l, i) => i > call && l.depth === 1);
  const proxyAfter = BigInt(logs[back].gas) - remaining;
  const innerOps = logs.slice(call + 1, back).filter((l) => l.depth === 2);
  const innerStart = BigInt(innerOps[0].gas);
  const innerLast = innerOps[innerOps.length - 1];
  const innerRemaining = BigInt(innerLast.gas - innerLast.gasCost);
  const inner = innerStart - innerRemaining;
  const proxyBefore = used - proxyAfter - inner - metered.proxyDynamic;
  // A CALL the implementation makes (the token calling itself): its gas after the CALL returns.
  const innerCall = logs.findIndex((l, i) => i > call && i < back && l.depth === 2 && l.op === 'CALL');
  const callBack = innerCall < 0 ? -1 : logs.findIndex((l, i) => i > innerCall && l.depth === 2);
  const afterCall = callBack < 0 ? undefined : BigInt(logs[callBack].gas) - innerRemaining;
  const sstores = innerOps.filter((l) => l.op === 'SSTORE');
  const lastSstore = sstores[sstores.length - 1];
  return {
    total: used - metered.dynamic,
    proxyBefore,
    proxyAfter,
    afterLastSstore: lastSstore ? BigInt(lastSstore.gas - lastSstore.gasCost) - innerRemaining : undefined,
    afterCall,
    lastSstoreCost: lastSstore ? BigInt(lastSstore.gasCost) : undefined,
  };
}

async function trace(pair: UsdcPair, spec: TxSpec): Promise<StructLog[]> {
  const result = await rpc(pair.anvil.url, 'debug_traceCall', [txJson(spec), 'latest', { enableMemory: false, disableStack: true, disableStorage: true }]);
  return result.structLogs as StructLog[];
}

async function sendBoth(pair: UsdcPair, spec: TxSpec): Promise<void> {
  const hash = await rpc(pair.anvil.url, 'eth_sendTransaction', [txJson(spec)]);
  await rpc(pair.node.url, 'eth_sendTransaction', [txJson(spec)]);
  await rpc(pair.node.url, 'evm_mine');
  // Anvil mines on arrival, but under load its receipt (and the state after it) can lag a moment.
  for (let tries = 0; !(await rpc(pair.anvil.url, 'eth_getTransactionReceipt', [hash])); tries++) {
    if (tries === 200) throw new Error(`Anvil did not mine ${hash}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function calibrate(): Promise<{ table: Map<string, Measured>; problems: string[] }> {
  const pair = await startUsdcPair(['--steps-tracing']);
  const table = new Map<string, Measured>();
  const problems: string[] = [];
  const record = (path: string, m: Measured, name: string): void => {
    const seen = table.get(path);
    if (!seen) {
      table.set(path, m);
      return;
    }
    for (const key of ['total', 'proxyBefore', 'proxyAfter', 'afterLastSstore', 'afterCall'] as const) {
      if (seen[key] !== m[key]) problems.push(`${name}: ${path} ${key} ${m[key]} here, ${seen[key]} before`);
    }
  };
  try {
    for (const seed of [1, 2]) {
      for (const scenario of buildScenarios(pair.context(seededRandom(seed)))) {
        const snapshots = [await rpc(pair.anvil.url, 'evm_snapshot'), await rpc(pair.node.url, 'evm_snapshot')];
        try {
          for (const step of scenario.setup) await sendBoth(pair, step);
          const gas = mockCall(pair, scenario.call);
          if (!gas?.metered) continue; // not a call to the token
          const measured = measure(await trace(pair, scenario.call), gas.metered);
          // The SSTOREs compared are the implementation's own; the proxy's functions (no DELEGATECALL)
          // and calls the token makes to itself (rescueERC20, upgradeToAndCall) write elsewhere.
          const implementationFrame = (await trace(pair, scenario.call)).some((l) => l.depth === 1 && l.op === 'DELEGATECALL') && !gas.path.includes('|call ');
          if (implementationFrame && measured.lastSstoreCost !== gas.metered.lastSstoreCost) {
            problems.push(`${scenario.name}: last SSTORE costs ${measured.lastSstoreCost} on USDC, ${gas.metered.lastSstoreCost} on the mock`);
          }
          const { lastSstoreCost: _cost, ...constants } = measured;
          record(gas.path, constants, scenario.name);
          if (scenario.name === 'transfer to an existing holder') {
            // The proxy's part after a DELEGATECALL that ran out of gas: one gas below what the call needs.
            const { gas: _limit, ...call } = txJson(scenario.call);
            const tight = { ...scenario.call, gas: BigInt(await rpc(pair.anvil.url, 'eth_estimateGas', [call])) - 1n };
            const oog = measure(await trace(pair, tight), gas.metered);
            table.set('outOfGas|proxy', { total: 0n, proxyBefore: 0n, proxyAfter: oog.proxyAfter });
          }
        } finally {
          await rpc(pair.anvil.url, 'evm_revert', [snapshots[0]]);
          await rpc(pair.node.url, 'evm_revert', [snapshots[1]]);
        }
      }
    }
  } finally {
    await pair.stop();
  }
  return { table, problems };
}

function tableSource(table: Map<string, Measured>): string {
  const header = `// The constant part of the token's gas, per path, measured on Circle's FiatTokenV2_2 behind
// FiatTokenProxy on Anvil 1.7.1 (default hardfork) by test/mock-node/token/gasCalibration.ts.
// Regenerate with \`npx tsx test/mock-node/token/gasCalibration.ts --write\`; do not edit by hand.
import type { PathGas } from './pathGas';

export const TOKEN_GAS_TABLE: Record<string, PathGas> = {
`;
  const rows = [...table.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, m]) => {
      const after = (m.afterLastSstore === undefined ? '' : `, afterLastSstore: ${m.afterLastSstore}n`) + (m.afterCall === undefined ? '' : `, afterCall: ${m.afterCall}n`);
      return `  ${JSON.stringify(path)}: { total: ${m.total}n, proxyBefore: ${m.proxyBefore}n, proxyAfter: ${m.proxyAfter}n${after} },`;
    });
  return `${header}${rows.join('\n')}\n};\n`;
}

if (require.main === module) {
  calibrate()
    .then(({ table, problems }) => {
      const source = tableSource(table);
      if (process.argv.includes('--write')) writeFileSync(join(__dirname, '..', '..', '..', 'mock-node', 'execution', 'token', 'tokenGasTable.ts'), source);
      else process.stdout.write(source);
      for (const problem of problems) console.error(`inconsistent: ${problem}`);
      process.exitCode = problems.length ? 1 : 0;
    })
    .catch((error) => {
      console.error(error);
      process.exitCode = 1;
    });
}
