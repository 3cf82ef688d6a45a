// The method catalog: every JSON-RPC method the mock node serves, as data. Each entry has the
// method's name, its positional params (name, kind, required, a one-line doc), what it answers, a
// summary, and whether it is a control method (off with --no-control) or needs a WebSocket. The
// node's dispatch is built from it (handler.ts: every entry has exactly one implementation, every
// implementation an entry), and so are the language server's completion, hover and diagnostics and
// the bad-input fuzz. The five reads follow the seed's tables word for word. Pure data: no imports
// beyond the param kinds, no I/O.
import type { ParamKind } from './paramRules';

export interface ParamSpec {
  name: string;
  kind: ParamKind;
  required: boolean;
  doc: string;
}

export interface MethodSpec {
  name: string;
  summary: string;
  params: ParamSpec[];
  /** What the method answers. */
  result: string;
  /** Extra notes shown on hover (limits, profiles). */
  notes?: string[];
  /** One of the seed's five reads. */
  seed?: boolean;
  /** A control method: answered only when the node runs with control methods on. */
  control?: boolean;
  /** Served over a WebSocket only. */
  transport?: 'websocket';
  /** Another name of this method (Anvil's or Hardhat's): the node answers it with `aliasOf`'s implementation. */
  aliasOf?: string;
}

const SEED_BLOCK_DOC = 'Block number in hex, or `latest`, `pending`, `safe`, `finalized`, `earliest`';

const p = (name: string, kind: ParamKind, doc: string, required = true): ParamSpec => ({ name, kind, required, doc });
const none = (name: string, summary: string, result: string, notes?: string[]): MethodSpec => ({ name, summary, params: [], result, notes });
const control = (spec: MethodSpec): MethodSpec => ({ ...spec, control: true });


/** eth_getLogs filter fields (the seed's table). */
export const FILTER_FIELDS: { name: string; doc: string }[] = [
  { name: 'fromBlock', doc: 'string, optional. Hex number or block tag; default `latest`; `pending` includes pre-confirmed logs.' },
  { name: 'toBlock', doc: 'string, optional. Hex number or block tag; default `latest`.' },
  { name: 'address', doc: 'string or array of strings, optional. One contract address or several.' },
  { name: 'topics', doc: 'array, optional. Each position is null (match any), one 32-byte hex string, or an array of hex strings (match any of them). Position 0 is typically the hash of the event signature.' },
  { name: 'blockHash', doc: 'string, optional. Restricts logs to this block; when given, `fromBlock` and `toBlock` are ignored (geth refuses them together with -32602; the mock node follows the seed and ignores them).' },
];

/** Fields of a call / transaction object. */
export const TRANSACTION_FIELDS: { name: string; kind: ParamKind; doc: string }[] = [
  { name: 'from', kind: 'address', doc: 'Sender (a dev account for eth_sendTransaction).' },
  { name: 'to', kind: 'address', doc: 'Recipient or contract; omit to deploy.' },
  { name: 'gas', kind: 'quantity', doc: 'Gas limit.' },
  { name: 'gasPrice', kind: 'quantity', doc: 'Legacy gas price (wei).' },
  { name: 'maxFeePerGas', kind: 'quantity', doc: 'EIP-1559 fee cap (wei).' },
  { name: 'maxPriorityFeePerGas', kind: 'quantity', doc: 'EIP-1559 tip (wei).' },
  { name: 'value', kind: 'quantity', doc: 'Wei to send.' },
  { name: 'data', kind: 'data', doc: 'Call data.' },
  { name: 'input', kind: 'data', doc: 'Call data (same as data).' },
  { name: 'nonce', kind: 'quantity', doc: 'Sender nonce.' },
  { name: 'type', kind: 'quantity', doc: 'Transaction type: 0x0 legacy, 0x1 EIP-2930, 0x2 EIP-1559.' },
  { name: 'chainId', kind: 'quantity', doc: 'Chain id.' },
  { name: 'accessList', kind: 'any', doc: 'EIP-2930 access list.' },
];

