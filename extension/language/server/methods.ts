// What the language server knows about JSON-RPC methods beyond the node's method catalog
// (mock-node/catalog/methods.ts, the one list of methods, params and docs): the block tags' meaning,
// the standard methods the mock node does not serve, and the Markdown a method is shown with.
// Pure data: no vscode import, no I/O.
import { METHOD_CATALOG, type BlockTag, type MethodSpec } from '../../../mock-node/catalog/index';

export const TAG_DOCS: Record<BlockTag, string> = {
  latest: 'The last sealed block.',
  pending: 'The live block being built: pre-confirmed transactions, refreshed about every 200 ms (each flashblock). Same shapes as sealed blocks; not yet sealed.',
  safe: 'A sealed block the chain considers safe (the mock node: 10 blocks behind latest by default).',
  finalized: 'A finalized block (the mock node: 30 blocks behind latest by default).',
  earliest: 'The genesis block.',
};

/** The methods a file can send over HTTP (completion offers these). */
export const HTTP_METHODS: readonly MethodSpec[] = METHOD_CATALOG.filter((m) => m.transport !== 'websocket');

/** Standard methods the mock node does not serve: known names, params not checked. */
export const OTHER_KNOWN_METHODS = ([
  'eth_newFilter', 'eth_newBlockFilter', 'eth_newPendingTransactionFilter',
  'eth_getFilterChanges', 'eth_getFilterLogs', 'eth_uninstallFilter', 'eth_getTransactionByBlockHashAndIndex',
  'eth_protocolVersion', 'eth_coinbase', 'eth_hashrate', 'eth_getHeaderByNumber', 'eth_getHeaderByHash',
  'trace_block', 'trace_transaction',
  'txpool_content', 'txpool_status', 'anvil_mine', 'anvil_setCode', 'anvil_setStorageAt', 'anvil_impersonateAccount',
  'hardhat_mine', 'hardhat_setBalance',
] as string[]).filter((name) => !METHOD_CATALOG.some((spec) => spec.name === name)); // served ones are catalog entries

/** A Markdown description of a method for hover and completion. */
export function methodMarkdown(spec: MethodSpec): string {
  const lines = [`**${spec.name}**${spec.seed ? ' · one of the seed\'s five reads' : ''}`, '', spec.summary, ''];
  if (spec.params.length === 0) {
    lines.push('Params: none (`[]`).');
  } else {
    lines.push('| Position | Name | Required | Allowed values |', '|---|---|---|---|');
    spec.params.forEach((x, i) => lines.push(`| ${i} | ${x.name} | ${x.required ? 'yes' : 'no'} | ${x.doc.replace(/\|/g, '\\|')} |`));
  }
  lines.push('', `Result: ${spec.result}`);
  for (const note of spec.notes ?? []) lines.push('', note);
  return lines.join('\n');
}

/** Levenshtein distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}

/** The closest candidate within a small distance (case-insensitive), if any. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 4)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
