// mock_dumpState: with --state FILE, writes the chain to that file now (atomically) and answers
// {path, blocks, queued, bytes}; without one, answers the state itself (the same JSON the file
// holds). mock_loadState(state) replaces the running chain with such a state.
import { exportState, importState, saveStateFile, StateFileError } from '../../chain/persistence';
import { invalidInput, invalidParams } from '../errors';
import type { MethodTable } from './types';

/** A forked chain is not saved: its state rests on the upstream's, which the file would not hold (docs/forking.md). */
const FORK_REFUSAL = "state files are not supported on a forked chain: its state rests on the fork's upstream, which a state file does not hold, so a reload would be half a state";

export const stateFileMethods: MethodTable = {
  mock_dumpState: async (params, { node }) => {
    if (node.chain.fork) throw invalidInput(FORK_REFUSAL);
    const path = node.options.stateFile;
    if (path) return saveStateFile(node.chain, node.options, path);
    return node.chain.exclusive(async () => exportState(node.chain, node.options));
  },
  mock_loadState: async (params, { node }) => {
    if (node.chain.fork) throw invalidInput(FORK_REFUSAL);
    try {
      return await importState(node.chain, node.options, params[0], 'the state');
    } catch (error) {
      // A field of the wrong type is a bad argument; content that does not verify, bad input.
      if (error instanceof StateFileError) throw error.malformed ? invalidParams(`invalid argument 0: ${error.message}`) : invalidInput(error.message);
      throw error;
    }
  },
};
