// How go-ethereum's client decodes JSON-RPC answers (common/hexutil): a quantity (hexutil.Big,
// hexutil.Uint64) must be 0x-prefixed, non-empty, without leading zero digits and at most 256
// bits; data (hexutil.Bytes) must have an even number of digits. A Go program that decodes an
// answer into go-ethereum's types fails on the first value that breaks these rules. Every field
// of every object kind the node answers is classified here, so an unknown field fails the audit
// instead of passing unchecked.

export type FieldKind = 'quantity' | 'data' | 'address' | 'bool' | 'array';

/** The reason go-ethereum would refuse `value` as a quantity, or undefined when it decodes. */
export function quantityProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `not a string: ${JSON.stringify(value)}`;
  if (value === '') return 'empty hex string';
  if (!value.startsWith('0x') && !value.startsWith('0X')) return 'hex string without 0x prefix';
  const digits = value.slice(2);
  if (digits === '') return 'hex string "0x"';
  if (!/^[0-9a-fA-F]+$/.test(digits)) return 'invalid hex string';
  if (digits.length > 1 && digits[0] === '0') return 'hex number with leading zero digits';
  if (digits.length > 64) return 'hex number > 256 bits';
  return undefined;
}

/** The reason go-ethereum would refuse `value` as data (hexutil.Bytes), or undefined. */
export function dataProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `not a string: ${JSON.stringify(value)}`;
  if (!value.startsWith('0x')) return 'hex string without 0x prefix';
  if (!/^0x[0-9a-fA-F]*$/.test(value)) return 'invalid hex string';
  if (value.length % 2 !== 0) return 'hex string of odd length';
  return undefined;
}

const q = 'quantity' as const;
const d = 'data' as const;
const a = 'address' as const;

/** Field kinds per object kind, as go-ethereum's RPC types declare them. */
export const FIELDS: Record<string, Record<string, FieldKind>> = {
  block: {
    number: q, hash: d, parentHash: d, nonce: d, sha3Uncles: d, logsBloom: d, transactionsRoot: d, stateRoot: d, receiptsRoot: d,
    miner: a, difficulty: q, totalDifficulty: q, mixHash: d, extraData: d, size: q, gasLimit: q, gasUsed: q, timestamp: q,
    transactions: 'array', uncles: 'array', withdrawals: 'array', withdrawalsRoot: d, baseFeePerGas: q, blobGasUsed: q,
    excessBlobGas: q, parentBeaconBlockRoot: d, requestsHash: d,
  },
  transaction: {
    blockHash: d, blockNumber: q, blockTimestamp: q, transactionIndex: q, hash: d, type: q, from: a, to: a, nonce: q, gas: q,
    value: q, input: d, chainId: q, maxFeePerGas: q, maxPriorityFeePerGas: q, gasPrice: q, accessList: 'array', v: q, r: q, s: q,
    yParity: q,
  },
  receipt: {
    transactionHash: d, transactionIndex: q, blockHash: d, blockNumber: q, from: a, to: a, cumulativeGasUsed: q, gasUsed: q,
    effectiveGasPrice: q, contractAddress: a, logs: 'array', logsBloom: d, type: q, status: q,
  },
  log: {
    address: a, topics: 'array', data: d, blockNumber: q, blockHash: d, blockTimestamp: q, transactionHash: d, transactionIndex: q,
    logIndex: q, removed: 'bool',
  },
  accessListEntry: { address: a, storageKeys: 'array' },
  withdrawal: { index: q, validatorIndex: q, address: a, amount: q },
  feeHistory: { oldestBlock: q, baseFeePerGas: 'array', gasUsedRatio: 'array', baseFeePerBlobGas: 'array', blobGasUsedRatio: 'array', reward: 'array' },
};

