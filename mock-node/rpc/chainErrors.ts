// The error edge: every ChainError kind the chain and execution throw becomes one JSON-RPC error
// here, with the code and the wording geth (or Base, for pre-confirmation) answers. Nothing below
// rpc/ knows a JSON-RPC code.
import { MAX_TIMESTAMP } from '../chain/clock';
import type { ChainError, ChainFault } from '../encoding/errors';
import { ErrorCode, RpcError } from './errors';

export function rpcErrorOf(error: ChainError): RpcError {
  const fault: ChainFault = error.fault;
  switch (fault.kind) {
    case 'undecodable-transaction':
      return input(`invalid transaction: ${fault.reason}`);
    case 'unsupported-transaction-type':
      return input(`transaction type not supported: ${fault.type}`);
    case 'invalid-chain-id':
      return input(`invalid chain id for signer: have ${fault.have} want ${fault.want}`);
    case 'initcode-too-large':
      return input(`max initcode size exceeded: code size ${fault.size} limit 49152`);
    case 'tip-above-fee-cap':
      return input(
        `max priority fee per gas higher than max fee per gas: ${fault.from ? `address ${fault.from}, ` : ''}` +
          `maxPriorityFeePerGas: ${fault.maxPriorityFeePerGas}, maxFeePerGas: ${fault.maxFeePerGas}`,
      );
    case 'intrinsic-gas-too-low':
      return input(`intrinsic gas too low: gas ${fault.gas}, minimum needed ${fault.minimum}`);
    case 'floor-data-gas-too-low':
      return input(`insufficient gas for floor data gas cost: gas ${fault.gas}, minimum needed ${fault.minimum}`);
    case 'exceeds-block-gas-limit':
      return input('exceeds block gas limit');
    case 'already-known':
      return input('already known');
    case 'nonce-too-low':
      return input(`nonce too low: next nonce ${fault.next}, tx nonce ${fault.nonce}`);
    case 'replacement-underpriced':
      // Anvil's code (-32003, transaction rejected); geth answers -32000.
      return new RpcError(ErrorCode.TransactionRejected, 'replacement transaction underpriced');
    case 'fee-below-base-fee':
      return input(`max fee per gas less than block base fee: address ${fault.from}, maxFeePerGas: ${fault.maxFeePerGas}, baseFee: ${fault.baseFee}`);
    case 'insufficient-funds':
      return input(`insufficient funds for gas * price + value: balance ${fault.balance}, tx cost ${fault.cost}, overshot ${fault.cost - fault.balance}`);
    case 'account-limit-exceeded':
      return input('account limit exceeded');
    case 'txpool-full':
      return input('txpool is full');
    case 'transaction-replaced':
      return new RpcError(ErrorCode.TransactionRejected, 'transaction replaced');
    case 'transaction-dropped':
      return new RpcError(ErrorCode.TransactionRejected, `transaction dropped: ${fault.reason}`);
    case 'not-preconfirmed':
      return input(`transaction ${fault.hash} was not pre-confirmed within ${fault.timeoutMs} ms`);
    case 'insufficient-funds-for-transfer':
      return input('insufficient funds for transfer');
    case 'out-of-gas':
      return input('out of gas');
    case 'evm-not-followed':
      return input(`${fault.method} does not follow EVM contract code yet: it runs the built-in token and value transfers only`);
    case 'halted':
      return input(`EVM error ${fault.error}`);
    case 'reverted':
      return new RpcError(ErrorCode.ExecutionReverted, fault.reason ? `execution reverted: ${fault.reason}` : 'execution reverted', fault.data);
    case 'timestamp-not-after-latest':
      return input(`timestamp ${fault.timestamp} is lower than or equal to previous block's timestamp ${fault.latest}`);
    case 'timestamp-too-large':
      return input(`timestamp ${fault.timestamp} is past 2^64 - 1, the largest a block header holds`);
    case 'clock-overflow':
      return input(`the clock would pass 2^64 - 1, the largest block timestamp (now ${fault.now}, at most ${MAX_TIMESTAMP - fault.now} more seconds)`);
    case 'block-pruned':
      return new RpcError(
        ErrorCode.PrunedHistory,
        `pruned history unavailable: ${fault.subject ? `${fault.subject} is in block ${fault.number}, which` : `block ${fault.number}`} was pruned; ` +
          `this node keeps the newest ${fault.kept} blocks (--history-blocks ${fault.kept}), the oldest it holds is ${fault.oldest}`,
        { block: Number(fault.number), oldest: Number(fault.oldest), historyBlocks: fault.kept },
      );
    case 'reorg-depth-invalid':
      return input('reorg depth must be a whole number of at least 1');
    case 'reorg-too-deep': {
      const deepest = fault.head - fault.safe;
      return input(
        `reorg depth ${fault.depth} refused: ${BigInt(fault.depth) > fault.head ? `it goes below the safe block ${fault.safe}` : `it would replace block ${fault.head - BigInt(fault.depth) + 1n}, at or below the safe block ${fault.safe}`} ` +
          `(safe trails latest by ${fault.safeDepth}, finalized by ${fault.finalizedDepth}); the deepest reorg allowed now is ${deepest}`,
        { depth: fault.depth, maxDepth: Number(deepest), safe: Number(fault.safe), finalized: Number(fault.finalized), latest: Number(fault.head) },
      );
    }
  }
}

function input(message: string, data?: unknown): RpcError {
  return new RpcError(ErrorCode.InvalidInput, message, data);
}