const PRIMARY_METHODS: readonly MethodSpec[] = [
  // The seed's five reads.
  {
    name: 'eth_getBlockByNumber', seed: true,
    summary: 'A block by number or tag. With `pending`, the result is the live in-progress block.',
    params: [
      p('block', 'block', SEED_BLOCK_DOC),
      p('fullTransactions', 'boolean', 'true returns full transaction objects; false returns hashes only'),
    ],
    result: 'A block object, or null when no block is found.',
    notes: ['Pending block: `number` is the current block number and `hash` the hash of the partial block at the current index (some nodes answer null for both).'],
  },
  {
    name: 'eth_getLogs', seed: true,
    summary: 'Logs matching a filter object. To query pre-confirmed logs, set both `fromBlock` and `toBlock` to `pending`.',
    params: [p('filter', 'filter', 'Filter object: fromBlock, toBlock, address, topics, blockHash. At least one criterion should be provided.')],
    result: 'Array of log objects (empty array when none match).',
    notes: ['Recommended maximum block range: under 2,000 blocks. The public endpoint answers -32005 `query exceeds max block range 2000` above it, and -32602 when more than 10,000 logs match.'],
  },
  {
    name: 'eth_getBlockReceipts', seed: true,
    summary: 'All receipts of a block. With `pending`, the receipts of all pre-confirmed transactions of the current partial block.',
    params: [p('block', 'block', SEED_BLOCK_DOC)],
    result: 'Array of receipt objects, one per transaction in the block.',
    notes: ['Rejected on public endpoints (HTTP 403, -32004): use a dedicated endpoint.'],
  },
  {
    name: 'eth_getStorageAt', seed: true,
    summary: 'One storage slot of an account. With `pending`, storage reflects pre-confirmed transactions.',
    params: [
      p('address', 'address', '20-byte address'),
      p('position', 'slot', 'Storage slot as a hexadecimal integer'),
      p('block', 'block', SEED_BLOCK_DOC),
    ],
    result: 'The slot value as a 32-byte hex string.',
  },
  {
    name: 'eth_getTransactionCount', seed: true,
    summary: "An account's transaction count: the nonce to use for its next transaction. With `pending`, the count includes all pre-confirmed transactions, which avoids nonce gaps for high-frequency submitters. The mock node also counts the sender's accepted transactions still queued for the next flashblock (as geth and Anvil; `--pending-nonce preconfirmed` counts flashblocks only, as Base).",
    params: [p('address', 'address', '20-byte address'), p('block', 'block', SEED_BLOCK_DOC)],
    result: 'The transaction count as a hex string.',
  },
  // Around them.
  none('eth_chainId', 'The chain id.', 'Hex quantity.'),
  none('net_version', 'The network id.', 'Decimal string.'),
  none('net_listening', 'Whether the node listens for peers.', 'Boolean.'),
  none('net_peerCount', 'Number of peers.', 'Hex quantity.'),
  none('web3_clientVersion', 'The client name and version.', 'String.'),
  none('eth_syncing', 'Sync status.', 'false, or a sync status object.'),
  none('eth_mining', 'Whether blocks are produced automatically.', 'Boolean.'),
  none('eth_blockNumber', 'The number of the latest sealed block.', 'Hex quantity.'),
  none('eth_accounts', "The node's unlocked accounts (the mock node's dev accounts).", 'Array of addresses.'),
  none('eth_gasPrice', 'A legacy gas price suggestion: next base fee plus the suggested tip.', 'Hex quantity (wei).'),
  none('eth_maxPriorityFeePerGas', 'The suggested EIP-1559 tip.', 'Hex quantity (wei).'),
  none('eth_blobBaseFee', 'The blob base fee.', 'Hex quantity (wei).'),
  {
    name: 'eth_feeHistory', summary: 'Base fees, gas used ratios and reward percentiles of recent blocks.',
    params: [
      p('blockCount', 'integer', 'Number of blocks (1..1024), hex or JSON number'),
      p('newestBlock', 'block', SEED_BLOCK_DOC),
      p('rewardPercentiles', 'percentiles', 'Numbers from 0 to 100, ascending', false),
    ],
    result: '{ oldestBlock, baseFeePerGas, gasUsedRatio, reward? }',
  },
  {
    name: 'eth_getBlockByHash', summary: 'A block by hash.',
    params: [p('blockHash', 'hash', '32-byte block hash'), p('fullTransactions', 'boolean', 'true returns full transaction objects; false returns hashes only')],
    result: 'A block object, or null.',
  },
  { name: 'eth_getBlockTransactionCountByNumber', summary: 'Number of transactions in a block.', params: [p('block', 'block', SEED_BLOCK_DOC)], result: 'Hex quantity, or null.' },
  { name: 'eth_getBlockTransactionCountByHash', summary: 'Number of transactions in a block.', params: [p('blockHash', 'hash', '32-byte block hash')], result: 'Hex quantity, or null.' },
  { name: 'eth_getUncleCountByBlockNumber', summary: 'Always 0x0 (no uncles after the merge).', params: [p('block', 'block', SEED_BLOCK_DOC)], result: '0x0, or null when there is no such block.' },
  { name: 'eth_getUncleCountByBlockHash', summary: 'Always 0x0 (no uncles after the merge).', params: [p('blockHash', 'hash', '32-byte block hash')], result: '0x0, or null when there is no such block.' },
  {
    name: 'eth_getBalance', summary: "An account's ETH balance. `pending` sees pre-confirmed state.",
    params: [p('address', 'address', '20-byte address'), p('block', 'block', SEED_BLOCK_DOC, false)],
    result: 'Hex quantity (wei).',
  },
  {
    name: 'eth_getCode', summary: 'The code at an address.',
    params: [p('address', 'address', '20-byte address'), p('block', 'block', SEED_BLOCK_DOC, false)],
    result: 'Hex bytes.',
  },
  {
    name: 'eth_call', summary: 'Executes a call without a transaction. `pending` sees pre-confirmed state.',
    params: [p('transaction', 'transaction', 'Call object: from, to, data, value, gas…'), p('block', 'block', SEED_BLOCK_DOC, false), p('stateOverrides', 'any', 'Not supported by the mock node', false)],
    result: 'Return data (hex), or an error with the revert reason.',
  },
  {
    name: 'eth_estimateGas', summary: 'Gas a transaction would use (default block: pending).',
    params: [p('transaction', 'transaction', 'Call object: from, to, data, value, gas…'), p('block', 'block', SEED_BLOCK_DOC, false), p('stateOverrides', 'any', 'Not supported by the mock node', false)],
    result: 'Hex quantity.',
  },
  {
    name: 'eth_getProof', summary: 'EIP-1186: an account and some of its storage slots, with Merkle-Patricia proofs against the block\'s stateRoot (also absence proofs).',
    params: [p('address', 'address', '20-byte address'), p('storageKeys', 'any', 'List of storage slots (32-byte hex), at most 1,024'), p('block', 'block', SEED_BLOCK_DOC)],
    result: '{ address, balance, codeHash, nonce, storageHash, accountProof, storageProof: [{ key, value, proof }] }',
  },
  {
    name: 'eth_createAccessList', summary: 'The EIP-2930 access list a call needs (every slot it reads or writes, every account it touches but the sender, the recipient and the precompiles) and the gas it uses with that list attached, as Anvil computes them.',
    params: [p('transaction', 'transaction', 'Call object: from, to, data, value, gas, accessList…'), p('block', 'block', SEED_BLOCK_DOC + ' (default latest)', false)],
    result: '{ accessList: [{ address, storageKeys }], gasUsed }, or the call\'s error (a revert is code 3).',
  },
  {
    name: 'debug_traceTransaction', summary: 'Replays a transaction in its block and traces it: `callTracer` (with `onlyTopCall`, `withLog`), `prestateTracer` (with `diffMode`, `disableCode`, `disableStorage`), `noopTracer`, or the default struct logger (value transfers only: it is not served for messages that run contract code). Contracts are traced from the EVM, the built-in token from its native path.',
    params: [p('hash', 'hash', '32-byte transaction hash'), p('options', 'any', '{ tracer, tracerConfig }', false)],
    result: 'The tracer\'s result (a call frame, a prestate map, or a struct log).',
  },
  {
    name: 'debug_traceCall', summary: 'Traces a call as a transaction at the given block (gas price zero unless given), with the tracers of debug_traceTransaction.',
    params: [p('transaction', 'transaction', 'Call object: from, to, data, value, gas…'), p('block', 'block', SEED_BLOCK_DOC + ' (default latest)', false), p('options', 'any', '{ tracer, tracerConfig }', false)],
    result: 'The tracer\'s result.',
  },
  {
    name: 'debug_traceBlockByNumber', summary: 'Traces every transaction of a block (also `pending`), in order.',
    params: [p('block', 'block', SEED_BLOCK_DOC), p('options', 'any', '{ tracer, tracerConfig }', false)],
    result: '[{ txHash, result }]',
  },
  {
    name: 'debug_traceBlockByHash', summary: 'Traces every transaction of a block by hash, in order.',
    params: [p('blockHash', 'hash', '32-byte block hash'), p('options', 'any', '{ tracer, tracerConfig }', false)],
    result: '[{ txHash, result }]',
  },
  {
    name: 'eth_simulateV1', summary: 'Simulates blocks of calls on top of a block, with state overrides (balance, nonce, code, stateDiff) and block overrides (number, time, gasLimit, feeRecipient, baseFeePerGas); `validation` checks and charges them as transactions; `traceTransfers` logs ETH transfers (also those inside contracts) as ERC-7528 Transfer events (what viem\'s simulateCalls sends). Contract code runs in the EVM.',
    params: [p('simulation', 'any', '{ blockStateCalls: [{ blockOverrides?, stateOverrides?, calls }], validation?, traceTransfers?, returnFullTransactions? } (at most 256 blocks, 1,000 calls)'), p('block', 'block', SEED_BLOCK_DOC + ' (default latest)', false)],
    result: 'One block per blockStateCalls entry, each with `calls: [{ returnData, logs, gasUsed, status, error? }]`.',
  },
  { name: 'eth_sendRawTransaction', summary: 'Submits a signed transaction; visible in the next flashblock.', params: [p('transaction', 'signedTransaction', 'RLP-encoded signed transaction')], result: 'Transaction hash.' },
  {
    name: 'eth_sendRawTransactionSync', summary: 'EIP-7966: submits a signed transaction and answers its receipt once pre-confirmed.',
    params: [p('transaction', 'signedTransaction', 'RLP-encoded signed transaction'), p('timeout', 'milliseconds', 'Milliseconds to wait (positive integer)', false)],
    result: 'Receipt object.',
  },
  { name: 'eth_sendTransaction', summary: 'Signs (dev accounts) and submits a transaction.', params: [p('transaction', 'transaction', 'Transaction object: from, to, value, data, gas…')], result: 'Transaction hash.' },
  {
    name: 'eth_fillTransaction', summary: 'Fills what a transaction request leaves out (nonce, gas, fees, type, chain id) as eth_sendTransaction would, without signing or sending it; any sender (default: the first dev account). What viem\'s prepareTransactionRequest asks first.',
    params: [p('transaction', 'transaction', 'Transaction object: from, to, value, data, gas…')],
    result: '{ raw, tx }: the encoding with an empty signature (r = s = 0), and the transaction object (hash = keccak256(raw)).',
  },
  { name: 'eth_sign', summary: 'EIP-191 personal message signature by a dev account.', params: [p('address', 'address', 'Signer'), p('message', 'message', 'Message: hex bytes, or text signed as UTF-8')], result: '65-byte signature.' },
  {
    name: 'personal_sign', summary: 'EIP-191 personal message signature by a dev account.',
    params: [p('message', 'message', 'Message: hex bytes, or text signed as UTF-8'), p('address', 'address', 'Signer'), p('password', 'any', 'Ignored', false)],
    result: '65-byte signature.',
  },
  {
    name: 'eth_signTypedData_v4', summary: 'EIP-712 signature by a dev account (how a payer signs an EIP-3009 authorization).',
    params: [p('address', 'address', 'Signer: must equal the authorization\'s `from`'), p('typedData', 'typedData', 'EIP-712 payload {types, primaryType, domain, message}, as an object or a JSON string')],
    result: '65-byte signature r ‖ s ‖ v.',
  },
  { name: 'eth_getTransactionByHash', summary: 'A transaction by hash (also queued and pre-confirmed ones).', params: [p('hash', 'hash', '32-byte transaction hash')], result: 'Transaction object, or null.' },
  { name: 'eth_getTransactionReceipt', summary: 'A receipt by transaction hash (also for pre-confirmed transactions).', params: [p('hash', 'hash', '32-byte transaction hash')], result: 'Receipt object, or null.' },
  {
    name: 'eth_getTransactionByBlockNumberAndIndex', summary: 'A transaction by block and index.',
    params: [p('block', 'block', SEED_BLOCK_DOC), p('index', 'quantity', 'Index in the block')],
    result: 'Transaction object, or null (also for a block above the head).',
  },
  {
    name: 'eth_getTransactionByBlockHashAndIndex', summary: 'A transaction by block hash and index.',
    params: [p('blockHash', 'hash', '32-byte block hash'), p('index', 'quantity', 'Index in the block')],
    result: 'Transaction object, or null.',
  },
  // Polling filters (docs/anvil-drop-in.md, "Polling filters").
  {
    name: 'eth_newFilter', summary: 'Installs a log filter to poll with eth_getFilterChanges. With `toBlock: "pending"` each log is reported once, as soon as a flashblock pre-confirms it.',
    params: [p('filter', 'filter', 'Filter object: fromBlock, toBlock, address, topics (as eth_getLogs).')],
    result: 'Filter id (hex).',
    notes: ['A filter not polled for 5 minutes is removed. At most `--max-filters` (1,000) filters at once: -32005 above.'],
  },
  none('eth_newBlockFilter', 'Installs a filter reporting the hash of each sealed block.', 'Filter id (hex).'),
  none('eth_newPendingTransactionFilter', 'Installs a filter reporting the hash of each transaction entering the pool.', 'Filter id (hex).'),
  { name: 'eth_getFilterChanges', summary: 'What a filter saw since its last poll: logs (dropped ones again with `removed: true`), block hashes or transaction hashes.', params: [p('id', 'any', 'Filter id')], result: 'Array of logs or hashes; -32000 `filter not found` for an unknown or expired id.' },
  { name: 'eth_getFilterLogs', summary: 'Every log a log filter covers now (as eth_getLogs with its filter).', params: [p('id', 'any', 'Log filter id')], result: 'Array of logs; -32000 `filter not found`.' },
  { name: 'eth_uninstallFilter', summary: 'Removes a filter.', params: [p('id', 'any', 'Filter id')], result: 'true when it existed.' },
  // Control methods (mock node; Anvil's names where Anvil has one).
  { control: true, name: 'evm_mine', summary: 'Mines blocks now: no param, a count, or {blocks, timestamp}.', params: [p('blocks', 'any', 'Count (integer) or {blocks, timestamp}', false)], result: '0x0' },
  { control: true, name: 'evm_increaseTime', summary: 'Moves the clock forward.', params: [p('seconds', 'integer', 'Seconds (integer or hex)')], result: 'Total offset (seconds).' },
  { control: true, name: 'evm_setNextBlockTimestamp', summary: 'Sets the next block\'s timestamp.', params: [p('timestamp', 'integer', 'Unix seconds, above the latest block\'s')], result: 'null' },
  control(none('evm_snapshot', 'Takes a snapshot of the chain.', 'Snapshot id (hex).')),
  { control: true, name: 'evm_revert', summary: 'Reverts to a snapshot.', params: [p('id', 'integer', 'Snapshot id')], result: 'Boolean.' },
  { control: true, name: 'anvil_setBalance', summary: "Sets an account's ETH balance (on top of pending).", params: [p('address', 'address', 'Account'), p('balance', 'integer', 'Wei')], result: 'null' },
  { control: true, name: 'anvil_impersonateAccount', summary: 'eth_sendTransaction sends for this account without its key, with Anvil\'s fixed signature (r = s = 0). eth_sendRawTransaction is never affected.', params: [p('address', 'address', 'Account to send for')], result: 'null' },
  { control: true, name: 'anvil_stopImpersonatingAccount', summary: 'Ends anvil_impersonateAccount for this account.', params: [p('address', 'address', 'Account')], result: 'null' },
  { control: true, name: 'anvil_autoImpersonateAccount', summary: 'With true, eth_sendTransaction sends for any account without its key (Anvil\'s fixed signature).', params: [p('enabled', 'boolean', 'true to impersonate every sender')], result: 'null' },
  {
    control: true, name: 'anvil_setStorageAt', summary: 'Writes one storage slot of an account (on top of pending; the state root follows).',
    params: [p('address', 'address', 'Account'), p('slot', 'slot', 'Storage slot as a hex integer'), p('value', 'hash', 'The new value: a 32-byte hex word')], result: 'true',
  },
  { control: true, name: 'anvil_setNonce', summary: "Sets an account's nonce (on top of pending).", params: [p('address', 'address', 'Account'), p('nonce', 'amount', 'Nonce: hex quantity, decimal string or number (above 2^64 - 1 sets 2^64 - 1, as Anvil)')], result: 'null' },
  { control: true, name: 'anvil_setCode', summary: "Sets an account's code (on top of pending): served by eth_getCode, counted in the state root, and run by the EVM when called.", params: [p('address', 'address', 'Account'), p('code', 'data', 'Runtime code, 0x-prefixed hex bytes')], result: 'null' },
  control(none('mock_flashblock', 'Cuts one flashblock now (manual mode).', '{ number, index, transactions, gasUsed }')),
  { control: true, name: 'mock_reorg', summary: 'Replaces the last `depth` blocks.', params: [p('depth', 'integer', 'Blocks to replace'), p('options', 'any', 'Options', false)], result: 'Reorg summary.' },
  { control: true, name: 'mock_mint', summary: 'Mints the built-in token (no event).', params: [p('to', 'address', 'Recipient'), p('amount', 'amount', 'Base units (6 decimals): integer, decimal string or hex')], result: 'true' },
  { control: true, name: 'mock_setPaused', summary: 'Pauses or unpauses the built-in token.', params: [p('paused', 'boolean', 'true to pause')], result: 'true' },
  { control: true, name: 'mock_setBlocked', summary: 'Sets or clears an account\'s blocklist flag on the built-in token.', params: [p('account', 'address', 'Account'), p('blocked', 'boolean', 'true to block')], result: 'true' },
  { control: true, name: 'mock_setFaults', summary: 'Injects latency, HTTP 429/503 shares and per-method timeouts; no param or {} clears them.', params: [p('faults', 'any', 'Fault rules (see the README)', false)], result: 'The rules in force.' },
  control(none('mock_getFaults', 'The injected fault rules in force.', 'Fault rules.')),
  control(none('mock_dumpState', 'Writes the state file now (--state).', 'The file written.')),
  { control: true, name: 'mock_loadState', summary: 'Loads a state file.', params: [p('file', 'any', 'State file')], result: 'true' },
  // The pool (geth's txpool namespace, as Anvil answers it) and mining controls (Anvil's names).
  none('txpool_status', 'How many transactions wait in the pool: `pending` (pre-confirmed in the pending block, or next in nonce order) and `queued` (behind a nonce gap).', '{ pending, queued } (hex counts).'),
  none('txpool_content', 'The transactions in the pool, by sender and nonce, split as txpool_status counts them.', '{ pending: { address: { nonce: transaction } }, queued: {…} }'),
  none('txpool_inspect', 'A one-line summary of each transaction in the pool: `to: value wei + gas gas × price wei`.', '{ pending: { address: { nonce: summary } }, queued: {…} }'),
  { control: true, name: 'anvil_dropTransaction', summary: 'Removes a transaction from the pool (queued, or pre-confirmed: the pending block is built again without it).', params: [p('hash', 'hash', 'Transaction hash')], result: 'The hash removed, or null when it was not in the pool.' },
  control(none('anvil_dropAllTransactions', 'Removes every transaction from the pool (queued and pre-confirmed).', 'null')),
  {
    control: true, name: 'anvil_mine', summary: 'Mines `count` blocks (default 1); with `interval`, the clock moves that many seconds forward before each block.',
    params: [p('count', 'integer', 'Blocks to mine (1 to 10,000; 0 mines none)', false), p('interval', 'integer', 'Seconds between the blocks\' timestamps', false)],
    result: 'null',
  },
  { control: true, name: 'evm_setAutomine', summary: 'Automine on: each accepted transaction seals its own block at once (timers stop). Off: blocks seal only on evm_mine / anvil_mine (or by interval mining, if it is on).', params: [p('enabled', 'boolean', 'true for automine')], result: 'null' },
  control(none('anvil_getAutomine', 'Whether automine is on.', 'Boolean.')),
  { control: true, name: 'evm_setIntervalMining', summary: 'Interval mining: a block seals every `seconds` (flashblocks keep their cadence inside it); 0 turns mining off (only evm_mine / anvil_mine seal).', params: [p('seconds', 'integer', 'Seconds between blocks (Anvil\'s unit; Hardhat takes milliseconds)')], result: 'null' },
  { control: true, name: 'anvil_setNextBlockBaseFeePerGas', summary: 'The base fee of the block being built (the pending block is built again with it); later blocks follow the EIP-1559 rule from it.', params: [p('baseFee', 'integer', 'Wei')], result: 'null' },
  { control: true, name: 'evm_setBlockGasLimit', summary: 'The gas limit of the block being built (built again) and of the next blocks.', params: [p('gasLimit', 'integer', 'Gas (21,000 to 2^63 - 1)')], result: 'true' },
  { control: true, name: 'anvil_setCoinbase', summary: 'The block\'s `miner` (where tips go), for the block being built (built again) and the next ones.', params: [p('address', 'address', 'Coinbase')], result: 'null' },
  { control: true, name: 'anvil_reset', summary: 'Back to genesis (or, on a forked node, to the fork block): blocks, pool, snapshots, clock offsets and the gas limit, coinbase and base fee settings are dropped (the mining mode stays). On a node started with --fork-url, `{ forking: { jsonRpcUrl?, blockNumber? } }` forks again at another block (or another URL of the same chain).', params: [p('options', 'any', 'Absent or null; on a forked node { forking: { jsonRpcUrl?, blockNumber? } }', false)], result: 'null' },
  control(none('anvil_nodeInfo', "The node's chain position and block environment, in Anvil's shape (hardFork `prague`, transactionOrder `fifo`, never forked).", '{ currentBlockNumber, currentBlockTimestamp, currentBlockHash, hardFork, transactionOrder, environment: { baseFee, chainId, gasLimit, gasPrice }, forkConfig }')),
  control(none('anvil_metadata', 'What the node is and where its chain stands (Hardhat\'s metadata shape, as Anvil answers it); `instanceId` changes on anvil_reset.', '{ clientVersion, chainId, instanceId, latestBlockNumber, latestBlockHash, forkedNetwork: null, snapshots: { id: [number, hash] } }')),
  // Over a WebSocket only (the gateway answers them; over HTTP they are -32601).
  { name: 'eth_subscribe', transport: 'websocket', summary: 'Subscribes to newHeads, logs, newPendingTransactions and the flashblock streams.', params: [p('kind', 'any', 'Subscription kind'), p('options', 'any', 'Filter or flag of the kind', false)], result: 'Subscription id.' },
  { name: 'eth_unsubscribe', transport: 'websocket', summary: 'Ends a subscription of this connection.', params: [p('id', 'any', 'Subscription id')], result: 'Boolean.' },
];

