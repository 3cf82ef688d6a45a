// Traces, access lists and simulations of contracts that call the token, on the mock node (whose
// token is native and also real bytecode) and on Anvil with Circle's FiatTokenV2_2 behind
// FiatTokenProxy at the same address with the same storage: a checkout contract charging with
// transferFrom after an approve, the same over the allowance (the token's revert bubbling up, and
// caught by try/catch), a CREATE2 with value and a constructor's log, a custom error and a Panic,
// and the deployment itself. Compared: callTracer (type, from, to, value, gas, gasUsed, input,
// output, error, revertReason, nested calls, logs), prestateTracer with and without diffMode,
// eth_createAccessList and eth_simulateV1.
import assert from 'node:assert/strict';
import { Interface } from 'ethers';
import { anvilOrSkip } from '../../helpers/anvil';
import { rpc, rpcError } from '../../helpers/rpc';
import { compileSolidity } from '../../helpers/solc';
import { startUsdcPair, type UsdcPair } from '../token/usdcPair';
import { TOKEN_INTERFACE } from '../token/gasScenarios';

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
interface IERC20 { function transferFrom(address, address, uint256) external returns (bool); function balanceOf(address) external view returns (uint256); }
contract Receipt {
  uint256 public amount;
  event Issued(address indexed to, uint256 amount);
  constructor(address to, uint256 amount_) payable { amount = amount_; emit Issued(to, amount_); }
}
contract Checkout {
  IERC20 public immutable token;
  uint256 public charges;
  event Charging(address indexed payer, uint256 amount);
  event Charged(address indexed payer, uint256 amount, uint256 balance);
  event Tried(bool ok);
  error Refused(uint256 code);
  constructor(IERC20 token_) { token = token_; }
  function charge(address payer, uint256 amount) external returns (uint256 balance) {
    emit Charging(payer, amount);
    require(token.transferFrom(payer, address(this), amount), "transfer failed");
    balance = token.balanceOf(address(this));
    charges += 1;
    emit Charged(payer, amount, balance);
  }
  function tryCharge(address payer, uint256 amount) external returns (bool ok) {
    try token.transferFrom(payer, address(this), amount) returns (bool r) { ok = r; } catch { ok = false; }
    emit Tried(ok);
  }
  function issue(bytes32 salt, address to, uint256 amount) external payable returns (address) {
    return address(new Receipt{salt: salt, value: msg.value}(to, amount));
  }
  function refuse(uint256 how) external view returns (uint256) {
    if (how == 1) revert Refused(7);
    assert(how != 2);
    return token.balanceOf(msg.sender) / (how - 3);
  }
}
`;

function hex(n: bigint | number): string {
  return `0x${BigInt(n).toString(16)}`;
}

/** Where two JSON values differ, as paths (short enough to read in a failure). */
function jsonDiff(a: any, b: any, path = ''): string[] {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b ? [] : [`${path}: mock ${JSON.stringify(a)?.slice(0, 160)} anvil ${JSON.stringify(b)?.slice(0, 160)}`];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => jsonDiff(a[k], b[k], `${path}.${k}`));
}

/**
 * Each node has its own fee recipient and base fee: the fee recipient's entry and the sender's
 * balance (what it paid for gas) are left out of a prestate. The token's proxy has nonce 1 on the
 * mock (deployed at genesis) and 0 on Anvil (placed there by anvil_setCode): not compared.
 * Everything else is.
 */
function normalisePrestate(result: any, coinbase: string, sender: string, token: string): any {
  const strip = (map: Record<string, any>) => {
    const out: Record<string, any> = {};
    for (const [address, account] of Object.entries(map ?? {})) {
      if (address === coinbase) continue;
      const copy = { ...account };
      if (address === sender) delete copy.balance;
      if (address === token) delete copy.nonce;
      if (Object.keys(copy).length > 0) out[address] = copy;
    }
    return out;
  };
  return result.pre && result.post ? { pre: strip(result.pre), post: strip(result.post) } : strip(result);
}

/**
 * Anvil's callTracer keeps the logs of a frame that failed (and of its children); the node drops
 * them, as geth's callTracer does (they never happened): Anvil's are dropped here before comparing.
 */
function dropFailedLogs(frame: any, parentFailed = false): any {
  const failed = parentFailed || frame.error !== undefined;
  const out = { ...frame };
  if (failed) delete out.logs;
  if (out.calls) out.calls = out.calls.map((c: any) => dropFailedLogs(c, failed));
  return out;
}

/** An access list as a map, since Anvil's order of addresses is a hash map's. */
function byAddress(list: { address: string; storageKeys: string[] }[]): Record<string, string[]> {
  return Object.fromEntries(list.map((e) => [e.address.toLowerCase(), e.storageKeys]).sort(([a], [b]) => (a < b ? -1 : 1)));
}

interface Side {
  name: 'mock' | 'anvil';
  url: string;
  mine: boolean;
  coinbase: string;
}

describe('traces of a contract that calls the token agree with Anvil running the real USDC', function () {
  this.timeout(300_000);
  let pair: UsdcPair;
  let sides: Side[];
  const compiled = () => compileSolidity({ 'Checkout.sol': SOURCE });

  before(async function () {
    anvilOrSkip(this);
    // Compiled before the in-process node starts: solc blocks the event loop for seconds.
    compiled();
    pair = await startUsdcPair();
    sides = [];
    for (const [name, url, mine] of [['mock', pair.node.url, true], ['anvil', pair.anvil.url, false]] as const) {
      sides.push({ name, url, mine, coinbase: (await rpc(url, 'eth_getBlockByNumber', ['latest', false])).miner.toLowerCase() });
    }
  });

  after(async () => {
    await pair?.stop();
  });

  async function send(side: Side, tx: Record<string, unknown>): Promise<any> {
    const hash = await rpc(side.url, 'eth_sendTransaction', [tx]);
    if (side.mine) await rpc(side.url, 'evm_mine');
    for (let i = 0; i < 200; i++) {
      const receipt = await rpc(side.url, 'eth_getTransactionReceipt', [hash]);
      if (receipt) return receipt;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no receipt on ${side.name}`);
  }

  /** Runs `body` on each node from the same state, rolling each back afterwards. */
  async function onBoth<T>(body: (side: Side) => Promise<T>): Promise<{ mock: T; anvil: T }> {
    const out: T[] = [];
    for (const side of sides) {
      const snapshot = await rpc(side.url, 'evm_snapshot');
      try {
        out.push(await body(side));
      } finally {
        await rpc(side.url, 'evm_revert', [snapshot]);
      }
    }
    return { mock: out[0], anvil: out[1] };
  }

  /** Deploys Checkout for the token and has the payer approve it for `allowance`. */
  async function setUp(side: Side, allowance: bigint): Promise<{ at: string; deploy: any }> {
    const checkout = compiled().Checkout;
    const merchant = pair.node.accounts[4].address;
    const payer = pair.node.accounts[3].address;
    const deploy = await send(side, { from: merchant, data: checkout.bytecode + new Interface(checkout.abi).encodeDeploy([pair.node.tokenAddress]).slice(2), gas: hex(1_500_000) });
    assert.equal(deploy.status, '0x1', `deployment on ${side.name}`);
    const approve = await send(side, { from: payer, to: pair.node.tokenAddress, data: TOKEN_INTERFACE.encodeFunctionData('approve', [deploy.contractAddress, allowance]), gas: hex(200_000) });
    assert.equal(approve.status, '0x1');
    return { at: deploy.contractAddress.toLowerCase(), deploy };
  }

  function scenarios(at: string): { name: string; tx: Record<string, unknown> }[] {
    const abi = new Interface(compiled().Checkout.abi);
    const merchant = pair.node.accounts[4].address;
    const payer = pair.node.accounts[3].address;
    const call = (name: string, fn: string, args: unknown[], extra: Record<string, unknown> = {}) => ({ name, tx: { from: merchant, to: at, data: abi.encodeFunctionData(fn, args), gas: hex(400_000), ...extra } });
    return [
      call('charge (transferFrom after approve, then balanceOf)', 'charge', [payer, 2_000_000n]),
      call('charge over the allowance (the token reverts, the revert bubbles up)', 'charge', [payer, 9_000_000n]),
      call('tryCharge over the allowance (the token reverts inside try/catch)', 'tryCharge', [payer, 9_000_000n]),
      call('issue (CREATE2 with value, a constructor log)', 'issue', [`0x${'42'.repeat(32)}`, payer, 5n], { value: hex(1234) }),
      call('refuse with a custom error', 'refuse', [1n]),
      call('refuse with a Panic (assert)', 'refuse', [2n]),
      call('refuse with a Panic (division by zero) after a STATICCALL', 'refuse', [3n]),
      call('out of gas inside the token', 'charge', [payer, 1n], { gas: hex(60_000) }),
    ];
  }

  it('debug_traceTransaction: callTracer (withLog, onlyTopCall) and prestateTracer (diffMode) of each transaction, the deployment included', async () => {
    const { mock, anvil } = await onBoth(async (side) => {
      const { at, deploy } = await setUp(side, 5_000_000n);
      const sender = pair.node.accounts[4].address.toLowerCase();
      const token = pair.node.tokenAddress.toLowerCase();
      const traced: Record<string, unknown> = {};
      const hashes: [string, string][] = [['deployment', deploy.transactionHash]];
      for (const { name, tx } of scenarios(at)) hashes.push([name, (await send(side, tx)).transactionHash]);
      for (const [name, hash] of hashes) {
        traced[name] = {
          calls: dropFailedLogs(await rpc(side.url, 'debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }])),
          top: await rpc(side.url, 'debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } }]),
          prestate: normalisePrestate(await rpc(side.url, 'debug_traceTransaction', [hash, { tracer: 'prestateTracer' }]), side.coinbase, sender, token),
          diff: normalisePrestate(await rpc(side.url, 'debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]), side.coinbase, sender, token),
        };
      }
      return traced;
    });
    const charge = mock['charge (transferFrom after approve, then balanceOf)'] as any;
    // The checkout's CALL to the proxy, the proxy's DELEGATECALL to FiatTokenV2_2: real bytecode.
    assert.equal(charge.calls.calls[0].type, 'CALL');
    assert.equal(charge.calls.calls[0].to, pair.node.tokenAddress.toLowerCase());
    assert.equal(charge.calls.calls[0].calls[0].type, 'DELEGATECALL');
    assert.equal(charge.calls.calls[1].type, 'STATICCALL');
    assert.equal((mock['charge over the allowance (the token reverts, the revert bubbles up)'] as any).calls.revertReason, 'ERC20: transfer amount exceeds allowance');
    assert.equal((mock.deployment as any).calls.type, 'CREATE');
    const differences = Object.keys(mock).flatMap((name) => jsonDiff(mock[name], anvil[name]).map((d) => `${name}${d}`));
    assert.deepEqual(differences, []);
  });

  it('debug_traceCall and debug_traceBlockByNumber over contract code, as on Anvil', async () => {
    const { mock, anvil } = await onBoth(async (side) => {
      const { at } = await setUp(side, 5_000_000n);
      const sender = pair.node.accounts[4].address.toLowerCase();
      const token = pair.node.tokenAddress.toLowerCase();
      const out: Record<string, unknown> = {};
      for (const { name, tx } of scenarios(at)) {
        out[name] = {
          calls: dropFailedLogs(await rpc(side.url, 'debug_traceCall', [tx, 'latest', { tracer: 'callTracer', tracerConfig: { withLog: true } }])),
          prestate: normalisePrestate(await rpc(side.url, 'debug_traceCall', [tx, 'latest', { tracer: 'prestateTracer' }]), side.coinbase, sender, token),
          diff: normalisePrestate(await rpc(side.url, 'debug_traceCall', [tx, 'latest', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]), side.coinbase, sender, token),
        };
      }
      const sent = await send(side, scenarios(at)[0].tx);
      const block = await rpc(side.url, 'debug_traceBlockByNumber', [sent.blockNumber, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
      out.block = block.map((t: any) => t.result);
      out.byHash = (await rpc(side.url, 'debug_traceBlockByHash', [sent.blockHash, { tracer: 'callTracer' }])).map((t: any) => t.result);
      return out;
    });
    const differences = Object.keys(mock).flatMap((name) => jsonDiff(mock[name], anvil[name]).map((d) => `${name}${d}`));
    assert.deepEqual(differences, []);
  });

  it('eth_createAccessList over contract code: the same list and the same gas with it attached', async () => {
    const { mock, anvil } = await onBoth(async (side) => {
      const { at } = await setUp(side, 5_000_000n);
      const out: Record<string, unknown> = {};
      for (const { name, tx } of [0, 2, 3].map((i) => scenarios(at)[i])) {
        const { gas: _gas, ...call } = tx;
        const answer = await rpc(side.url, 'eth_createAccessList', [call, 'latest']);
        out[name] = { list: byAddress(answer.accessList), gasUsed: answer.gasUsed };
      }
      const checkout = compiled().Checkout;
      const deploy = { from: pair.node.accounts[5].address, data: checkout.bytecode + new Interface(checkout.abi).encodeDeploy([pair.node.tokenAddress]).slice(2) };
      const answer = await rpc(side.url, 'eth_createAccessList', [deploy, 'latest']);
      out.deployment = { list: byAddress(answer.accessList), gasUsed: answer.gasUsed };
      const reverting = scenarios(at)[1].tx;
      out.error = await rpcError(side.url, 'eth_createAccessList', [{ ...reverting, gas: undefined }, 'latest']).then((e) => ({ code: e.code, message: e.message }));
      return out;
    });
    const differences = Object.keys(mock).flatMap((name) => jsonDiff(mock[name], anvil[name]).map((d) => `${name}${d}`));
    assert.deepEqual(differences, []);
  });

  it('eth_simulateV1 over contract code, with traceTransfers and a code override, as on Anvil', async () => {
    const { mock, anvil } = await onBoth(async (side) => {
      const { at } = await setUp(side, 5_000_000n);
      const calls = scenarios(at).map(({ tx }) => {
        const { gas: _gas, ...call } = tx;
        return call;
      });
      const simulated = await rpc(side.url, 'eth_simulateV1', [{ blockStateCalls: [{ calls: calls.slice(0, 5) }], traceTransfers: true }, 'latest']);
      // Checkout's runtime code placed at a fresh address by a code override: it runs there.
      const elsewhere = '0x00000000000000000000000000000000c0ffee00';
      const runtime = await rpc(side.url, 'eth_getCode', [at, 'latest']);
      const overridden = await rpc(side.url, 'eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: { [elsewhere]: { code: runtime } }, calls: [{ ...calls[4], to: elsewhere, data: new Interface(compiled().Checkout.abi).encodeFunctionData('charges') }] }] }, 'latest']);
      // A failed call: the node answers as geth (returnData 0x, error code 3 with the revert data),
      // Anvil with the revert data as returnData and error -3200 'execution failed'; the revert data is compared.
      const shape = (blocks: any[]) =>
        blocks.map((b) =>
          b.calls.map((c: any) => ({
            status: c.status,
            gasUsed: c.gasUsed,
            returnData: c.status === '0x1' ? c.returnData : (c.error?.data ?? c.returnData),
            logs: c.logs.map((l: any) => ({ address: l.address, topics: l.topics, data: l.data })),
          })),
        );
      return { simulated: shape(simulated), overridden: shape(overridden) };
    });
    assert.equal(mock.simulated[0][0].status, '0x1');
    assert.ok(mock.simulated[0][3].logs.some((l: any) => l.address === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'), 'the CREATE2 moved ETH: a transfer log');
    assert.deepEqual(jsonDiff(mock, anvil), []);
  });
});