/** What a method answers: an object kind, a list of one, a scalar kind, or something not audited here. */
export const RESULTS: Record<string, string> = {
  eth_getBlockByNumber: 'block', eth_getBlockByHash: 'block', eth_getBlockReceipts: 'receipt[]', eth_getTransactionByHash: 'transaction',
  eth_getTransactionByBlockNumberAndIndex: 'transaction', eth_getTransactionByBlockHashAndIndex: 'transaction',
  eth_getTransactionReceipt: 'receipt', eth_getLogs: 'log[]', eth_feeHistory: 'feeHistory',
  eth_getBlockTransactionCountByNumber: q, eth_getBlockTransactionCountByHash: q, eth_getUncleCountByBlockNumber: q,
  eth_getUncleCountByBlockHash: q, eth_getBalance: q, eth_getTransactionCount: q, eth_estimateGas: q, eth_chainId: q,
  eth_blockNumber: q, eth_gasPrice: q, eth_maxPriorityFeePerGas: q, eth_getCode: d, eth_call: d, eth_getStorageAt: d,
  eth_accounts: 'address[]', net_version: 'decimal', eth_sendRawTransaction: d, eth_sendTransaction: d,
};

/** Notification kinds and what they carry. */
export const NOTIFICATIONS: Record<string, string> = {
  newHeads: 'block', logs: 'log', newPendingTransactions: 'transaction', pendingLogs: 'log', newFlashblocks: 'block',
  newFlashblockTransactions: 'flashblockTransaction',
};

export interface Audit {
  /** Quantities checked. */
  quantities: number;
  /** Every value go-ethereum would refuse, with where it is. */
  problems: string[];
}

export function newAudit(): Audit {
  return { quantities: 0, problems: [] };
}

/** Checks one value of a declared kind (`block`, `receipt[]`, `quantity` ...) at `path`. */
export function auditValue(audit: Audit, kind: string, value: unknown, path: string): void {
  if (value === null) return; // a null is decoded as a nil pointer
  if (kind.endsWith('[]')) {
    if (!Array.isArray(value)) return void audit.problems.push(`${path}: not an array`);
    value.forEach((item, i) => auditValue(audit, kind.slice(0, -2), item, `${path}[${i}]`));
    return;
  }
  switch (kind) {
    case 'quantity': {
      audit.quantities++;
      const problem = quantityProblem(value);
      if (problem) audit.problems.push(`${path} = ${JSON.stringify(value)}: ${problem}`);
      return;
    }
    case 'data': {
      const problem = dataProblem(value);
      if (problem) audit.problems.push(`${path} = ${JSON.stringify(value)}: ${problem}`);
      return;
    }
    case 'address':
      if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) audit.problems.push(`${path} = ${JSON.stringify(value)}: not an address`);
      return;
    case 'decimal':
      if (typeof value !== 'string' || !/^(0|[1-9][0-9]*)$/.test(value)) audit.problems.push(`${path} = ${JSON.stringify(value)}: not a decimal string`);
      return;
    case 'flashblockTransaction':
      return auditObject(audit, { ...FIELDS.transaction, ...FIELDS.receipt }, value, path);
    default:
      return auditObject(audit, FIELDS[kind], value, path);
  }
}

/** Elements of the array fields. */
const ELEMENTS: Record<string, string> = {
  topics: 'data', storageKeys: 'data', uncles: 'data', withdrawals: 'withdrawal', accessList: 'accessListEntry', logs: 'log',
  baseFeePerGas: 'quantity', baseFeePerBlobGas: 'quantity', reward: 'quantity[]', gasUsedRatio: 'number', blobGasUsedRatio: 'number',
};

function auditObject(audit: Audit, fields: Record<string, FieldKind> | undefined, value: unknown, path: string): void {
  if (!fields) return void audit.problems.push(`${path}: no field list for this kind`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return void audit.problems.push(`${path}: not an object`);
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const kind = fields[key];
    const where = `${path}.${key}`;
    if (!kind) {
      audit.problems.push(`${where}: a field go-ethereum's types do not have`);
    } else if (kind === 'array') {
      if (!Array.isArray(field)) {
        audit.problems.push(`${where}: not an array`);
        continue;
      }
      const element = key === 'transactions' ? (field.every((t) => typeof t === 'string') ? 'data' : 'transaction') : ELEMENTS[key];
      if (element === 'number') continue;
      field.forEach((item, i) => auditValue(audit, element, item, `${where}[${i}]`));
    } else if (kind === 'bool') {
      if (typeof field !== 'boolean') audit.problems.push(`${where}: not a boolean`);
    } else {
      auditValue(audit, kind, field, where);
    }
  }
}
