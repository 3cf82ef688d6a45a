// anvil_nodeInfo and anvil_metadata (hardhat_metadata): what the node is and where its chain
// stands, in Anvil's shapes. Fields Anvil fills from its EVM configuration carry this node's
// values (the hard fork its headers follow, arrival order in the pool, the fork when there is one).
import { quantity } from '../../encoding/hex';
import { CLIENT_VERSION } from './chainInfo';
import type { MethodTable } from './types';

export const nodeInfoMethods: MethodTable = {
  anvil_nodeInfo: (_params, { node }) => {
    const latest = node.chain.latest;
    const pending = node.chain.pending;
    return {
      currentBlockNumber: quantity(latest.header.number),
      currentBlockTimestamp: Number(latest.header.timestamp),
      currentBlockHash: latest.hash,
      hardFork: 'prague',
      transactionOrder: 'fifo',
      environment: {
        baseFee: quantity(pending.header.baseFeePerGas),
        chainId: Number(node.options.chainId),
        gasLimit: quantity(node.chain.blockGasLimit),
        gasPrice: quantity(pending.header.baseFeePerGas * 2n),
      },
      // The fork's URL redacted (it may hold an API key).
      forkConfig: node.chain.fork
        ? { forkUrl: node.chain.fork.client.settings.shownUrl, forkBlockNumber: Number(node.chain.fork.header.number), forkRetryBackoff: node.chain.fork.client.settings.retryBackoffMs }
        : { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
    };
  },
  anvil_metadata: (_params, { node }) => {
    const latest = node.chain.latest;
    const snapshots: Record<string, [number, string]> = {};
    for (const { id, head } of node.chain.snapshotHeads()) snapshots[quantity(BigInt(id))] = [Number(head), node.chain.blockByNumber(head)?.hash ?? latest.hash];
    return {
      clientVersion: CLIENT_VERSION,
      chainId: Number(node.options.chainId),
      instanceId: node.chain.instanceId,
      latestBlockNumber: Number(latest.header.number),
      latestBlockHash: latest.hash,
      forkedNetwork: node.chain.fork
        ? { chainId: Number(node.options.chainId), forkBlockNumber: Number(node.chain.fork.header.number), forkBlockHash: node.chain.fork.hash }
        : null,
      snapshots,
    };
  },
};
