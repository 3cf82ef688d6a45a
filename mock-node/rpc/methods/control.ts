// Control methods for tests (Anvil's names where Anvil has one, mock_* for ours).
import { quantity } from '../../encoding/hex';
import { invalidInput, invalidParams } from '../errors';
import { parseAddress, parseInteger } from '../params';
import { ANSWER_FIRST, type MethodTable } from './types';

export const controlMethods: MethodTable = {
  /** evm_mine(), evm_mine(count), evm_mine({ blocks, timestamp }). */
  evm_mine: async (params, { node }) => {
    let count = 1n;
    let timestamp: bigint | undefined;
    const arg = params[0];
    if (arg !== undefined && arg !== null) {
      if (typeof arg === 'object' && !Array.isArray(arg)) {
        const o = arg as Record<string, unknown>;
        if (o.blocks !== undefined) count = parseInteger(o.blocks, 0, 'blocks');
        if (o.timestamp !== undefined) timestamp = parseInteger(o.timestamp, 0, 'timestamp');
      } else {
        count = parseInteger(arg, 0, 'block count');
      }
    }
    if (count < 1n || count > 10_000n) throw invalidParams('invalid argument 0: block count must be from 1 to 10000');
    await node.chain.mine(Number(count), timestamp);
    return '0x0';
  },
  evm_increaseTime: async (params, { node }) => {
    const seconds = parseInteger(params[0], 0, 'seconds');
    // The total offset as a JSON number with every digit (Anvil: 0x20000000000001 answers 9007199254740993).
    const offset = await node.chain.increaseTime(seconds);
    return offset <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(offset) : offset;
  },
  evm_setNextBlockTimestamp: async (params, { node }) => {
    const timestamp = parseInteger(params[0], 0, 'timestamp');
    await node.chain.setNextBlockTimestamp(timestamp);
    return null;
  },
  evm_snapshot: (_params, { node }) => {
    const id = node.chain.takeSnapshot();
    return id instanceof Promise ? id.then(quantity) : quantity(id);
  },
  evm_revert: (params, { node }) => node.chain.revertToSnapshot(Number(parseInteger(params[0], 0, 'snapshot id')), ANSWER_FIRST),
  anvil_setBalance: async (params, { node }) => {
    const address = parseAddress(params[0], 0);
    const balance = parseInteger(params[1], 1, 'balance');
    await node.chain.applySystemChange((draft) => draft.updateAccount(address, { balance }), ANSWER_FIRST);
    return null;
  },
  /** Cuts one flashblock now; answers what the pending block looks like after it. */
  mock_flashblock: async (params, { node }) => {
    const pending = await node.chain.cutFlashblock();
    return {
      number: quantity(pending.header.number),
      index: pending.flashblockIndex,
      transactions: pending.transactions.length,
      gasUsed: quantity(pending.header.gasUsed),
    };
  },
};
