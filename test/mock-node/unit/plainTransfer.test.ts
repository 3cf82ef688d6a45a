// applyTransaction's path for a message to an account without code (an ETH transfer, data to an
// externally owned account) leaves the same state and receipt as the general path through
// runMessage, which a tracer forces: sender, recipient and fee recipient, for a transfer with and
// without value, with calldata (the EIP-7623 floor), an access list, a sender paying itself, and
// the fee recipient as recipient. A gas limit below the intrinsic gas still takes the general path.
import assert from 'node:assert/strict';
import type { Hex } from '../../../mock-node/encoding/hex';
import type { TransactionRecord } from '../../../mock-node/chain/types';
import { applyTransaction, NativeContracts } from '../../../mock-node/execution/execute';
import type { BlockEnvironment } from '../../../mock-node/execution/nativeContract';
import { TraceRecorder } from '../../../mock-node/execution/trace/recorder';
import { EMPTY_ACCOUNT, StateDraft, type AccountRecord, type StateReader } from '../../../mock-node/state/worldState';

const ALICE: Hex = '0x' + 'a1'.repeat(20);
const BOB: Hex = '0x' + 'b0'.repeat(20);
const COINBASE: Hex = '0x' + 'c0'.repeat(20);

function baseState(): StateReader {
  const accounts = new Map<Hex, AccountRecord>([
    [ALICE, { nonce: 4n, balance: 10n ** 21n, code: '0x' }],
    [BOB, { nonce: 0n, balance: 5n, code: '0x' }],
  ]);
  return { account: (address) => accounts.get(address) ?? EMPTY_ACCOUNT, storage: () => 0n };
}

const env: BlockEnvironment = { number: 7n, timestamp: 1_700_000_000n, chainId: 31337n, coinbase: COINBASE, baseFeePerGas: 1_000_000_000n };

function transfer(change: Partial<TransactionRecord>): TransactionRecord {
  return {
    hash: '0x' + '11'.repeat(32),
    type: 2,
    chainId: 31337n,
    nonce: 4n,
    from: ALICE,
    to: BOB,
    value: 123_456_789n,
    input: '0x',
    gasLimit: 60_000n,
    gasPrice: null,
    maxFeePerGas: 3_000_000_000n,
    maxPriorityFeePerGas: 2_000_000_000n,
    accessList: [],
    v: 0n,
    r: '0x' + '22'.repeat(32),
    s: '0x' + '33'.repeat(32),
    yParity: 0,
    encoded: '0x02',
    ...change,
  };
}

/** The state changes and receipt of applying tx, untraced (the plain path) or traced (runMessage). */
function apply(tx: TransactionRecord, traced: boolean) {
  const draft = new StateDraft(baseState());
  const result = applyTransaction(draft, tx, env, new NativeContracts([]), 30_000_000n, 0, 0, traced ? new TraceRecorder() : undefined);
  assert.ok(!(result instanceof Promise));
  return { changes: [...draft.accountChanges.entries()].sort(([a], [b]) => a.localeCompare(b)), result };
}

describe('applyTransaction: a message to an account without code', () => {
  const cases: [string, Partial<TransactionRecord>][] = [
    ['an ETH transfer', {}],
    ['a transfer of nothing', { value: 0n }],
    ['calldata to an account without code (the EIP-7623 floor)', { input: '0x' + '00ff'.repeat(40) }],
    ['an access list', { accessList: [{ address: BOB, storageKeys: ['0x' + '00'.repeat(32)] }] }],
    ['a sender paying itself', { to: ALICE }],
    ['the fee recipient as recipient', { to: COINBASE }],
    ['a legacy transaction', { type: 0, chainId: null, gasPrice: 1_500_000_000n, maxFeePerGas: null, maxPriorityFeePerGas: null, accessList: null }],
    ['a gas limit below the intrinsic gas', { gasLimit: 20_000n }],
  ];
  for (const [name, change] of cases) {
    it(`leaves what the general path leaves: ${name}`, () => {
      const plain = apply(transfer(change), false);
      const general = apply(transfer(change), true);
      assert.deepEqual(plain.changes, general.changes);
      assert.deepEqual(plain.result, general.result);
      assert.ok(plain.changes.length >= 1);
    });
  }

  it('charges the intrinsic gas and moves the value', () => {
    const { changes, result } = apply(transfer({}), false);
    assert.ok(!('problem' in result));
    assert.equal(result.receipt.gasUsed, 21_000n);
    assert.equal(result.receipt.status, 1);
    const after = new Map(changes);
    assert.equal(after.get(BOB)!.balance, 5n + 123_456_789n);
    assert.equal(after.get(ALICE)!.balance, 10n ** 21n - 123_456_789n - 21_000n * 3_000_000_000n);
    assert.equal(after.get(ALICE)!.nonce, 5n);
    assert.equal(after.get(COINBASE)!.balance, 21_000n * 2_000_000_000n);
  });
});
