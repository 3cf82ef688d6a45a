// What the chain does, in the node's log: transactions taken in (info), sealed blocks (info when
// they hold transactions, debug when empty, so a 2-second chain does not flood the log), and
// blocks replaced by a reorg or a revert (info). Hashes, addresses and counts only.
import type { Chain, ChainEvents } from './chain/chain';
import type { Logger } from './logger';

export function logChainEvents(chain: Chain, logger: Logger): () => void {
  const onTransaction = (...[tx]: ChainEvents['pendingTransaction']) => {
    // Every accepted transaction passes here: no message is built when info is not written (--quiet).
    if (!logger.enabled('info')) return;
    logger.info(`transaction ${tx.hash} queued`, { from: tx.from, to: tx.to ?? 'contract creation', nonce: tx.nonce });
  };
  const onBlock = (...[block]: ChainEvents['block']) => {
    if (!logger.enabled(block.transactions.length > 0 ? 'info' : 'debug')) return;
    const failed = block.transactions.filter((included) => included.receipt.status === 0).length;
    const fields = {
      hash: block.hash,
      transactions: block.transactions.length,
      ...(failed > 0 ? { failed } : {}),
      gasUsed: block.header.gasUsed,
    };
    if (block.transactions.length > 0) logger.info(`block ${block.header.number} sealed`, fields);
    else logger.debug(`block ${block.header.number} sealed`, fields);
  };
  const onRemoved = (...[blocks]: ChainEvents['removed']) => {
    const numbers = blocks.map((block) => block.header.number);
    const lowest = numbers.reduce((a, b) => (b < a ? b : a));
    logger.info(`${blocks.length} block${blocks.length === 1 ? '' : 's'} removed from the canonical chain (from ${lowest})`, { hashes: blocks.map((block) => block.hash) });
  };
  chain.on('pendingTransaction', onTransaction);
  chain.on('block', onBlock);
  chain.on('removed', onRemoved);
  return () => {
    chain.off('pendingTransaction', onTransaction);
    chain.off('block', onBlock);
    chain.off('removed', onRemoved);
  };
}
