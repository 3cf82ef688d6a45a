// Mining controls with Anvil's names and answers: anvil_mine, evm_setAutomine, anvil_getAutomine,
// evm_setIntervalMining, anvil_setNextBlockBaseFeePerGas, evm_setBlockGasLimit, anvil_setCoinbase,
// anvil_reset (their Hardhat names are catalog aliases). The modes compose with flashblocks
// (chain.ts, MiningMode).
import { OptionError } from '../../options';
import { invalidParams } from '../errors';
import { parseAddress, parseInteger } from '../params';
import type { MethodTable } from './types';

const MAX_BLOCKS_PER_CALL = 10_000n;
const MAX_GAS_LIMIT = 2n ** 63n - 1n;

function parseBoolean(value: unknown, index: number, name: string): boolean {
  if (typeof value !== 'boolean') throw invalidParams(`invalid argument ${index}: ${name} must be true or false`);
  return value;
}

export const miningMethods: MethodTable = {
  anvil_mine: async (params, { node }) => {
    const count = params[0] === undefined || params[0] === null ? 1n : parseInteger(params[0], 0, 'block count');
    const interval = params[1] === undefined || params[1] === null ? undefined : parseInteger(params[1], 1, 'interval');
    if (count > MAX_BLOCKS_PER_CALL) throw invalidParams(`invalid argument 0: block count must be at most ${MAX_BLOCKS_PER_CALL}`);
    if (count > 0n) await node.chain.mine(Number(count), undefined, interval);
    return null;
  },
  evm_setAutomine: async (params, { node }) => {
    const enabled = parseBoolean(params[0], 0, 'automine');
    const mode = node.chain.miningMode;
    // Anvil: turning automine off leaves interval mining as it is.
    if (enabled && mode.kind !== 'automine') await node.chain.setMiningMode({ kind: 'automine' });
    if (!enabled && mode.kind === 'automine') await node.chain.setMiningMode({ kind: 'none' });
    return null;
  },
  anvil_getAutomine: (_params, { node }) => node.chain.miningMode.kind === 'automine',
  evm_setIntervalMining: async (params, { node }) => {
    const seconds = parseInteger(params[0], 0, 'interval');
    if (seconds > 86_400n * 365n) throw invalidParams('invalid argument 0: interval must be at most a year (31536000 seconds)');
    await node.chain.setMiningMode(seconds === 0n ? { kind: 'none' } : { kind: 'interval', blockMs: Number(seconds) * 1000 });
    return null;
  },
  anvil_setNextBlockBaseFeePerGas: async (params, { node }) => {
    const baseFee = parseInteger(params[0], 0, 'base fee');
    if (baseFee >= 2n ** 64n) throw invalidParams('invalid argument 0: base fee must be below 2^64');
    await node.chain.setNextBlockBaseFee(baseFee);
    return null;
  },
  evm_setBlockGasLimit: async (params, { node }) => {
    const gasLimit = parseInteger(params[0], 0, 'gas limit');
    if (gasLimit < 21_000n || gasLimit > MAX_GAS_LIMIT) throw invalidParams(`invalid argument 0: gas limit must be from 21000 to ${MAX_GAS_LIMIT}`);
    await node.chain.setBlockGasLimit(gasLimit);
    return true;
  },
  anvil_setCoinbase: async (params, { node }) => {
    await node.chain.setCoinbase(parseAddress(params[0], 0));
    return null;
  },
  anvil_reset: async (params, { node }) => {
    const options = params[0];
    if (options !== undefined && options !== null) {
      if (typeof options !== 'object' || Array.isArray(options)) throw invalidParams('invalid argument 0: reset options must be an object');
      const forking = (options as Record<string, unknown>).forking;
      if (forking !== undefined && forking !== null) {
        if (typeof forking !== 'object' || Array.isArray(forking)) throw invalidParams('invalid argument 0: forking must be an object { jsonRpcUrl?, blockNumber? }');
        const { jsonRpcUrl, blockNumber } = forking as Record<string, unknown>;
        const url = jsonRpcUrl === undefined || jsonRpcUrl === null ? undefined : jsonRpcUrl;
        if (url !== undefined && (typeof url !== 'string' || !/^https?:\/\/\S+$/i.test(url) || !URL.canParse(url))) throw invalidParams('invalid argument 0: forking.jsonRpcUrl must be an http:// or https:// URL');
        const number = blockNumber === undefined || blockNumber === null ? undefined : parseInteger(blockNumber, 0, 'forking.blockNumber');
        // Anvil's answer when it was not started forked and no URL is given.
        if (!node.refork && url === undefined) throw invalidParams('Forking not enabled and RPC URL not provided to start forking');
        if (!node.refork) throw invalidParams('invalid argument 0: this node was not started forked: start it with --fork-url to reset to a fork (the chain id, token and accounts are fixed at start)');
        try {
          await node.refork({ url, blockNumber: number });
        } catch (error) {
          if (error instanceof OptionError) throw invalidParams(`invalid argument 0: ${error.message}`);
          throw error;
        }
        return null;
      }
    }
    await node.chain.reset();
    return null;
  },
};