/** A second name for a method: the same params and answer, another summary line. */
function alias(name: string, of: string, control = true): MethodSpec {
  const target = PRIMARY_METHODS.find((spec) => spec.name === of);
  if (!target) throw new Error(`alias ${name}: no method ${of}`);
  return { ...target, name, aliasOf: of, control, summary: `${target.summary} Same as \`${of}\`.` };
}

/** Anvil's and Hardhat's other names for methods above. */
const ALIASES: readonly MethodSpec[] = [
  alias('hardhat_mine', 'anvil_mine'),
  alias('anvil_setAutomine', 'evm_setAutomine'),
  alias('hardhat_getAutomine', 'anvil_getAutomine'),
  alias('anvil_setIntervalMining', 'evm_setIntervalMining'),
  alias('hardhat_setNextBlockBaseFeePerGas', 'anvil_setNextBlockBaseFeePerGas'),
  alias('hardhat_setCoinbase', 'anvil_setCoinbase'),
  alias('hardhat_reset', 'anvil_reset'),
  alias('anvil_snapshot', 'evm_snapshot'),
  alias('anvil_revert', 'evm_revert'),
  alias('anvil_increaseTime', 'evm_increaseTime'),
  alias('anvil_setNextBlockTimestamp', 'evm_setNextBlockTimestamp'),
  alias('hardhat_metadata', 'anvil_metadata'),
  alias('hardhat_impersonateAccount', 'anvil_impersonateAccount'),
  alias('hardhat_stopImpersonatingAccount', 'anvil_stopImpersonatingAccount'),
  alias('hardhat_autoImpersonateAccount', 'anvil_autoImpersonateAccount'),
  alias('hardhat_setStorageAt', 'anvil_setStorageAt'),
  alias('hardhat_setNonce', 'anvil_setNonce'),
  alias('hardhat_setCode', 'anvil_setCode'),
  alias('hardhat_setBalance', 'anvil_setBalance'),
  alias('anvil_setBlockGasLimit', 'evm_setBlockGasLimit'),
  alias('hardhat_dropTransaction', 'anvil_dropTransaction'),
  alias('hardhat_dropAllTransactions', 'anvil_dropAllTransactions'),
];

export const METHOD_CATALOG: readonly MethodSpec[] = [...PRIMARY_METHODS, ...ALIASES];

export const CATALOG: ReadonlyMap<string, MethodSpec> = new Map(METHOD_CATALOG.map((m) => [m.name, m]));

export function methodSpec(name: string): MethodSpec | undefined {
  return CATALOG.get(name);
}

export function requiredCount(spec: MethodSpec): number {
  return spec.params.filter((x) => x.required).length;
}
