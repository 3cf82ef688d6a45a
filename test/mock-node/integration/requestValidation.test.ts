// Transaction requests that once reached an internal error or were too lenient: bad
// eth_sendTransaction fields are -32602 naming the field (fee ordering, access list entries, fees
// no balance can pay, fields of the wrong type), and nothing is queued.
import assert from 'node:assert/strict';
import type { RunningMockNode } from '../../../mock-node/index';
import { rpc, rpcError, startTestNode } from '../../helpers/rpc';

const DEV = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const MAX = '0x' + 'f'.repeat(64);
const GWEI = 1_000_000_000n;

describe('transaction requests', function () {
  this.timeout(30_000);
  let node: RunningMockNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.stop());

  it('bad eth_sendTransaction fields are -32602 naming the field, and nothing is queued', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ maxPriorityFeePerGas: '0x100', maxFeePerGas: '0x10' }, 'invalid argument 0: maxPriorityFeePerGas (256) is higher than maxFeePerGas (16)'],
      [{ gasPrice: '0x1', maxFeePerGas: '0x1' }, 'invalid argument 0: both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified'],
      [{ accessList: [{ address: '0x12', storageKeys: [] }] }, 'invalid argument 0: accessList[0].address must be a 20-byte hex address'],
      [{ accessList: [{ address: DEV }] }, 'invalid argument 0: accessList[0].storageKeys must be a list of 32-byte hex keys'],
      [{ accessList: [{ address: DEV, storageKeys: ['0x1'] }] }, 'invalid argument 0: accessList[0].storageKeys[0] must be a 32-byte hex string'],
      [{ accessList: { address: DEV, storageKeys: [] } }, 'invalid argument 0: accessList must be a list of {address, storageKeys}'],
      [{ accessList: [null] }, 'invalid argument 0: accessList[0] must be an object {address, storageKeys}'],
      [{ maxFeePerGas: MAX }, 'invalid argument 0: gas × maxFeePerGas + value exceeds 2^256 - 1'],
      [{ maxFeePerGas: MAX, maxPriorityFeePerGas: MAX }, 'invalid argument 0: gas × maxFeePerGas + value exceeds 2^256 - 1'],
      [{ gasPrice: MAX }, 'invalid argument 0: gas × gasPrice + value exceeds 2^256 - 1'],
      [{ gas: MAX }, 'invalid argument 0: gas must be at most 2^64 - 1'],
      [{ type: '0x5' }, 'invalid argument 0: transaction type 5 is not supported (0, 1 or 2)'],
      [{ type: '0x0', accessList: [] }, 'invalid argument 0: a type 0 transaction has no accessList'],
      [{ type: '0x1', maxFeePerGas: '0x10' }, 'invalid argument 0: a type 1 transaction takes gasPrice, not maxFeePerGas or maxPriorityFeePerGas'],
      [{ type: '0x2', gasPrice: '0x10' }, 'invalid argument 0: a type 2 transaction takes maxFeePerGas and maxPriorityFeePerGas, not gasPrice'],
      [{ type: 2 }, 'invalid argument 0: type must be a hex string'],
      [{ value: 5 }, 'invalid argument 0: value must be a hex string'],
    ];
    const before = await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]);
    for (const [fields, message] of cases) {
      const error = await rpcError(node.url, 'eth_sendTransaction', [{ from: DEV, to: TO, ...fields }]);
      assert.deepEqual([error.code, error.message], [-32602, message], JSON.stringify(fields));
    }
    assert.equal(node.core.services.chain.queuedTransactions().length, 0, 'nothing queued');
    assert.deepEqual(await rpc(node.url, 'eth_getBlockByNumber', ['pending', false]), before);
    // A given fee cap below the default tip: the tip follows it (once an internal error from ethers).
    const hash = await rpc(node.url, 'eth_sendTransaction', [{ from: DEV, to: TO, maxFeePerGas: '0x' + (2n * GWEI).toString(16) }]);
    assert.match(hash, /^0x[0-9a-f]{64}$/);
    const eip2930 = await rpc(node.url, 'eth_sendTransaction', [{ from: DEV, to: TO, type: '0x1', accessList: [{ address: TO, storageKeys: ['0x' + '00'.repeat(32)] }] }]);
    assert.equal((await rpc(node.url, 'eth_getTransactionByHash', [eip2930])).type, '0x1');
    await rpc(node.url, 'evm_mine');
  });
});
